"""`clacks hardware`: check, test and show off the exchange without starting a game.

clacks hardware status          which drivers run, with any warning, and the hotspot
clacks hardware test            light each lamp in turn, then report button presses
clacks hardware attract         the convention attract mode
clacks hardware config          the settings in force, as a TOML file
clacks hardware power           the power budget worked out from the settings
clacks hardware case OUTDIR     the printable case and its pictures (clacks/case/)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from engine.clacks.geometry import lamp_name
from engine.core.interface import LampFrame
from firmware.config import BoardConfig, ConfigError, config_path, load_config, to_toml
from firmware.detect import pi_model
from firmware.exchange import Exchange
from firmware.factory import create_board
from firmware.hotspot import Hotspot
from firmware.power import power_budget_markdown
from firmware.shows import ATTRACT_GAME, attract_title, button_lamps, show_games

Sleep = Callable[[float], None]
LAMP_STEP_S = 0.4


def add_arguments(parser: argparse.ArgumentParser) -> Any:
    """The actions of ``clacks hardware``; returns their subparsers, to which the CLI adds
    ``case`` (the printable case, built above the firmware)."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="settings file (default: $CLACKS_CONFIG or /etc/clacks/config.toml)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("status", help="which LED and button drivers run, and any warning")
    test = actions.add_parser("test", help="light each lamp in turn, then report button presses")
    test.add_argument("--seconds", type=float, default=60.0, help="how long to listen for presses")
    test.add_argument("--terminal", action="store_true", help="also draw the lamps here")
    attract = actions.add_parser("attract", help="send GNU TERRY PRATCHETT round the towers")
    attract.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    attract.add_argument("--terminal", action="store_true", help="also draw the lamps here")
    attract.add_argument(
        "--game",
        choices=sorted(show_games()),
        default=ATTRACT_GAME,
        help=f"whose programme (default {ATTRACT_GAME}: {attract_title(ATTRACT_GAME)})",
    )
    config = actions.add_parser("config", help="print the settings in force as TOML")
    config.add_argument("--default", action="store_true", help="the default settings instead")
    actions.add_parser("power", help="print the power budget for the settings in force")
    return actions


def run(args: argparse.Namespace, out: TextIO | None = None, sleep: Sleep = time.sleep) -> int:
    out = out or sys.stdout
    path = Path(args.config) if args.config else config_path()
    if args.action == "config" and args.default:
        out.write(to_toml(BoardConfig()))
        return 0
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(f"clacks hardware: {exc}", file=sys.stderr)
        return 2
    if args.action == "config":
        out.write(to_toml(config))
        return 0
    if args.action == "power":
        out.write(power_budget_markdown(config))
        return 0
    terminal = out if getattr(args, "terminal", False) else None
    attract_game = getattr(args, "game", ATTRACT_GAME)
    board = create_board(config, terminal=terminal, attract_game=attract_game)
    board.start()
    try:
        if args.action == "status":
            return _status(board, out)
        if args.action == "test":
            return _test(board, out, sleep, args.seconds)
        return _attract(board, out, sleep, args.seconds, attract_game)
    except KeyboardInterrupt:
        return 0
    finally:
        board.stop()


def _status(board: Exchange, out: TextIO) -> int:
    status = board.status()
    status["model"] = pi_model() or "not a Raspberry Pi"
    # the phones' network: a box with no NetworkManager is no fault of the hardware, so its
    # reason is told in the hotspot's own entry rather than among the warnings
    status["hotspot"] = Hotspot().status().as_json()
    out.write(json.dumps(status, indent=2) + "\n")
    for warning in status["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _test(board: Exchange, out: TextIO, sleep: Sleep, seconds: float) -> int:
    status = board.status()
    out.write(f"LEDs: {status['leds']['backend']}; buttons: {status['buttons']['backend']}\n")
    for warning in status["warnings"]:
        out.write(f"warning: {warning}\n")
    out.write("Each lamp lights in turn, a1 to d4 (a1 is South's near left):\n")
    for lamp in range(16):
        out.write(f"  {lamp_name(lamp)}\n")
        out.flush()
        board.show(LampFrame(lit=1 << lamp))
        sleep(LAMP_STEP_S)
    board.show(LampFrame(lit=(1 << 16) - 1))
    out.write("All sixteen lamps lit.\n")
    sleep(LAMP_STEP_S * 2)
    board.show(LampFrame(lit=0))

    def pressed(button: str) -> None:
        out.write(f"  pressed {button}\n")
        out.flush()
        board.highlight(button_lamps(ATTRACT_GAME, button, board.game_options(ATTRACT_GAME)))

    board.on_press(pressed)
    if status["buttons"]["backend"] == "none":
        out.write("No GPIO buttons on this machine.\n")
        return 0
    out.write(f"Press the tower buttons (listening for {seconds:g} s, Ctrl-C to stop):\n")
    out.flush()
    sleep(seconds)
    return 0


def _attract(
    board: Exchange, out: TextIO, sleep: Sleep, seconds: float | None, game: str = ATTRACT_GAME
) -> int:
    out.write(f"Attract mode: {attract_title(game)} (Ctrl-C to stop)\n")
    out.flush()
    board.attract(True)
    if seconds is not None:
        sleep(seconds)
        return 0
    while True:
        sleep(3600)
