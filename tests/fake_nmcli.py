"""NetworkManager's `nmcli` (and the kernel's station list through `iw`, its routes
through `ip`) faked at the process: executables put first on ``PATH`` that record their
arguments and answer from a small JSON world as NetworkManager 1.42 (Raspberry Pi OS
Bookworm) does, in its terse output, with its exit codes (nmcli(1): 8 not running, 10 no
such connection, 4 activation failed) and its error lines on stderr. ``connection load``
reads the keyfile as NetworkManager's keyfile plugin does, and refuses it as that does
unless root owns it and nobody else may read it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

NMCLI = r"""
import json, sys
from pathlib import Path

HERE = Path(__file__).parent
world = json.loads((HERE / "world.json").read_text())
args = sys.argv[1:]
with open(HERE / "calls.jsonl", "a") as log:
    log.write(json.dumps(["nmcli", *args]) + "\n")


def done(out="", err="", code=0):
    (HERE / "world.json").write_text(json.dumps(world))
    sys.stdout.write(out)
    sys.stderr.write(err)
    raise SystemExit(code)


def escape(value):
    return value.replace("\\", "\\\\").replace(":", "\\:")


if world.get("hangs"):
    import time
    time.sleep(60)
if world.get("starting") and "general" in args:
    import time
    time.sleep(world["starting"])  # a NetworkManager still starting answers late
if not world["running"]:
    done(err="Error: NetworkManager is not running.\n", code=8)
fields = None
if args[:1] == ["-t"]:
    args = args[1:]
    if args[:1] == ["-f"]:
        fields, args = args[1].split(","), args[2:]
connections = world["connections"]

if args == ["general"] and fields == ["RUNNING"]:
    done("running\n")
if args == ["device"] and fields == ["DEVICE", "TYPE", "STATE"]:
    done("".join(":".join(map(escape, device)) + "\n" for device in world["devices"]))
if args == ["connection", "show"] and fields == ["NAME"]:
    done("".join(escape(name) + "\n" for name in ["lo", *connections]))
if args == ["connection", "show"] and fields == ["NAME", "UUID", "FILENAME"]:
    rows = [["lo", "2f1c0ad4-3b1c-4d0e-9a55-5b0f1c3e7a10", ""]]
    rows += [[name, c.get("connection.uuid", ""), c.get("filename", "")] for name, c in connections.items()]
    done("".join(":".join(map(escape, row)) + "\n" for row in rows))
if args[:2] == ["connection", "show"] and len(args) == 3:
    name = args[2]
    if name not in connections:
        done(err=f"Error: {name} - no such connection profile.\n", code=10)
    found = connections[name]
    # the multiline form: "NAME:value", the values unescaped (nmcli's print_required_fields)
    lines = {"802-11-wireless.ssid": found["802-11-wireless.ssid"]}
    if found.get("active"):
        lines["GENERAL.STATE"] = "activated"
        lines["GENERAL.DEVICES"] = found["connection.interface-name"]
        lines["IP4.ADDRESS[1]"] = world["address"] + "/24"
    wanted = [f for f in fields if f in lines or f + "[1]" in lines]
    done("".join(f"{k}:{v}\n" for k, v in lines.items() if k.split("[")[0] in wanted))


SECTIONS = {"wifi": "802-11-wireless", "wifi-security": "802-11-wireless-security"}


def keyfile(text):
    # a keyfile's values as nmcli names them, unescaped as GLib does
    profile, section = {}, ""
    for line in text.splitlines():
        if line.startswith("["):
            section = SECTIONS.get(line[1:-1], line[1:-1])
        elif "=" in line:
            key, value = line.split("=", 1)
            value = value.replace("\\\\", "\0").replace("\\s", " ").replace("\0", "\\")
            if section == "802-11-wireless" and key == "ssid":
                value = bytes(int(b) for b in value.split(";") if b).decode()
            if key == "autoconnect":
                value = {"true": "yes", "false": "no"}[value]
            if key == "address1":
                key = "addresses"
            profile[f"{section}.{key}"] = value
    return profile


def settings(pairs):
    if len(pairs) % 2:
        done(err=f"Error: value for '{pairs[-1]}' is missing.\n", code=2)
    return dict(zip(pairs[::2], pairs[1::2]))


if world.get("denied") and args[:2] in (["connection", "add"], ["connection", "modify"]):
    done(err="Error: Failed to modify connection 'clacks-hotspot': Insufficient privileges\n",
         code=1)
if args[:2] == ["connection", "add"]:
    given = settings(args[2:])
    name = given.pop("con-name")
    given["connection.interface-name"] = given.pop("ifname")
    given["802-11-wireless.ssid"] = given.pop("ssid")
    given["connection.type"] = given.pop("type")
    connections[name] = given
    done(f"Connection '{name}' (9a3c7f52-0f0e-4c43-9d4c-7d2b6c0e4f11) successfully added.\n")
if world.get("denied") and args[:2] == ["connection", "load"]:
    done(err="Error: failed to load connection: Insufficient privileges.\n", code=1)
