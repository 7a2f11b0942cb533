"""The box's own Wi-Fi network, run by NetworkManager as Raspberry Pi OS Bookworm does.

NetworkManager is asked through the ``nmcli`` command in its terse (``-t``) output, the
form nmcli keeps stable for scripts. The hotspot is one NetworkManager connection,
``clacks-hotspot``: Wi-Fi in access-point mode, WPA2-PSK (AES only, which every phone
joins), ``ipv4.method shared`` so NetworkManager hands out the addresses itself (the box
at 10.42.0.1, NetworkManager's own first choice, fixed here so that it can be printed
before the network is up), and autoconnect on, so it comes back after a reboot until it
is turned off.

The password never goes on a command line, where ``ps`` shows it to every user: the
connection is written as a NetworkManager keyfile, readable by root only, in
``/etc/NetworkManager/system-connections`` and handed over with ``nmcli connection load``
(nmcli(1), nm-settings-keyfile(5)). Beside it goes a file of DNS answers for the dnsmasq
NetworkManager runs for a shared network (``/etc/NetworkManager/dnsmasq-shared.d``): the
names of the phones' connectivity checks lead to the box (firmware/connectivity_checks.py).

NetworkManager keeps no list of the phones on an access point (its leases outlive the
phones), so the count of phones comes from the kernel's station list, ``iw dev IFACE
station dump``, which any user may read and which drops a phone as soon as it leaves.

The network's name and password are also kept in the state directory (``hotspot.json``,
readable by its owner only), because the table screen needs them for its Wi-Fi QR code
and NetworkManager shows a password only to an administrator.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import unicodedata
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware.connectivity_checks import dnsmasq_lines

CONNECTION = "clacks-hotspot"
ADDRESS = "10.42.0.1"  # the box on its own network
PREFIX = 24
NM_CONFIG_DIR = Path("/etc/NetworkManager")
KEYFILE_FOLDER = "system-connections"  # NetworkManager's keyfile plugin reads profiles here
DNS_FOLDER = "dnsmasq-shared.d"  # and its dnsmasq for a shared network, its extra settings
DNS_FILE = "clacks-hotspot.conf"
SETTINGS_FILE = "hotspot.json"
# a network printed but not started (its owner was asked, or told to run again with
# --yes): the next ``on`` starts that one, with the password already written down
PENDING_FILE = "hotspot-next.json"
SSID_MAX_BYTES = 32  # IEEE 802.11
PASSWORD_LENGTHS = range(8, 64)  # WPA2 passphrase: 8 to 63 printable ASCII characters
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # nothing to misread when typed
PASSWORD_LENGTH = 12  # 59 bits from the alphabet above
COMMAND_SECONDS = 45.0  # bringing an access point up can take NetworkManager a while
LOOK_SECONDS = 5.0  # reading the state is quick; a page waiting on it must not hang

# nmcli's exit codes (nmcli(1), EXIT STATUS)
NOT_RUNNING = 8
DOES_NOT_EXIST = 10


STOPPED = "NetworkManager is not running; start it with: sudo systemctl start NetworkManager"


class HotspotError(Exception):
    """Why the hotspot cannot be turned on, off or read, in words for the person at the box."""


@dataclass(frozen=True)
class Answer:
    code: int
    out: str
    err: str


Run = Callable[[Sequence[str], float], Answer]


def run_command(arguments: Sequence[str], seconds: float) -> Answer:
    """Runs a command (``nmcli`` or ``iw``) found on ``PATH``; a missing one is code 127."""
    program = shutil.which(arguments[0])
    if program is None:
        return Answer(127, "", f"{arguments[0]}: command not found")
    try:
        done = subprocess.run(
            [program, *arguments[1:]],
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
            env={**os.environ, "LC_ALL": "C"},  # nmcli's own words, untranslated
        )
    except subprocess.TimeoutExpired:
        return Answer(124, "", f"{arguments[0]} did not answer in {seconds:g} s")
    except OSError as exc:
        return Answer(126, "", f"{arguments[0]} could not be started ({exc})")
    return Answer(done.returncode, done.stdout, done.stderr)


@dataclass(frozen=True)
class Settings:
    ssid: str
    password: str


@dataclass(frozen=True)
class Status:
    up: bool
    ssid: str | None = None
    device: str | None = None
    address: str | None = None  # the box's own address on the hotspot, e.g. 10.42.0.1
    phones: int | None = None  # None: the kernel's station list could not be read
    problem: str | None = None  # why NetworkManager could not be asked

    def as_json(self) -> dict[str, object]:
        return {
            "up": self.up,
            "ssid": self.ssid,
            "device": self.device,
            "address": self.address,
            "phones": self.phones,
            "problem": self.problem,
        }


def check_ssid(ssid: str) -> str:
    size = len(ssid.encode("utf-8"))
    if not 1 <= size <= SSID_MAX_BYTES:
        raise HotspotError(
            f"the network name must be 1 to {SSID_MAX_BYTES} bytes long (this one is {size})"
        )
    if any(unicodedata.category(c) == "Cc" for c in ssid):
        raise HotspotError("the network name must not hold control characters")
    return ssid


def check_password(password: str) -> str:
    if len(password) not in PASSWORD_LENGTHS:
        raise HotspotError(
            f"the Wi-Fi password must be {PASSWORD_LENGTHS.start} to "
            f"{PASSWORD_LENGTHS.stop - 1} characters long (this one is {len(password)})"
        )
    if not all(0x20 <= ord(c) <= 0x7E for c in password):
        raise HotspotError(
            "the Wi-Fi password may hold only printable ASCII characters (letters without "
            "accents, digits, spaces and punctuation)"
        )
    return password


def default_ssid() -> str:
    """``Clacks`` and the host's short name, cut to fit 32 bytes."""
    name = f"Clacks {socket.gethostname().split('.', 1)[0]}".encode()[:SSID_MAX_BYTES]
    return name.decode("utf-8", errors="ignore")


