"""`clacks simulate --game clockman`: many seeded games of random reports, and their figures.

Clockman has no bots (nobody can move a piece on the table for a player), so the
simulation stands in for the table: each step, someone the game waits for reports a
random landing, plays a random card, offers a random trade or answers at random, mostly
things that could have happened and now and then nonsense the engine must refuse
(engine/clockman/simulation.py). Every invariant is checked after every step; any
problem found is printed and makes the command fail.

Figures: games played and finished, steps and turns per game (median, 90th percentile),
each seat's win rate, refused reports and undos per game, how often each rule came up.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from typing import Any

from clacks.percentiles import percentile
from engine.clockman.errors import BadOptions
from engine.clockman.options import HAMSTER, SEATING, ClockmanOptions
from engine.clockman.simulation import MAX_STEPS, play_random_game
from web.refusals import in_english

REPORTED = (
    "digit_taken",
    "blockade_passed",
    "lift_used",
    "transferred",
    "knocked_out",
    "digit_taken_from",
    "offer_accepted",
    "card_played",
    "straight_entered",
    "straight_passed",
    "win_revoked",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Clockman's own options; `clacks simulate` adds them beside the common ones."""
    parser.add_argument("--transfer", action="store_true", help="Clockman: the Übertragungsregel")
    parser.add_argument(
        "--hamster", choices=HAMSTER, default="off", help="Clockman: the Hamsterregel (or extended)"
    )
    parser.add_argument("--robbery", action="store_true", help="Clockman: the Raubregel")
    parser.add_argument("--swap", action="store_true", help="Clockman: the Tauschregel")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=MAX_STEPS,
        help="Clockman: a longer game counts as unfinished",
    )


def options_from(args: argparse.Namespace) -> ClockmanOptions:
    return ClockmanOptions(
        seats=SEATING.for_players(args.players),
        transfer=args.transfer,
        hamster=args.hamster,
        robbery=args.robbery,
        swap=args.swap,
    )


def simulate(options: ClockmanOptions, games: int, seed: int, max_steps: int) -> dict[str, Any]:
    started = time.perf_counter()
    wins: Counter[str] = Counter()
    events: Counter[str] = Counter()
    steps: list[int] = []
    turns: list[int] = []
    problems: list[str] = []
    refused = undone = finished = 0
    for index in range(games):
        outcome = play_random_game(options, seed + index, max_steps)
        game = outcome.game
        steps.append(outcome.steps)
        turns.append(outcome.events["turn_started"] + 1)
        refused += outcome.refused
        undone += outcome.undone
        events += outcome.events
        problems += [f"seed {seed + index}: {p}" for p in outcome.problems]
        if game.over:
            finished += 1
            wins[game.state.winners[0]] += 1
    return {
        "game": "clockman",
        "games": games,
        "players": len(options.seats),
        "options": options.to_json(),
        "seed": seed,
        "finished": finished,
        "median_steps": statistics.median(steps),
        "p90_steps": percentile(steps, 0.9),
        "median_turns": statistics.median(turns),
        "win_rate_by_seat": {s: round(wins[s] / games, 4) for s in options.seats},
        "refused_per_game": round(refused / games, 2),
        "undone_per_game": round(undone / games, 2),
        "per_game": {kind: round(events[kind] / games, 2) for kind in REPORTED},
        "problems": problems,
        "seconds": round(time.perf_counter() - started, 2),
    }


def run(args: argparse.Namespace) -> int:
    if args.players is None:
        args.players = 2
    try:
        if args.games < 1 or args.max_steps < 1:
            raise ValueError("--games and --max-steps must be at least 1")
        options = options_from(args)
    except (ValueError, BadOptions) as exc:
        print(f"clacks simulate: {in_english(exc)}", file=sys.stderr)
        return 2
    figures = simulate(options, args.games, args.seed, args.max_steps)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        rules = [r for r in ("transfer", "robbery", "swap") if getattr(options, r)]
        if options.hamster != "off":
            rules.append(f"hamster {options.hamster}")
        print(
            f"{figures['games']} Clockman games of random reports, {figures['players']} players, "
            f"seed {args.seed}, optional rules: {', '.join(rules) or 'none'} ({figures['seconds']} s)"
        )
        print(
            f"  finished {figures['finished']}; steps median {figures['median_steps']}, "
            f"90th percentile {figures['p90_steps']}; turns median {figures['median_turns']}"
        )
        for seat, rate in figures["win_rate_by_seat"].items():
            print(f"  {seat:<6} wins {rate:.1%}")
        print(
            f"  refused reports per game {figures['refused_per_game']}, undone "
            f"{figures['undone_per_game']}"
        )
        print("  per game: " + ", ".join(f"{k} {v}" for k, v in figures["per_game"].items()))
        print(f"  invariant problems: {len(figures['problems'])}")
        for problem in figures["problems"][:20]:
            print(f"    {problem}")
    return 1 if figures["problems"] else 0
