"""Klackers as printed: "Once they're down they stay down". A pull cannot be taken back,
unless the table chose the house rule that allows it until the next roll."""

from __future__ import annotations

import pytest
from klackers_support import rolled_until_a_pull

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, Session
from engine.games import game_module
from web.refusals import in_english


def _pulled(options: JSON) -> tuple[Session, str, JSON]:
    """A match where the player in turn has just pulled; the view before the pull."""
    session = game_module("klackers").new({"players": 2, **options}, 8)
    seat, legal = rolled_until_a_pull(session)
    before = session.view(seat)
    session.apply(seat, legal[0], 0.0)
    return session, seat, before


def test_a_pull_stands_by_the_printed_rule() -> None:
    session, seat, _ = _pulled({})
    assert not session.can_undo(seat)
    assert session.view(seat)["you"]["can_undo"] is False
    with pytest.raises(IllegalAction) as refused:
        session.undo(seat)
    assert in_english(refused.value) == "Once they're down they stay down: a pull cannot be taken back."


def test_the_house_rule_takes_a_pull_back_until_the_next_roll() -> None:
    session, seat, before = _pulled({"undo_pull": True})
    assert session.can_undo(seat)
    session.undo(seat)
    assert session.view(seat) == before
    legal = session.legal_actions(seat, 0.0)
    session.apply(seat, legal[0], 0.0)
    if session.active_seats == [seat]:
        session.apply(seat, {"type": "roll", "dice": 2}, 0.0)
        assert not session.can_undo(seat)  # the next roll was made: the pull stands


def test_the_lobby_offers_the_house_rule_off_by_default() -> None:
    schema = game_module("klackers").options_schema()
    assert "undo_pull" in schema["modes"][0]["variants"]
    assert schema["options"]["undo_pull"] == {"type": "bool", "default": False}