if args[:2] == ["connection", "load"]:
    import os, stat
    path = args[2]
    info = os.stat(path)
    # NetworkManager's rule: owned by root or by the user it runs as (this one, here)
    if info.st_uid not in (0, os.getuid()) or stat.S_IMODE(info.st_mode) & 0o077:
        done(err=f"Could not load file '{path}'\n")  # NetworkManager's refusal; exit 0
    profile = keyfile(Path(path).read_text())
    name = profile.pop("connection.id")
    profile["filename"] = path
    profile["active"] = connections.get(name, {}).get("active", False)
    connections[name] = profile
    done()
if args[:3] == ["connection", "delete", "uuid"]:
    found = [n for n, c in connections.items() if c.get("connection.uuid") == args[3]]
    for name in found:
        del connections[name]
    done() if found else done(err=f"Error: unknown connection '{args[3]}'.\n", code=10)
if args[:2] == ["connection", "modify"]:
    name = args[2]
    if name not in connections:
        done(err=f"Error: unknown connection '{name}'.\n", code=10)
    connections[name].update(settings(args[3:]))
    done()
if args[:2] == ["connection", "up"]:
    name = args[2]
    if world.get("activation_fails"):
        done(err="Error: Connection activation failed: 802.1X supplicant took too long to "
             "authenticate\nHint: use 'journalctl -xe NM_CONNECTION=9a3c7f52 + "
             "NM_DEVICE=wlan0' to get more details.\n", code=4)
    connections[name]["active"] = True
    done("Connection successfully activated (D-Bus active path: "
         "/org/freedesktop/NetworkManager/ActiveConnection/3)\n")
if args[:2] == ["connection", "down"]:
    name = args[2]
    if not connections.get(name, {}).get("active"):
        done(err=f"Error: '{name}' is not an active connection.\n"
             "Error: no active connection provided.\n", code=10)
    connections[name]["active"] = False
    done(f"Connection '{name}' successfully deactivated (D-Bus active path: "
         "/org/freedesktop/NetworkManager/ActiveConnection/3)\n")
done(err=f"Error: argument '{args[0] if args else ''}' not understood.\n", code=2)
"""

IW = r"""
import json, sys
from pathlib import Path

HERE = Path(__file__).parent
world = json.loads((HERE / "world.json").read_text())
with open(HERE / "calls.jsonl", "a") as log:
    log.write(json.dumps(["iw", *sys.argv[1:]]) + "\n")
for phone in range(world["phones"]):
    print(f"Station 3a:1f:0c:5e:77:{phone:02x} (on {sys.argv[2]})")
    print("\tinactive time:\t1200 ms\n\trx bytes:\t48211\n\tauthorized:\tyes")
"""


IP = r"""
import json, sys
from pathlib import Path

HERE = Path(__file__).parent
world = json.loads((HERE / "world.json").read_text())
with open(HERE / "calls.jsonl", "a") as log:
    log.write(json.dumps(["ip", *sys.argv[1:]]) + "\n")
if sys.argv[1:4] != ["-o", "route", "get"]:
    sys.exit(2)
address = sys.argv[4]
device = world.get("routes", {}).get(address, "eth0")
if device is None:
    sys.stderr.write("RTNETLINK answers: Network is unreachable\n")
    sys.exit(2)
print(f"{address} via 192.168.1.1 dev {device} src 192.168.1.20 uid 0 \\    cache ")
"""


class FakeNetworkManager:
    """The world the fake ``nmcli`` sees, and the calls it was given."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        for name, source in (("nmcli", NMCLI), ("iw", IW), ("ip", IP)):
            program = folder / name
            program.write_text(f"#!{sys.executable}\n{source}")
            program.chmod(0o755)
        self.world: dict[str, Any] = {
            "running": True,
            "devices": [["wlan0", "wifi", "disconnected"], ["eth0", "ethernet", "connected"]],
            "connections": {},
            "address": "10.42.0.1",
            "phones": 0,
        }
        self.save()

    def save(self) -> None:
        (self.folder / "world.json").write_text(json.dumps(self.world))

    def load(self) -> dict[str, Any]:
        self.world = json.loads((self.folder / "world.json").read_text())
        return self.world

    def change(self, **values: Any) -> None:
        self.load()
        self.world.update(values)
        self.save()

    def calls(self) -> list[list[str]]:
        log = self.folder / "calls.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]


def install(folder: Path, monkeypatch: pytest.MonkeyPatch) -> FakeNetworkManager:
    """The fake programs first on PATH, and NetworkManager's settings folder (where the
    keyfile and the DNS answers go) in ``NetworkManager`` beside them; no SSH session."""
    fake = FakeNetworkManager(folder)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")
    monkeypatch.setattr("firmware.hotspot.NM_CONFIG_DIR", folder.parent / "NetworkManager")
    for variable in ("SSH_CONNECTION", "SSH_CLIENT", "SUDO_UID", "SUDO_GID", "SUDO_USER"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr("firmware.ssh_route.PROC", folder / "no-proc")
    return fake
