"""The fifteen acceptance scenarios of the Clockman design (companions.md, B4), one test
each, played through the game's own ``apply`` with the dice a scenario needs. Every
refused report is checked to leave the game exactly as it was."""

from __future__ import annotations

from clockman_support import (
    ScriptedDice,
    act,
    kinds,
    new_game,
    place,
    refused,
    roll,
    south_on_the_final_straight,
    to_turn,
)

from engine.clockman import ClockmanGame, ClockmanOptions
from engine.clockman.errors import (
    BadCheck,
    CannotKnock,
    DateIncomplete,
    DigitNotAllowed,
    EventLimit,
    NoMatchingCard,
    NotYourOffer,
    SupplyEmpty,
    WrongMoment,
)
from engine.clockman.rules import roll_off
from engine.core.errors import IllegalAction
from web.refusals import in_english

THREE = ("south", "west", "north")


# 1 --------------------------------------------------------------------------------


def test_1_start_rolls_reroll_only_the_tied_and_every_piece_enters_with_its_first_roll() -> None:
    rolls, scripted_starter, die = roll_off(ScriptedDice([5, 3, 5, 2, 6]), THREE, 6)
    assert rolls == [{"south": 5, "west": 3, "north": 5}, {"south": 2, "north": 6}]
    assert (scripted_starter, die) == ("north", 6)

    # a real game: whoever ties re-rolls alone, the starter enters with the deciding roll
    for seed in range(200):
        game = ClockmanGame.new(ClockmanOptions(seats=THREE), seed)
        opening = game.state.opening
        if len(opening) > 1:
            break
    first = opening[0]
    assert set(opening[1]) == {s for s, d in first.items() if d == max(first.values())}
    starter = game.current_seat
    assert starter is not None and opening[-1][starter] == max(opening[-1].values())
    assert game.state.turn is not None and game.state.turn.die == opening[-1][starter]
    assert {s: p.ring for s, p in game.state.players.items()} == {
        s: 1 if s == starter else 0 for s in THREE
    }
    game.state.rng = ScriptedDice()
    act(game, "plain")
    act(game, "end_turn")
    second = game.current_seat
    assert second is not None
    events = roll(game, 4)
    assert kinds(events) == ["rolled", "entered"]
    assert game.state.players[second].ring == 1


# 2 --------------------------------------------------------------------------------


def test_2_a_sixth_zero_stays_on_the_board_unless_the_hamster_rule_allows_one_more() -> None:
    game = new_game()
    place(game, "south", ring=2, date="00000")
    error = refused(game, DigitNotAllowed, "digit", digit="0")
    assert "stays on the board" in in_english(error)

    for hamster, sixth, seventh in (("on", True, False), ("extended", True, True)):
        game = new_game(hamster=hamster)
        place(game, "south", ring=2, date="00000")
        assert kinds(act(game, "digit", digit="0")) == ["digit_taken"] and sixth
        assert game.state.players["south"].date["0"] == 6
        act(game, "end_turn")
        to_turn(game, "south")
        roll(game, 3)
        if seventh:
            act(game, "digit", digit="0")
            assert game.state.players["south"].date["0"] == 7
        else:
            refused(game, DigitNotAllowed, "digit", digit="0")


# 3 --------------------------------------------------------------------------------


def test_3_a_joker_completes_a_date_missing_one_zero() -> None:
    game = new_game()
    place(game, "south", ring=1, date="0000112")
    view = game.view("south")["players"][0]
    assert view["complete"] is False and view["missing"] == 1
    act(game, "digit", digit="X")
    view = game.view("south")["players"][0]
    assert view["complete"] is True
    assert view["slots"] == ["held", "held", "held", "held", "held", "held", "held", "joker"]
    assert game.state.supply["X"] == 1


# 4 --------------------------------------------------------------------------------


