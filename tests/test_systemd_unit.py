"""The Raspberry Pi service: the install script stages a real install in a temporary
directory, and `systemd-analyze verify` checks the unit it wrote, executable and all.

systemd-analyze comes with Debian's systemd package (.ci/run installs it). Off CI a
machine without it skips these tests; on CI (CI=true) a missing tool is a failure.
"""

from __future__ import annotations

import configparser
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.config import load_config

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "clacks.service"
INSTALL = ROOT / "systemd" / "install.sh"


def systemd_analyze() -> str:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is missing on CI: .ci/run must install Debian's systemd")
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    return tool


def verify(unit_dir: Path, unit: str = "clacks.service") -> subprocess.CompletedProcess[str]:
    """systemd-analyze verify, with the unit (and its drop-ins) found in ``unit_dir``."""
    env = dict(os.environ, SYSTEMD_UNIT_PATH=f"{unit_dir}:")
    return subprocess.run(
        [systemd_analyze(), "verify", unit],
        capture_output=True,
        text=True,
        env=env,
        cwd=unit_dir,
        timeout=60,
    )


def install_args(root: Path, led: str | None = "pwm") -> list[str]:
    return [
        "bash",
        str(INSTALL),
        "--no-system",
        "--no-pi-extra",
        *(["--led", led] if led else []),
        "--prefix",
        str(root / "opt" / "clacks"),
        "--config-dir",
        str(root / "etc" / "clacks"),
        "--unit-dir",
        str(root / "units"),
        "--boot-config",
        str(root / "boot" / "config.txt"),
        "--udev-dir",
        str(root / "etc" / "udev" / "rules.d"),
        "--pio-device",
        str(root / "dev" / "pio0"),
        "--model-file",
        str(root / "model"),
    ]


