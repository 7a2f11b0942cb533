"""`clacks hotspot on` as an owner over SSH meets it: the network and how to get back in
printed before the radio switches, a question (or a refusal without --yes) when the SSH
session arrives over the Wi-Fi the hotspot takes, the password on no command line, and
under sudo the owner's own files. Against a fake `nmcli`, `iw` and `ip` first on PATH."""

from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from fake_nmcli import FakeNetworkManager, install

from clacks.cli import main
from clacks.sudo_owner import Owner, acting_as
from firmware import hotspot as hotspot_module
from firmware.hotspot import CONNECTION, load_settings

ROOT = Path(__file__).resolve().parent.parent
SSH_OVER_WIFI = "192.168.1.50 51234 192.168.1.20 22"
OWNER_UID = 4242
SERVICE_UID = 4343  # the installed service's own user


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeNetworkManager:
    return install(tmp_path / "bin", monkeypatch)


@pytest.fixture
def over_wifi(fake: FakeNetworkManager, monkeypatch: pytest.MonkeyPatch) -> FakeNetworkManager:
    """The owner's SSH session arrives over the Wi-Fi that the hotspot takes."""
    monkeypatch.setenv("SSH_CONNECTION", SSH_OVER_WIFI)
    fake.change(routes={"192.168.1.50": "wlan0"})
    return fake


class Terminal(io.StringIO):
    """Standard input at a terminal, with the answers typed at it."""

    def isatty(self) -> bool:
        return True


class Watched(io.StringIO):
    """Standard output that notes how many commands had run when each line was written."""

    def __init__(self, fake: FakeNetworkManager) -> None:
        super().__init__()
        self.fake = fake
        self.lines: list[tuple[str, list[list[str]]]] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.lines.append((line, self.fake.calls()))
        return super().write(text)


def on(tmp_path: Path, *arguments: str) -> int:
    return main(["hotspot", "--data-dir", str(tmp_path / "state"), "on", *arguments])


def switched(calls: list[list[str]]) -> bool:
    return any(call[1:3] in (["connection", "up"], ["connection", "load"]) for call in calls)


