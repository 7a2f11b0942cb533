"""Scenario tests: every rule of Klackers and every option, with dice that fall as the
scenario needs (the rulings they check are in docs/klackers.md)."""

from __future__ import annotations

import pytest
from klackers_support import (
    ScriptedDice,
    combos,
    end_turn_scoring,
    kinds,
    legal_pulls,
    match,
    pull,
    roll,
    set_standing,
)

from engine.core.errors import IllegalAction, MalformedAction
from engine.klackers import KlackersGame, KlackersOptions, Pull, Roll, action_from_json
from engine.klackers.errors import (
    BadOptions,
    GameIsOver,
    NotStanding,
    NotYourTurn,
    OneDieNotAllowed,
    PullFirst,
    RollFirst,
    WrongSum,
)
from engine.klackers.numbers import ALL_STANDING, mask_of
from engine.klackers.rules import klackwise_from, roll_off

THREE = ("south", "west", "north")


def standing(game: KlackersGame, seat: str) -> list[int]:
    return [n for n in range(1, 10) if game.state.players[seat].standing >> (n - 1) & 1]


def refused(game: KlackersGame, action: Roll | Pull, error: type[IllegalAction]) -> IllegalAction:
    """``action`` is refused with ``error`` and changes nothing."""
    before = game.state.to_json()
    with pytest.raises(error) as caught:
        game.apply(action)
    assert game.state.to_json() == before
    assert caught.value.rule == error.rule
    return caught.value


# ------------------------------------------------------------------ who starts


def test_the_high_roller_starts_and_only_the_tied_roll_again() -> None:
    rolls, starter = roll_off(ScriptedDice([5, 5, 2, 3, 6]), THREE)
    assert rolls == [{"south": 5, "west": 5, "north": 2}, {"south": 3, "west": 6}]
    assert starter == "west"
    assert klackwise_from("west", THREE) == ("west", "north", "south")


def test_the_roll_off_is_in_the_opening_events_and_sets_the_first_turn() -> None:
    game = KlackersGame.new(KlackersOptions(seats=THREE), seed=3)
    opening = game.opening_events()
    assert kinds(opening) == ["game_started", "starter_rolled", "round_started", "turn_started"]
    rolls = opening[1].data["rolls"]
    starter = opening[1].seat
    last = rolls[-1]
    assert last[starter] == max(last.values()) and list(last.values()).count(last[starter]) == 1
    assert game.current_seat == starter == game.state.round.order[0]
    assert game.state.round.order == klackwise_from(starter, THREE)


def test_seats_play_klackwise_whatever_order_they_are_given_in() -> None:
    options = KlackersOptions(seats=("east", "south", "north"))
    assert options.seats == ("south", "north", "east")


# ------------------------------------------------------------------ a turn


def test_a_roll_then_any_combination_that_makes_it_even_three_numbers() -> None:
    game = match(starter="south")
    events = roll(game, 3, 4)
    assert kinds(events) == ["rolled"] and events[0].data == {
        "dice": [3, 4],
        "total": 7,
        "one_die": False,
    }
    assert game.state.turn is not None and game.state.turn.phase == "pull"
    assert legal_pulls(game) == [(7,), (1, 6), (2, 5), (3, 4), (1, 2, 4)]
    events = pull(game, 4, 1, 2)
    assert kinds(events) == ["pulled"] and events[0].data["numbers"] == [1, 2, 4]
    assert standing(game, "south") == [3, 5, 6, 7, 8, 9]
    assert game.state.turn.phase == "roll"  # the dice are the player's again


def test_a_pull_must_make_the_roll_and_numbers_down_stay_down() -> None:
    game = match(starter="south")
    roll(game, 3, 4)
    error = refused(game, Pull("south", (3, 5)), WrongSum)
    assert error.params == {"numbers": "3 + 5", "sum": 8, "total": 7}
    pull(game, 3, 4)
    roll(game, 2, 1)
    error = refused(game, Pull("south", (3,)), NotStanding)
    assert error.params == {"number": 3}
    pull(game, 1, 2)
    assert standing(game, "south") == [5, 6, 7, 8, 9]


def test_roll_and_pull_come_in_turn() -> None:
    game = match(starter="south")
    refused(game, Pull("south", (7,)), RollFirst)
    roll(game, 3, 4)
    error = refused(game, Roll("south", 2), PullFirst)
    assert error.params == {"total": 7}


def test_only_the_player_with_the_dice_acts() -> None:
    game = match(starter="south")
    error = refused(game, Roll("north", 2), NotYourTurn)
    assert error.params == {"reason": "turn", "current": "south"}
    refused(game, Roll("west", 2), NotYourTurn)  # not even in this match


