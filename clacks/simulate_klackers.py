"""`clacks simulate --game klackers`: many bot matches of Klackers, and their figures.

Each seat is played by a bot (random, greedy or planner) that sees only its own seat's
view. Figures: matches played, rounds per match (median, 90th percentile), each seat's
and each bot level's match win rate, mean score per turn (overall and by level), the
Klack rate and the share of rounds pushed.

The win rate of a level is the share of the matches played by a seat of that level that
the seat won (the average over that level's seats), so with N players an even field
wins 1/N at every level.

`clacks simulate` takes the common arguments (players, games, seed, bots, JSON) and
adds ``add_arguments``; with ``--game klackers`` it hands over to ``run``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter, defaultdict
from typing import Any

from clacks.percentiles import percentile
from clacks.seeds import seed_text
from engine.core.rng import derive_seed
from engine.klackers import KlackersGame, KlackersOptions
from engine.klackers.bots import LEVELS, Bot, make_bot
from engine.klackers.options import DEFAULT_SEATS
from web.refusals import in_english


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Klackers' own options; `clacks simulate` adds them beside the common ones."""
    parser.add_argument("--rounds", type=int, help="Klackers: rounds per match (default 3)")
    parser.add_argument("--target", type=int, help="Klackers: play to this many chips")
    parser.add_argument("--hughie", action="store_true", help="Klackers: the Hughie Rule")
    parser.add_argument("--klack-to-win", action="store_true", help="Klackers: Klack to Win")
    parser.add_argument(
        "--klack-worth-two", action="store_true", help="Klackers: Klack is Worth Two"
    )


def bot_levels(spec: str, players: int) -> list[str]:
    levels = [part.strip() for part in spec.split(",") if part.strip()]
    if not levels:
        raise ValueError("--bots needs at least one level")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise ValueError(f"unknown bot level {unknown[0]!r}; levels are {', '.join(LEVELS)}")
    if len(levels) > players:
        raise ValueError(f"{len(levels)} bot levels for {players} players")
    return levels + [levels[-1]] * (players - len(levels))


def options_from(args: argparse.Namespace) -> KlackersOptions:
    if args.players not in DEFAULT_SEATS:
        raise ValueError(f"Klackers is for 2 to 4 players, not {args.players}")
    target = getattr(args, "target", None)
    rounds = getattr(args, "rounds", None)
    data: dict[str, Any] = {
        "players": args.players,
        "rounds": rounds if rounds is not None else (None if target else 3),
        "target": target,
        "hughie": getattr(args, "hughie", False),
        "klack_to_win": getattr(args, "klack_to_win", False),
        "klack_worth_two": getattr(args, "klack_worth_two", False),
    }
    return KlackersOptions.from_json(data)


def play_match(game: KlackersGame, bots: dict[str, Bot]) -> KlackersGame:
    """Play ``game`` to its end, each seat's bot choosing from that seat's view."""
    while not game.over:
        seat = game.current_seat
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    return game


def simulate(options: KlackersOptions, levels: list[str], games: int, seed: int) -> dict[str, Any]:
    seats = list(options.seats)
    level_of = dict(zip(seats, levels, strict=True))
    wins: Counter[str] = Counter()
    rounds: list[int] = []
    scores: dict[str, list[int]] = defaultdict(list)
    klacks = turns = pushed = 0
    for index in range(games):
        match_seed = derive_seed(seed, "match", index)
        bots = {s: make_bot(level_of[s], derive_seed(match_seed, "bot", s)) for s in seats}
        game = play_match(KlackersGame.new(options, match_seed), bots)
        wins[game.winners[0]] += 1
        results = game.state.results
        rounds.append(len(results))
        pushed += sum(r.outcome == "push" for r in results)
        for result in results:
            for s, score in result.scores.items():
                scores[level_of[s]].append(score)
                klacks += score == 0
                turns += 1
    all_scores = [score for level_scores in scores.values() for score in level_scores]
    seats_per_level = Counter(levels)
    return {
        "game": "klackers",
        "games": games,
        "players": len(seats),
        "seed": seed,
        "bots": level_of,
        "options": options.to_json(),
        "median_rounds": statistics.median(rounds),
        "p90_rounds": percentile(rounds, 0.9),
        "win_rate_by_seat": {s: round(wins[s] / games, 4) for s in seats},
        "win_rate_by_bot": {
            level: round(sum(wins[s] for s in seats if level_of[s] == level) / (games * count), 4)
            for level, count in seats_per_level.items()
        },
        "mean_score": round(statistics.fmean(all_scores), 3),
        "mean_score_by_bot": {
            level: round(statistics.fmean(values), 3) for level, values in scores.items()
        },
        "klack_rate": round(klacks / turns, 4),
        "push_rate": round(pushed / sum(rounds), 4),
    }


def run(args: argparse.Namespace) -> int:
    if args.players is None:
        args.players = 2
    try:
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        options = options_from(args)
        levels = bot_levels(args.bots, args.players)
    except ValueError as exc:  # bad options (IllegalAction is one too)
        print(f"clacks simulate: {in_english(exc)}", file=sys.stderr)
        return 2
    figures = simulate(options, levels, args.games, args.seed)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(
        f"{figures['games']} Klackers matches, {figures['players']} players, "
        f"seed {seed_text(args.seed)}"
    )
    for key in ("median_rounds", "p90_rounds", "mean_score", "klack_rate", "push_rate"):
        print(f"  {key:<14} {figures[key]}")
    for seat, rate in figures["win_rate_by_seat"].items():
        print(f"  {seat:<6} ({figures['bots'][seat]:<7}) wins {rate:.1%}")
    for level, rate in figures["win_rate_by_bot"].items():
        mean = figures["mean_score_by_bot"][level]
        print(f"  {level:<7} wins {rate:.1%} of its seats' matches, mean score {mean}")
    return 0