def new_password() -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


def load_settings(state_dir: Path, file: str = SETTINGS_FILE) -> Settings | None:
    """The name and password last turned on, or None when there are none (or the file is
    damaged: the next ``clacks hotspot on`` writes it again)."""
    try:
        data = json.loads((state_dir / file).read_text(encoding="utf-8"))
        return Settings(check_ssid(data["ssid"]), check_password(data["password"]))
    except (OSError, ValueError, KeyError, TypeError, HotspotError):
        return None


def save_settings(state_dir: Path, settings: Settings, file: str = SETTINGS_FILE) -> None:
    """Written whole, readable by its owner only; run as root, the file is given to the
    state directory's owner, the companion's own user."""
    state_dir.mkdir(parents=True, exist_ok=True)
    owner = state_dir.stat() if os.geteuid() == 0 else None
    write_private(
        state_dir / file,
        json.dumps({"ssid": settings.ssid, "password": settings.password}),
        owner=(owner.st_uid, owner.st_gid) if owner is not None else None,
    )


def check_writable(folder: Path) -> None:
    """NetworkManager's settings are root's: without the right to write them, say so
    before anything is printed, asked or changed."""
    existing = folder
    while not _present(existing) and existing != existing.parent:
        existing = existing.parent
    if not os.access(existing, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
        raise HotspotError(
            f"only root may write NetworkManager's settings in {existing}; run the command "
            "with sudo"
        )


def _present(path: Path) -> bool:
    """Whether ``path`` is there; one this user may not even look at counts as there."""
    try:
        path.stat()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def remove_settings(state_dir: Path, file: str = SETTINGS_FILE) -> None:
    with contextlib.suppress(FileNotFoundError):
        (state_dir / file).unlink()


def write_private(
    target: Path, text: str, mode: int = 0o600, owner: tuple[int, int] | None = None
) -> None:
    """Written whole (a new file renamed over the old) with ``mode`` from its first byte
    (NetworkManager reads a keyfile only when root owns it and only root may read it),
    and given to ``owner`` (a user and group id) before it takes the old one's place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.parent / f".{target.name}.{secrets.token_hex(4)}"
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(partial, mode)  # whatever the umask took away
        if owner is not None:
            os.chown(partial, *owner)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise


def keyfile_value(text: str) -> str:
    """A value as GLib's key files read it back: backslash and every space escaped."""
    return text.replace("\\", "\\\\").replace(" ", "\\s")


def keyfile_text(settings: Settings, device: str, profile_uuid: str) -> str:
    """The hotspot as a NetworkManager keyfile (nm-settings-keyfile(5)). The network's
    name is written as its bytes, the form NetworkManager reads whatever it holds."""
    ssid = "".join(f"{byte};" for byte in settings.ssid.encode("utf-8"))
    return "\n".join(
        (
            "[connection]",
            f"id={CONNECTION}",
            f"uuid={profile_uuid}",
            "type=wifi",
            f"interface-name={keyfile_value(device)}",
            "autoconnect=true",
            "autoconnect-priority=100",
            "",
            "[wifi]",
            "mode=ap",
            "band=bg",
            f"ssid={ssid}",
            "",
            "[wifi-security]",
            "key-mgmt=wpa-psk",
            "proto=rsn;",
            "pairwise=ccmp;",
            "group=ccmp;",
            f"psk={keyfile_value(settings.password)}",
            "",
            "[ipv4]",
            "method=shared",
            f"address1={ADDRESS}/{PREFIX}",
            "",
            "[ipv6]",
            "method=ignore",
            "",
        )
    )


def dns_answers() -> str:
    return (
        "# Written by clacks hotspot on, removed by clacks hotspot off: the phones'\n"
        "# connectivity checks reach the box (firmware/connectivity_checks.py)\n"
        + "".join(line + "\n" for line in dnsmasq_lines(ADDRESS))
    )


def wifi_qr_payload(ssid: str, password: str) -> str:
    """The ``WIFI:`` text a phone's camera joins a network from (the ZXing convention),
    with ``\\ ; , : "`` escaped by a backslash."""
    return f"WIFI:T:WPA;S:{_escape(ssid)};P:{_escape(password)};;"


def _escape(text: str) -> str:
    for special in '\\;,:"':
        text = text.replace(special, "\\" + special)
    return text


def terse_fields(line: str) -> list[str]:
    """One line of nmcli's terse output split at its unescaped colons."""
    fields, current, escaped = [], "", False
    for char in line:
        if escaped:
            current += char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append(current)
            current = ""
        else:
            current += char
    fields.append(current)
    return fields


class Hotspot:
    def __init__(self, run: Run = run_command) -> None:
        self.run = run

    def nmcli(
        self, *arguments: str, allowed: tuple[int, ...] = (), seconds: float = COMMAND_SECONDS
    ) -> Answer:
        answer = self.run(["nmcli", *arguments], seconds)
        if answer.code == 0 or answer.code in allowed:
            return answer
        raise HotspotError(self._failure(answer, arguments))

    @staticmethod
    def _failure(answer: Answer, arguments: Sequence[str]) -> str:
        if answer.code == 127:
            return (
                "NetworkManager's nmcli is not installed; the hotspot needs Raspberry Pi OS "
                "Bookworm or later, or: sudo apt install network-manager"
            )
        if answer.code == NOT_RUNNING:
            return STOPPED
        said = (answer.err.strip() or answer.out.strip()).removeprefix("Error: ")
        if "not authorized" in said.lower() or "insufficient privileges" in said.lower():
            return f"NetworkManager refused ({said}); run the command with sudo"
        words = list(arguments)
        while words[:1] in (["-t"], ["-f"]):
            words = words[2:] if words[0] == "-f" else words[1:]  # -f takes the field names
        return f"nmcli {' '.join(words[:2])} failed ({said or f'exit code {answer.code}'})"

    def _check_running(self, seconds: float) -> None:
        state = self.nmcli("-t", "-f", "RUNNING", "general", seconds=seconds).out.strip()
        if state != "running":
            raise HotspotError(STOPPED)

    def wifi_device(self) -> str:
        """The first Wi-Fi device NetworkManager can use, or why there is none."""
        lines = self.nmcli("-t", "-f", "DEVICE,TYPE,STATE", "device").out.splitlines()
        devices = [terse_fields(line) for line in lines]
        wifi = [d for d in devices if len(d) >= 3 and d[1] == "wifi"]
        if not wifi:
            raise HotspotError("this machine has no Wi-Fi device NetworkManager knows of")
        usable = [d for d in wifi if d[2] not in ("unavailable", "unmanaged")]
        if not usable:
            name, _, state = wifi[0][:3]
            if state == "unmanaged":
                raise HotspotError(
                    f"the Wi-Fi device {name} is busy: NetworkManager does not manage it "
                    "(another program, such as hostapd, has it)"
                )
            raise HotspotError(
                f"the Wi-Fi device {name} is unavailable: it is switched off or blocked "
                "until a Wi-Fi country is set (sudo raspi-config nonint do_wifi_country GB, "
                "with your country's code)"
            )
        return usable[0][0]

    def _profiles(self) -> list[tuple[str, str]]:
        """The (UUID, file) of every profile called ``clacks-hotspot``; the file is empty
        for one kept in memory only."""
        lines = self.nmcli("-t", "-f", "NAME,UUID,FILENAME", "connection", "show").out
        found = [terse_fields(line) for line in lines.splitlines()]
        return [(f[1], f[2]) for f in found if len(f) >= 3 and f[0] == CONNECTION]

    def _exists(self) -> bool:
        return bool(self._profiles())

    def prepare(self) -> str:
        """Checks NetworkManager can make the hotspot, before anything changes: the Wi-Fi
        device it will take (and so leave the network it is on now)."""
        check_writable(NM_CONFIG_DIR / KEYFILE_FOLDER)
        # an owner's command may wait: NetworkManager still starting after a boot (a Zero
        # 2 W's first minutes) answers late, and a page's quick look would refuse it
        self._check_running(COMMAND_SECONDS)
        return self.wifi_device()

    def turn_on(self, settings: Settings, device: str) -> Status:
        """Writes the profile and its DNS answers, then brings it up on ``device``."""
        keyfile = NM_CONFIG_DIR / KEYFILE_FOLDER / f"{CONNECTION}.nmconnection"
        kept = None
        for profile_uuid, filename in self._profiles():
            if filename == str(keyfile):
                kept = profile_uuid
            else:  # one made by hand, or by an older version, under the same name
                self.nmcli("connection", "delete", "uuid", profile_uuid)
        try:
            write_private(NM_CONFIG_DIR / DNS_FOLDER / DNS_FILE, dns_answers(), 0o644)
            write_private(keyfile, keyfile_text(settings, device, kept or str(uuid.uuid4())))
        except PermissionError as exc:
            raise HotspotError(
                f"cannot write NetworkManager's settings ({exc.strerror}: {exc.filename}); "
                "run the command with sudo"
            ) from exc
        except OSError as exc:
            raise HotspotError(f"cannot write NetworkManager's settings ({exc})") from exc
        loaded = self.nmcli("connection", "load", str(keyfile))
        if "Could not load file" in loaded.err:  # nmcli says so, yet exits with 0
            raise HotspotError(
                f"NetworkManager did not take the hotspot's settings in {keyfile} "
                "(journalctl -u NetworkManager says why)"
            )
        self.nmcli("connection", "up", CONNECTION)
        return self.status()

    def turn_off(self) -> Status:
        """Down now, and not brought up again at the next boot."""
        self._check_running(COMMAND_SECONDS)
        if self._exists():
            self.nmcli("connection", "modify", CONNECTION, "connection.autoconnect", "no")
            self.nmcli("connection", "down", CONNECTION, allowed=(DOES_NOT_EXIST,))
        with contextlib.suppress(FileNotFoundError, PermissionError):
            (NM_CONFIG_DIR / DNS_FOLDER / DNS_FILE).unlink()
        return self.status()

    def status(self) -> Status:
        """Never raises: a NetworkManager that cannot be asked is reported as ``problem``."""
        try:
            self._check_running(LOOK_SECONDS)
            answer = self.nmcli(
                "-t", "-f", "GENERAL.STATE,GENERAL.DEVICES,IP4.ADDRESS,802-11-wireless.ssid",
                "connection", "show", CONNECTION,
                allowed=(DOES_NOT_EXIST,), seconds=LOOK_SECONDS,
            )  # fmt: skip
        except HotspotError as exc:
            return Status(up=False, problem=str(exc))
        if answer.code == DOES_NOT_EXIST:
            return Status(up=False)
        # one "NAME:value" a line; unlike the tabular terse output, these values are
        # printed as they are, colons and backslashes unescaped
        values: dict[str, str] = {}
        for line in answer.out.splitlines():
            name, _, value = line.partition(":")
            values.setdefault(name.split("[", 1)[0], value)
        ssid = values.get("802-11-wireless.ssid") or None
        if values.get("GENERAL.STATE") != "activated":
            return Status(up=False, ssid=ssid)
        device = values.get("GENERAL.DEVICES") or None
        address = values.get("IP4.ADDRESS", "").split("/", 1)[0] or None
        return Status(True, ssid, device, address, self.phones(device) if device else None)

    def phones(self, device: str) -> int | None:
        answer = self.run(["iw", "dev", device, "station", "dump"], LOOK_SECONDS)
        if answer.code != 0:
            return None
        return sum(1 for line in answer.out.splitlines() if line.startswith("Station "))
