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
from engine.core.interface import (
    HINT_FORBIDDEN,
    HINT_NOT_YOUR_TURN,
    HINT_NOTHING_TO_DO,
    JSON,
    Session,
)
from engine.games import game_module


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


def test_a_hint_says_why_there_is_none() -> None:
    session = _session({"players": 2})
    seat = session.active_seats[0]
    other = next(s.id for s in session.seats if s.id != seat)
    assert session.no_hint_reason(other) == HINT_NOT_YOUR_TURN
    far = _session({"mode": "coop", "players": 2, "long_distance": True})
    assert far.no_hint_reason(far.active_seats[0]) == HINT_FORBIDDEN
    # the alphabet trainer has no hints: the seam's own answer, from whose turn it is
    trainer = game_module("clacks-trainer").new({}, 3)
    assert trainer.hint("south") is None
    assert trainer.no_hint_reason("south") == HINT_NOTHING_TO_DO
    assert trainer.no_hint_reason("north") == HINT_NOT_YOUR_TURN


def test_when_every_plan_loses_the_race_the_hint_says_so_and_names_the_least_bad() -> None:
    session = _session({"mode": "coop", "players": 2}, seed=7)
    seat = session.active_seats[0]
    assert session.hint(seat)["hopeless"] is False
    # the Post Office as many steps from Genua as the cheapest Jacquard costs
    cheapest = min(card["cost"] for card in session.view(seat)["you"]["hand"])
    track = session.view(seat)["post_office"]["track"]
    session.clacks.state.team.post_office = track - cheapest
    view = session.view(seat)
    assert view["post_office"]["steps_left"] == cheapest  # any Jacquard reaches Genua
    plan = session.hint(seat)
    assert plan is not None and plan["hopeless"] is True
    # the least bad: no legal turn costs less, and it is a turn the rules accept
    assert plan["cost"] == cheapest
    events = []
    for action in plan["actions"]:
        if not session.over:  # the race is lost part-way, as the hint said it would be
            events += session.apply(seat, action, 0.0)
    assert "race_lost" in [e["kind"] for e in events]


def test_a_refusal_is_the_engines_reason_and_changes_nothing() -> None:
    session = _session({"players": 2}, seed=5)
    seat = session.active_seats[0]
    before = session.log_json()
    move = next(a for a in session.legal_actions(seat, 0.0) if a["type"] == "move")
    assert session.refusal(seat, move, 0.0) is None
    other = next(s.id for s in session.seats if s.id != seat)
    assert session.refusal(other, {"type": "end_turn"}, 0.0).rule == "not_your_turn"
    play = next(a for a in session.legal_actions(seat, 0.0) if a["type"] == "play_jacquard")
    session.apply(seat, play, 0.0)
    refused = session.refusal(seat, move, 0.0)
    # after a Jacquard the pawn stays: the rules put movement first
    assert refused is not None and refused.rule == "move_not_allowed"
    assert refused.params == {"reason": "played", "played": 1}
    assert session.log_json()["actions"] == [*before["actions"], play]
    # a game without a cheaper copy is tried on a deep copy by the seam itself
    trainer = game_module("clacks-trainer").new({}, 3)
    assert trainer.refusal("south", {"type": "answer", "symbol": "??"}, 0.0) is not None
    assert trainer.refusal("south", {"type": "skip"}, 0.0) is None
    assert trainer.view("south")["score"]["asked"] == 0


def coop_with_a_lamp_flipped_twice() -> tuple[Session, str, JSON]:
    """A two-player co-op game (seed 3) whose third turn's plan flips b3 twice: two
    cards over it leave it as it was."""
    session = _session({"mode": "coop", "players": 2}, 3)
    for _ in range(2):
        seat = session.active_seats[0]
        plan = session.hint(seat)
        assert plan is not None
        for action in plan["actions"]:
            session.apply(seat, action, 0.0)
    seat = session.active_seats[0]
    plan = session.hint(seat)
    assert plan is not None
    assert sum("b3" in lamps for lamps in plan["flips"]) == 2, plan["flips"]
    return session, seat, plan


def test_a_hint_marks_only_the_lamps_its_plan_changes() -> None:
    """A lamp two of the plan's cards flip is back as it was: it is not marked; every lamp
    flipped an odd number of times is."""
    session, seat, plan = coop_with_a_lamp_flipped_twice()
    changed = 0
    for lamps in plan["flips"]:
        changed ^= mask_of(lamps)
    frame = session.hint_lamps(seat)
    assert frame is not None and frame.preview == changed
    assert not frame.preview & mask_of(["b3"])
    before = session.lamps().lit
    for action in plan["actions"]:
        session.apply(seat, action, 0.0)
    assert session.lamps().lit ^ before == changed  # exactly the lamps the plan changed
