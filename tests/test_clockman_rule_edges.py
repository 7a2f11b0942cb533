"""Clockman's rule edges the scenario tests left open, found by mutation testing
(docs/mutation.md): what the final straight, a roll let go, a passage outward and an
orange transfer field report to the table, and the words of their refusals. The game log
people read is made from these events, field for field."""

from __future__ import annotations

from typing import Any

import pytest
from clockman_support import (
    act,
    new_game,
    place,
    roll,
    says,
    south_on_the_final_straight,
    to_turn,
    told,
)

from engine.clockman import ClockmanGame, ClockmanOptions
from engine.core.errors import IllegalAction
from web.refusals import in_english


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
    says(refusal(game, report), words, params)


def test_one_passage_outward_per_roll_and_none_beyond_circle_one() -> None:
    # 6.1: back through a passage to the outer circle, once per roll.
    game = new_game()
    place(game, "south", ring=3, hand="")
    assert told(act(game, "outward")) == [("moved_outward", "south", {"ring": 2})]
    again = refusal(game, "outward")
    says(again, "One passage outward per roll.", {"reason": "one_outward"})
    outermost = new_game()
    place(outermost, "south", ring=1, hand="")
    refused = refusal(outermost, "outward")
    says(
        refused,
        "Circle 1 is the outermost circle: no passage leads further out.",
        {"reason": "outermost"},
    )


def test_a_lift_used_or_declined_is_reported_with_the_circle_it_leaves_the_piece_on() -> None:
    # 6: the last lift card on the board may still be used; the move ends either way
    game = new_game()
    place(game, "south", ring=2)
    game.state.supply["L"] = 1
    assert told(act(game, "lift", use=True)) == [("lift_used", "south", {"ring": 3})]
    turn = game.state.turn
    assert turn is not None and turn.phase == "done" and game.state.supply["L"] == 0
    act(game, "end_turn")
    to_turn(game, "south")
    roll(game, 2)
    assert told(act(game, "lift", use=False)) == [("lift_declined", "south", {"ring": 3})]
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


def test_a_lift_on_circle_four_or_with_none_left_is_refused_in_words() -> None:
    # ruling 10: a lift on circle 4 leads nowhere; 6: each lift used leaves the game
    innermost = new_game()
    place(innermost, "south", ring=4)
    refused = refusal(innermost, "lift", use=True)
    says(
        refused,
        "A lift on circle 4 leads nowhere: report a plain field.",
        {"reason": "lift_innermost"},
    )
    assert innermost.state.players["south"].ring == 4
    empty = new_game()
    place(empty, "south", ring=3)
    empty.state.supply["L"] = 0
    refused = refusal(empty, "lift", use=True)
    says(refused, "No lift card is left on the board.", {"what": "L"})


def test_a_symbol_field_draws_the_top_card_and_tells_the_table_only_how_many_are_held() -> None:
    game = new_game()
    deck = game.state.deck
    held, other = deck[0], next(pose for pose in deck if pose != deck[0])
    place(game, "south", hand=held)
    deck.remove(held)
    deck.remove(other)
    deck[:0] = [held, other]  # a second card of the pose held on top, another pose under it
    assert told(act(game, "symbol")) == [("symbol_drawn", "south", {"cards": 2})]
    assert game.state.players["south"].hand == {held: 2} and game.state.deck[0] == other
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


def test_a_symbol_field_with_the_deck_empty_is_reported_and_ends_the_move() -> None:
    game = new_game()
    place(game, "south", hand="".join(game.state.deck))  # every card in South's hand
    assert told(act(game, "symbol")) == [("symbol_deck_empty", "south", {})]
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


def test_a_whytooki_passed_is_reported_with_its_pose_the_card_and_the_circle_reached() -> None:
    game = new_game()
    pose = game.state.rings[0][0]
    place(game, "south", ring=1, hand=pose)
    assert told(act(game, "blockade", pose=pose)) == [
        ("blockade_passed", "south", {"pose": pose, "by": "symbol", "ring": 2, "card": None})
    ]
    by_card = new_game()
    place(by_card, "south", ring=2, hand="", cards=[("hidden", "secret passage")])
    assert told(act(by_card, "blockade", pose=pose, card="e1")) == [
        ("blockade_passed", "south", {"pose": pose, "by": "event", "ring": 3, "card": "e1"})
    ]
    turn = by_card.state.turn
    assert turn is not None and turn.played == {"south": 1}