def test_4_a_whytooki_needs_a_card_of_its_pose_which_goes_back_under_the_deck() -> None:
    game = new_game()
    pose = game.state.rings[0][0]
    other = next(p for p in game.state.data.pose_ids if p != pose)
    place(game, "south", ring=1, hand=other)
    error = refused(game, NoMatchingCard, "blockade", pose=pose)
    assert pose in in_english(error)

    place(game, "south", hand=pose + other)
    deck = len(game.state.deck)
    events = act(game, "blockade", pose=pose)
    assert kinds(events) == ["blockade_passed"]
    south = game.state.players["south"]
    assert south.ring == 2 and south.hand == {other: 1}
    assert len(game.state.deck) == deck + 1 and game.state.deck[-1] == pose
    # passing ends the move (ruling 6): only the turn's end or a knock may follow
    assert game.state.turn is not None and game.state.turn.phase == "done"


# 5 --------------------------------------------------------------------------------


def test_5_going_outward_needs_neither_a_card_nor_an_exact_roll() -> None:
    game = new_game()
    place(game, "south", ring=3, hand="")
    assert kinds(act(game, "outward")) == ["moved_outward"]
    assert game.state.players["south"].ring == 2
    # the landing is then reported on the outer circle: its 0s
    act(game, "digit", digit="0")
    assert game.state.players["south"].date["0"] == 1


# 6 --------------------------------------------------------------------------------


def test_6_a_lift_used_leaves_the_game_and_a_declined_one_stays() -> None:
    game = new_game()
    place(game, "south", ring=2)
    act(game, "lift")
    assert game.state.players["south"].ring == 3 and game.state.supply["L"] == 5
    act(game, "end_turn")
    to_turn(game, "south")
    roll(game, 2)
    act(game, "lift", use=False)
    assert game.state.players["south"].ring == 3 and game.state.supply["L"] == 5


# 7 --------------------------------------------------------------------------------


def test_7_a_knock_sends_a_piece_one_circle_out_but_never_on_the_straight() -> None:
    game = new_game(seats=THREE)
    place(game, "west", ring=1)
    act(game, "knock", victim="west")
    assert game.state.players["west"].ring == 0  # back to the start field
    act(game, "plain")
    act(game, "end_turn")

    to_turn(game, "south")
    place(game, "south", ring=3)
    place(game, "north", ring=3)
    roll(game, 5)
    act(game, "knock", victim="north")
    assert game.state.players["north"].ring == 2
    act(game, "plain")
    act(game, "end_turn")

    to_turn(game, "south")
    place(game, "south", ring=4)
    place(game, "west", ring=5, field=1, date="0000011X")
    roll(game, 2)
    error = refused(game, CannotKnock, "knock", victim="west")
    assert "final straight" in in_english(error)


# 8 --------------------------------------------------------------------------------


def test_8_the_straight_stays_shut_to_an_incomplete_date() -> None:
    game = new_game()
    place(game, "south", ring=4, date="000001")
    refused(game, DateIncomplete, "straight", field=1)
    place(game, "south", date="00000112")
    act(game, "straight", field=1)
    assert (game.state.players["south"].ring, game.state.players["south"].field) == (5, 1)


# 9 --------------------------------------------------------------------------------


def test_9_on_the_straight_too_high_or_without_the_card_forfeits_and_with_it_passes() -> None:
    game, pose = south_on_the_final_straight()
    assert kinds(roll(game, 3)) == ["rolled", "forfeited"]
    assert game.state.players["south"].field == 1
    act(game, "end_turn")

    to_turn(game, "south")
    events = roll(game, 2)
    assert events[-1].kind == "forfeited" and events[-1].data["reason"] == "no_card"
    assert game.state.players["south"].field == 1
    act(game, "end_turn")

    to_turn(game, "south")
    place(game, "south", hand=pose)
    events = roll(game, 2)
    assert events[-1].kind == "straight_passed"
    south = game.state.players["south"]
    assert south.field == 3 and south.hand == {} and game.state.deck[-1] == pose


# 10 -------------------------------------------------------------------------------


