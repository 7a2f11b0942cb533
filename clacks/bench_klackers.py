"""Klackers figures: how long the planner's exact solve takes, how fast a bot decides,
and how many bot matches a second the engine plays."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from clacks.simulate_klackers import play_match
from engine.klackers import KlackersGame, KlackersOptions
from engine.klackers.bots import PlannerBot, make_bot
from engine.klackers.numbers import combinations
from engine.klackers.strategy import exact_values


def measure(args: argparse.Namespace) -> dict[str, Any]:
    matches = 30 if args.quick else 200
    solve_ms = []
    for _ in range(3 if args.quick else 10):
        exact_values.cache_clear()
        combinations.cache_clear()  # cold: as on a fresh start of the companion
        started = time.perf_counter()
        exact_values("score")
        solve_ms.append((time.perf_counter() - started) * 1000)
    planner = PlannerBot()
    decide_us: list[float] = []
    actions = 0
    started = time.perf_counter()
    for seed in range(matches):
        options = KlackersOptions.from_json({"players": 2 + seed % 3})
        bots = {seat: make_bot("planner") for seat in options.seats}
        game = play_match(KlackersGame.new(options, seed), bots)
        actions += len(game.log)
    elapsed = time.perf_counter() - started
    game = KlackersGame.new(KlackersOptions(), 1)
    for _ in range(200):
        seat = game.current_seat
        if seat is None:
            game = KlackersGame.new(KlackersOptions(), len(decide_us))
            continue
        view = game.view(seat)
        t0 = time.perf_counter()
        action = planner.choose(view)
        decide_us.append((time.perf_counter() - t0) * 1e6)
        game.apply(action)
    return {
        "klackers_planner_solve_ms": round(statistics.median(solve_ms), 1),
        "klackers_planner_decision_us_median": round(statistics.median(decide_us), 1),
        "klackers_matches_per_s": round(matches / elapsed, 1),
        "klackers_actions_per_s": round(actions / elapsed),
    }