def test_the_network_and_how_to_get_back_in_are_printed_before_the_radio_switches(
    fake: FakeNetworkManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = Watched(fake)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setenv("SSH_CONNECTION", "192.168.1.50 51234 192.168.1.20 22")  # over eth0
    assert on(tmp_path, "--ssid", "Mended Drum", "--password", "gnuterry") == 0
    before = {line: calls for line, calls in out.lines}
    for line in (
        "  Network:  Mended Drum",
        "  Password: gnuterry",
        'wlan0 then leaves the network it is on. To get back in over Wi-Fi, join "Mended '
        'Drum" with the password above, then: ssh root@10.42.0.1',
        "The box comes back as this network after every restart, until: sudo clacks "
        "hotspot off",
    ):
        assert line in before, out.getvalue()
        assert not switched(before[line]), line
    assert switched(fake.calls())
    assert "Hotspot: on, network 'Mended Drum' on wlan0" in out.getvalue()
    # a session over Ethernet is not asked anything
    assert "SSH session" not in out.getvalue()
    # the address printed is the one the profile gives the box
    assert fake.load()["connections"][CONNECTION]["ipv4.addresses"] == "10.42.0.1/24"


def test_over_ssh_on_the_wifi_it_takes_it_refuses_without_yes_and_changes_nothing(
    over_wifi: FakeNetworkManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no terminal: a script, a pipe
    assert on(tmp_path, "--password", "gnuterry") == 1
    said = capsys.readouterr()
    assert "Password: gnuterry" in said.out
    assert "This SSH session (from 192.168.1.50) arrives over wlan0" in said.out
    assert "run the command again with --yes" in said.err
    assert ["ip", "-o", "route", "get", "192.168.1.50"] in over_wifi.calls()
    assert not switched(over_wifi.calls())
    assert load_settings(tmp_path / "state") is None
    assert not (hotspot_module.NM_CONFIG_DIR / "system-connections").exists()

    # run again with --yes and nothing else: the network printed a moment ago
    assert on(tmp_path, "--yes") == 0
    assert switched(over_wifi.calls())
    profile = over_wifi.load()["connections"][CONNECTION]
    assert profile["active"] is True
    assert profile["802-11-wireless-security.psk"] == "gnuterry"
    kept = load_settings(tmp_path / "state")
    assert kept is not None and kept.password == "gnuterry"
    assert not (tmp_path / "state" / "hotspot-next.json").exists()


def test_a_new_password_printed_but_not_started_is_the_one_started_next(
    over_wifi: FakeNetworkManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    assert on(tmp_path) == 1
    out = capsys.readouterr().out
    printed = out.split("Password: ", 1)[1].split()[0]
    assert "Not started. The next `hotspot on` starts the network above." in out
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert on(tmp_path) == 0
    assert f"Password: {printed}" in capsys.readouterr().out
    assert over_wifi.load()["connections"][CONNECTION]["802-11-wireless-security.psk"] == printed


@pytest.mark.parametrize(("typed", "started"), [("y\n", True), ("\n", False), ("no\n", False)])
def test_at_a_terminal_over_ssh_on_the_wifi_it_asks_first(
    fake: FakeNetworkManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    typed: str,
    started: bool,
) -> None:
    monkeypatch.setenv("SSH_CLIENT", "fe80::1%wlan0 51234 22")  # an older sshd's variable
    fake.change(routes={"fe80::1": "wlan0"})
    monkeypatch.setattr(sys, "stdin", Terminal(typed))
    assert on(tmp_path, "--password", "gnuterry") == (0 if started else 1)
    out = capsys.readouterr().out
    assert out.index("Password: gnuterry") < out.index("Start the hotspot and leave this session?")
    assert switched(fake.calls()) is started
    assert ("Not started." in out) is not started


def test_an_ssh_session_whose_route_cannot_be_read_is_asked_about_too(
    fake: FakeNetworkManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SSH_CONNECTION", SSH_OVER_WIFI)
    fake.change(routes={"192.168.1.50": None})
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert on(tmp_path, "--password", "gnuterry") == 1
    assert "perhaps over wlan0 (its route is unknown)" in capsys.readouterr().out
    assert not switched(fake.calls())


def test_under_sudo_the_ssh_session_is_found_in_the_login_shell(tmp_path: Path) -> None:
    """sudo hands on no SSH_CONNECTION: the shell it was started from still has it."""
    env = {"PATH": os.environ["PATH"], "SSH_CONNECTION": SSH_OVER_WIFI, "PYTHONPATH": str(ROOT)}
    script = (
        "import os; from firmware.ssh_route import ancestor_environments, caller_ssh_client;"
        "print(caller_ssh_client(os.environ, ancestor_environments))"
    )
    shell = f"env -u SSH_CONNECTION {sys.executable} -c '{script}'; true"
    done = subprocess.run(["bash", "-c", shell], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "192.168.1.50", done.stderr
    # and no SSH anywhere up the chain: none
    del env["SSH_CONNECTION"]
    done = subprocess.run(["bash", "-c", shell], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "None", done.stderr


def every_argument(fake: FakeNetworkManager) -> str:
    return "\n".join(" ".join(call) for call in fake.calls())


@pytest.mark.parametrize("password", ["gnu terry pratchett", " \\;#edge case\\ ", None])
def test_the_password_is_on_no_command_line(
    fake: FakeNetworkManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    password: str | None,
) -> None:
    if password is None:
        assert on(tmp_path) == 0  # a new random one
    else:
        monkeypatch.setattr(sys, "stdin", io.StringIO(password + "\n"))
        assert on(tmp_path, "--password") == 0  # typed, or as here one line on stdin
    kept = load_settings(tmp_path / "state")
    assert kept is not None and (password is None or kept.password == password)
    assert kept.password not in every_argument(fake)
    assert "shown by ps" not in capsys.readouterr().err
    # NetworkManager reads it from its keyfile, which only root may read
    keyfile = hotspot_module.NM_CONFIG_DIR / "system-connections" / f"{CONNECTION}.nmconnection"
    assert stat.S_IMODE(keyfile.stat().st_mode) == 0o600
    assert ["nmcli", "connection", "load", str(keyfile)] in fake.calls()
    profile = fake.load()["connections"][CONNECTION]
    assert profile["802-11-wireless-security.psk"] == kept.password
    assert profile["active"] is True

    # changed again: the same profile, its UUID kept, the new password in no argument
    uuid = profile["connection.uuid"]
    assert on(tmp_path, "--ssid", "Čtvrť; \"Bar\"", "--password", "x" * 63) == 0
    profile = fake.load()["connections"][CONNECTION]
    assert profile["connection.uuid"] == uuid
    # given as a value, it works, and the owner is told where it showed
    assert "--password alone asks for it instead" in capsys.readouterr().err
    assert profile["802-11-wireless.ssid"] == 'Čtvrť; "Bar"'
    assert len(fake.load()["connections"]) == 1


def test_without_root_it_says_so_before_printing_asking_or_changing_anything(
    fake: FakeNetworkManager,
    tmp_path: Path,
    owner_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    owner = Owner("terry", OWNER_UID, OWNER_UID, owner_home)
    with acting_as(owner):  # a user's rights, as when run without sudo
        assert main(["hotspot", "--data-dir", str(owner_home / "state"), "on"]) == 1
    said = capsys.readouterr()
    assert "only root may write NetworkManager's settings" in said.err
    assert "run the command with sudo" in said.err
    assert said.out == "" and fake.calls() == []
    assert load_settings(owner_home / "state") is None


def test_a_keyfile_network_manager_would_refuse_is_reported(
    fake: FakeNetworkManager, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """nmcli connection load says "Could not load file" and exits with 0 (nmcli(1))."""
    folder = hotspot_module.NM_CONFIG_DIR / "system-connections"
    folder.mkdir(parents=True)
    os.chmod(folder, 0o700)
    real_replace = os.replace

    def loosened(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        real_replace(source, target)
        if str(target).endswith(".nmconnection"):
            os.chmod(target, 0o644)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "replace", loosened)
        assert on(tmp_path, "--password", "gnuterry") == 1
    err = capsys.readouterr().err
    assert "NetworkManager did not take the hotspot's settings" in err
    assert not any(call[1:3] == ["connection", "up"] for call in fake.calls())
    assert load_settings(tmp_path / "state") is None


def test_a_profile_of_the_same_name_elsewhere_is_replaced_not_doubled(
    fake: FakeNetworkManager, tmp_path: Path
) -> None:
    fake.change(
        connections={
            CONNECTION: {
                "connection.uuid": "0b7e9a34-1d55-4b6c-9f61-1c9e2a4d8e70",
                "filename": "/etc/NetworkManager/system-connections/old.nmconnection",
                "802-11-wireless.ssid": "Old",
            }
        }
    )
    assert on(tmp_path, "--password", "gnuterry") == 0
    assert ["nmcli", "connection", "delete", "uuid", "0b7e9a34-1d55-4b6c-9f61-1c9e2a4d8e70"] in (
        fake.calls()
    )
    profiles = fake.load()["connections"]
    assert list(profiles) == [CONNECTION]
    assert profiles[CONNECTION]["connection.uuid"] != "0b7e9a34-1d55-4b6c-9f61-1c9e2a4d8e70"


def test_the_box_dns_answers_the_connectivity_checks_while_the_hotspot_is_on(
    fake: FakeNetworkManager, tmp_path: Path
) -> None:
    answers = hotspot_module.NM_CONFIG_DIR / "dnsmasq-shared.d" / "clacks-hotspot.conf"
    assert on(tmp_path, "--password", "gnuterry") == 0
    lines = answers.read_text().splitlines()
    for name in ("connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com"):
        assert f"address=/{name}/10.42.0.1" in lines
    assert "address=/dns.msftncsi.com/131.107.255.255" in lines
    assert main(["hotspot", "--data-dir", str(tmp_path / "state"), "off"]) == 0
    assert not answers.exists()


@pytest.fixture
def owner_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user's home, theirs, where any user can reach it (not under root's 0700 temp)."""
    if os.geteuid() != 0:
        pytest.skip("changing a file's owner needs root")
    home = Path(tempfile.mkdtemp(prefix="clacks-owner-", dir="/tmp"))
    os.chmod(home, 0o755)
    os.chown(home, OWNER_UID, OWNER_UID)
    account = SimpleNamespace(pw_name="terry", pw_uid=OWNER_UID, pw_gid=OWNER_UID,
                              pw_dir=str(home))  # fmt: skip
    monkeypatch.setattr("clacks.sudo_owner.pwd", SimpleNamespace(getpwuid=lambda uid: account))
    yield home
    shutil.rmtree(home)


def run_by_sudo_from_terry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment sudo gives a command that terry ran with it."""
    monkeypatch.setenv("SUDO_USER", "terry")
    monkeypatch.setenv("SUDO_UID", str(OWNER_UID))
    monkeypatch.setenv("SUDO_GID", str(OWNER_UID))


def test_under_sudo_the_settings_go_to_the_users_state_directory_as_theirs(
    fake: FakeNetworkManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    owner_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root_home = tmp_path / "root-home"
    monkeypatch.setenv("HOME", str(root_home))  # sudo's, root's own
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    run_by_sudo_from_terry(monkeypatch)
    assert main(["hotspot", "on", "--password", "gnuterry"]) == 0
    state = owner_home / ".local" / "state" / "clacks"
    kept = load_settings(state)
    assert kept is not None and kept.password == "gnuterry"
    assert "ssh terry@10.42.0.1" in capsys.readouterr().out
    written = [owner_home, *owner_home.rglob("*")]
    assert [p for p in written if p.stat().st_uid != OWNER_UID] == []
    assert stat.S_IMODE((state / "hotspot.json").stat().st_mode) == 0o600
    assert not root_home.exists()
    assert os.geteuid() == 0 and os.getegid() == 0  # root again afterwards

    # a failed switch puts the earlier settings back, as the user's
    fake.change(activation_fails=True)
    assert main(["hotspot", "on", "--password", "other-password"]) == 1
    kept = load_settings(state)
    assert kept is not None and kept.password == "gnuterry"
    assert (state / "hotspot.json").stat().st_uid == OWNER_UID
    # and the one printed is tried again by the next `on`
    fake.change(activation_fails=False)
    assert main(["hotspot", "on"]) == 0
    kept = load_settings(state)
    assert kept is not None and kept.password == "other-password"
    assert [p for p in [owner_home, *owner_home.rglob("*")] if p.stat().st_uid != OWNER_UID] == []


FAKE_PYTHON = """#!/bin/sh
echo "python $(id -u) $*" >> "$LOG"
case "$*" in *"pip install"*" -e "*) mkdir -p clacks_exchange.egg-info ;; esac
exit 0
"""
FAKE_CLACKS = """#!/bin/sh
echo "clacks $(id -u) ${PYTHONDONTWRITEBYTECODE:-} $*" >> "$LOG"
"""


def made_for_this_machine() -> str:
    """The line `run` records for the system's python3, as its made_for() prints it."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    assert python is not None
    script = "import platform, sys; print(platform.machine(), sys.version.split()[0], sys.executable)"
    return subprocess.run([python, "-c", script], capture_output=True, text=True, check=True).stdout.strip()


def test_sudo_run_sets_up_as_the_checkouts_owner_and_leaves_nothing_of_roots(
    owner_home: Path,
) -> None:
    checkout = owner_home / "clacks"
    (checkout / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(ROOT / "run", checkout / "run")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    for name, text in (("python", FAKE_PYTHON), ("clacks", FAKE_CLACKS)):
        (checkout / ".venv" / "bin" / name).write_text(text)
        (checkout / ".venv" / "bin" / name).chmod(0o755)
    # a venv made for this machine and Python (`run` makes any other again, for real),
    # older than pyproject.toml, so that `run` installs into it
    stamp = checkout / ".venv" / ".clacks-installed"
    stamp.write_text(f"{made_for_this_machine()}\n--\n")
    os.utime(stamp, (0, 0))
    for path in [checkout, *checkout.rglob("*")]:
        os.chown(path, OWNER_UID, OWNER_UID)
    log = owner_home / "log"
    log.touch()
    log.chmod(0o666)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": "/root",
        "LOG": str(log),
        "SUDO_USER": "terry",
        "SUDO_UID": str(OWNER_UID),
        "SUDO_GID": str(OWNER_UID),
    }
    done = subprocess.run(
        [str(checkout / "run"), "hotspot", "status"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    runs = log.read_text().splitlines()
    installs = [line for line in runs if "pip install" in line]
    assert installs and all(line.split()[1] == str(OWNER_UID) for line in installs)
    assert runs[-1] == "clacks 0 1 hotspot status"  # the command as root, no bytecode kept
    assert [str(p) for p in checkout.rglob("*") if p.stat().st_uid != OWNER_UID] == []
    assert (checkout / ".venv" / ".clacks-installed").exists()


def test_under_sudo_a_data_dir_s_settings_are_its_owner_s(
    fake: FakeNetworkManager,
    monkeypatch: pytest.MonkeyPatch,
    owner_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the installed service's own directory, /var/lib/clacks, belongs to the service's user
    service_dir = owner_home / "var-lib-clacks"
    service_dir.mkdir(mode=0o700)
    os.chown(service_dir, SERVICE_UID, SERVICE_UID)
    run_by_sudo_from_terry(monkeypatch)
    assert main(["hotspot", "--data-dir", str(service_dir), "on", "--password", "gnuterry"]) == 0
    kept = service_dir / "hotspot.json"
    assert kept.stat().st_uid == SERVICE_UID and stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert [p.name for p in service_dir.iterdir()] == ["hotspot.json"]
    assert "ssh terry@10.42.0.1" in capsys.readouterr().out  # the caller logs in again
    assert os.geteuid() == 0 and os.getegid() == 0
