"""`clacks simulate --game guards`: many seeded Guards! Guards! games of random reports.

Guards! Guards! has no bots (its pieces are on a real board), so the simulation plays
the companion as a table of careless players would: every step some player sends a
report their phone offers, its fields filled at random, and now and then one that makes
no sense. Every game is checked as it goes (dollars never below nothing, attributes
within their tables, at most five Great Spells, each card in one place, refusals that
change nothing, no view showing another player's hand or Saboteurs) and replayed from
its log at the end. A broken rule stops the run with the game's seed.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.guards.simulation import InvariantBroken, simulate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Guards! Guards!' own options; `clacks simulate` adds them beside the common ones."""
    parser.add_argument(
        "--spells", type=int, help="Guards! Guards!: Great Spells to win (default: random)"
    )


def run(args: argparse.Namespace) -> int:
    players = args.players
    if players is not None and not 2 <= players <= 6:
        print(f"clacks simulate: Guards! Guards! is for 2 to 6 players, not {players}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("clacks simulate: --games must be at least 1", file=sys.stderr)
        return 2
    spells = getattr(args, "spells", None)
    if spells is not None and not 1 <= spells <= 5:
        print(f"clacks simulate: --spells runs from 1 to 5, not {spells}", file=sys.stderr)
        return 2
    try:
        figures = simulate(args.games, args.seed, players=players, spells=spells)
    except InvariantBroken as exc:
        print(f"clacks simulate: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(f"{figures['games']} Guards! Guards! games of random reports, seed {args.seed}: every check held")
    print(f"  players            {', '.join(f'{n}: {c}' for n, c in figures['players'].items())}")
    print(f"  endings            {', '.join(f'{k}: {v}' for k, v in sorted(figures['endings'].items()))}")
    for key in ("actions_per_game", "refused_per_game", "rolls", "spells_returned", "dragons_summoned"):
        print(f"  {key:<18} {figures[key]}")
    return 0