def test_10_past_the_last_whytooki_only_a_one_wins() -> None:
    game = new_game()
    act(game, "plain")
    act(game, "end_turn")
    place(game, "south", ring=5, field=3, date="00000112")
    to_turn(game, "south")
    events = roll(game, 2)
    assert events[-1].data["reason"] == "needs_one" and not game.over
    act(game, "end_turn")
    to_turn(game, "south")
    events = roll(game, 1)
    assert kinds(events)[-2:] == ["reached_centre", "game_won"]
    assert game.over and game.state.winners == ["south"]


# 11 -------------------------------------------------------------------------------


def test_11_a_fourth_event_card_in_one_turn_is_refused() -> None:
    game = new_game()
    place(
        game,
        "south",
        ring=2,
        cards=[("hidden", "a"), ("hidden", "b"), ("open", "c"), ("hidden", "d")],
    )
    for card in ("e1", "e2", "e3"):
        assert kinds(act(game, "play", card=card)) == ["card_played"]
    error = refused(game, EventLimit, "play", card="e4")
    assert "3" in in_english(error)
    # the next turn counts afresh
    act(game, "plain")
    act(game, "end_turn")
    to_turn(game, "south")
    act(game, "play", card="e4")


# 12 -------------------------------------------------------------------------------


def test_12_a_face_down_card_that_should_have_been_played_at_once_may_cost_the_win() -> None:
    def at_the_centre(seats: tuple[str, ...]) -> ClockmanGame:
        game = new_game(seats=seats)
        act(game, "plain")
        act(game, "end_turn")
        place(
            game,
            "south",
            ring=5,
            field=3,
            date="00000112",
            cards=[("hidden", "tax"), ("open", "shield")],
        )
        to_turn(game, "south")
        assert kinds(roll(game, 1))[-1] == "check_asked"
        assert not game.over and game.active_seats() == [s for s in seats if s != "south"]
        return game

    game = at_the_centre(THREE)
    refused(game, BadCheck, "revoke", "west")  # nothing inspected yet
    events = act(game, "inspect", "west", kinds=["now"])
    assert events[-1].kind == "inspected" and events[-1].data["misplayed"] == 1
    assert kinds(act(game, "revoke", "north")) == ["win_revoked", "turn_started"]
    assert game.state.players["south"].status == "out" and not game.over
    assert game.current_seat == "west"  # play goes on with two (ruling 9)

    game = at_the_centre(("south", "north"))
    act(game, "inspect", "north", kinds=["now"])
    act(game, "revoke", "north")
    assert game.over and game.state.winners == ["north"] and game.state.reason == "last_player"

    game = at_the_centre(("south", "north"))
    act(game, "inspect", "north", kinds=["hidden"])  # a proper face-down card: the win stands
    assert game.over and game.state.winners == ["south"]


# 13 -------------------------------------------------------------------------------


def test_13_with_the_transfer_rule_a_date_is_complete_only_after_an_orange_field() -> None:
    game = new_game(transfer=True)
    place(game, "south", ring=4, date="0000011")
    act(game, "digit", digit="2")
    south = game.state.players["south"]
    assert south.pending["2"] == 1 and south.date["2"] == 0
    assert game.view(None)["players"][0]["slots"][4] == "pending"
    act(game, "end_turn")
    to_turn(game, "south")
    roll(game, 2)
    refused(game, DateIncomplete, "straight", field=1)
    act(game, "transfer")
    assert south.date["2"] == 0  # the old object: apply works on a copy
    south = game.state.players["south"]
    assert south.date["2"] == 1 and south.pending["2"] == 0
    act(game, "end_turn")
    to_turn(game, "south")
    roll(game, 1)
    act(game, "straight", field=1)
    assert game.state.players["south"].ring == 5


# 14 -------------------------------------------------------------------------------


