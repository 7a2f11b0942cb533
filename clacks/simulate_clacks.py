"""`clacks simulate --game clacks` (the default): many seeded games between bots, and the
figures balance is judged by.

Games are spread over worker processes; each game is fixed by its seed, so the figures
are the same whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from typing import TYPE_CHECKING, Any

from web.refusals import in_english

if TYPE_CHECKING:
    from engine.clacks.simulation import GameRecord
    from engine.clacks.state import Options

MAX_ROUNDS = 100  # the default of engine.clacks.simulation, kept here to import nothing


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Clacks' own options; `clacks simulate` adds them beside the common ones."""
    parser.add_argument("--mode", default="competitive", help="game mode (default competitive)")
    parser.add_argument(
        "--route", default="easy", help="co-op and solitaire route, the red seat's junior route"
    )
    parser.add_argument("--night-shift", action="store_true", help="co-op: Night Shift")
    parser.add_argument("--long-distance", action="store_true", help="co-op: Long Distance")
    from clacks.house_rules import add_competitive_variants

    add_competitive_variants(parser)
    parser.add_argument(
        "--max-rounds", type=int, default=MAX_ROUNDS, help="a longer game counts as unfinished"
    )
    parser.add_argument(
        "--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes to use"
    )


def options_from(args: argparse.Namespace) -> Options:
    from engine.clacks.state import MODES, Options

    if args.mode not in MODES:
        from engine.clacks.errors import BadOptions

        raise BadOptions(f"unknown mode {args.mode!r}; modes are {', '.join(MODES)}")
    from clacks.house_rules import house_rules

    variants: dict[str, Any] = {
        "express": args.express,
        "quick": args.quick,
        "long_message": args.long_message,
        **house_rules(args),
    }
    if args.mode == "competitive":
        return Options.for_players(args.players, balanced_start=args.balanced_start, **variants)
    return Options.for_players(
        args.players,
        mode=args.mode,
        route=args.route,
        night_shift=args.night_shift,
        long_distance=args.long_distance,
        **variants,
    )


def _play(task: tuple[dict[str, Any], int, list[str], int]) -> GameRecord:
    from engine.clacks.simulation import play_bot_game
    from engine.clacks.state import Options

    options, seed, levels, max_rounds = task
    return play_bot_game(Options.from_json(options), seed, levels, max_rounds=max_rounds)


def run(args: argparse.Namespace) -> int:
    from engine.clacks.bots import LEVELS
    from engine.clacks.errors import BadOptions
    from engine.clacks.simulation import game_seeds, levels_for_game, summarise

    if args.players is None:
        args.players = 1 if args.mode == "solitaire" else 2
    levels = [level.strip() for level in args.bots.split(",")]
    unknown = [level for level in levels if level not in LEVELS]
    problem = None
    if unknown:
        problem = f"unknown bot level(s) {', '.join(unknown)}; levels are {', '.join(LEVELS)}"
    elif len(levels) not in (1, args.players):
        problem = f"give one bot level or {args.players} (one per seat), not {len(levels)}"
    elif args.games < 1 or args.workers < 1 or args.max_rounds < 1:
        problem = "--games, --workers and --max-rounds must be at least 1"
    try:
        options = options_from(args)
    except BadOptions as exc:
        problem = problem or in_english(exc)
    if problem:
        print(f"clacks simulate: {problem}", file=sys.stderr)
        return 2
    tasks = [
        (options.to_json(), seed, levels_for_game(levels, args.players, i), args.max_rounds)
        for i, seed in enumerate(game_seeds(args.seed, args.games))
    ]
    started = time.perf_counter()
    workers = min(args.workers, len(tasks))
    if workers > 1:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with context.Pool(workers) as pool:
            records = pool.map(_play, tasks, chunksize=max(1, len(tasks) // (workers * 8)))
    else:
        records = [_play(task) for task in tasks]
    figures = summarise(records)
    figures.update(
        mode=args.mode,
        route=options.route if args.mode != "competitive" else None,
        players=args.players,
        bots=levels,
        seed=args.seed,
        seconds=round(time.perf_counter() - started, 2),
    )
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        _print_table(figures)
    return 0


def _print_table(figures: dict[str, Any]) -> None:
    from clacks.seeds import seed_text

    route = f", {figures['route']} route" if figures.get("route") else ""
    print(
        f"{figures['games']} {figures['mode']} games{route}, {figures['players']} players, "
        f"bots {','.join(figures['bots'])}, seed {seed_text(figures['seed'])} "
        f"({figures['seconds']} s)"
    )
    print(
        f"rounds: median {figures['median_rounds']}, 90th percentile {figures['p90_rounds']}, "
        f"mean {figures['mean_rounds']}; unfinished {figures['unfinished']}"
    )
    if "win_rate" in figures:
        print(f"the team won {figures['win_rate']:.1%} of the games")
    for title, key in (
        ("win rate by turn position", "win_rate_by_seat"),
        ("win rate by seat", "win_rate_by_table_seat"),
        ("win rate by bot level", "win_rate_by_bot"),
    ):
        rates = ", ".join(f"{k} {v:.1%}" for k, v in figures[key].items())
        print(f"{title}: {rates}")
    print(
        f"stress per turn {figures['stress_per_turn']}, per game {figures['stress_per_game']}; "
        f"symbols per turn {figures['symbols_per_turn']}"
    )
    print(
        f"sabotage: {figures['sabotage_successes']} of {figures['sabotage_attempts']} attempts "
        f"succeeded; Fault Reports played per game {figures['faults_played_per_game']}"
    )