def test_the_turn_ends_when_no_combination_fits() -> None:
    game = match(starter="south")
    set_standing(game, "south", [5, 9])
    events = roll(game, 1, 1)
    assert kinds(events) == ["rolled", "turn_ended", "turn_started"]
    assert events[1].data == {"score": 14, "reason": "no_fit", "standing": [5, 9]}
    assert game.state.players["south"].score == 14
    assert game.current_seat == "north" and game.state.turn is not None
    assert game.state.turn.rolls == 0 and game.state.players["north"].standing == ALL_STANDING


def test_pulling_the_last_number_is_a_klack() -> None:
    game = match(starter="south")
    set_standing(game, "south", [3, 4])
    roll(game, 5, 2)
    events = pull(game, 3, 4)
    assert kinds(events) == ["pulled", "turn_ended", "klacked", "turn_started"]
    assert events[1].data["score"] == 0 and events[1].data["reason"] == "klack"
    assert game.state.players["south"].klacks == 1


# ------------------------------------------------------------------ the one-die option


def test_one_die_only_at_six_or_less() -> None:
    game = match(starter="south")
    set_standing(game, "south", [3, 4])
    error = refused(game, Roll("south", 1), OneDieNotAllowed)
    assert error.params == {"standing": 7}
    assert game.legal_actions("south") == [Roll("south", 2)]
    set_standing(game, "south", [2, 4])
    assert game.legal_actions("south") == [Roll("south", 2), Roll("south", 1)]


def test_the_rulebooks_example_4_and_2_standing_one_die_rolled_as_4_scores_six() -> None:
    game = match(starter="south")
    set_standing(game, "south", [2, 4])
    events = roll(game, 4)
    assert kinds(events) == ["rolled", "turn_ended", "turn_started"]
    assert events[0].data == {"dice": [4], "total": 4, "one_die": True}
    assert events[1].data == {"score": 6, "reason": "one_die_missed", "standing": [2, 4]}
    assert standing(game, "south") == [2, 4]  # the four could not be pulled
    assert game.state.players["south"].score == 6 and game.current_seat == "north"


def test_one_die_showing_the_whole_remaining_total_klacks() -> None:
    game = match(starter="south")
    set_standing(game, "south", [2, 4])
    events = roll(game, 6)
    assert kinds(events) == ["rolled", "pulled", "turn_ended", "klacked", "turn_started"]
    assert events[1].data == {"numbers": [2, 4], "standing": [], "automatic": True}
    assert game.state.players["south"].score == 0


def test_at_six_or_less_two_dice_play_as_usual() -> None:
    game = match(starter="south")
    set_standing(game, "south", [2, 4])
    roll(game, 1, 1)
    assert legal_pulls(game) == [(2,)]
    pull(game, 2)
    assert standing(game, "south") == [4] and game.current_seat == "south"


# ------------------------------------------------------------------ rounds


def test_the_lowest_score_wins_the_round_and_is_paid_its_value() -> None:
    game = match(seats=THREE, starter="south")
    end_turn_scoring(game, 7)
    end_turn_scoring(game, 3)
    events = end_turn_scoring(game, 12)
    assert kinds(events)[-4:] == ["turn_ended", "round_ended", "round_started", "turn_started"]
    ended = events[-3].data
    assert ended["outcome"] == "won" and ended["reason"] == "low_score"
    assert ended["winner"] == "west" and ended["scores"] == {"south": 7, "west": 3, "north": 12}
    assert ended["chips"] == {"south": -1, "west": 2, "north": -1}
    assert game.state.players["west"].rounds_won == 1
    # the winner starts the next round, worth one again, with everyone's numbers up
    assert game.state.round.number == 2 and game.state.round.value == 1
    assert game.state.round.order == ("west", "north", "south")
    assert all(p.standing == ALL_STANDING and p.score is None for p in game.state.players.values())


def test_a_klack_wins_the_round() -> None:
    game = match(starter="south")
    end_turn_scoring(game, 0)
    events = end_turn_scoring(game, 4)
    ended = next(e for e in events if e.kind == "round_ended").data
    assert ended["winner"] == "south" and ended["reason"] == "klack"