def test_14_robbery_takes_a_digit_unless_a_card_protects_it_and_a_second_card_the_piece() -> None:
    def knock_north(cards: list[tuple[str, str]]) -> ClockmanGame:
        game = new_game(robbery=True)
        place(game, "south", ring=3, date="00000")
        place(game, "north", ring=3, date="000001", cards=cards)
        act(game, "knock", victim="north")
        return game

    # no card to show: the only digit south may take (a 1) is taken, and north goes out
    game = knock_north([])
    assert game.state.players["south"].date["1"] == 1
    assert game.state.players["north"].date["1"] == 0 and game.state.players["north"].ring == 2

    # a card protecting the digit: the piece still goes out
    game = knock_north([("hidden", "safe"), ("hidden", "wall")])
    assert game.active_seats() == ["north"]
    refused(game, IllegalAction, "plain", "south")  # the hitter waits for the answer
    events = act(game, "defend", "north", digit="e1")
    assert [e.kind for e in events] == ["protected", "knocked_out"]
    north = game.state.players["north"]
    assert north.date["1"] == 1 and north.ring == 2 and [c.id for c in north.cards] == ["e2"]

    # a second card protects the piece as well
    game = knock_north([("hidden", "safe"), ("hidden", "wall")])
    act(game, "defend", "north", digit="e1", knock="e2")
    north = game.state.players["north"]
    assert north.date["1"] == 1 and north.ring == 3 and north.cards == []

    # no defence although cards are held: the hitter takes the digit
    game = knock_north([("hidden", "safe")])
    act(game, "defend", "north")
    assert game.state.players["south"].date["1"] == 1 and game.state.players["north"].ring == 2


# 15 -------------------------------------------------------------------------------


def test_15_a_trade_is_made_when_both_accept_and_a_third_player_cannot_veto() -> None:
    game = new_game(seats=THREE, swap=True)
    place(game, "south", ring=2, date="000000")
    place(game, "west", ring=2, date="11")
    act(game, "offer", to="west", give=["0"], get=["1"])
    assert game.active_seats() == ["south", "west"]
    refused(game, NotYourOffer, "decline", "north")
    refused(game, NotYourOffer, "accept", "north")
    assert kinds(act(game, "accept", "west")) == ["offer_accepted"]
    south, west = game.state.players["south"], game.state.players["west"]
    assert (south.date["0"], south.date["1"]) == (5, 1)
    assert (west.date["0"], west.date["1"]) == (1, 1)
    assert game.state.offer is None


# beyond B4 ------------------------------------------------------------------------


def test_a_piece_sent_back_to_the_start_before_its_landing_lands_nowhere() -> None:
    game = new_game()
    place(game, "south", ring=1, cards=[("hidden", "back to the start")])
    assert kinds(act(game, "play", card="e1", effect="circle_out")) == [
        "card_played",
        "moved_by_card",
    ]
    assert game.state.players["south"].ring == 0
    refused(game, WrongMoment, "plain")  # the move is over
    act(game, "end_turn")
    assert game.current_seat == "north"


FOUR = ("south", "west", "north", "east")


def test_the_last_digit_card_of_a_kind_is_taken_and_then_none_is_left_to_take() -> None:
    """The board holds four 2s. With the hamster rule west keeps two and north one: south
    takes the last, and east, landing on the 2s' circle with none left, takes nothing."""
    game = new_game(seats=FOUR, hamster="on")
    place(game, "west", date="22")
    place(game, "north", date="2")
    place(game, "south", ring=4)
    place(game, "east", ring=4)
    assert game.state.supply["2"] == 1
    assert kinds(act(game, "digit", digit="2")) == ["digit_taken"]
    assert game.state.supply["2"] == 0 and game.state.players["south"].date["2"] == 1

    act(game, "end_turn")
    to_turn(game, "east")
    roll(game, 1)
    error = refused(game, SupplyEmpty, "digit", digit="2")
    assert error.params == {"what": "2"} and "No 2 card is left" in in_english(error)
    assert game.state.players["east"].date["2"] == 0
    act(game, "plain")  # reported as the plain field it now is
    assert game.state.supply["2"] == 0


def test_a_lift_with_none_left_on_the_board_is_refused() -> None:
    game = new_game()
    place(game, "south", ring=2)
    game.state.supply["L"] = 0  # all six lifts used: each leaves the game
    refused(game, SupplyEmpty, "lift")
    assert game.state.players["south"].ring == 2
    assert kinds(act(game, "lift", use=False)) == ["lift_declined"]
