"""Clockman's event cards at their rule edges, found by mutation testing
(docs/mutation.md), in the style of test_clockman_rule_edges.py: what a held card played
tells the table, field for field (the game log is made from these events), which effect
acts on whom and when, and the words and values of each refusal."""

from __future__ import annotations

from clockman_support import act, new_game, place, refused, roll, says, to_turn, told

from engine.clockman.errors import SupplyEmpty, WrongCircle, WrongMoment
from engine.core.hidden import NotUsableHere


def test_a_card_played_on_another_player_names_the_holder_the_card_and_whom_it_moves() -> None:
    game = new_game()
    place(game, "south", cards=[("hidden", "storm")])
    place(game, "north", ring=2)
    assert told(act(game, "play", "south", card="e1", effect="circle_out", target="north")) == [
        (
            "card_played",
            "south",
            {
                "card": "e1",
                "card_kind": "hidden",
                "label": "storm",
                "effect": "circle_out",
                "target": "north",
            },
        ),
        ("moved_by_card", "north", {"ring": 1, "by": "south"}),
    ]
    assert game.state.players["north"].ring == 1
    assert game.state.players["south"].cards == []


def test_a_player_out_of_the_game_plays_no_card_and_no_card_acts_on_them() -> None:
    # a revoked winner is out; the cards still lying in front of them stay unplayable
    game = new_game(seats=("south", "north", "west"))
    place(game, "south", cards=[("hidden", "storm")])
    place(game, "west", ring=2, cards=[("hidden", "revenge")])
    game.state.players["west"].status = "out"
    on_them = refused(
        game, WrongMoment, "play", "south", card="e1", effect="circle_out", target="west"
    )
    says(on_them, "West is out of the game.", {"reason": "out", "seat": "west"})
    by_them = refused(
        game, WrongMoment, "play", "west", card="e2", effect="circle_out", target="south"
    )
    says(by_them, "West is out of the game.", {"reason": "out", "seat": "west"})


def test_a_card_not_lying_in_front_of_the_player_is_refused_without_saying_whose_it_is() -> None:
    game = new_game()
    place(game, "north", cards=[("hidden", "storm")])
    for card in ("e1", "e9"):  # north's card, and one nobody holds
        error = refused(game, NotUsableHere, "play", "south", card=card)
        says(error, "That is not an event card you can use here.", {"what": "event_card"})


def test_a_symbol_card_or_a_roll_again_acts_only_on_the_cards_holder() -> None:
    game = new_game()
    place(game, "south", cards=[("hidden", "gift"), ("hidden", "again")])
    for card, effect in (("e1", "symbol_card"), ("e2", "roll_again")):
        error = refused(
            game, WrongMoment, "play", "south", card=card, effect=effect, target="north"
        )
        says(
            error,
            "That effect is for the card's holder, South.",
            {"reason": "holder_only", "seat": "south"},
        )


def test_a_symbol_card_drawn_by_an_event_card_goes_to_its_holder_unless_the_deck_is_empty() -> None:
    game = new_game()
    place(game, "north", cards=[("hidden", "gift"), ("hidden", "gift")], hand="")
    # in south's turn, naming north (the holder) as the target or no one at all
    assert told(act(game, "play", "north", card="e1", effect="symbol_card", target="north")) == [
        (
            "card_played",
            "north",
            {
                "card": "e1",
                "card_kind": "hidden",
                "label": "gift",
                "effect": "symbol_card",
                "target": "north",
            },
        ),
        ("symbol_drawn", "north", {"cards": 1}),
    ]
    place(game, "south", hand="".join(game.state.deck))  # every card left in South's hand
    empty = refused(game, SupplyEmpty, "play", "north", card="e2", effect="symbol_card")
    says(empty, "The symbol deck is empty.", {"what": "symbol"})


def test_an_empty_symbol_deck_stops_no_other_card() -> None:
    game = new_game()
    place(game, "south", ring=2, cards=[("hidden", "push")], hand="".join(game.state.deck))
    assert told(act(game, "play", "south", card="e1", effect="circle_in"))[1] == (
        "moved_by_card", "south", {"ring": 3, "by": "south"}
    )


