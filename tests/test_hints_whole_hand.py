"""Hints weigh every card the seat may play now: Wick Fire darkening a tower, Fault
Reports that raise the turn's stress limit, and out of time in Clacks Express the
Jacquard to discard."""

from __future__ import annotations

import pytest

from engine.clacks import ClacksGame, Options, Seat
from engine.clacks.geometry import FULL_BOARD, lamps_of, mask_of, tower
from engine.clacks.session import ClacksSession
from engine.clacks.state import Sabotage

S, W, N = Seat.SOUTH, Seat.WEST, Seat.NORTH


def _sabotage(tower_name: str, players: int = 3, seed: int = 4) -> ClacksSession:
    """South's turn, darkening the tower the Planner (North) sent its last letter from."""
    game = ClacksGame.new(Options.for_players(players), seed)
    state = game.state
    state.turn.seat = S
    state.order = [S] + [s for s in state.order if s is not S]
    state.sabotage = Sabotage(N, tower_name)
    state.turn.phase, state.turn.can_move = "sabotage", False
    return ClacksSession(game)


def _play(session: ClacksSession, seat: str, actions: list[dict[str, object]]) -> list[str]:
    kinds: list[str] = []
    for action in actions:
        kinds += [e["kind"] for e in session.apply(seat, action, 0.0)]
    return kinds


def test_a_wick_fire_in_hand_darkens_the_tower_after_an_overload() -> None:
    session = _sabotage("c2d2")
    state = session.clacks.state
    state.board = FULL_BOARD  # the Planner played Overload: all lamps lit
    south = state.players[S]
    south.hand, south.faults = ["pin-2", "pair-1", "stile-1"], ["wick-fire-1"]
    state.turn.stress_limit, state.turn.stress_spent = 5, 0
    plan = session.hint("south")
    assert plan is not None
    assert plan["complete"] and plan["goal"] == "darken" and plan["cost"] == 0
    first = plan["actions"][0]
    assert (first["type"], first["card"], first["tower"]) == ("play_fault", "wick-fire-1", "c2d2")
    assert plan["cards"] == ["wick-fire-1"] and plan["flips"] == [lamps_of(tower("c2d2").mask)]
    assert "sabotage_succeeded" in _play(session, "south", plan["actions"])


@pytest.mark.parametrize("bonus", ["well-oiled-1", "clacks-technician-1"])
def test_a_fault_report_that_raises_the_stress_limit_makes_the_darkening_possible(
    bonus: str,
) -> None:
    session = _sabotage("b2c2")
    state = session.clacks.state
    lit = lamps_of(tower("b2c2").mask)
    state.board = mask_of([lit[0], lit[-1]])  # two lamps apart: two Pins, 2 stress points
    south = state.players[S]
    south.hand, south.faults = ["pin-2", "pin-3"], [bonus]
    state.turn.stress_limit, state.turn.stress_spent = 1, 0
    plan = session.hint("south")
    assert plan is not None and plan["complete"], plan
    assert plan["cost"] == 2 and plan["cards"][0] == bonus
    first = plan["actions"][0]
    assert (first["type"], first["card"], first.get("tower")) == ("play_fault", bonus, None)
    assert "sabotage_succeeded" in _play(session, "south", plan["actions"])


def test_without_the_fault_report_the_hint_says_the_tower_cannot_be_darkened() -> None:
    session = _sabotage("c2d2")
    state = session.clacks.state
    state.board = FULL_BOARD
    state.players[S].hand, state.players[S].faults = ["pin-2"], []
    plan = session.hint("south")
    assert plan is not None and not plan["complete"]
    assert [a["type"] for a in plan["actions"]] == ["end_turn"] and plan["wrong"] == 6


def test_out_of_time_in_express_the_hint_names_the_jacquard_to_discard() -> None:
    game = ClacksGame.new(Options.for_players(2, express=True, start_time=100.0), 3)
    session = ClacksSession(game)
    seat = game.state.turn.seat.label
    now = 100.0 + game.state.options.turn_seconds
    time_up = session.clock_action(now)
    assert time_up is not None
    session.apply(None, time_up, now)
    assert game.state.turn.phase == "timeout_discard"
    plan = session.hint(seat)
    assert plan is not None and plan["goal"] == "discard"
    hand = list(game.state.players[game.state.turn.seat].hand)
    assert plan["discard"] in hand and plan["cards"] == []
    assert [(a["type"], a["jacquard"]) for a in plan["actions"]] == [("discard", plan["discard"])]
    # the reason: what the cards kept can do next turn (sent, or how many lamps short)
    assert plan["complete"] or plan["wrong"] > 0
    kinds = _play(session, seat, plan["actions"])
    assert "discarded" in kinds
    assert plan["discard"] not in game.state.players[Seat.parse(seat)].hand
