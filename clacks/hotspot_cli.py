"""`clacks hotspot`: the box's own Wi-Fi network for the phones, through NetworkManager.

clacks hotspot on [--ssid NAME] [--password] [--yes]   up now and after every reboot
clacks hotspot off                                     down now and after every reboot
clacks hotspot status                                  up or not, its address, phones on it

``on`` prints the network's name, its password and how to get back in before the radio
switches: the Wi-Fi device leaves the network it is on, and over SSH on Wi-Fi (the only
way into a Raspberry Pi Zero) the session with it. When the caller's own SSH connection
arrives over that device, it asks first, or without a terminal to ask at refuses
unless given ``--yes``.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from clacks.sudo_owner import Owner, acting_as, directory_owner, sudo_owner
from firmware.hotspot import (
    ADDRESS,
    PENDING_FILE,
    Hotspot,
    HotspotError,
    Settings,
    Status,
    check_password,
    check_ssid,
    default_ssid,
    load_settings,
    new_password,
    remove_settings,
    save_settings,
)
from firmware.ssh_route import SshRoute, caller_ssh_route

ASK = "\0ask"  # --password given without a value: read it from standard input


def add_to(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "hotspot", help="turn the box's own Wi-Fi network for the phones on or off"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the companion's state directory, where the network's name and password are "
        "kept for the table screen's Wi-Fi QR code (default: as clacks serve; under sudo, "
        "that of the user who ran sudo)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    on = actions.add_parser("on", help="start the hotspot, and start it again after a reboot")
    on.add_argument(
        "--ssid", metavar="NAME", help="the network's name, up to 32 bytes (default: as before, "
        "else Clacks and the host name)"
    )  # fmt: skip
    on.add_argument(
        "--password",
        nargs="?",
        const=ASK,
        metavar="WORDS",
        help="a WPA2 password of your own, 8 to 63 ASCII characters: --password alone asks "
        "for it (or reads one line of standard input), so that no command line shows it "
        "(default: as before, else a new random one)",
    )
    on.add_argument(
        "--yes",
        action="store_true",
        help="go on without asking even when this SSH session arrives over the Wi-Fi the "
        "hotspot takes (the session stops; join the hotspot to get back in)",
    )
    actions.add_parser("off", help="stop the hotspot, and keep it off after a reboot")
    actions.add_parser("status", help="whether the hotspot is up and how many phones are on it")
    parser.set_defaults(run=run)


def state_directory(args: argparse.Namespace, owner: Owner | None) -> Path:
    """``--data-dir``; else, under sudo, the state directory of the user who ran sudo (the
    one their ``clacks serve`` reads); else the companion's default."""
    from web.store import default_data_dir

    if args.data_dir:
        return Path(args.data_dir)
    if owner is not None:
        return owner.home / ".local" / "state" / "clacks"
    return default_data_dir()


