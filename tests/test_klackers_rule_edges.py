"""Klackers' rule edges: the boundaries and the reports the scenario tests left open, each
found by mutation testing (docs/mutation.md) and stated here as the rule it keeps."""

from __future__ import annotations

from fractions import Fraction

import pytest
from klackers_support import end_turn_scoring, kinds, match, pull, roll, set_standing

from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.klackers import KlackersGame, KlackersOptions, Pull, Roll
from engine.klackers import numbers as klackers_numbers
from engine.klackers.rules import roll_off, setup
from web.refusals import in_english


def test_one_die_is_offered_with_only_the_one_standing() -> None:
    # "When the remaining KLACKER numbers add up to six points or less, the player has
    # the option of rolling one or both of the dice": a total of one is six or less.
    game = match(starter="south")
    set_standing(game, "south", [1])
    assert Roll("south", 1) in game.legal_actions("south")
    events = roll(game, 1)
    assert kinds(events)[:3] == ["rolled", "pulled", "turn_ended"]
    assert game.state.players["south"].score == 0


def test_two_dice_fall_as_thirty_six_equally_likely_throws() -> None:
    # The odds the phones and the bots use. The table is built once, when the module is
    # imported, so the builder is called here to check the arithmetic itself.
    expected = tuple((total, Fraction(6 - abs(7 - total), 36)) for total in range(2, 13))
    assert klackers_numbers._two_dice() == expected
    assert expected == klackers_numbers.TWO_DICE


def test_a_klack_to_win_match_ends_on_its_last_round_won_by_a_klack() -> None:
    # Option #2, Klack to win: "The only way a player can win in this format is if they
    # KLACK." A round won so settles the pot like any other and can end the match.
    game = match(starter="south", rounds=1, klack_to_win=True)
    end_turn_scoring(game, 0)
    events = end_turn_scoring(game, 3)
    assert kinds(events)[-2:] == ["round_ended", "game_won"]
    assert game.over and game.winners == ["south"]
    assert game.state.results[-1].outcome == "won"


def test_every_round_won_is_counted() -> None:
    game = match(starter="south")
    for _ in range(2):
        assert game.current_seat == "south"  # the winner starts the next round
        end_turn_scoring(game, 2)
        end_turn_scoring(game, 5)
    assert game.state.players["south"].rounds_won == 2
    assert game.state.players["north"].rounds_won == 0


def test_a_pushed_round_moves_no_chips() -> None:
    # "Two tie all tie": nobody pays, the next round is worth two.
    game = match(starter="south")
    end_turn_scoring(game, 4)
    events = end_turn_scoring(game, 4)
    result = game.state.results[-1]
    assert result.outcome == "push" and result.chips == {"south": 0, "north": 0}
    ended = next(e for e in events if e.kind == "round_ended")
    assert ended.data["chips"] == {"south": 0, "north": 0}
    assert ended.data["totals"] == {"south": 0, "north": 0}


def test_the_round_report_carries_the_match_totals() -> None:
    game = match(starter="south")
    end_turn_scoring(game, 2)
    events = end_turn_scoring(game, 5)
    ended = next(e for e in events if e.kind == "round_ended")
    assert ended.seat == "south"
    assert ended.data["totals"] == {"south": 1, "north": -1}


def test_the_match_report_names_the_winner_the_chips_and_the_rounds() -> None:
    game = match(starter="south", rounds=2)
    end_turn_scoring(game, 2)
    end_turn_scoring(game, 5)
    end_turn_scoring(game, 2)
    events = end_turn_scoring(game, 5)
    won = events[-1]
    assert won.kind == "game_won" and won.seat == "south"
    assert won.data == {"chips": {"south": 2, "north": -2}, "rounds": 2}


def test_the_klack_bonus_is_reported_as_the_klackers() -> None:
    # Option #3: "As soon as a player KLACKS, all other players give the player that
    # KLACKERS an extra playing piece (Chip)."
    game = match(starter="south", klack_worth_two=True)
    events = end_turn_scoring(game, 0)
    bonus = next(e for e in events if e.kind == "klack_bonus")
    assert bonus.seat == "south"
    assert bonus.data == {"chips": 1, "payers": ["north"]}