def test_a_card_moves_no_piece_inward_off_circle_four_nor_outward_off_the_start() -> None:
    # ruling: the final straight is entered only by a roll, with a complete date key
    game = new_game()
    place(game, "south", cards=[("hidden", "push"), ("hidden", "pull")])
    place(game, "north", ring=4)
    inward = refused(
        game, WrongCircle, "play", "south", card="e1", effect="circle_in", target="north"
    )
    says(
        inward,
        "North is on circle 4: the final straight is entered only by a roll, with a complete "
        "date key."
        ,
        {"reason": "straight_by_roll", "seat": "north"},
    )
    place(game, "north", ring=0)
    outward = refused(
        game, WrongCircle, "play", "south", card="e2", effect="circle_out", target="north"
    )
    says(outward, "North is on the start field already.", {"reason": "at_start", "seat": "north"})


def test_a_card_moves_a_piece_outward_off_circle_four_and_inward_off_the_start() -> None:
    game = new_game()
    place(game, "south", cards=[("hidden", "pull"), ("hidden", "push")])
    place(game, "north", ring=4)
    assert told(act(game, "play", "south", card="e1", effect="circle_out", target="north"))[1] == (
        "moved_by_card", "north", {"ring": 3, "by": "south"}
    )
    place(game, "north", ring=0)
    assert told(act(game, "play", "south", card="e2", effect="circle_in", target="north"))[1] == (
        "moved_by_card", "north", {"ring": 1, "by": "south"}
    )


def test_a_roll_again_is_played_in_its_holders_own_turn_after_a_roll_and_gives_the_die_back() -> None:
    game = new_game()  # south has rolled and not yet reported the landing
    place(game, "south", cards=[("hidden", "again"), ("hidden", "again")])
    place(game, "north", cards=[("hidden", "again")])
    not_theirs = refused(game, WrongMoment, "play", "north", card="e3", effect="roll_again")
    says(not_theirs, "Roll again only in your own turn, after a roll.", {"reason": "roll_again"})
    assert told(act(game, "play", "south", card="e1", effect="roll_again")) == [
        (
            "card_played",
            "south",
            {
                "card": "e1",
                "card_kind": "hidden",
                "label": "again",
                "effect": "roll_again",
                "target": "south",
            },
        ),
        ("roll_again", "south", {}),
    ]
    turn = game.state.turn
    assert turn is not None and (turn.phase, turn.die) == ("roll", None)
    assert told(roll(game, 3))[0] == ("rolled", "south", {"die": 3})
    act(game, "plain")
    act(game, "end_turn")
    to_turn(game, "south")
    too_soon = refused(game, WrongMoment, "play", "south", card="e2", effect="roll_again")
    says(too_soon, "Roll again only in your own turn, after a roll.", {"reason": "roll_again"})


def test_a_card_moving_the_player_in_turn_before_their_landing_leaves_it_to_report() -> None:
    # only a piece sent back to the start field lands nowhere
    game = new_game()  # south has rolled onto circle 1
    place(game, "north", cards=[("hidden", "push")])
    place(game, "south", cards=[("hidden", "pull")])
    act(game, "play", "north", card="e1", effect="circle_in", target="south")
    act(game, "play", "south", card="e2", effect="circle_out")
    assert game.state.players["south"].ring == 1
    turn = game.state.turn
    assert turn is not None and turn.phase == "report"
    assert told(act(game, "plain")) == [("landed", "south", {"ring": 1})]


def test_the_three_cards_a_turn_are_counted_for_each_player_on_their_own() -> None:
    # the Anzahlregel: at most three event cards per player and turn
    game = new_game()
    place(game, "south", cards=[("hidden", "a"), ("hidden", "b"), ("open", "c")])
    place(game, "north", cards=[("hidden", "d")])
    for card in ("e1", "e2", "e3"):
        act(game, "play", "south", card=card)
    act(game, "play", "north", card="e4")
    turn = game.state.turn
    assert turn is not None and turn.played == {"south": 3, "north": 1}
