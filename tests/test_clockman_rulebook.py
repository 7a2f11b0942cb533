"""Scenarios from the Clockman rulebook (../shared/seeds/clockman-rules-de.txt), each
quoting the rule it checks, played through the game's own ``apply``; the rules the
companion refers the phone to are checked through the session, as a phone asks them.
Every refused report is checked to leave the game exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from clockman_support import act, kinds, new_game, place, roll, snapshot, to_turn

from engine.clockman import ClockmanGame
from engine.clockman.errors import NoEffectOnStraight
from engine.clockman.session import ClockmanSession
from engine.core.errors import IllegalAction

THREE = ("south", "west", "north")
COMPLETE = "00000112"


def refused(
    game: ClockmanGame, error: type[IllegalAction], action_type: str, seat: str, **params: Any
) -> IllegalAction:
    before = snapshot(game)
    with pytest.raises(error) as caught:
        act(game, action_type, seat, **params)
    assert snapshot(game) == before
    return caught.value


def north_on_the_straight(cards: list[tuple[str, str]]) -> ClockmanGame:
    """South's turn, south on circle 3, west on circle 2, north on field 1 of the
    straight holding ``cards``."""
    game = new_game(seats=THREE)
    place(game, "south", ring=3)
    place(game, "west", ring=2)
    place(game, "north", ring=5, field=1, date=COMPLETE, cards=cards)
    return game


# 5.3 C, the Zielgeradenregel -------------------------------------------------------
#
# "Auf einen Spieler, der sich bereits auf seiner Zielgeraden befindet, haben die bei
# Bedarf auszuspielenden Ereigniskarten keine Auswirkungen mehr." (On a player who is
# already on their final straight, the event cards played when needed have no effect.)


def test_a_player_on_the_final_straight_may_still_play_a_card_on_a_player_on_a_circle() -> None:
    """The rule protects the player on the straight, not the cards they hold: a face-down
    card played by north from the straight sends south, on circle 3, one circle out."""
    game = north_on_the_straight([("hidden", "storm"), ("hidden", "lift")])
    events = act(game, "play", "north", card="e1", effect="circle_out", target="south")
    assert kinds(events) == ["card_played", "moved_by_card"]
    assert game.state.players["south"].ring == 2
    act(game, "play", "north", card="e2", effect="circle_in", target="west")
    assert game.state.players["west"].ring == 3
    assert game.state.players["north"].ring == 5  # the holder's own place is untouched


def test_no_event_card_acts_on_a_player_on_the_final_straight() -> None:
    """South's cards cannot move north on the straight, inward or outward; a card north
    plays cannot act on north either (a symbol card drawn, a roll again); each refusal
    names the rule and changes nothing."""
    game = north_on_the_straight([("hidden", "gift"), ("hidden", "again")])
    place(game, "south", cards=[("hidden", "push"), ("hidden", "pull")])
    for effect in ("circle_out", "circle_in"):
        error = refused(
            game, NoEffectOnStraight, "play", "south", card="e3", effect=effect, target="north"
        )
        assert "north is on the final straight" in str(error).lower()
        assert error.rule == "clockman_no_effect_on_straight"
    for effect in ("symbol_card", "roll_again"):
        refused(game, NoEffectOnStraight, "play", "north", card="e1", effect=effect)
    # a card that acts on the board alone may be played by anyone
    assert kinds(act(game, "play", "north", card="e1", effect="board")) == ["card_played"]


def test_a_card_drawn_and_played_at_once_cannot_reach_a_player_on_the_final_straight() -> None:
    """The same for a card read out at once from an event field: south draws it on
    circle 3 and may send west out, but not north on the straight."""
    game = north_on_the_straight([])  # south has rolled and lands on an event field
    refused(
        game, NoEffectOnStraight, "event", "south", kind="now", effect="circle_out", target="north"
    )
    act(game, "event", "south", kind="now", effect="circle_out", target="west")
    assert game.state.players["west"].ring == 1


def test_the_phone_is_offered_the_card_from_the_straight_and_told_why_not_onto_it() -> None:
    """What the phones are offered follows the rule: north's legal plays from the
    straight include south as a target; south's never include north, and asking about
    it gives the rule's reason."""
    game = north_on_the_straight([("hidden", "storm")])
    place(game, "south", cards=[("hidden", "push")])
    session = ClockmanSession(game)
    north_plays = [a for a in session.legal_actions("north", 0.0) if a["type"] == "play"]
    assert {
        "type": "play",
        "seat": "north",
        "card": "e1",
        "effect": "circle_out",
        "target": "south",
    } in north_plays
    assert not [a for a in north_plays if a["effect"] in ("symbol_card", "roll_again")]
    south_plays = [a for a in session.legal_actions("south", 0.0) if a["type"] == "play"]
    assert south_plays and not [a for a in south_plays if a.get("target") == "north"]
    reason = session.refusal(
        "south", {"type": "play", "card": "e2", "effect": "circle_out", "target": "north"}, 0.0
    )
    assert reason is not None and reason.rule == "clockman_no_effect_on_straight"


def test_a_card_from_the_straight_played_in_its_holders_own_turn_still_acts_on_others() -> None:
    """North, on the straight, plays a face-down card in their own turn before rolling:
    it sends south one circle out, and north's roll on the straight goes on as usual."""
    game = north_on_the_straight([("hidden", "storm")])
    to_turn(game, "north")
    act(game, "play", "north", card="e1", effect="circle_out", target="south")
    assert game.state.players["south"].ring == 2
    assert kinds(roll(game, 1)) == ["rolled", "straight_moved"]
    assert game.state.players["north"].field == 2