def test_a_whytooki_is_refused_in_words_unless_it_stands_on_the_pieces_ring() -> None:
    game = new_game()
    place(game, "south", ring=2, hand="ABCDE")
    unknown = refusal(game, "blockade", pose="Z")
    says(unknown, "There is no pose Z; the poses are A to E.", {"pose": "Z"})
    # a ring dealt without one pose (fewer passages than poses on a house board) while
    # the circle outside it has that pose
    pose = game.state.rings[0][0]
    game.state.rings[1] = [p for p in game.state.rings[1] if p != pose]
    missing = refusal(game, "blockade", pose=pose)
    says(
        missing,
        f"No Whytooki of pose {pose} stands next to circle 2.",
        {"reason": "no_such_whytooki", "pose": pose, "ring": 2},
    )
    no_card = refusal(game, "blockade", pose=game.state.rings[1][0], card="e9")
    assert in_english(no_card) == "That is not an event card you can use here."
    innermost = new_game()
    place(innermost, "south", ring=4, hand="ABCDE")
    guarded = refusal(innermost, "blockade", pose="A")
    says(
        guarded,
        "The Whytookis on circle 4 guard the final straights: report the straight."
        ,
        {"reason": "innermost_blockade"},
    )
    assert innermost.state.players["south"].ring == 4


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
    says(refused, "Every event card lies in front of a player.", {"what": "event"})


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


def test_a_card_for_now_without_an_effect_is_played_out_on_the_board_on_whoever_it_names() -> None:
    # the companion moves no piece for it, so not even the player on the final straight
    # (whom the Zielgeradenregel keeps from the companion's card effects) is refused
    game = new_game()
    place(game, "north", ring=5, field=1)
    assert told(act(game, "event", kind="now", target="north")) == [
        (
            "event_drawn",
            "south",
            {"card_kind": "now", "label": "", "effect": "board", "target": "north"},
        )
    ]
    assert game.state.players["north"].ring == 5


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
        says(
            refused,
            "A card laid in front of you takes effect when it is played: report only its kind."
            ,
            {"reason": "laid_down"},
        )


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


def test_a_game_opens_with_every_start_roll_and_the_starter_entering_on_the_deciding_roll() -> None:
    """B4.1: the table hears every round of start rolls (a tie rolled again by the tied
    alone), who starts, and that the starter's piece enters circle 1 with the deciding
    roll, which is the first roll of turn 1."""
    options = ClockmanOptions(seats=("south", "west", "north"))
    for seed in range(200):
        game = ClockmanGame.new(options, seed)
        if len(game.state.opening) > 1:
            break
    opening = game.view(None)["opening"]
    starter, die = game.current_seat, max(opening[-1].values())
    assert [seat for seat, face in opening[-1].items() if face == die] == [starter]
    assert told(game.opening_events()) == [
        ("game_started", None, {"seats": ["south", "west", "north"], "options": options.to_json()}),
        ("starter_rolled", starter, {"rolls": opening, "die": die}),
        ("entered", starter, {"die": die}),
    ]
    assert game.view(None)["turn"] == {
        "seat": starter,
        "number": 1,
        "phase": "report",
        "die": die,
        "rolls": 1,
        "knocked": False,
        "outward": False,
        "played": {},
    }


def test_turns_are_numbered_on_and_each_counts_the_rolls_made_in_it() -> None:
    """The turn shown to every seat: its number goes up by one with each turn, and its
    rolls count every roll in it, a second one given by a card for now included. A piece
    still on its start field enters circle 1 with its first roll."""
    game = new_game()
    act(game, "plain")
    assert told(act(game, "end_turn")) == [
        ("turn_ended", "south", {}),
        ("turn_started", "north", {"number": 2}),
    ]
    assert game.view(None)["turn"]["rolls"] == 0
    assert told(roll(game, 4)) == [("rolled", "north", {"die": 4}), ("entered", "north", {"die": 4})]
    assert game.state.players["north"].ring == 1
    assert game.view(None)["turn"]["rolls"] == 1
    act(game, "event", kind="now", effect="roll_again")
    roll(game, 2)
    assert game.view(None)["turn"]["rolls"] == 2
    act(game, "plain")
    act(game, "end_turn")
    assert (game.view(None)["turn"]["number"], game.view(None)["turn"]["rolls"]) == (3, 0)


@pytest.mark.parametrize(
    ("moment", "report", "reason", "words"),
    [
        pytest.param("roll", "end_turn", "roll_first", "Roll the die first.", id="end before rolling"),
        pytest.param(
            "roll",
            "plain",
            "roll_then_land",
            "Roll the die first, then report where the piece landed.",
            id="landing before rolling",
        ),
        pytest.param(
            "report",
            "roll",
            "rolled",
            "The die has been rolled: report where the piece landed, then end the turn.",
            id="a second roll",
        ),
    ],
)
def test_a_turn_goes_roll_landing_end_and_a_step_out_of_order_is_refused_in_words(
    moment: str, report: str, reason: str, words: str
) -> None:
    game = new_game()
    act(game, "plain")
    act(game, "end_turn")
    if moment == "report":
        roll(game, 3)
    turn = game.state.turn
    assert turn is not None and turn.phase == moment
    says(refusal(game, report), words, {"reason": reason})


