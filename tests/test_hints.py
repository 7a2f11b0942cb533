"""Hints and bots through the session seam, and in the terminal."""

from __future__ import annotations

import io
import re

import pytest

from clacks.cli import main
from clacks.terminal import play
from engine.clacks import Options, Seat
from engine.clacks.geometry import mask_of, tower
from engine.core.errors import IllegalAction
from engine.core.interface import game_module


def _session(options: dict[str, object], seed: int = 5):  # type: ignore[no-untyped-def]
    return game_module("clacks").new(options, seed)


def test_a_hint_is_a_plan_the_session_accepts() -> None:
    sent = 0
    for seed in range(12):
        session = _session({"players": 2}, seed)
        seat = session.active_seats[0]
        plan = session.hint(seat)
        assert plan is not None and plan["actions"]
        events = []
        for action in plan["actions"]:
            events += session.apply(seat, action, 0.0)
        kinds = [e["kind"] for e in events]
        if plan["complete"]:
            assert "transmitted" in kinds
            sent += 1
        else:
            assert "turn_ended" in kinds
    assert sent >= 6


def test_hint_lamps_show_the_flips_and_the_tower() -> None:
    session = _session({"players": 2})
    seat = session.active_seats[0]
    plan = session.hint(seat)
    frame = session.hint_lamps(seat)
    assert plan is not None and frame is not None
    flips = 0
    for lamps in plan["flips"]:
        flips |= mask_of(lamps)
    assert frame.preview == flips and frame.accent == tower(plan["tower"]).mask
    assert frame.lit == session.lamps().lit


def test_no_hint_out_of_turn_or_in_long_distance() -> None:
    session = _session({"players": 2})
    other = next(s.id for s in session.seats if s.id not in session.active_seats)
    assert session.hint(other) is None and session.hint_lamps(other) is None
    far = _session({"mode": "coop", "players": 3, "long_distance": True})
    assert far.view(far.active_seats[0])["hints_allowed"] is False
    assert far.hint(far.active_seats[0]) is None
    near = _session({"mode": "coop", "players": 3})
    assert near.hint(near.active_seats[0]) is not None


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 2, "express": True},
        {"mode": "coop", "players": 2, "route": "hard"},
        {"mode": "solitaire", "players": 1},
        {"mode": "junior", "players": 2},
    ],
)
def test_bots_fill_every_seat_through_the_session(options: dict[str, object]) -> None:
    session = _session(options, seed=9)
    assert session.bot_levels() == ["random", "greedy", "planner"]
    now = 0.0
    for _ in range(2000):
        if session.over:
            break
        seat = session.active_seats[0]
        action = session.bot_action(seat, "planner", now)
        assert action is not None
        assert action == session.bot_action(seat, "planner", now)  # deterministic
        session.apply(seat, action, now)
        now += 1.0
    assert session.over
    assert session.result() is not None


def test_an_unknown_bot_level_is_refused() -> None:
    session = _session({"players": 2})
    with pytest.raises(ValueError, match="levels are random, greedy, planner"):
        session.bot_action(session.active_seats[0], "genius", 0.0)


def test_a_bot_action_must_still_be_legal_when_applied() -> None:
    session = _session({"players": 2})
    seat = session.active_seats[0]
    other = next(s.id for s in session.seats if s.id != seat)
    action = session.bot_action(seat, "planner", 0.0)
    assert action is not None
    with pytest.raises(IllegalAction):
        session.apply(other, {**action, "seat": other}, 0.0)


def test_the_terminal_gives_hints_and_seats_bots(capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["hint", "quit"])
    out = io.StringIO()
    options = Options.for_players(2)
    assert play(options, 3, lambda prompt: next(answers), out, bots={Seat.NORTH: "planner"}) == 1
    assert "Hint (" in out.getvalue()
    out = io.StringIO()
    both = {Seat.SOUTH: "planner", Seat.NORTH: "greedy"}
    assert play(options, 3, lambda prompt: "quit", out, bots=both) == 0
    assert re.search(r"\n(South|North) wins! ", out.getvalue())  # two bots play it out
    assert main(["play", "--bots", "north=genius"]) == 2
    assert "unknown bot level" in capsys.readouterr().err