def test_two_tie_all_tie_pushes_the_round_and_the_last_to_tie_starts() -> None:
    game = match(seats=("south", "west", "north", "east"), starter="west", rounds=5)
    end_turn_scoring(game, 5)  # west
    end_turn_scoring(game, 9)  # north
    end_turn_scoring(game, 5)  # east: the last to tie the low score
    events = end_turn_scoring(game, 8)  # south
    ended = next(e for e in events if e.kind == "round_ended").data
    assert ended["outcome"] == "push" and ended["reason"] == "tie" and ended["winner"] is None
    assert ended["next_starter"] == "east"
    assert all(p.chips == 0 for p in game.state.players.values())
    assert game.state.round.value == 2 and game.current_seat == "east"
    # every push adds one more to the next round's value; a win starts again from one
    for score in (4, 6, 4, 7):
        end_turn_scoring(game, score)
    assert game.state.round.value == 3 and game.current_seat == "west"
    for score in (2, 6, 7, 8):
        end_turn_scoring(game, score)
    assert game.state.results[-1].winner == "west" and game.state.results[-1].value == 3
    assert game.state.players["west"].chips == 9 and game.state.round.value == 1


def test_a_tie_for_a_higher_place_does_not_push() -> None:
    game = match(seats=THREE, starter="south")
    for score in (9, 9, 5):
        end_turn_scoring(game, score)
    assert game.state.results[-1].winner == "north"


def test_a_klack_tie_pushes_at_once_and_the_second_klacker_starts() -> None:
    game = match(seats=THREE, starter="south")
    end_turn_scoring(game, 0)
    events = end_turn_scoring(game, 0)
    assert "turn_started" not in kinds(events)[: kinds(events).index("round_ended")]
    ended = next(e for e in events if e.kind == "round_ended").data
    assert ended["reason"] == "klack_tie" and ended["scores"] == {"south": 0, "west": 0}
    assert "north" not in ended["scores"]  # North never rolled in that round
    assert game.state.round.number == 2 and game.state.round.value == 2
    assert game.current_seat == "west"


# ------------------------------------------------------------------ the options


def test_hughie_rule_ten_or_more_is_no_point() -> None:
    game = match(seats=THREE, starter="south", hughie=True)
    for score in (12, 10, 9):
        end_turn_scoring(game, score)
    assert game.state.results[-1].winner == "north"
    for score in (11, 10, 15):  # north starts round two
        end_turn_scoring(game, score)
    pushed = game.state.results[-1]
    assert pushed.outcome == "push" and pushed.reason == "no_point"
    assert pushed.next_starter == "south"  # north 11, south 10, west 15
    assert game.state.round.value == 2


def test_without_hughie_ten_or_more_can_win() -> None:
    game = match(starter="south")
    end_turn_scoring(game, 12)
    end_turn_scoring(game, 10)
    assert game.state.results[-1].winner == "north"


def test_klack_to_win_only_a_klack_wins() -> None:
    game = match(seats=THREE, starter="south", klack_to_win=True)
    for score in (1, 2, 3):
        end_turn_scoring(game, score)
    pushed = game.state.results[-1]
    assert pushed.outcome == "push" and pushed.reason == "no_klack"
    assert pushed.next_starter == "south" and game.state.round.value == 2
    for score in (4, 0, 1):
        end_turn_scoring(game, score)
    won = game.state.results[-1]
    assert won.winner == "west" and won.reason == "klack" and won.value == 2
    assert game.state.players["west"].chips == 4


def test_klack_is_worth_two_pays_the_klacker_at_once() -> None:
    game = match(seats=THREE, starter="south", klack_worth_two=True)
    events = end_turn_scoring(game, 0)
    assert kinds(events)[-3:] == ["klacked", "klack_bonus", "turn_started"]
    assert events[-2].data == {"chips": 2, "payers": ["west", "north"]}
    chips = {s: p.chips for s, p in game.state.players.items()}
    assert chips == {"south": 2, "west": -1, "north": -1}  # before the round is over
    end_turn_scoring(game, 5)
    end_turn_scoring(game, 6)
    result = game.state.results[-1]
    assert result.winner == "south" and result.chips == {"south": 4, "west": -2, "north": -2}


def test_klack_is_worth_two_in_a_klack_tie_the_bonuses_cancel_out() -> None:
    game = match(seats=THREE, starter="south", klack_worth_two=True)
    end_turn_scoring(game, 0)
    end_turn_scoring(game, 0)
    assert {s: p.chips for s, p in game.state.players.items()} == {
        "south": 1,
        "west": 1,
        "north": -2,
    }
    assert game.state.results[-1].reason == "klack_tie"


# ------------------------------------------------------------------ the match


def test_a_match_of_one_round_ends_with_the_winner() -> None:
    game = match(starter="south", rounds=1)
    end_turn_scoring(game, 4)
    events = end_turn_scoring(game, 6)
    assert kinds(events)[-2:] == ["round_ended", "game_won"]
    assert game.over and game.winners == ["south"] and game.current_seat is None
    refused(game, Roll("north", 2), GameIsOver)
    assert game.legal_actions("north") == [] and game.legal_actions("south") == []


