"""`clacks serve`'s command line; the server itself is set up in web/server.py."""

from __future__ import annotations

import argparse
from pathlib import Path

from web.server import THREADS, run

__all__ = ["add_arguments", "run"]


def _number_of(text: str, unit: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None


def seconds(text: str) -> float:
    """A length of time given on the command line: a number of seconds, 0 or more."""
    value = _number_of(text, "seconds")
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"give 0 to 3600 seconds, not {text}")
    return value


def stand_seconds(text: str) -> float:
    """How long a stand's game may stand idle: more than 0 seconds, up to a day."""
    value = _number_of(text, "seconds")
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"give more than 0 and at most 86400 seconds, not {text}")
    return value


def hours(text: str) -> float:
    """A length of time given on the command line in hours, more than 0 (up to a week)."""
    value = _number_of(text, "hours")
    if not 0 < value <= 168:
        raise argparse.ArgumentTypeError(f"give more than 0 and at most 168 hours, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    parser.add_argument("--language", choices=("en", "cs"), default="en", help="table language")
    parser.add_argument("--threads", type=int, default=THREADS, help="server threads")
    parser.add_argument("--no-qr", action="store_true", help="do not draw the QR code")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="where saved games live (default: $STATE_DIRECTORY, $CLACKS_STATE_DIR or "
        "~/.local/state/clacks)",
    )
    # the defaults are web.bots.PAUSE_SECONDS and THINK_SECONDS (not imported here: the
    # web side loads Flask, which the other commands do without)
    parser.add_argument(
        "--bot-pause",
        type=seconds,
        metavar="SECONDS",
        help="how long bots wait after each change of the game before they act, so "
        "people can follow (default: 0.6)",
    )
    parser.add_argument(
        "--bot-think",
        type=seconds,
        metavar="SECONDS",
        help="the most a bot may think over one action before the weakest level's "
        "choice is played instead (default: 3)",
    )
    parser.add_argument(
        "--table-idle",
        type=hours,
        metavar="HOURS",
        help="close a table other than the main one after this long with no page open and "
        "nobody playing; its game stays saved (default: 2)",
    )
    parser.add_argument(
        "--stand",
        action="store_true",
        help="run a convention stand: with no game the table shows Scan to play, visitors "
        "choose a game on their phones, idle games end, and the table's controls are locked "
        "(also [stand] enabled = true in the settings file)",
    )
    parser.add_argument(
        "--stand-game",
        action="append",
        metavar="GAME[:MODE]",
        help="a game the stand offers (e.g. clacks, clacks:coop, klackers); repeat for more "
        "(default: every game and mode)",
    )
    parser.add_argument(
        "--stand-idle",
        type=stand_seconds,
        metavar="SECONDS",
        help="end a stand's game after this long without a move (default: 180)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name the companion answers to (e.g. one a local DNS gives it), besides "
        "its host name, NAME.local, localhost and its addresses; repeat for more",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="exchange board settings (default: $CLACKS_CONFIG or /etc/clacks/config.toml)",
    )
