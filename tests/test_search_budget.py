"""Hints and bots think within a bounded amount of work whatever the options and the hand,
and stop when their caller gives up on them.

The budget is counted in steps by the engine itself (engine.core.budget), never by a
clock, so the same position gets the same answer everywhere. A game the rules and the
option ranges deal never comes near it; a position they cannot deal (a stress limit of a
billion, as a game could be set up before options had ranges, and a hand of thirty) is
searched only as far as the budget allows, in bounded memory.
"""

from __future__ import annotations

import logging
import threading
import tracemalloc
from typing import Any

import pytest

import web.bots
from engine.clacks.bots import make_bot
from engine.clacks.bots.planner import PLANNER_STEPS, PlannerBot
from engine.clacks.game import ClacksGame
from engine.clacks.hints import hint
from engine.clacks.puzzle import puzzle_from_state
from engine.clacks.session import ClacksSession
from engine.clacks.simulation import game_seeds, play_bot_game
from engine.clacks.solver import MAX_PIECES, solve
from engine.clacks.state import RANGES, Options
from engine.core.budget import SearchCancelled, WorkBudget
from web.bots import BotTurn, think

MEMORY_LIMIT = 64 * 2**20  # bytes a single decision may hold at its peak


def beyond_the_rules(hand: int = 30) -> ClacksGame:
    """A competitive game whose player in turn has a stress limit of a billion and
    ``hand`` more Jacquards than the rules deal: no option can set this up."""
    game = ClacksGame.new(Options.for_players(3), 5)
    state = game.state
    state.turn.stress_limit = 1_000_000_000
    player = state.players[state.turn.seat]
    player.hand += state.bag[:hand]
    del state.bag[:hand]
    return game


def test_the_extreme_options_never_reach_the_budget() -> None:
    """Planner games at the edges of the option ranges: every decision's work is far
    inside the budget, and every solve of a turn is exact (never cut short)."""
    steps: list[int] = []
    choose = PlannerBot.choose

    def counted(bot: PlannerBot, view: Any, legal: Any) -> Any:
        action = choose(bot, view, legal)
        steps.append(bot.work.spent)
        return action

    options = Options.for_players(
        4, stress_limit=RANGES["stress_limit"].high, hand_size=RANGES["hand_size"].high
    )
    tracemalloc.start()
    try:
        PlannerBot.choose = counted  # type: ignore[method-assign,assignment]
        for seed in game_seeds(21, 3):
            record = play_bot_game(options, seed, ["planner"] * 4, max_rounds=40)
            assert record.end_reason is not None
            game = ClacksGame.new(options, seed)
            for _ in range(40):
                puzzle = puzzle_from_state(game.state, game.components, with_faults=True)
                if puzzle is not None:
                    assert solve(puzzle).exact
                if game.over:
                    break
                bot = make_bot("planner", game.components)
                seat = game.current_seat
                game.apply(bot.choose(game.view(seat), game.legal_actions(seat)))  # type: ignore[arg-type]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        PlannerBot.choose = choose  # type: ignore[method-assign]
        tracemalloc.stop()
    assert steps and max(steps) < PLANNER_STEPS // 20, max(steps)
    assert peak < MEMORY_LIMIT, peak


def test_a_position_beyond_the_rules_is_searched_within_the_budget() -> None:
    game = beyond_the_rules()
    seat = game.current_seat
    view = game.view(seat)
    tracemalloc.start()
    try:
        plan = hint(view, game.components)
        hint_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        bot = make_bot("planner", game.components, 1)
        assert isinstance(bot, PlannerBot)
        action = bot.choose(view, game.legal_actions(seat))
        bot_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert bot.work.spent <= PLANNER_STEPS + MAX_PIECES * 1024  # a step's overshoot at most
    assert action in game.legal_actions(seat)
    assert plan is None or plan.seat is seat
    assert hint_peak < MEMORY_LIMIT and bot_peak < MEMORY_LIMIT, (hint_peak, bot_peak)
    # counted in steps, not time: the same position gets the same answer
    again = make_bot("planner", game.components, 1).choose(view, game.legal_actions(seat))
    assert again == action
    assert hint(view, game.components) == plan


def test_a_budget_counts_steps_and_asks_its_caller_now_and_then() -> None:
    asked: list[int] = []
    def ask() -> bool:
        asked.append(1)
        return False

    budget = WorkBudget(5000, ask)
    assert all(budget.spend() for _ in range(5000))
    assert not budget.spend() and budget.exhausted
    assert len(asked) == 4  # every 1024 steps, not at every step
    with pytest.raises(ValueError):
        WorkBudget(0)


def test_a_hint_or_a_bot_whose_caller_gives_up_stops() -> None:
    game = beyond_the_rules()
    session = ClacksSession(game)
    seat = game.current_seat.label
    with pytest.raises(SearchCancelled):
        session.hint(seat, cancelled=lambda: True)
    with pytest.raises(SearchCancelled):
        session.bot_action(seat, "planner", 0.0, cancelled=lambda: True)
    # not cancelled, the same calls answer
    assert session.bot_action(seat, "planner", 0.0, cancelled=lambda: False) is not None


def test_the_companion_cancels_a_bots_thinking_it_no_longer_waits_for(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """web.bots: a planner that overruns its time is replaced by the weakest level, and
    its own thread stops searching (SearchCancelled) instead of running on."""
    game = beyond_the_rules()
    seat = game.current_seat.label

    class BeyondTheRules:
        def replay(self, log: object) -> ClacksSession:
            return ClacksSession(beyond_the_rules())

    monkeypatch.setattr(web.bots, "game_module", lambda name: BeyondTheRules())
    caplog.set_level(logging.DEBUG, logger="clacks.bots")
    turn = BotTurn(1, seat, "planner", "clacks", {}, 0.0, due=True)
    action = think(turn, 0.0, 0.0, "random")
    assert action is not None  # the random level played the turn
    for thread in threading.enumerate():
        if thread.name == f"bot-{seat}":
            thread.join(timeout=30)
            assert not thread.is_alive()
    assert any("stopped thinking" in r.getMessage() for r in caplog.records)
