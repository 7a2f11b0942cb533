"""Clockman's rule edges the scenario tests left open, found by mutation testing
(docs/mutation.md): what the final straight, a roll let go, a passage outward and an
orange transfer field report to the table, and the words of their refusals. The game log
people read is made from these events, field for field."""

from __future__ import annotations

from typing import Any

import pytest
from clockman_support import act, new_game, place, roll, south_on_the_final_straight, to_turn

from engine.clockman import ClockmanGame
from engine.clockman.events import Event
from engine.core.errors import IllegalAction
from web.refusals import in_english


def told(events: list[Event]) -> list[tuple[str, str | None, dict[str, object]]]:
    return [(e.kind, e.seat, e.data) for e in events]


def refusal(game: ClockmanGame, action_type: str, **params: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        act(game, action_type, **params)
    return refused.value


def test_the_final_straight_moves_forward_forfeits_too_high_and_passes_with_the_card() -> None:
    """On the straight the companion moves the piece: shorter rolls forward, a roll past
    the Whytooki forfeited, onto it only with a symbol card of its pose, and from it
    only a 1 reaches the Clockman field."""
    game, pose = south_on_the_final_straight()
    assert told(roll(game, 3)) == [
        ("rolled", "south", {"die": 3}),
        ("forfeited", "south", {"reason": "too_high", "die": 3}),
    ]
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"
    act(game, "end_turn")
    to_turn(game, "south")
    assert told(roll(game, 1)) == [
        ("rolled", "south", {"die": 1}),
        ("straight_moved", "south", {"field": 2}),
    ]
    act(game, "end_turn")
    to_turn(game, "south")
    assert told(roll(game, 1)) == [
        ("rolled", "south", {"die": 1}),
        ("forfeited", "south", {"reason": "no_card", "pose": pose, "die": 1}),
    ]
    act(game, "end_turn")
    to_turn(game, "south")
    place(game, "south", hand=pose)
    assert told(roll(game, 1)) == [
        ("rolled", "south", {"die": 1}),
        ("straight_passed", "south", {"pose": pose, "field": 3}),
    ]
    act(game, "end_turn")
    to_turn(game, "south")
    assert told(roll(game, 2)) == [
        ("rolled", "south", {"die": 2}),
        ("forfeited", "south", {"reason": "needs_one", "die": 2}),
    ]


def test_a_roll_let_go_on_circle_four_with_a_complete_date_ends_the_move() -> None:
    game = new_game()
    place(game, "south", ring=4, date="00000112")
    assert told(act(game, "forfeit")) == [("forfeited", "south", {"reason": "stays", "die": 2})]
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


@pytest.mark.parametrize(
    ("placed", "report", "words", "params"),
    [
        pytest.param(
            {"ring": 3, "date": "00000112"},
            "forfeit",
            "Only on circle 4 with a complete date key may a roll be let go; elsewhere the "
            "piece must move.",
            {"reason": "no_forfeit"},
            id="a roll let go anywhere else",
        ),
        pytest.param(
            {"ring": 4, "date": "0000011"},
            "transfer",
            "Orange transfer fields count only with the transfer rule: report a plain field.",
            {"rule_name": "transfer"},
            id="an orange field without the transfer rule",
        ),
    ],
)
def test_a_report_the_field_does_not_allow_is_refused_saying_why(
    placed: dict[str, Any], report: str, words: str, params: dict[str, str]
) -> None:
    """A roll may be let go only on circle 4 with a complete date; an orange field is a
    transfer only with the transfer rule, otherwise plain."""
    game = new_game()
    place(game, "south", **placed)
    refused = refusal(game, report)
    assert in_english(refused) == words
    assert refused.params == params


def test_one_passage_outward_per_roll_and_none_beyond_circle_one() -> None:
    # 6.1: back through a passage to the outer circle, once per roll.
    game = new_game()
    place(game, "south", ring=3, hand="")
    assert told(act(game, "outward")) == [("moved_outward", "south", {"ring": 2})]
    again = refusal(game, "outward")
    assert in_english(again) == "One passage outward per roll."
    assert again.params == {"reason": "one_outward"}
    outermost = new_game()
    place(outermost, "south", ring=1, hand="")
    refused = refusal(outermost, "outward")
    assert in_english(refused) == "Circle 1 is the outermost circle: no passage leads further out."
    assert refused.params == {"reason": "outermost"}


def test_an_orange_field_moves_every_pending_digit_onto_the_date() -> None:
    game = new_game(transfer=True)
    place(game, "south", ring=4, date="0000011", pending="22")
    assert told(act(game, "transfer")) == [("transferred", "south", {"digits": ["2", "2"]})]
    south = game.state.players["south"]
    assert south.date["2"] == 2 and south.pending["2"] == 0
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


def test_the_last_event_card_may_be_drawn_and_none_after_it() -> None:
    """The event deck holds the cards not lying in front of a player: with one left it
    can be drawn, with none the report is refused (the empty supply of event cards)."""
    deck = new_game().state.data.event_cards
    last = new_game()
    place(last, "north", cards=[("hidden", "storm")] * (deck - 1))
    assert told(act(last, "event", kind="open", label="storm")) == [
        ("event_drawn", "south", {"card_kind": "open", "card": f"e{deck}", "label": "storm"})
    ]
    empty = new_game()
    place(empty, "north", cards=[("hidden", "storm")] * deck)
    refused = refusal(empty, "event", kind="hidden")
    assert in_english(refused) == "Every event card lies in front of a player."
    assert refused.params == {"what": "event"}


def test_a_passage_outward_from_circle_two_reaches_circle_one() -> None:
    game = new_game()
    place(game, "south", ring=2, hand="")
    assert told(act(game, "outward")) == [("moved_outward", "south", {"ring": 1})]


def test_an_event_card_for_now_is_reported_with_its_effect_and_ends_the_move() -> None:
    game = new_game()
    assert told(act(game, "event", kind="now")) == [
        (
            "event_drawn",
            "south",
            {"card_kind": "now", "label": "", "effect": "board", "target": "south"},
        )
    ]
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


def test_a_face_down_card_keeps_its_note_for_its_holder_alone() -> None:
    game = new_game()
    assert told(act(game, "event", kind="hidden", label="storm")) == [
        ("event_drawn", "south", {"card_kind": "hidden", "card": "e1", "label": ""})
    ]
    card = game.state.players["south"].cards[-1]
    assert (card.id, card.kind, card.label) == ("e1", "hidden", "storm")
    unnamed = new_game()
    act(unnamed, "event", kind="hidden")
    assert unnamed.state.players["south"].cards[-1].label == ""


def test_a_card_laid_down_is_reported_by_its_kind_alone() -> None:
    for extra in ({"effect": "circle_out"}, {"target": "north"}):
        refused = refusal(new_game(), "event", kind="hidden", **extra)
        assert in_english(refused) == (
            "A card laid in front of you takes effect when it is played: report only its kind."
        )
        assert refused.params == {"reason": "laid_down"}


@pytest.mark.parametrize(
    ("report", "reason"),
    [("roll", "move_over"), ("plain", "reported"), ("end_turn", None)],
)
def test_a_move_ended_by_letting_the_roll_go_takes_only_the_end_of_the_turn(
    report: str, reason: str | None
) -> None:
    """After a roll let go the move is over: another roll and a landing report are
    refused for what they are; the turn may end."""
    game = new_game()
    place(game, "south", ring=4, date="00000112")
    act(game, "forfeit")
    if reason is None:
        assert told(act(game, report))[0] == ("turn_ended", "south", {})
    else:
        assert refusal(game, report).params == {"reason": reason}


def test_the_turn_does_not_end_before_the_roll_is_reported() -> None:
    game = new_game()  # south has rolled
    turn = game.state.turn
    assert turn is not None and turn.phase == "report"
    assert refusal(game, "end_turn").params == {"reason": "report_first"}