def test_the_log_of_a_round_tells_who_did_what_in_which_round() -> None:
    # The game log people read is made from these events, field for field.
    game = match(starter="south")
    set_standing(game, "south", [3, 4])
    played = roll(game, 5, 2) + pull(game, 3, 4)
    set_standing(game, "north", [9])
    played += roll(game, 1, 1)
    assert [(e.kind, e.seat, e.data) for e in played] == [
        ("rolled", "south", {"dice": [5, 2], "total": 7, "one_die": False}),
        ("pulled", "south", {"numbers": [3, 4], "standing": [], "automatic": False}),
        ("turn_ended", "south", {"score": 0, "reason": "klack", "standing": []}),
        ("klacked", "south", {"round": 1, "count": 1}),
        ("turn_started", "north", {"round": 1}),
        ("rolled", "north", {"dice": [1, 1], "total": 2, "one_die": False}),
        ("turn_ended", "north", {"score": 9, "reason": "no_fit", "standing": [9]}),
        (
            "round_ended",
            "south",
            {
                "number": 1,
                "value": 1,
                "order": ["south", "north"],
                "scores": {"south": 0, "north": 9},
                "outcome": "won",
                "reason": "klack",
                "winner": "south",
                "next_starter": "south",
                "chips": {"south": 1, "north": -1},
                "totals": {"south": 1, "north": -1},
            },
        ),
        ("round_started", "south", {"round": 2, "value": 1, "order": ["south", "north"]}),
        ("turn_started", "south", {"round": 2}),
    ]


def test_every_klack_is_counted() -> None:
    game = match(starter="south")
    for _ in range(2):
        end_turn_scoring(game, 0)
        end_turn_scoring(game, 5)
    assert game.state.players["south"].klacks == 2


def test_the_turn_counts_its_rolls() -> None:
    game = match(starter="south")
    set_standing(game, "south", [1, 2, 3, 9])
    roll(game, 1, 2)
    pull(game, 3)
    roll(game, 1, 2)
    view = game.view("south")
    assert view["turn"]["rolls"] == 2


def test_each_refusal_says_the_rule_in_words() -> None:
    game = match(starter="south")
    assert in_english(_refusal(game, Pull("south", (3,)))) == (
        "Roll the dice first, then pull forward numbers that add up to the roll."
    )
    assert in_english(_refusal(game, Roll("south", 1))) == (
        "You may roll one die only once your standing numbers total six or less; they total 45."
    )
    roll(game, 4, 4)
    assert in_english(_refusal(game, Roll("south", 2))) == (
        "Pull forward numbers that add up to 8 before rolling again."
    )
    assert in_english(_refusal(game, Pull("south", (2, 5)))) == "2 + 5 makes 7, not the 8 you rolled."
    pull(game, 8)
    roll(game, 4, 4)
    assert in_english(_refusal(game, Pull("south", (8,)))) == (
        "8 is already down: once they're down they stay down."
    )


def _refusal(game: KlackersGame, action: Roll | Pull) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    return refused.value


def test_a_match_opens_with_the_roll_off_and_the_starters_first_turn() -> None:
    # "To start, each player rolls one die and the high roller begins the round."
    state, opening = setup(KlackersOptions(seats=("south", "north")), 7)
    rolls, starter = roll_off(Rng.for_seed(7), ("south", "north"))
    other = "north" if starter == "south" else "south"
    assert state.opening == rolls
    assert [(e.kind, e.seat, e.data) for e in opening] == [
        ("game_started", None, {"seats": ["south", "north"]}),
        ("starter_rolled", starter, {"rolls": rolls}),
        ("round_started", starter, {"round": 1, "value": 1, "order": [starter, other]}),
        ("turn_started", starter, {"round": 1}),
    ]


def test_a_match_saved_before_the_current_generator_rolls_off_with_its_own() -> None:
    # Old saves replay with the generator they were dealt with (engine.core.rng).
    seats = ("south", "west", "north")
    state, _ = setup(KlackersOptions(seats=seats), 11, legacy=True)
    assert state.opening == roll_off(Rng.for_seed(11, legacy=True), seats)[0]


def test_refusals_out_of_turn_name_whose_turn_it_is() -> None:
    game = match(starter="south")
    wrong_turn = _refusal(game, Roll("north", 2))
    assert in_english(wrong_turn) == "It is not your turn: South is playing."
    assert wrong_turn.params == {"reason": "turn", "current": "south"}
    absent = _refusal(game, Roll("east", 2))
    assert in_english(absent) == "East is not playing in this game."
    assert absent.params == {"reason": "not_playing", "seat": "east"}
    over = match(starter="south", rounds=1)
    end_turn_scoring(over, 1)
    end_turn_scoring(over, 2)
    finished = _refusal(over, Roll("north", 2))
    assert in_english(finished) == "The game is over."
    # the reason is what a page reads to choose among the catalogue's endings
    assert (finished.rule, finished.params) == ("game_over", {"reason": "over"})