def test_an_offer_not_answered_lapses_with_the_turn() -> None:
    # the Tauschregel: an offer lapses with the turn, and cannot be accepted after it
    game = new_game(swap=True)
    place(game, "south", ring=2, date="000000")
    place(game, "north", ring=2, date="11")
    act(game, "plain")
    act(game, "offer", to="north", give=["0"], get=["1"])
    assert told(act(game, "end_turn")) == [
        ("turn_ended", "south", {}),
        ("offer_lapsed", "south", {"to": "north"}),
        ("turn_started", "north", {"number": 2}),
    ]
    assert game.active_seats() == ["north"]
    late = refusal(game, "accept")
    says(late, "No trade is on offer.", {"reason": "no_offer"})


def test_a_plain_field_is_reported_with_the_circle_and_ends_the_move() -> None:
    game = new_game()
    place(game, "south", ring=3)
    assert told(act(game, "plain")) == [("landed", "south", {"ring": 3})]
    assert refusal(game, "roll").params == {"reason": "move_over"}


@pytest.mark.parametrize("transfer", [False, True], ids=["into the date", "set aside"])
def test_a_digit_taken_is_reported_with_the_digit_and_whether_it_waits_for_a_transfer(
    transfer: bool,
) -> None:
    """With the Übertragungsregel a digit taken waits for an orange field; either way
    taking it ends the move."""
    game = new_game(transfer=transfer)
    place(game, "south", ring=2)
    assert told(act(game, "digit", digit="0")) == [
        ("digit_taken", "south", {"digit": "0", "pending": transfer})
    ]
    south = game.state.players["south"]
    assert (south.date["0"], south.pending["0"]) == ((0, 1) if transfer else (1, 0))
    assert refusal(game, "digit", digit="0").params == {"reason": "reported"}
    assert refusal(game, "roll").params == {"reason": "move_over"}


def south_on_circle_four_rolling(die: int, hand: str) -> tuple[ClockmanGame, str]:
    """South on circle 4 with a complete date key and ``hand``, having rolled ``die``;
    with the pose of the Whytooki on the last field of south's straight."""
    game = new_game()
    act(game, "plain")
    act(game, "end_turn")
    place(game, "south", ring=4, date="00000112", hand=hand)
    to_turn(game, "south")
    roll(game, die)
    return game, game.state.straights["south"]


def test_the_final_straight_entered_onto_its_last_field_takes_a_card_of_the_whytookis_pose() -> None:
    """6.4: an exact roll onto the last field passes its Whytooki with a symbol card of
    its pose, which goes under the deck; any other card stays in the hand."""
    game, pose = south_on_circle_four_rolling(3, "")
    other = next(p for p in game.state.data.pose_ids if p != pose)
    place(game, "south", hand=pose + other)
    assert told(act(game, "straight", field=3)) == [
        ("straight_entered", "south", {"field": 3, "pose": pose})
    ]
    south = game.state.players["south"]
    assert (south.ring, south.field, south.hand) == (5, 3, {other: 1})
    assert game.state.deck[-1] == pose
    assert refusal(game, "roll").params == {"reason": "move_over"}


def test_the_final_straight_entered_short_of_its_last_field_takes_no_card() -> None:
    game, pose = south_on_circle_four_rolling(3, "")
    place(game, "south", hand=pose)
    assert told(act(game, "straight", field=2)) == [
        ("straight_entered", "south", {"field": 2, "pose": None})
    ]
    south = game.state.players["south"]
    assert (south.ring, south.field, south.hand) == (5, 2, {pose: 1})
    turn = game.state.turn
    assert turn is not None and turn.phase == "done"


def test_the_final_straight_refuses_a_field_it_lacks_and_its_last_field_without_the_card() -> None:
    game, pose = south_on_circle_four_rolling(4, "")
    beyond = refusal(game, "straight", field=4)
    says(beyond, "The straight has no field 4.", {"reason": "straight_fields", "field": 4})
    other = next(p for p in game.state.data.pose_ids if p != pose)
    place(game, "south", hand=other)
    no_card = refusal(game, "straight", field=3)
    says(
        no_card,
        f"The last field's Whytooki has pose {pose}; passing it takes a symbol card of that pose."
        ,
        {"reason": "straight", "pose": pose},
    )
    assert game.state.players["south"].ring == 4


def test_an_action_from_a_seat_not_at_the_table_is_refused_naming_the_seat() -> None:
    game = new_game()  # south and north play; west is an empty side of the box
    refused = refusal(game, "roll", seat="west")
    says(refused, "West is not playing in this game.", {"reason": "not_playing", "seat": "west"})
