"""Engine figures: how fast the rules apply actions and replay logs, and how fast the
games' generator (HMAC_DRBG, engine.core.rng) draws."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from engine.clacks import ClacksGame, Options
from engine.clacks.selfplay import play_heuristic_game
from engine.core.rng import Rng
from firmware.entropy import new_seed


def measure(args: argparse.Namespace) -> dict[str, Any]:
    games = 20 if args.quick else 100
    actions = 0
    started = time.perf_counter()
    finished: list[ClacksGame] = []
    for seed in range(games):
        game = play_heuristic_game(ClacksGame.new(Options.for_players(2 + seed % 3), seed), seed)
        actions += len(game.log)
        finished.append(game)
    elapsed = time.perf_counter() - started
    replay_ms = []
    for game in finished[:20]:
        t0 = time.perf_counter()
        ClacksGame.replay(game.log_to_json())
        replay_ms.append((time.perf_counter() - t0) * 1000)
    rng = Rng(new_seed())
    draws = 20_000 if args.quick else 200_000
    started = time.process_time()
    for _ in range(draws):
        rng.below(48)
    draw_s = time.process_time() - started
    return {
        "engine_actions_per_s": round(actions / elapsed),
        "rng_draws_per_s": round(draws / draw_s),
        "engine_replay_ms_median": round(statistics.median(replay_ms), 2),
    }