def checkout_entries() -> dict[str, tuple[int, int]]:
    """What the checkout holds outside its tracked files (build output, caches), with each
    entry's owner and modification time: an install must add or touch none of it."""
    listed = subprocess.run(
        ["git", "status", "--porcelain", "-z", "--ignored"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    entries: dict[str, tuple[int, int]] = {}
    for line in filter(None, listed.split("\0")):
        name = line[3:]
        if name.split("/", 1)[0] in {".venv", ".pytest_cache", ".hypothesis", ".mypy_cache"}:
            continue  # the test run's own environment and caches
        if "__pycache__" in name or name.startswith(".ruff_cache"):
            continue  # the tests' own imports
        info = (ROOT / name).lstat()
        entries[name] = (info.st_uid, info.st_mtime_ns)
    return entries


@pytest.fixture(scope="module")
def checkout_before() -> dict[str, tuple[int, int]]:
    return checkout_entries()


# The tests of the staged install are marked slow: install.sh makes a virtual environment
# and installs the companion into it, a minute or more on its own.
@pytest.fixture(scope="module")
def staged(
    tmp_path_factory: pytest.TempPathFactory, checkout_before: dict[str, tuple[int, int]]
) -> Path:
    """The project installed by systemd/install.sh into a temporary tree, standing in for
    a Raspberry Pi 5 whose kernel made /dev/pio0 root's only."""
    systemd_analyze()
    root = tmp_path_factory.mktemp("install")
    (root / "boot").mkdir()
    (root / "boot" / "config.txt").write_text("# Enable audio\ndtparam=audio=on\n\n[all]\n")
    (root / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    (root / "dev").mkdir()
    (root / "dev" / "pio0").write_bytes(b"")
    (root / "dev" / "pio0").chmod(0o600)
    result = subprocess.run(install_args(root), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return root


def snapshot(root: Path) -> dict[str, tuple[object, ...]]:
    """Every file, directory and link under ``root``: kind, mode, times and contents."""
    seen: dict[str, tuple[object, ...]] = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        name = str(path.relative_to(root))
        if path.is_symlink():
            seen[name] = ("link", os.readlink(path))
        elif path.is_dir():
            seen[name] = ("dir", info.st_mode)
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            seen[name] = ("file", info.st_mode, info.st_mtime_ns, digest)
    return seen


@pytest.mark.slow
def test_the_staged_unit_passes_systemd_analyze_verify(staged: Path) -> None:
    unit = (staged / "units" / "clacks.service").read_text()
    executable = staged / "opt" / "clacks" / "venv" / "bin" / "clacks"
    assert f"ExecStart={executable} serve" in unit
    assert f"CLACKS_CONFIG={staged}/etc/clacks/config.toml" in unit
    result = verify(staged / "units")
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""  # not even a warning


@pytest.mark.slow
def test_the_installed_program_runs_and_reads_the_written_settings(staged: Path) -> None:
    config = load_config(staged / "etc" / "clacks" / "config.toml")
    assert config.leds.backend == "pwm"
    assert config.buttons.backend == "auto"
    executable = staged / "opt" / "clacks" / "venv" / "bin" / "clacks"
    env = dict(os.environ, CLACKS_CONFIG=str(staged / "etc" / "clacks" / "config.toml"))
    result = subprocess.run(
        [str(executable), "hardware", "power"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "limiter cap" in result.stdout
    # the venv sees the system's packages (python3-lgpio on Raspberry Pi OS, for the
    # ARMv6 boards PyPI's lgpio has no build for)
    cfg = (staged / "opt" / "clacks" / "venv" / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg


@pytest.mark.slow
def test_the_pwm_drop_in_is_installed_and_verifies(staged: Path) -> None:
    drop_in = staged / "units" / "clacks.service.d" / "pwm.conf"
    assert "User=root" in drop_in.read_text()
    result = verify(staged / "units")
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.slow
def test_the_pwm_install_turns_the_onboard_audio_off(staged: Path) -> None:
    # rpi_ws281x drives GPIO18 from the PWM block the analogue audio uses
    lines = (staged / "boot" / "config.txt").read_text().splitlines()
    assert "dtparam=audio=off" in lines and "dtparam=audio=on" not in lines
    assert "dtparam=spi=on" not in lines


@pytest.mark.slow
def test_the_pi5_pio_goes_to_the_gpio_group(staged: Path) -> None:
    rule = staged / "etc" / "udev" / "rules.d" / "99-clacks-pio.rules"
    lines = [line for line in rule.read_text().splitlines() if not line.startswith("#")]
    assert lines == ['SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"']


@pytest.mark.slow
def test_installing_again_changes_nothing(
    staged: Path, checkout_before: dict[str, tuple[int, int]]
) -> None:
    before = snapshot(staged)
    assert any(name.endswith("99-clacks-pio.rules") for name in before)
    assert any(name.endswith(".clacks-installed") for name in before)
    result = subprocess.run(install_args(staged), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert snapshot(staged) == before
    assert "is up to date" in result.stderr and "keeping" in result.stderr
    assert "all is up to date: nothing was installed or written" in result.stderr
    assert checkout_entries() == checkout_before  # no build/, no egg-info written or touched


def test_verify_fails_when_the_executable_is_missing(tmp_path: Path) -> None:
    text = UNIT.read_text().replace("/opt/clacks", str(tmp_path / "nowhere"))
    (tmp_path / "clacks.service").write_text(text)
    result = verify(tmp_path)
    assert result.returncode != 0
    assert "is not executable" in result.stderr


@pytest.mark.slow
def test_verify_reports_a_broken_setting(staged: Path, tmp_path: Path) -> None:
    text = (staged / "units" / "clacks.service").read_text()
    (tmp_path / "clacks.service").write_text(
        text.replace("DeviceAllow=char-spi rw", "DeviceAllow=char-spi rwx")
    )
    result = verify(tmp_path)
    assert "Invalid device rights" in result.stderr


def test_the_unit_keeps_the_promises_the_hardware_needs() -> None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    # configparser keeps only the last of a repeated key, so DeviceAllow is read from lines
    parser.read_string(UNIT.read_text())
    service = parser["Service"]
    lines = UNIT.read_text().splitlines()
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "clacks"
    assert service["WorkingDirectory"] == "/var/lib/clacks"
    environment = {
        line.split("=", 1)[1].split("=", 1)[0]: line.split("=", 2)[2]
        for line in lines
        if line.startswith("Environment=")
    }
    # Blinka never stops to ask; lgpio's pipes go to the writable runtime directory
    assert environment["BLINKA_SKIP_DEPENDENCY_CHECK"] == "1"
    assert service["RuntimeDirectory"] == "clacks"
    assert environment["LG_WD"] == "/run/clacks"
    assert service["User"] == "clacks"
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "spi"}
    for key in ("NoNewPrivileges", "PrivateTmp", "ProtectHome"):
        assert service[key] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["DevicePolicy"] == "closed"
    allowed = {line.split("=", 1)[1] for line in lines if line.startswith("DeviceAllow=")}
    assert {"char-gpiochip rw", "char-spi rw"} <= allowed
    # the Pi 5's PIO by its driver's class: a path systemd cannot stat on a Pi 3, 4 or
    # Zero (or that appears after the start) would be left out of the policy
    assert "char-rp1-pio rw" in allowed
    assert not [rule for rule in allowed if rule.startswith("/dev/pio")]
    assert "PrivateDevices=yes" not in lines  # would hide /dev/gpiochip* and /dev/spidev*
    assert parser["Install"]["WantedBy"] == "multi-user.target"


def test_install_script_refuses_bad_options() -> None:
    bad = subprocess.run(["bash", str(INSTALL), "--led", "laser"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--led must be" in bad.stderr
    relative = subprocess.run(
        ["bash", str(INSTALL), "--no-system", "--prefix", "opt"], capture_output=True, text=True
    )
    assert relative.returncode == 2 and "must be an absolute path" in relative.stderr
    boot = subprocess.run(
        ["bash", str(INSTALL), "--no-system", "--boot-config", "config.txt"],
        capture_output=True,
        text=True,
    )
    assert boot.returncode == 2 and "must be an absolute path" in boot.stderr
    unknown = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True)
    assert unknown.returncode == 2 and "unknown option" in unknown.stderr


@pytest.mark.slow  # each installs again into a staged root
def test_installing_again_without_led_keeps_the_configured_driver(
    staged: Path, tmp_path: Path
) -> None:
    root = tmp_path / "again"
    shutil.copytree(staged, root, symlinks=True)
    # the venv's scripts name the staged prefix: install afresh, with pwm, then again bare
    shutil.rmtree(root / "opt")
    first = subprocess.run(install_args(root), capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    again = subprocess.run(install_args(root, None), capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "stays the one" in again.stderr and "pwm" in again.stderr
    assert load_config(root / "etc" / "clacks" / "config.toml").leds.backend == "pwm"
    assert (root / "units" / "clacks.service.d" / "pwm.conf").exists()
    lines = (root / "boot" / "config.txt").read_text().splitlines()
    assert "dtparam=audio=off" in lines and "dtparam=spi=on" not in lines


@pytest.mark.slow  # each installs again into a staged root
def test_installing_with_another_led_rewrites_the_setting(staged: Path, tmp_path: Path) -> None:
    root = tmp_path / "switch"
    shutil.copytree(staged, root, symlinks=True)
    shutil.rmtree(root / "opt")
    config = root / "etc" / "clacks" / "config.toml"
    config.write_text(config.read_text().replace('backend = "pwm"', 'backend = "auto"'))
    result = subprocess.run(install_args(root), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert 'set leds.backend = "pwm"' in result.stderr
    assert load_config(config).leds.backend == "pwm"
    spi = subprocess.run(install_args(root, "spi"), capture_output=True, text=True, timeout=600)
    assert spi.returncode == 0, spi.stderr
    assert load_config(config).leds.backend == "spi"
    assert not (root / "units" / "clacks.service.d" / "pwm.conf").exists()
