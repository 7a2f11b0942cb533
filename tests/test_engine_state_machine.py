"""Stateful fuzzing of the engine: a hypothesis state machine plays every mode with a
mix of legal actions (any seat's, drawn from ``legal_actions``), the self-play policy,
arbitrary JSON actions from any seat or the table (mostly illegal), undos by anyone, and
the Express clock. After every step: a refused action changed nothing, an accepted one
was legal, the log replays to the same state, the state survives JSON, every card is
somewhere exactly once, and no view shows what its viewer may not see.

At least 10,000 steps are run in all (CLACKS_FUZZ_STEPS to change it): 1,500 in the fast
tier, the rest in the full one.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from test_mode_simulation import check_cards, check_views

from engine.clacks.actions import TimeUp
from engine.clacks.data import load_components
from engine.clacks.errors import NothingToUndo
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import LAMP_NAMES, TOWERS, Seat
from engine.clacks.selfplay import next_action
from engine.clacks.session import ClacksSession
from engine.clacks.state import ClacksState
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.games import game_module

STEPS = int(os.environ.get("CLACKS_FUZZ_STEPS", "10000"))
FAST_STEPS = min(1_500, STEPS)
CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "long_message": True},
    {"players": 4, "quick": True},
    {"players": 2, "express": True, "turn_seconds": 30},
    {"mode": "coop", "players": 2},
    {"mode": "coop", "players": 3, "route": "hard", "night_shift": True},
    {"mode": "coop", "players": 4, "long_distance": True},
    {"mode": "solitaire", "players": 1, "night_shift": True},
    {"mode": "junior", "players": 2},
]
COMPONENTS = load_components()
CARD_IDS = sorted(COMPONENTS.jacquards)[::5] + sorted(COMPONENTS.faults)[::3]
SEATS = [s.label for s in Seat]


def _lamps() -> st.SearchStrategy[Any]:
    return st.lists(st.sampled_from([*LAMP_NAMES, "z9", ""]), max_size=7) | st.integers(-5, 70000)


ANY_ACTION = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                [
                    *("move", "play_jacquard", "play_fault", "transmit", "swap", "end_turn"),
                    *("time_up", "discard", "fly", ""),
                ]
            )
        },
        optional={
            "seat": st.sampled_from([*SEATS, "nowhere", None]) | st.integers(),
            "tower": st.sampled_from([*TOWERS, "zz", None]) | st.integers(),
            "lamps": _lamps(),
            "jacquard": st.sampled_from([*CARD_IDS, "nope"]) | st.integers(),
            "card": st.sampled_from([*CARD_IDS, "nope"]),
            "slot": st.sampled_from(["incident-1", "incident-2", "log-1", "log-2", "x"]),
            "at": st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=3),
            "extra": st.integers(),
        },
    ),
    st.none(),
    st.integers(),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=3),
)


class Counter:
    steps = 0


def _fingerprint(game: ClacksGame) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


class EngineMachine(RuleBasedStateMachine):
    session: ClacksSession
    now: float

    @property
    def game(self) -> ClacksGame:
        return self.session.clacks

    @property
    def state(self) -> ClacksState:
        return self.session.clacks.state

    def _at(self) -> float | None:
        return self.now if self.state.options.express else None

    @initialize(options=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1))
    def start(self, options: dict[str, Any], seed: int) -> None:
        self.now = 1000.0
        session = game_module("clacks").new(options, seed, self.now)
        assert isinstance(session, ClacksSession)
        self.session = session

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def a_legal_action(self, data: st.DataObject) -> None:
        Counter.steps += 1
        seat = data.draw(st.sampled_from(self.game.seats))
        legal = self.game.legal_actions(seat, self._at())
        if legal:
            self.game.apply(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: not self.game.over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def the_policy(self, seed: int) -> None:
        Counter.steps += 1
        action = next_action(self.game, Rng(seed), swap_chance=4)
        if isinstance(action, TimeUp):
            return  # the clock rule handles time
        if self.state.options.express:
            self.now = max(self.now, action.at or self.now)
        self.game.apply(action)

    @rule(seat=st.sampled_from([*SEATS, None]), action=ANY_ACTION)
    def any_action(self, seat: str | None, action: Any) -> None:
        Counter.steps += 1
        before = _fingerprint(self.game)
        trial = self.game.clone()
        try:
            self.session.apply(seat, action, self.now)
        except IllegalAction:
            assert _fingerprint(self.game) == before, "a refused action changed the game"
            return
        accepted = self.game.log[-1]
        legal = trial.legal_actions(accepted.seat, accepted.at)
        # what the action names must match a legal action; what it leaves out (the time,
        # a map game's tower) the rules fill in
        named = {k: v for k, v in accepted.to_json().items() if k != "at" and v is not None}
        assert any(named.items() <= a.to_json().items() for a in legal), (
            f"accepted {accepted.to_json()} is not among the legal actions"
        )

    @rule(seat=st.sampled_from(list(Seat)))
    def undo(self, seat: Seat) -> None:
        Counter.steps += 1
        before, log = _fingerprint(self.game), list(self.game.log)
        if not self.game.can_undo(seat):
            try:
                self.game.undo(seat)
            except NothingToUndo:
                assert _fingerprint(self.game) == before
                return
            raise AssertionError("undo succeeded where can_undo said no")
        self.game.undo(seat)
        assert self.game.log == log[:-1]
        replayed = ClacksGame.replay(self.game.log_to_json())
        assert replayed == self.game

    @precondition(lambda self: self.state.options.express and not self.game.over)
    @rule(seconds=st.floats(0, 45))
    def the_clock(self, seconds: float) -> None:
        Counter.steps += 1
        self.now += seconds
        action = self.session.clock_action(self.now)
        if action is not None:
            self.session.apply(None, action, self.now)

    @precondition(lambda self: self.state.options.express and not self.game.over)
    @rule(seconds=st.floats(0, 4000))
    def the_companion_restarts(self, seconds: float) -> None:
        Counter.steps += 1
        left = self.session.deadline()
        self.now += seconds
        action = self.session.resume_action(self.now)
        if action is None:
            return
        self.session.apply(None, action, self.now)
        deadline = self.session.deadline()
        assert left is not None and deadline is not None
        # the turn keeps at least the time it had when the companion went down
        assert deadline - self.now >= left - (self.now - seconds) - 1e-6
        assert deadline - self.now <= self.state.options.turn_seconds + 1e-6

    @precondition(lambda self: self.game.over)
    @rule(options=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1))
    def another_game(self, options: dict[str, Any], seed: int) -> None:
        Counter.steps += 1
        self.start(options, seed)

    @invariant()
    def consistent(self) -> None:
        game = self.game
        check_cards(game)
        assert ClacksGame.replay(game.log_to_json()) == game
        assert ClacksGame.from_json(json.loads(json.dumps(game.to_json()))) == game
        if Counter.steps % 3 == 0:
            check_views(game)


# a run of the machine plays `examples` games of up to 50 steps each; the short runs are
# fewer games, so the fast tier stops near its steps
@pytest.mark.parametrize(
    ("steps", "examples"),
    [
        pytest.param(FAST_STEPS, 10, id="short"),
        pytest.param(STEPS - FAST_STEPS, 60, id="long", marks=pytest.mark.slow),
    ],
)
def test_the_engine_survives_any_mix_of_legal_and_illegal_actions(
    steps: int, examples: int
) -> None:
    Counter.steps = 0
    runs = 0
    while Counter.steps < steps:
        runs += 1
        assert runs <= 50, "the state machine stopped making steps"
        run_state_machine_as_test(
            EngineMachine,
            settings=settings(
                max_examples=examples,
                stateful_step_count=50,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
    print(f"\nengine state machine: {Counter.steps} steps in {runs} runs")
    assert Counter.steps >= steps