def run(
    args: argparse.Namespace,
    out: TextIO | None = None,
    hotspot: Hotspot | None = None,
    stdin: TextIO | None = None,
    ssh_route: Callable[[], SshRoute | None] = caller_ssh_route,
) -> int:
    out = out or sys.stdout
    hotspot = hotspot or Hotspot()
    caller = sudo_owner(os.environ)
    state_dir = state_directory(args, caller)
    # the files are made as their directory's owner: the sudo user's own state directory,
    # or a --data-dir such as the service's /var/lib/clacks, which its user must read
    writer = directory_owner(state_dir) if args.data_dir else caller
    try:
        if args.action == "on":
            return turn_on(
                args, out, hotspot, stdin or sys.stdin, ssh_route, Caller(caller, writer), state_dir
            )
        if args.action == "off":
            out.write(describe(hotspot.turn_off()))
            return 0
        status = hotspot.status()
    except HotspotError as exc:
        print(f"clacks hotspot: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"clacks hotspot: cannot keep the password in {state_dir} ({exc})", file=sys.stderr)
        return 1
    out.write(describe(status))
    if status.problem:
        print(f"clacks hotspot: {status.problem}", file=sys.stderr)
        return 1
    return 0


def chosen_settings(args: argparse.Namespace, before: Settings | None, stdin: TextIO) -> Settings:
    if args.password == ASK:
        password = read_password(stdin)
    elif args.password is not None:
        password = args.password
        print(
            "clacks hotspot: a password given on the command line is shown by ps to every "
            "user while the command runs; --password alone asks for it instead",
            file=sys.stderr,
        )
    else:
        password = before.password if before else new_password()
    return Settings(
        check_ssid(args.ssid if args.ssid is not None else
                   before.ssid if before else default_ssid()),
        check_password(password),
    )  # fmt: skip


def read_password(stdin: TextIO) -> str:
    if stdin.isatty():
        return getpass.getpass("The Wi-Fi password (8 to 63 characters): ", stream=sys.stderr)
    return stdin.readline().rstrip("\r\n")


@dataclass(frozen=True)
class Caller:
    login: Owner | None  # who ran sudo, and so logs in again over the hotspot
    writer: Owner | None  # whose files the settings are


def turn_on(
    args: argparse.Namespace,
    out: TextIO,
    hotspot: Hotspot,
    stdin: TextIO,
    ssh_route: Callable[[], SshRoute | None],
    who: Caller,
    state_dir: Path,
) -> int:
    owner = who.writer
    with acting_as(owner):
        before = load_settings(state_dir)
        pending = load_settings(state_dir, PENDING_FILE)
    settings = chosen_settings(args, pending or before, stdin)
    device = hotspot.prepare()
    route = ssh_route()
    cut_off = route is not None and route.device in (device, None)
    out.write(announcement(settings, device, route, cut_off, who.login))
    out.flush()
    if cut_off and not args.yes and not agreed(out, stdin, device):
        with acting_as(owner):  # what was printed is what the next `on` starts
            save_settings(state_dir, settings, PENDING_FILE)
        return 1
    with acting_as(owner):
        save_settings(state_dir, settings)  # kept first: the session may end mid-switch
        remove_settings(state_dir, PENDING_FILE)
    try:
        with hangups_ignored():
            status = hotspot.turn_on(settings, device)
    except BaseException:
        with acting_as(owner):  # a network that did not come up leaves no password behind
            if before is None:  # for the table screen; the next `on` tries it again
                remove_settings(state_dir)
            else:
                save_settings(state_dir, before)
            save_settings(state_dir, settings, PENDING_FILE)
        raise
    with contextlib.suppress(OSError):  # the terminal may be gone with the SSH session
        out.write(describe(status))
        out.write(f"Kept for the table screen's Wi-Fi QR code in {state_dir}\n")
        out.flush()
    return 0


def announcement(
    settings: Settings, device: str, route: SshRoute | None, cut_off: bool, owner: Owner | None
) -> str:
    login = owner.name if owner else getpass.getuser()
    lines = [
        f"The hotspot, the box's own Wi-Fi network, is to start on {device}:",
        f"  Network:  {settings.ssid}",
        f"  Password: {settings.password}",
        f"{device} then leaves the network it is on. To get back in over Wi-Fi, join "
        f'"{settings.ssid}" with the password above, then: ssh {login}@{ADDRESS}',
        "The box comes back as this network after every restart, until: "
        f"sudo {program()} hotspot off",
    ]
    if cut_off and route is not None:
        over = f"over {device}" if route.device else f"perhaps over {device} (its route is unknown)"
        lines.append(
            f"This SSH session (from {route.client}) arrives {over}: it stops when the "
            "hotspot starts."
        )
    return "\n".join(lines) + "\n"


def program() -> str:
    """The command as typed again: ``clacks`` when that is what the shell finds."""
    name = Path(sys.argv[0])
    return "clacks" if name.name != "clacks" or not name.is_absolute() else str(name)


def agreed(out: TextIO, stdin: TextIO, device: str) -> bool:
    if not stdin.isatty():
        print(
            f"clacks hotspot: not started: this SSH session arrives over {device}, which the "
            "hotspot takes, and there is no terminal to ask at. Note the network and "
            "password above and run the command again with --yes: it starts that same "
            "network (or run it from a session over Ethernet or at the Pi's own keyboard).",
            file=sys.stderr,
        )
        return False
    out.write("Start the hotspot and leave this session? [y/N] ")
    out.flush()
    if stdin.readline().strip().lower() in ("y", "yes"):
        return True
    out.write("Not started. The next `hotspot on` starts the network above.\n")
    return False


@contextlib.contextmanager
def hangups_ignored() -> Iterator[None]:
    """The switch finishes even when the SSH session it cuts hangs up on the command."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)


def describe(status: Status) -> str:
    if not status.up:
        return "Hotspot: off\n"
    phones = "unknown (iw is not installed)" if status.phones is None else str(status.phones)
    return (
        f"Hotspot: on, network {status.ssid!r} on {status.device}\n"
        f"Address: {status.address or 'none yet'}\n"
        f"Phones on it: {phones}\n"
    )
