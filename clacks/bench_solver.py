"""Solver and bot figures: how long a next-symbol solve takes (a three-Jacquard hand at
the start of a turn, movement included), how much faster it is than brute force on the
same states, how many two-player planner games a second the box plays, and what a
planner decision costs in time and memory in a position no option allows (a stress
limit of a billion and thirty Jacquards), searched within its work budget."""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from typing import Any

from clacks.percentiles import percentile
from engine.clacks import ClacksGame, Options
from engine.clacks.bots import make_bot
from engine.clacks.puzzle import Puzzle, puzzle_from_state
from engine.clacks.selfplay import next_action
from engine.clacks.simulation import game_seeds, play_bot_game
from engine.clacks.solver import solve
from engine.clacks.solver_reference import solve_by_brute_force
from engine.clacks.state import ClacksState
from engine.core.rng import Rng


def turn_start_states(count: int, seed: int = 11) -> list[ClacksState]:
    """States at the start of a turn in seeded self-play games, where the player holds
    three Jacquards and may still move: the solve a hint or a bot makes most often."""
    states: list[ClacksState] = []
    number = 0
    while len(states) < count:
        game = ClacksGame.new(Options.for_players(2 + number % 3), seed * 1000 + number)
        rng = Rng(seed + number)
        number += 1
        while not game.over and len(game.log) < 400 and len(states) < count:
            state = game.state
            turn = state.turn
            if (
                turn.phase == "play"
                and turn.can_move
                and turn.stress_spent == 0
                and len(state.players[turn.seat].hand) == 3
            ):
                states.append(state.clone())
            game.apply(next_action(game, rng))
    return states


def _solve_times(puzzles: list[Puzzle]) -> list[float]:
    """Milliseconds of processor time per solve: the solver's own cost, whatever else
    the machine is running (other processes on a shared Pi or laptop stretch wall
    time by whole scheduler slices)."""
    times = []
    for puzzle in puzzles:
        started = time.process_time()
        solve(puzzle)
        times.append((time.process_time() - started) * 1000)
    return times


def _beyond_the_rules_decision() -> tuple[float, float]:
    """Processor milliseconds and peak traced megabytes of one planner decision in a
    position the options cannot deal, which only the work budget (engine.core.budget)
    and the solver's card limit keep small."""
    game = ClacksGame.new(Options.for_players(3), 5)
    state = game.state
    state.turn.stress_limit = 1_000_000_000
    state.players[state.turn.seat].hand += state.bag[:30]
    del state.bag[:30]
    seat = state.turn.seat
    view, legal = game.view(seat), game.legal_actions(seat)
    tracemalloc.start()
    started = time.process_time()
    make_bot("planner", game.components).choose(view, legal)
    elapsed = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return round(elapsed * 1000, 1), round(peak / 2**20, 1)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    quick = bool(getattr(args, "quick", False))
    states = turn_start_states(200 if quick else 1000)
    components = ClacksGame.new().components
    puzzles = [p for p in (puzzle_from_state(s, components) for s in states) if p is not None]
    gc.collect()
    gc.freeze()  # the benchmark's own thousand saved states are not the solver's garbage
    try:
        cold = _solve_times(puzzles)  # first pass: card tables are built as they are met
        warm = _solve_times(puzzles)  # as in a running game, where hands repeat
    finally:
        gc.unfreeze()
    compared = states[: 50 if quick else 200]
    started = time.process_time()
    for state in compared:
        solve_by_brute_force(state, components)
    brute_s = time.process_time() - started
    started = time.process_time()
    for state in compared:
        puzzle = puzzle_from_state(state, components)
        assert puzzle is not None
        solve(puzzle)
    solver_s = time.process_time() - started
    games = 10 if quick else 40
    started = time.perf_counter()
    for seed in game_seeds(3, games):
        play_bot_game(Options.for_players(2), seed, ["planner", "planner"])
    games_s = time.perf_counter() - started
    beyond_ms, beyond_mb = _beyond_the_rules_decision()
    return {
        "planner_beyond_rules_ms": beyond_ms,
        "planner_beyond_rules_peak_mb": beyond_mb,
        "solver_p50_ms": round(statistics.median(warm), 3),
        "solver_p99_ms": round(percentile(warm, 0.99), 3),
        "solver_cold_p99_ms": round(percentile(cold, 0.99), 3),
        "solver_speedup_vs_bruteforce": round(brute_s / max(solver_s, 1e-9), 1),
        "games_per_s": round(games / games_s, 2),
    }
