""".ci/pi_platforms.py, the check that every Raspberry Pi dependency resolves for the
Pi's platforms, run against a local package index (a directory of wheels) so that it can
be seen to fail: a dependency with no ARM wheel, a marker meant for the Pi."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

# .ci/run's own check, run by it in the full tier: each case starts pip several times
pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / ".ci" / "pi_platforms.py"


def wheel(index: Path, name: str, tag: str) -> None:
    dist_info = f"{name}-1.0.dist-info"
    with zipfile.ZipFile(index / f"{name}-1.0-{tag}.whl", "w") as archive:
        archive.writestr(
            f"{dist_info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
        )
        archive.writestr(f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nTag: {tag}\n")
        archive.writestr(f"{dist_info}/RECORD", "")


def check(tmp_path: Path, dependencies: list[str], extras: str) -> subprocess.CompletedProcess[str]:
    index = tmp_path / "index"
    index.mkdir(exist_ok=True)
    wheel(index, "pureok", "py3-none-any")
    wheel(index, "onlyx86", "py3-none-manylinux2014_x86_64")
    wheel(index, "armonly", "py3-none-manylinux_2_28_aarch64")
    wheel(index, "newglibc", "py3-none-manylinux_2_39_aarch64")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        f'[project]\nname = "demo"\ndependencies = {dependencies!r}\n'
        f"[project.optional-dependencies]\n{extras}\n"
    )
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(index))
    return subprocess.run(
        [sys.executable, str(CHECK), str(pyproject)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_pure_python_dependencies_resolve_everywhere(tmp_path: Path) -> None:
    result = check(tmp_path, ["pureok"], 'spi = ["pureok==1.0"]\npi5 = []')
    assert result.returncode == 0, result.stderr
    for release in ("CPython 3.13 (trixie)", "CPython 3.11 (bookworm)"):
        for arch in ("aarch64", "armv7l"):
            assert f"linux_{arch}, {release}, spi: every package resolves, none from source" in result.stdout
            assert f"linux_{arch}, {release}, pi5: every package resolves" in result.stdout


def test_a_dependency_without_an_arm_wheel_fails_loudly(tmp_path: Path) -> None:
    result = check(tmp_path, ["pureok"], 'spi = ["demo[pwm]"]\npwm = ["onlyx86==1.0"]\npi5 = []')
    assert result.returncode == 1
    assert "FAILED linux_aarch64 trixie spi: onlyx86==1.0 has no wheel for CPython 3.13" in result.stderr
    assert "FAILED linux_armv7l bookworm spi: onlyx86==1.0 has no wheel" in result.stderr
    assert "FAILED linux_aarch64 trixie pi5" not in result.stderr
    assert "do not all resolve" in result.stderr


def test_a_wheel_for_a_newer_glibc_does_not_count_on_bookworm(tmp_path: Path) -> None:
    # manylinux_2_39 runs on Trixie's glibc 2.41, not on Bookworm's 2.36
    result = check(tmp_path, [], "spi = []\npi5 = [\"newglibc==1.0; platform_machine == 'aarch64'\"]")
    assert result.returncode == 1
    assert "linux_aarch64, CPython 3.13 (trixie), pi5: every package resolves" in result.stdout
    assert "FAILED linux_aarch64 bookworm pi5: newglibc==1.0 has no wheel" in result.stderr


def test_markers_are_read_for_the_pi_not_for_this_machine(tmp_path: Path) -> None:
    extras = "spi = [\"armonly==1.0; platform_machine == 'aarch64'\"]\npi5 = []"
    result = check(tmp_path, [], extras)
    assert result.returncode == 0, result.stderr
    assert "linux_aarch64, CPython 3.13 (trixie), spi: every package resolves, none from source (1 wheels" in result.stdout
    assert "linux_armv7l, CPython 3.13 (trixie), spi: every package resolves, none from source (0 wheels" in result.stdout
    extras = "spi = [\"onlyx86==1.0; platform_machine == 'aarch64'\"]\npi5 = []"
    result = check(tmp_path, [], extras)
    assert result.returncode == 1
    assert "FAILED linux_aarch64 trixie spi: onlyx86==1.0" in result.stderr
    assert "FAILED linux_armv7l" not in result.stderr


def test_the_system_s_package_stands_in_only_where_the_release_has_it(tmp_path: Path) -> None:
    # Trixie's python3-sysv-ipc is 1.1.0; asking for more is a source build, refused
    result = check(tmp_path, [], "spi = [\"sysv-ipc>=1.1; platform_machine == 'armv7l'\"]\npi5 = []")
    assert "sysv-ipc 1.1.0 from the system's python3-sysv-ipc" in result.stdout
    result = check(tmp_path, [], "spi = [\"sysv-ipc>=1.5; platform_machine == 'armv7l'\"]\npi5 = []")
    assert "FAILED linux_armv7l trixie spi: sysv-ipc>=1.5 has no wheel" in result.stderr
