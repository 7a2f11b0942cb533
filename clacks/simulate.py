"""`clacks simulate`: many seeded games of one game, and the figures it is judged by.

The command holds the arguments every game takes (the game, players, bots, games, seed,
JSON); each game that can be simulated adds its own and plays the games in its module,
``clacks/simulate_<game>.py`` for the game registered as ``<game>`` in engine/games.py,
with ``add_arguments(parser)`` and ``run(args) -> int``. It is found by that name, as the
firmware finds a game's show module (firmware/shows.py), so that adding a game edits no
table here.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from types import ModuleType


def simulations() -> dict[str, ModuleType]:
    """Every game with a simulation, in the registry's order."""
    from engine.games import game_modules

    found = {game: f"clacks.simulate_{game.replace('-', '_')}" for game in game_modules()}
    return {
        game: importlib.import_module(path)
        for game, path in found.items()
        if importlib.util.find_spec(path) is not None
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from clacks.seeds import seed_argument
    from engine.games import DEFAULT_GAME

    games = simulations()
    parser.add_argument(
        "--game", choices=list(games), default=DEFAULT_GAME, help="the game to simulate"
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=(1, 2, 3, 4, 5, 6),
        help="players (default: 2, or 1 in solitaire; Guards! Guards!: random, 2 to 6)",
    )
    parser.add_argument(
        "--bots",
        default="planner",
        help="bot level for every seat, or one per seat in turn order, e.g. planner,greedy "
        "(levels: random, greedy, planner); mixed levels rotate through the seats game by game",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--seed",
        type=seed_argument,
        help="seed of the whole run (default: a new one from the operating system, printed)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    for simulation in games.values():
        simulation.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.seed is None:
        from firmware.entropy import new_seed

        args.seed = new_seed()
    result: int = simulations()[args.game].run(args)
    return result