def test_a_match_never_ends_on_a_push() -> None:
    game = match(starter="south", rounds=1)
    end_turn_scoring(game, 4)
    end_turn_scoring(game, 4)
    assert not game.over and game.state.round.number == 2
    end_turn_scoring(game, 8)  # north starts: the last to tie
    end_turn_scoring(game, 3)
    assert game.over and game.winners == ["south"] and game.state.players["south"].chips == 2


def test_a_match_to_a_target_ends_when_a_player_holds_it() -> None:
    game = match(starter="south", rounds=None, target=2)
    end_turn_scoring(game, 1)
    end_turn_scoring(game, 5)
    assert not game.over  # south holds 1
    end_turn_scoring(game, 1)
    end_turn_scoring(game, 9)
    assert game.over and game.winners == ["south"]


def test_rounds_or_target_whichever_comes_first() -> None:
    game = match(starter="south", rounds=5, target=1)
    end_turn_scoring(game, 1)
    end_turn_scoring(game, 5)
    assert game.over and len(game.state.results) == 1


def test_a_match_with_the_most_chips_shared_plays_on() -> None:
    game = match(seats=THREE, starter="south", rounds=2)
    for score in (1, 5, 6):  # south wins round one: +2
        end_turn_scoring(game, score)
    # round two: south starts again and north wins, so south and north hold 1 each
    end_turn_scoring(game, 9)  # south
    end_turn_scoring(game, 8)  # west
    end_turn_scoring(game, 2)  # north
    chips = {s: p.chips for s, p in game.state.players.items()}
    assert chips == {"south": 1, "west": -2, "north": 1}
    assert not game.over and game.state.round.number == 3
    for score in (3, 9, 9):  # north starts round three and wins it
        end_turn_scoring(game, score)
    assert game.over and game.winners == ["north"]


# ------------------------------------------------------------------ setup and actions


@pytest.mark.parametrize(
    "options",
    [
        {"seats": ["south"]},
        {"seats": ["south", "west", "north", "east", "middle"]},
        {"seats": ["south", "south"]},
        {"players": 5},
        {"players": True},
        {"rounds": 0},
        {"rounds": 100},
        {"rounds": None, "target": None},
        {"target": "ten"},
        {"hughie": "yes"},
        {"colour": "red"},
        {"players": 2, "seats": ["south", "west", "north"]},
        [],
    ],
)
def test_bad_options_are_refused_clearly(options: object) -> None:
    with pytest.raises(BadOptions) as caught:
        KlackersOptions.from_json(options)
    # a number out of its range names the range (rule option_range, engine.core.options)
    assert caught.value.rule in ("klackers_options", "option_range") and str(caught.value)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "shout"},
        {"type": "roll", "seat": "south", "dice": 3},
        {"type": "roll", "seat": "south", "dice": True},
        {"type": "roll", "seat": "middle"},
        {"type": "roll"},
        {"type": "pull", "seat": "south"},
        {"type": "pull", "seat": "south", "numbers": []},
        {"type": "pull", "seat": "south", "numbers": [10]},
        {"type": "pull", "seat": "south", "numbers": [3, 3]},
        {"type": "pull", "seat": "south", "numbers": [True]},
        {"type": "pull", "seat": "south", "numbers": "34"},
        {"type": "pull", "seat": "south", "numbers": [3], "dice": 2},
    ],
)
def test_malformed_actions_are_refused_clearly(data: object) -> None:
    with pytest.raises(MalformedAction) as caught:
        action_from_json(data)
    assert caught.value.rule == "malformed_action" and str(caught.value)


def test_zero_rounds_or_target_means_none() -> None:
    options = KlackersOptions.from_json({"rounds": 0, "target": 5})
    assert options.rounds is None and options.target == 5
    assert KlackersOptions.from_json({"target": 0}).target is None
    with pytest.raises(BadOptions):
        KlackersOptions.from_json({"rounds": 0, "target": 0})


def test_actions_read_back_from_their_json() -> None:
    for action in (Roll("south", 2), Roll("west", 1), Pull("north", (4, 1, 2))):
        assert action_from_json(action.to_json()) == action
    assert Pull("north", (4, 1, 2)).to_json()["numbers"] == [1, 2, 4]
    assert action_from_json({"type": "roll"}, seat="east") == Roll("east", 2)


def test_the_standing_numbers_are_all_nine_at_first() -> None:
    game = match(seats=THREE)
    assert all(p.standing == mask_of(range(1, 10)) for p in game.state.players.values())
    assert combos([1, 2, 3], 3) == [[3], [1, 2]]
