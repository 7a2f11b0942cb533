"""`clacks hotspot`: the box's own Wi-Fi network for the phones, through NetworkManager.

clacks hotspot on [--ssid NAME] [--password WORDS]   up now and after every reboot
clacks hotspot off                                   down now and after every reboot
clacks hotspot status                                up or not, its address, phones on it
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from firmware.hotspot import (
    Hotspot,
    HotspotError,
    Settings,
    Status,
    check_password,
    check_ssid,
    default_ssid,
    load_settings,
    new_password,
    save_settings,
)


def add_to(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "hotspot", help="turn the box's own Wi-Fi network for the phones on or off"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the companion's state directory, where the network's name and password are "
        "kept for the table screen's Wi-Fi QR code (default: as clacks serve)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    on = actions.add_parser("on", help="start the hotspot, and start it again after a reboot")
    on.add_argument(
        "--ssid", metavar="NAME", help="the network's name, up to 32 bytes (default: as before, "
        "else Clacks and the host name)"
    )  # fmt: skip
    on.add_argument(
        "--password",
        metavar="WORDS",
        help="the WPA2 password, 8 to 63 ASCII characters (default: as before, else a new "
        "random one)",
    )
    actions.add_parser("off", help="stop the hotspot, and keep it off after a reboot")
    actions.add_parser("status", help="whether the hotspot is up and how many phones are on it")
    parser.set_defaults(run=run)


def state_directory(args: argparse.Namespace) -> Path:
    from web.store import default_data_dir

    return Path(args.data_dir) if args.data_dir else default_data_dir()


def run(args: argparse.Namespace, out: TextIO | None = None, hotspot: Hotspot | None = None) -> int:
    out = out or sys.stdout
    hotspot = hotspot or Hotspot()
    state_dir = state_directory(args)
    try:
        if args.action == "on":
            before = load_settings(state_dir)
            settings = Settings(
                check_ssid(args.ssid if args.ssid is not None else
                           before.ssid if before else default_ssid()),
                check_password(args.password if args.password is not None else
                               before.password if before else new_password()),
            )  # fmt: skip
            status = hotspot.turn_on(settings)
            save_settings(state_dir, settings)
            out.write(describe(status))
            out.write(f"Password: {settings.password}\n")
            out.write(f"Kept for the table screen's Wi-Fi QR code in {state_dir}\n")
            return 0
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


def describe(status: Status) -> str:
    if not status.up:
        return "Hotspot: off\n"
    phones = "unknown (iw is not installed)" if status.phones is None else str(status.phones)
    return (
        f"Hotspot: on, network {status.ssid!r} on {status.device}\n"
        f"Address: {status.address or 'none yet'}\n"
        f"Phones on it: {phones}\n"
    )
