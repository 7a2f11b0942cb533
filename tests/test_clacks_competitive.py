"""Scenario tests for every rule of the competitive game and its variants."""

from __future__ import annotations

import re
from copy import deepcopy
from dataclasses import replace

import pytest
from clacks_setup import (
    competitive_rules,
    give_faults,
    give_hand,
    lamps,
    moved_under_grit,
    set_board,
    set_turn,
)
from refusals import raises_in_words

from engine.clacks import (
    ClacksGame,
    Discard,
    EndTurn,
    Move,
    Options,
    PlayFault,
    PlayJacquard,
    ResumeClock,
    Seat,
    TimeUp,
    Transmit,
    action_from_json,
)
from engine.clacks import errors as E
from engine.clacks.components import Card
from engine.clacks.data import load_components
from engine.clacks.effects import Timing
from engine.clacks.geometry import TOWER_LIST, TOWERS, pattern_mask, towers_of
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.hidden import NotUsableHere
from web.refusals import in_english

S, W, N, EAST = Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST


def game_with_words(*words: str, seed: int = 3, **options: object) -> ClacksGame:
    seats = {2: (S, N), 3: (S, W, N), 4: (S, W, N, EAST)}[len(words)]
    opts = Options(seats=seats, words=tuple((w,) for w in words), **options)  # type: ignore[arg-type]
    return ClacksGame.new(opts, seed)


def kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.kind for e in events]


def unchanged_after(
    game: ClacksGame, action: object, error: type[IllegalAction], match: str
) -> None:
    """``action`` is refused with ``error``, its English (``match``, a regular expression)
    found in what the player reads, the game left as it was."""
    before = game.to_json()
    with pytest.raises(error) as caught:
        game.apply(action)  # type: ignore[arg-type]
    assert re.search(match, in_english(caught.value)), in_english(caught.value)
    assert game.to_json() == before


def refused_saying(game: ClacksGame, action: object, error: type[IllegalAction], words: str) -> IllegalAction:
    """``action`` is refused with ``error`` in exactly ``words`` (its full stop aside), the
    game left as it was."""
    before = game.to_json()
    with pytest.raises(error) as caught:
        game.apply(action)  # type: ignore[arg-type]
    assert in_english(caught.value).removesuffix(".") == words
    assert game.to_json() == before
    return caught.value


def show(
    game: ClacksGame, seat: Seat, tower: str, symbol: str, extra: tuple[str, ...] = ()
) -> None:
    """Put ``symbol`` on ``tower`` as ``seat`` reads it (plus any ``extra`` lamps lit)."""
    game.state.board = pattern_mask(game.components.alphabet[symbol], seat, tower) | lamps(*extra)


# ---------------------------------------------------------------- setup


def test_two_players_face_each_other_and_the_first_word_alphabetically_starts() -> None:
    game = game_with_words("TROLL", "GNOME")
    assert game.seats == [N, S]
    assert game.current_seat is N
    with raises_in_words(E.BadOptions, match="facing each other"):
        Options(seats=(S, W))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("balanced_start", [True, False])
def test_setup_deals_words_faults_and_three_jacquards(players: int, balanced_start: bool) -> None:
    game = ClacksGame.new(Options.for_players(players, balanced_start=balanced_start), seed=11)
    state = game.state
    assert len(state.players) == players
    # the house rule: in a two-player game the starting player is dealt no Fault Report
    without = 1 if balanced_start and players == 2 else 0
    for seat, player in state.players.items():
        expected_faults = 0 if without and seat is game.current_seat else 1
        assert len(player.hand) == 3 and len(player.faults) == expected_faults
        assert len(player.words) == 1 and len(player.message) == 5
        assert player.pawn is None
    # the opening deal never draws Fault Reports, whatever stamps the hands carry
    assert len(state.fault_deck) == 12 - players + without
    assert len(state.bag) == 48 - 3 * players
    words = [" ".join(p.words) for p in state.players.values()]
    assert " ".join(state.players[game.current_seat].words) == min(words)


def test_the_balanced_start_deals_the_same_cards_otherwise() -> None:
    house = ClacksGame.new(Options(balanced_start=True), seed=4).state
    published = ClacksGame.new(Options(), seed=4).state
    first, second = house.order
    assert house.players[first].faults == []
    assert published.players[first].faults == house.fault_deck[-1:]
    assert published.players[second].faults == house.players[second].faults
    assert [p.hand for p in published.players.values()] == [p.hand for p in house.players.values()]


def test_three_players_bring_the_deep_dwarf_for_the_player_with_no_one_opposite() -> None:
    assert Options.for_players(3).dwarf_seat is W
    assert Options(seats=(S, W, EAST)).dwarf_seat is S
    assert Options.for_players(2).dwarf_seat is None
    assert Options.for_players(4).dwarf_seat is None


def test_same_seed_same_deal_and_different_seed_different_deal() -> None:
    a, b = ClacksGame.new(Options(), 5), ClacksGame.new(Options(), 5)
    assert a == b
    deals = {str(ClacksGame.new(Options(), seed).state.to_json()["players"]) for seed in range(20)}
    assert len(deals) == 20


# ---------------------------------------------------------------- the worked example


def test_rulebook_worked_example_letter_u_for_four_stress_points() -> None:
    """Player 1 sent G last turn; moves one tower (1), plays Jacquards costing 1 and 2,
    transmits U having spent 4, and draws two Jacquards."""
    game = game_with_words("GUARD", "TROLL")
    south = game.state.players[S]
    south.progress, south.pawn, south.must_leave = 1, "a2b2", "a2b2"
    game.state.players[N].pawn = "c3d3"
    pin, pair, spare = give_hand(game, S, ["pin", "pair", "long"])
    set_board(game, ["b3", "c2", "a4", "d1"])  # at b2c2, U needs c2 b1 c1 lit and b3 dark
    set_turn(game, S)

    assert kinds(game.apply(Move(S, tower="b2c2"))) == ["moved"]
    assert game.state.turn.stress_spent == 1
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b3")))
    game.apply(PlayJacquard(S, jacquard=pair, lamps=lamps("b1", "c1")))
    assert game.state.turn.stress_spent == 4
    events = game.apply(Transmit(S))
    transmitted = next(e for e in events if e.kind == "transmitted")
    assert transmitted.data["symbol"] == "U" and transmitted.data["progress"] == 2
    drew = next(e for e in events if e.kind == "drew_jacquards" and e.seat is S)
    assert drew.data["count"] == 2
    assert len(south.hand) == 3 and spare in south.hand
    assert south.last_turn_stress == 4
    assert game.current_seat is N


# ---------------------------------------------------------------- movement


def test_first_placement_is_free_and_later_moves_cost_one_per_button() -> None:
    game = game_with_words("ADORA", "TROLL")
    game.apply(Move(S, tower="c3d3"))  # anywhere of its colour, free
    assert game.state.turn.stress_spent == 0
    game = game_with_words("ADORA", "TROLL")
    game.state.players[S].pawn = "a2b2"
    set_turn(game, S)
    game.apply(Move(S, tower="c3d3"))  # two across and one deep: three buttons, no diagonals
    assert game.state.turn.stress_spent == 3


def test_moving_beyond_the_stress_left_names_the_cost() -> None:
    game = game_with_words("ADORA", "TROLL")
    game.state.players[S].pawn = "a2b2"
    set_turn(game, S)
    game.state.turn.stress_spent = 4
    unchanged_after(
        game,
        Move(S, tower="c2d2"),
        E.StressLimit,
        "^Moving to c2d2 costs 2 stress points; a turn may spend at most 5 stress points, and you have 1 left\\.$",
    )


def test_pawns_pass_through_but_never_stop_on_another_pawn() -> None:
    game = game_with_words("ADORA", "TROLL")
    game.state.players[S].pawn = "a2b2"
    game.state.players[N].pawn = "b2c2"
    set_turn(game, S)
    unchanged_after(game, Move(S, tower="b2c2"), E.TowerOccupied, "North's pawn is there")
    game.apply(Move(S, tower="c2d2"))  # straight through North's button
    assert game.state.turn.stress_spent == 2


def test_first_placement_may_not_land_on_an_occupied_button() -> None:
    game = game_with_words("ADORA", "TROLL")
    game.state.players[N].pawn = "b2c2"
    unchanged_after(game, Move(S, tower="b2c2"), E.TowerOccupied, "pass through but not stop")


def test_a_player_uses_only_their_colour() -> None:
    game = game_with_words("ADORA", "TROLL")
    unchanged_after(
        game, Move(S, tower="b2b3"), E.WrongColour, "red .square. towers; b2b3 is green"
    )
    unchanged_after(game, Move(S, tower="zz"), E.MoveNotAllowed, "There is no tower “zz”")


def test_moves_come_before_jacquards() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, *_ = give_hand(game, S, ["pin", "pin", "pair"])
    game.apply(Move(S, tower="b2c2"))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1")))
    unchanged_after(game, Move(S, tower="a2b2"), E.MoveNotAllowed, "already played 1")


def test_once_a_jacquard_is_played_the_phone_offers_no_move() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, *_ = give_hand(game, S, ["pin", "pin", "pair"])
    game.apply(Move(S, tower="b2c2"))
    assert any(isinstance(a, Move) for a in game.legal_actions(S))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1")))
    assert not any(isinstance(a, Move) for a in game.legal_actions(S))  # 4 stress points left all the same


def test_only_the_current_player_takes_turn_actions() -> None:
    game = game_with_words("ADORA", "TROLL")
    unchanged_after(game, Move(N, tower="b2c2"), E.NotYourTurn, "It is not your turn: South is playing")
    unchanged_after(game, Move(W, tower="b2b3"), E.NotYourTurn, "West is not playing")


# ---------------------------------------------------------------- Jacquards and transmitting


def test_jacquards_must_be_in_hand_fit_a_placement_and_the_budget() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, pair, long_bar = give_hand(game, S, ["pin", "pair", "long"])
    stranger = next(j for j in game.state.bag if j not in (pin, pair, long_bar))
    unchanged_after(
        game, PlayJacquard(S, jacquard=stranger, lamps=lamps("a1")), NotUsableHere, "not a card you can use here"
    )
    unchanged_after(
        game,
        PlayJacquard(S, jacquard=pair, lamps=lamps("a1")),
        E.BadPlacement,
        "has 2 holes, so it flips exactly 2 lamps; you chose 1",
    )
    unchanged_after(
        game,
        PlayJacquard(S, jacquard=pair, lamps=lamps("a1", "c1")),
        E.BadPlacement,
        "cannot cover exactly a1 c1",
    )
    game.state.turn.stress_spent = 3
    unchanged_after(
        game,
        PlayJacquard(S, jacquard=long_bar, lamps=lamps("a1", "b1", "c1", "d1")),
        E.StressLimit,
        "Playing the Long Bar costs 3 stress points; a turn may spend at most 5 stress points, and you have 2 left",
    )
    before = game.state.board
    game.apply(PlayJacquard(S, jacquard=pair, lamps=lamps("a4", "a3")))  # turned upright
    assert game.state.board == before ^ lamps("a3", "a4")
    assert pair in game.state.discard and pair not in game.state.players[S].hand


def test_at_least_one_jacquard_each_turn() -> None:
    game = game_with_words("ADORA", "TROLL")
    give_hand(game, S, ["pin", "pair", "long"])
    unchanged_after(
        game,
        EndTurn(S),
        E.JacquardRequired,
        "Play at least one Jacquard each turn: your Pin costs 1 and you have 5",
    )
    unchanged_after(game, Transmit(S), E.NotOnTower, "Move your pawn onto a tower")


def south_on_a2b2_holding_three_point_jacquards() -> ClacksGame:
    """South's turn, its pawn on a2b2 and its hand a Long Bar, a Block and a Cross (every
    one costs 3 stress points)."""
    game = game_with_words("ADORA", "TROLL")
    give_hand(game, S, ["long", "block", "cross"])
    game.state.players[S].pawn = "a2b2"
    set_turn(game, S)
    return game


def move_refused_as_stranding(game: ClacksGame, tower: str, cost: int, left: int) -> None:
    """South's move to ``tower`` is refused, changing nothing: ``cost`` stress points would
    leave ``left``, too few for the cheapest Jacquard in hand (the Long Bar's 3)."""
    unchanged_after(
        game,
        Move(S, tower=tower),
        E.MoveStrandsHand,
        f"Moving to {tower} costs {cost} stress points and would leave you {left}, too few "
        r"for any Jacquard \(your Long Bar costs 3\); play at least one Jacquard each turn",
    )
    with pytest.raises(E.MoveStrandsHand) as caught:
        game.apply(Move(S, tower=tower))
    assert caught.value.params == {
        "reason": "hand", "design": "long", "tower": tower, "cost": cost, "left": left, "cheapest": 3
    }


def test_a_move_may_not_leave_every_jacquard_unaffordable() -> None:
    game = south_on_a2b2_holding_three_point_jacquards()
    move_refused_as_stranding(game, "c3d3", cost=3, left=2)
    assert Move(S, tower="c3d3") not in game.legal_actions(S)
    assert Move(S, tower="b3c3") in game.legal_actions(S)  # 2 points: 3 left for a card
    game.apply(Move(S, tower="b3c3"))


def test_a_move_may_not_spend_the_stress_the_cheapest_jacquard_needs_to_the_point() -> None:
    """The boundary itself: 3 stress points left and a hand whose cheapest Jacquard
    costs 3. A 2-point move would leave 1, so it is refused; with 2 left no Jacquard is
    affordable anyway, and the same move is allowed (ruling 5 asks only what a player can)."""
    game = south_on_a2b2_holding_three_point_jacquards()
    game.state.turn.stress_spent = 2  # exactly the cheapest Jacquard's 3 left
    move_refused_as_stranding(game, "b3c3", cost=2, left=1)
    assert Move(S, tower="b3c3") not in game.legal_actions(S)

    game.state.turn.stress_spent = 3  # 2 left: no Jacquard is affordable, moving strands nothing
    assert Move(S, tower="b3c3") in game.legal_actions(S)
    events = game.apply(Move(S, tower="b3c3"))
    assert "moved" in kinds(events) and game.state.players[S].pawn == "b3c3"


def test_a_player_with_no_jacquard_in_hand_may_still_move() -> None:
    game = game_with_words("ADORA", "TROLL")
    south = game.state.players[S]
    game.state.bag.extend(south.hand)
    south.hand.clear()
    south.pawn = "a2b2"
    assert game.apply(Move(S, tower="b2c2"))[0].to_json()["to"] == "b2c2"


def test_a_player_who_cannot_afford_any_jacquard_may_end_the_turn() -> None:
    game = game_with_words("ADORA", "TROLL")
    give_hand(game, S, ["long", "block", "cross"])
    set_turn(game, S)
    grit, grit2 = give_faults(game, N, ["grit-in-gears", "grit-in-gears"])
    game.apply(PlayFault(N, card=grit))
    game.apply(PlayFault(N, card=grit2))  # 1 stress point left, every Jacquard costs 3
    events = game.apply(EndTurn(S))
    assert "turn_ended" in kinds(events) and game.current_seat is N


def test_a_jacquard_costing_exactly_the_stress_left_is_offered_and_still_owed() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, _, _ = give_hand(game, S, ["pin", "pair", "long"])
    grit, grit2 = give_faults(game, N, ["grit-in-gears", "grit-in-gears"])
    game.apply(PlayFault(N, card=grit))
    game.apply(PlayFault(N, card=grit2))  # 1 stress point left: the Pin's cost to the point
    offered = game.legal_actions(S)
    assert {a.jacquard for a in offered if isinstance(a, PlayJacquard)} == {pin}
    assert EndTurn(S) not in offered
    error = refused_saying(game, EndTurn(S), E.JacquardRequired,
                           "Play at least one Jacquard each turn: your Pin costs 1 and you have 1 stress point left")
    assert error.params == {"reason": "cheapest", "design": "pin", "cost": 1, "left": 1}


def test_the_fresh_pattern_rule() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, pin2, _ = give_hand(game, S, ["pin", "pin", "pair"])
    game.state.players[S].pawn = "b2c2"
    set_turn(game, S)
    show(game, S, "b2c2", "A", extra=("a4",))  # A is already on the board
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a4")))  # a flip elsewhere
    unchanged_after(game, Transmit(S), E.PatternNotFresh, "None of the six lamps of b2c2 changed")
    # flipping a lamp of the tower off and on again makes the same pattern fresh
    game.apply(PlayJacquard(S, jacquard=pin2, lamps=lamps("b1")))
    game.state.players[S].hand.append(pin)
    game.state.discard.remove(pin)
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b1")))
    assert kinds(game.apply(Transmit(S)))[0] == "transmitted"


def test_transmit_requires_the_right_pattern_in_the_reader_frame() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, *_ = give_hand(game, S, ["pin", "pin", "pair"])
    game.state.players[S].pawn = "b2c2"
    set_turn(game, S)
    show(game, S, "b2c2", "B")
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b1")))  # B -> ? (one lamp off)
    unchanged_after(game, Transmit(S), E.WrongPattern, "b2c2 shows .* not the “A” you need")


def test_one_symbol_per_turn_and_the_turn_ends_on_transmitting() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, *_ = give_hand(game, S, ["pin", "pin", "pair"])
    game.state.players[S].pawn = "b2c2"
    set_turn(game, S)
    show(game, S, "b2c2", "A", extra=("d4",))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b1")))
    game.apply(PlayJacquard(S, jacquard=game.state.players[S].hand[0], lamps=lamps("b1")))
    events = game.apply(Transmit(S))
    assert kinds(events)[:2] == ["transmitted", "turn_ended"]
    assert game.state.players[S].progress == 1
    assert game.current_seat is N


def test_after_transmitting_the_next_symbol_needs_another_tower() -> None:
    game = game_with_words("ADORA", "TROLL")
    south = game.state.players[S]
    south.pawn, south.must_leave, south.progress = "b2c2", "b2c2", 1
    pin, *_ = give_hand(game, S, ["pin", "pin", "pair"])
    set_turn(game, S)
    show(game, S, "b2c2", "D", extra=("d4",))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b1")))
    game.apply(PlayJacquard(S, jacquard=south.hand[0], lamps=lamps("b1")))
    unchanged_after(game, Transmit(S), E.MustChangeTower, "Your last letter went out from b2c2")


def test_a_player_who_did_not_transmit_may_stay_but_not_send_twice_from_one_tower() -> None:
    game = game_with_words("ADORA", "TROLL")
    south = game.state.players[S]
    south.pawn, south.must_leave = "b2c2", "a2b2"
    give_hand(game, S, ["pin", "pin", "pair"])
    set_turn(game, S)
    game.apply(PlayJacquard(S, jacquard=south.hand[0], lamps=lamps("d4")))
    game.apply(EndTurn(S))
    # no letter this turn: South may stay on b2c2 and send from it next turn, but the
    # tower the last letter went out from stays barred until another letter goes out
    assert south.pawn == "b2c2" and south.must_leave == "a2b2"


# ---------------------------------------------------------------- drawing


def test_drawing_back_to_three_draws_fault_reports_for_stamps() -> None:
    game = game_with_words("ADORA", "TROLL")
    state = game.state
    south = state.players[S]
    pin, pair, long_bar = give_hand(game, S, ["pin", "pair", "long"])
    stamped = [j for j in state.bag if game.components.jacquards[j].fault]
    plain = [j for j in state.bag if not game.components.jacquards[j].fault]
    state.discard.extend(state.bag)
    state.bag = [stamped[0], plain[0]]  # the only two cards left to draw
    for card in (stamped[0], plain[0]):
        state.discard.remove(card)
    faults_before, top = len(south.faults), state.fault_deck[0]
    game.apply(Move(S, tower="b2c2"))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1")))
    game.apply(PlayJacquard(S, jacquard=pair, lamps=lamps("a1", "b1")))
    events = game.apply(EndTurn(S))
    assert sorted(south.hand) == sorted([long_bar, stamped[0], plain[0]])
    assert len(south.faults) == faults_before + 1 and south.faults[-1] == top  # the deck's top card
    drew = next(e for e in events if e.kind == "drew_faults")
    assert drew.to_json() == {"kind": "drew_faults", "seat": "south", "count": 1}
    assert drew.private == {S: {"faults": [top]}}  # only South reads which Fault Report
    assert "bag_refilled" not in kinds(events)


def test_the_bag_is_refilled_from_the_discard_pile() -> None:
    game = game_with_words("ADORA", "TROLL")
    state = game.state
    pin, *_ = give_hand(game, S, ["pin", "pair", "long"])
    state.discard.extend(state.bag)
    state.bag = []
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1")))
    events = game.apply(EndTurn(S))
    assert "bag_refilled" in kinds(events)
    assert len(state.players[S].hand) == 3
    total = len(state.bag) + len(state.discard) + sum(len(p.hand) for p in state.players.values())
    assert total == 48


# ---------------------------------------------------------------- Fault Reports


def test_fault_reports_are_played_by_any_holder_at_any_time() -> None:
    game = game_with_words("ADORA", "TROLL")
    (shutter,) = give_faults(game, N, ["stuck-shutter"])
    before = game.state.board
    events = game.apply(PlayFault(N, card=shutter, lamps=lamps("c2")))  # in South's turn
    assert kinds(events) == ["fault_played", "lamps_changed"]
    assert game.state.board == before ^ lamps("c2")
    assert game.state.fault_deck[-1] == shutter  # back under the deck
    assert game.state.turn.flipped & lamps("c2")


def test_a_fault_report_flipping_a_lamp_elsewhere_keeps_the_lamps_flipped_before_in_the_turn() -> None:
    """Ruling 3 asks whether a lamp of the tower changed this turn, by anyone: another
    player's Stuck Shutter flipping a lamp elsewhere later does not make it stale."""
    game = game_with_words("ADORA", "TROLL")
    pin, pin2, _ = give_hand(game, S, ["pin", "pin", "pair"])
    game.state.players[S].pawn = "b2c2"
    set_turn(game, S)
    show(game, S, "b2c2", "A", extra=("d4",))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b1")))
    game.apply(PlayJacquard(S, jacquard=pin2, lamps=lamps("b1")))  # A again, b1 flipped twice
    (shutter,) = give_faults(game, N, ["stuck-shutter"])
    game.apply(PlayFault(N, card=shutter, lamps=lamps("d4")))
    assert game.view(S)["turn"]["flipped"] == ["b1", "d4"]
    assert kinds(game.apply(Transmit(S)))[0] == "transmitted"


def test_fault_report_timing_and_targets_are_checked() -> None:
    game = game_with_words("ADORA", "TROLL")
    assert all(card.design.when is Timing.ANY for card in game.rules.components.faults.values())
    oiled, grit = give_faults(game, N, ["well-oiled", "grit-in-gears"])
    (rods,) = give_faults(game, S, ["crossed-rods"])
    game.apply(PlayFault(N, card=oiled))  # in South's turn: South gains the points
    assert game.state.turn.stress_limit == 7
    unchanged_after(
        game,
        PlayFault(S, card=rods, lamps=lamps("a1")),
        E.CardTarget,
        "flips exactly 2 lamps; you chose 1",
    )
    unchanged_after(game, PlayFault(S, card=grit), NotUsableHere, "not a card you can use here")
    game.apply(PlayFault(N, card=grit))
    assert game.state.turn.stress_limit == 5


def test_a_fault_report_played_is_logged_with_its_card_its_effect_and_its_target() -> None:
    game = game_with_words("ADORA", "TROLL")
    shutter, fire = give_faults(game, N, ["stuck-shutter", "wick-fire"])
    game.state.board = lamps("b2")
    events = game.apply(PlayFault(N, card=shutter, lamps=lamps("c2")))
    assert [e.to_json() for e in events] == [
        {"kind": "fault_played", "seat": "north", "card": shutter, "name": "Stuck Shutter",
         "effect": "flip_lamps", "lamps": ["c2"], "tower": None},
        {"kind": "lamps_changed", "seat": None, "lamps": ["c2"]},
    ]
    events = game.apply(PlayFault(N, card=fire, tower="b2c2"))
    assert events[0].to_json() == {"kind": "fault_played", "seat": "north", "card": fire, "name": "Wick Fire",
                                   "effect": "set_tower", "lamps": [], "tower": "b2c2"}
    assert events[1].to_json() == {"kind": "lamps_changed", "seat": None, "lamps": ["b2", "c2"]}


def test_a_stress_fault_report_tells_the_table_the_turns_new_limit_and_never_goes_below_nothing() -> None:
    game = game_with_words("ADORA", "TROLL", stress_limit=3)
    (oiled,) = give_faults(game, S, ["well-oiled"])
    grit, grit2 = give_faults(game, N, ["grit-in-gears", "grit-in-gears"])
    limits = [game.apply(PlayFault(seat, card=card))[-1].to_json() for seat, card in
              ((S, oiled), (N, grit), (N, grit2))]
    assert limits == [{"kind": "stress_changed", "seat": "south", "limit": limit} for limit in (5, 3, 1)]
    (again,) = give_faults(game, N, ["grit-in-gears"])  # a played one, back from under the deck
    (last,) = game.apply(PlayFault(N, card=again))[1:]
    assert last.to_json() == {"kind": "stress_changed", "seat": "south", "limit": 0}


def test_a_fault_reports_target_is_refused_in_words_that_name_the_card() -> None:
    game = game_with_words("ADORA", "TROLL", "SCONE")  # West has the Deep Dwarf behind it
    dwarf_seat = game.state.options.dwarf_seat
    assert dwarf_seat is not None
    overload, repair, fire, runner = give_faults(
        game, dwarf_seat, ["overload", "emergency-repair", "wick-fire", "relay-runner"])
    mover = game.state.players[dwarf_seat]
    mover.pawn, game.state.dwarf = towers_of(dwarf_seat.colour)[:2]
    for fault, error in (
        (PlayFault(dwarf_seat, card=overload, tower="b2c2"), "Overload takes no target"),
        (PlayFault(dwarf_seat, card=overload, lamps=lamps("a1")), "Overload takes no target"),
        (PlayFault(dwarf_seat, card=repair, lamps=lamps("a1", "b1")),
         "Emergency Repair flips exactly 1 lamp; you chose 2"),
        (PlayFault(dwarf_seat, card=fire, lamps=lamps("a1"), tower="b2c2"), "Wick Fire needs a tower"),
        (PlayFault(dwarf_seat, card=fire, tower="zz"),
         "There is no tower “zz”; the towers are a2b2, b2c2, c2d2, a3b3, b3c3, c3d3, b1b2, b2b3, b3b4, c1c2, c2c3, c3c4"),
        (PlayFault(dwarf_seat, card=runner, tower=game.state.dwarf),
         f"{game.state.dwarf} is taken: the Deep Dwarf is there"),
    ):
        refused = refused_saying(game, fault, E.CardTarget, error)
        design = fault.card.rsplit("-", 1)[0]  # named where the words name the card
        assert refused.params.get("fault", design) == design


def test_only_a_seat_at_the_table_plays_a_fault_report() -> None:
    game = game_with_words("ADORA", "TROLL")
    (shutter,) = give_faults(game, N, ["stuck-shutter"])
    for seat in (None, EAST):
        refused_saying(game, PlayFault(seat, card=shutter, lamps=lamps("a1")), E.NotYourTurn,
                       "Only a player holding a Fault Report can play it")


def test_once_the_time_ran_out_no_fault_report_moves_the_pawn_or_redraws_the_hand() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    runner, loom, shutter = give_faults(game, S, ["relay-runner", "jammed-loom", "stuck-shutter"])
    game.state.players[S].pawn = "a2b2"
    game.apply(TimeUp(None, at=160.0))
    for fault in (PlayFault(S, card=runner, tower="c3d3"), PlayFault(S, card=loom)):
        refused_saying(game, fault, E.WrongPhase, "Your time ran out: choose a Jacquard to discard")
    game.apply(PlayFault(S, card=shutter, lamps=lamps("a1")))  # a lamp may still be flipped


def test_a_relay_runner_refuses_another_colours_tower_and_the_pawns_own_in_words() -> None:
    game = game_with_words("ADORA", "TROLL")
    (runner,) = give_faults(game, S, ["relay-runner"])
    own = towers_of(S.colour)[0]
    foreign = next(t for t in TOWERS if TOWERS[t].colour is not S.colour)
    game.state.players[S].pawn = own
    colour = refused_saying(
        game,
        PlayFault(S, card=runner, tower=foreign),
        E.CardTarget,
        f"With Relay Runner your pawn moves to a {S.colour.value} ({S.colour.shape}) tower; "
        f"{foreign} is {TOWERS[foreign].colour.value}",
    )
    assert colour.params == {
        "reason": "colour", "fault": "relay-runner", "tower": foreign, "colour": S.colour.value
    }
    there = refused_saying(
        game, PlayFault(S, card=runner, tower=own), E.CardTarget, f"Your pawn is already on {own}"
    )
    assert there.params == {"reason": "already_there", "tower": own}


def test_a_house_tower_fault_report_may_light_the_tower_instead() -> None:
    shipped = load_components()
    faults = {
        card_id: Card(card_id, replace(card.design, params={"lit": True}))
        if card.design.id == "wick-fire"
        else card
        for card_id, card in shipped.faults.items()
    }
    game = ClacksGame.new(Options(seats=(S, N), words=(("ADORA",), ("TROLL",))), 3, replace(shipped, faults=faults))
    (fire,) = give_faults(game, S, ["wick-fire"])
    game.state.board = lamps("a1")
    game.apply(PlayFault(S, card=fire, tower="b2c2"))
    assert game.state.board == lamps("a1") | TOWERS["b2c2"].mask


def offered_faults(game: ClacksGame, seat: Seat, at: float | None = None) -> dict[str, set[tuple[int, str | None]]]:
    """The Fault Reports the phone of ``seat`` offers, each with the targets listed."""
    offered: dict[str, set[tuple[int, str | None]]] = {}
    for action in game.legal_actions(seat, at):
        if isinstance(action, PlayFault):
            offered.setdefault(action.card, set()).add((action.lamps, action.tower))
    return offered


def test_the_phone_offers_each_fault_report_with_every_target_it_may_take() -> None:
    game = game_with_words("ADORA", "TROLL", "SCONE")  # West has the Deep Dwarf behind it
    seat = game.state.options.dwarf_seat
    assert seat is not None and seat is not game.current_seat
    overload, rods, shutter, runner = give_faults(game, seat, ["overload", "crossed-rods", "stuck-shutter",
                                                               "relay-runner"])
    own = towers_of(seat.colour)
    game.state.players[seat].pawn, game.state.dwarf = own[0], own[1]
    offered = offered_faults(game, seat)
    assert offered[overload] == {(0, None)}
    assert len(offered[rods]) == 120 and len(offered[shutter]) == 16  # every pair, every lamp
    taken = {own[0], own[1]} | {p.pawn for p in game.state.players.values()}
    assert offered[runner] == {(0, name) for name in own if name not in taken}


def test_once_the_time_ran_out_the_phone_offers_only_the_discard_and_what_a_fault_report_may_still_do() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    *_, shutter = give_faults(game, S, ["relay-runner", "jammed-loom", "stuck-shutter"])
    game.apply(TimeUp(None, at=160.0))
    offered = game.legal_actions(S, 161.0)
    assert {a.jacquard for a in offered if isinstance(a, Discard)} == set(game.state.players[S].hand)
    assert {type(a) for a in offered} == {Discard, PlayFault}
    assert set(offered_faults(game, S, 161.0)) == {shutter}


def test_a_house_set_may_time_its_fault_reports() -> None:
    shipped = load_components()
    timed = {"well-oiled": Timing.OWN_TURN, "grit-in-gears": Timing.OTHERS_TURN}
    faults = {
        card_id: Card(card_id, replace(card.design, when=timed[card.design.id]))
        if card.design.id in timed
        else card
        for card_id, card in shipped.faults.items()
    }
    options = Options(seats=(S, N), words=(("ADORA",), ("TROLL",)))
    game = ClacksGame.new(options, 3, replace(shipped, faults=faults))
    # each card held back in its turn first, so that it must not hide the cards after it
    grit, oiled, shutter = give_faults(game, S, ["grit-in-gears", "well-oiled", "stuck-shutter"])
    set_turn(game, S)
    assert set(offered_faults(game, S)) == {oiled, shutter}  # the phone offers only what may be played now
    error = refused_saying(
        game, PlayFault(S, card=grit), E.CardTiming, "Grit in the Gears can only be played in another player's turn"
    )
    assert error.params == {"reason": "others_turn", "fault": "grit-in-gears"}
    set_turn(game, N)
    assert set(offered_faults(game, S)) == {grit, shutter}
    error = refused_saying(game, PlayFault(S, card=oiled), E.CardTiming, "Well Oiled can only be played in your own turn")
    assert error.params == {"reason": "own_turn", "fault": "well-oiled"}
    game.apply(PlayFault(S, card=grit))


def test_a_fault_report_moves_a_pawn_in_another_players_turn() -> None:
    game = game_with_words("ADORA", "TROLL", "SCONE")  # West has the Deep Dwarf behind it
    dwarf_seat = game.state.options.dwarf_seat
    assert dwarf_seat is not None and dwarf_seat is not game.current_seat
    mover = game.state.players[dwarf_seat]
    start, free = [
        name
        for name in towers_of(dwarf_seat.colour)
        if competitive_rules(game).occupant(game.state, name, dwarf_seat) is None
    ][:2]
    mover.pawn = start
    (runner,) = give_faults(game, dwarf_seat, ["relay-runner"])
    turn_before = game.state.turn.stress_spent
    events = game.apply(PlayFault(dwarf_seat, card=runner, tower=free))
    assert [e.to_json() for e in events[1:]] == [
        {"kind": "moved", "seat": dwarf_seat.label, "to": free, "cost": 0, "from": start},
        {"kind": "dwarf_moved", "seat": dwarf_seat.label, "to": start},
    ]
    assert mover.pawn == free and game.state.dwarf == start  # one tower behind
    assert game.state.turn.stress_spent == turn_before  # the mover paid nothing of the turn's


def test_each_competitive_fault_effect() -> None:
    game = game_with_words("ADORA", "TROLL")
    overload, fire, oiled, runner, loom = give_faults(
        game, S, ["overload", "wick-fire", "well-oiled", "relay-runner", "jammed-loom"]
    )
    game.apply(PlayFault(S, card=overload))
    assert game.state.board == 0xFFFF
    game.apply(PlayFault(S, card=fire, tower="b2b3"))
    assert game.state.board == 0xFFFF & ~TOWERS["b2b3"].mask
    game.apply(PlayFault(S, card=oiled))
    assert game.state.turn.stress_limit == 7
    game.state.players[S].pawn = "a2b2"
    game.apply(PlayFault(S, card=runner, tower="c3d3"))
    assert game.state.players[S].pawn == "c3d3" and game.state.turn.stress_spent == 0
    hand_before = list(game.state.players[S].hand)
    events = game.apply(PlayFault(S, card=loom))
    drawn = next(e for e in events if e.kind == "drew_jacquards")
    assert drawn.to_json() == {"kind": "drew_jacquards", "seat": "south", "count": 3, "reason": "redraw"}
    assert len(game.state.players[S].hand) == 3
    assert set(hand_before) <= set(game.state.discard)


def long_bar_over_the_limit(game: ClacksGame, seat: Seat, long_bar: str, limit: str) -> None:
    """A long bar (3 stress points) across the top row is refused, with 2 points left
    under ``limit``, and changes nothing."""
    unchanged_after(
        game,
        PlayJacquard(seat, jacquard=long_bar, lamps=lamps("a1", "b1", "c1", "d1")),
        E.StressLimit,
        f"costs 3 stress points; {limit}, and you have 2 left",
    )


def test_every_turn_starts_with_the_tables_stress_limit_whatever_a_fault_report_made_of_the_last() -> None:
    game = game_with_words("ADORA", "TROLL", stress_limit=4)
    (oiled,) = give_faults(game, S, ["well-oiled"])
    pin, *_ = give_hand(game, S, ["pin", "pair", "long"])
    game.apply(PlayFault(S, card=oiled))
    assert game.view(S)["turn"]["stress_limit"] == 6
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1")))
    game.apply(EndTurn(S))
    assert (game.view(N)["turn"]["stress_limit"], game.view(N)["turn"]["stress_left"]) == (4, 4)


def test_stress_penalty_cuts_the_current_players_budget() -> None:
    game = game_with_words("ADORA", "TROLL")
    long_bar = moved_under_grit(game)
    long_bar_over_the_limit(
        game, S, long_bar, "a Fault Report set this turn's limit to 3 stress points"
    )


# ---------------------------------------------------------------- Deep Dwarf


def test_the_deep_dwarf_follows_one_tower_behind_and_blocks() -> None:
    game = game_with_words("GNOME", "ADORA", "TROLL")  # West (ADORA) starts
    assert game.current_seat is W
    west = game.state.players[W]
    pins = give_hand(game, W, ["pin", "pin", "pin"])
    game.apply(Move(W, tower="b1b2"))  # first placement: the Dwarf has no tower to take yet
    assert game.state.dwarf is None
    game.apply(PlayJacquard(W, jacquard=pins[0], lamps=lamps("d4")))
    game.apply(EndTurn(W))
    set_turn(game, W)
    game.apply(Move(W, tower="b2b3"))
    assert game.state.dwarf == "b1b2"
    unchanged_after(game, Move(W, tower="b1b2"), E.TowerOccupied, "the Deep Dwarf is there")
    game.apply(Move(W, tower="c3c4"))  # through the board, the Dwarf stays on the turn's start
    assert game.state.dwarf == "b1b2" and west.pawn == "c3c4"


def test_the_deep_dwarf_takes_the_tower_its_player_stood_on_when_the_turn_came_round() -> None:
    game = game_with_words("GNOME", "ADORA", "TROLL")  # West (ADORA) starts, the Dwarf behind it
    pin, *_ = give_hand(game, W, ["pin", "pin", "pin"])
    game.apply(Move(W, tower="b1b2"))
    game.apply(PlayJacquard(W, jacquard=pin, lamps=lamps("d4")))
    game.apply(EndTurn(W))
    while game.current_seat is not W:
        seat = game.current_seat
        card = game.state.players[seat].hand[0]
        game.apply(PlayJacquard(seat, jacquard=card, lamps=game.components.jacquards[card].design.placements[0].mask))
        game.apply(EndTurn(seat))
    assert game.view(W)["turn"]["start_tower"] == "b1b2"
    events = game.apply(Move(W, tower="b2b3"))
    assert [e.to_json() for e in events] == [
        {"kind": "moved", "seat": "west", "to": "b2b3", "cost": 1, "from": "b1b2"},
        {"kind": "dwarf_moved", "seat": "west", "to": "b1b2"},
    ]
    assert game.state.dwarf == "b1b2"


def test_nobody_transmits_from_the_dwarfs_tower() -> None:
    game = game_with_words("GNOME", "ADORA", "TROLL")
    state = game.state
    state.dwarf = "b2b3"
    state.players[W].pawn = "b2b3"
    problem = competitive_rules(game).transmit_problem(state, state.players[W])
    assert isinstance(problem, E.TowerOccupied) and "Deep Dwarf" in in_english(problem)


# ---------------------------------------------------------------- sabotage and winning


def finish_message(game: ClacksGame, seat: Seat, tower: str, via: str = "b1") -> list:  # type: ignore[type-arg]
    """Arrange ``seat`` one symbol from the end at ``tower`` and transmit it."""
    player = game.state.players[seat]
    player.progress = len(player.message) - 1
    player.pawn = tower
    pins = give_hand(game, seat, ["pin", "pin", "pair"])
    set_turn(game, seat)
    game.state.board = pattern_mask(game.components.alphabet[player.message[-1]], seat, tower)
    game.apply(PlayJacquard(seat, jacquard=pins[0], lamps=lamps(via)))
    game.apply(PlayJacquard(seat, jacquard=pins[1], lamps=lamps(via)))
    return game.apply(Transmit(seat))


def test_last_letter_sabotage_that_succeeds() -> None:
    game = game_with_words("ADORA", "TROLL")
    events = finish_message(game, S, "b2c2")
    assert "message_complete" in kinds(events) and "sabotage_started" in kinds(events)
    assert game.current_seat is N and game.state.turn.phase == "sabotage"
    assert game.view(N)["turn"]["can_move"] is False  # the saboteur's phone offers no move
    lit = game.state.board & TOWERS["b2c2"].mask  # A = 00 10 01 at b2c2 for South: b2 and c1
    assert lit == lamps("b2", "c1")
    stile, _, _ = give_hand(game, N, ["stile", "pin", "long"])
    unchanged_after(game, Move(N, tower="a3b3"), E.WrongPhase, "sabotage attempt")
    unchanged_after(game, Transmit(N), E.WrongPhase, "First darken b2c2")
    events = game.apply(PlayJacquard(N, jacquard=stile, lamps=lamps("b2", "c1")))
    assert events[-1].to_json() == {"kind": "sabotage_succeeded", "seat": "north", "target": "south", "tower": "b2c2"}
    south = game.state.players[S]
    assert south.progress == len(south.message) - 1 and south.sabotaged and not game.over
    assert not south.finished and game.state.sabotage is None
    shown = next(p for p in game.view(None)["players"] if p["seat"] == "south")
    assert (shown["finished"], shown["sabotaged"], game.view(N)["turn"]["can_move"]) == (False, True, True)
    # the saboteur goes on with an ordinary turn: move, play, transmit
    assert game.state.turn.phase == "play" and game.state.turn.stress_spent == 2
    game.apply(Move(N, tower="a3b3"))
    assert game.state.turn.stress_spent == 2  # first placement from the start button is free
    game.apply(EndTurn(N))
    # South must resend from another tower; a player is sabotaged only once
    assert south.must_leave == "b2c2"
    events = finish_message(game, S, "c2d2", via="c1")
    assert game.winner is S and "sabotage_started" not in kinds(events)


def test_last_letter_sabotage_that_fails() -> None:
    game = game_with_words("ADORA", "TROLL")
    finish_message(game, S, "b2c2")
    pin, *_ = give_hand(game, N, ["pin", "pair", "long"])
    game.apply(PlayJacquard(N, jacquard=pin, lamps=lamps("c1")))  # one of two lit lamps
    events = game.apply(EndTurn(N))
    assert [e.to_json() for e in events] == [
        {"kind": "sabotage_failed", "seat": "north", "target": "south"},
        {"kind": "game_won", "seat": "south", "reason": "sabotage_failed"},
    ]
    assert game.winner is S and game.state.end_reason == "sabotage_failed"
    error = refused_saying(game, Move(N, tower="a3b3"), E.GameIsOver, "The game is over: South won")
    assert error.params == {"reason": "won", "seat": "south"}  # for the phone to say it in its own words
    assert game.legal_actions(N) == []


def test_sabotage_with_a_fault_report() -> None:
    game = game_with_words("ADORA", "TROLL")
    finish_message(game, S, "b2c2")
    (fire,) = give_faults(game, N, ["wick-fire"])
    events = game.apply(PlayFault(N, card=fire, tower="b2c2"))
    assert "sabotage_succeeded" in kinds(events)


def test_the_saboteur_respects_the_stress_limit() -> None:
    game = game_with_words("ADORA", "TROLL")
    finish_message(game, S, "b2c2")
    _, block, long_bar = give_hand(game, N, ["pin", "block", "long"])
    game.apply(PlayJacquard(N, jacquard=block, lamps=lamps("a1", "b1", "a2", "b2")))
    long_bar_over_the_limit(game, N, long_bar, "a turn may spend at most 5 stress points")


# ---------------------------------------------------------------- variants


def test_long_message_needs_space_and_end() -> None:
    game = ClacksGame.new(
        Options(long_message=True, words=(("ADORA", "GENUA"), ("TROLL", "SCONE"))), 2
    )
    south = game.state.players[S]
    assert south.message == [*"ADORA", "SPACE", *"GENUA", "END"]
    south.progress = 5
    south.pawn = "b2c2"
    pins = give_hand(game, S, ["pin", "pin", "pair"])
    show(game, S, "b2c2", "SPACE")
    game.apply(PlayJacquard(S, jacquard=pins[0], lamps=lamps("d4")))
    game.apply(PlayJacquard(S, jacquard=pins[1], lamps=lamps("b1")))
    game.state.board ^= lamps("b1")  # a third flip puts it back (a Jacquard in the real game)
    assert kinds(game.apply(Transmit(S)))[0] == "transmitted"
    assert south.next_symbol == "G"
    with raises_in_words(E.BadOptions, match="needs 2 word"):
        Options(long_message=True, words=(("ADORA",), ("TROLL",)))


def test_own_words_are_cleaned_and_refused_with_the_character() -> None:
    options = Options(words=(("Bubák",), ("Čaroděj",)))
    assert options.words == (("BUBAK",), ("CARODEJ",))
    with pytest.raises(E.BadOptions) as refused:
        Options(words=(("AB7",), ("TROLL",)))
    assert re.search("“7” in AB7 cannot be sent", in_english(refused.value))
    with pytest.raises(E.BadOptions) as refused:
        Options(words=(("TWO WORDS",), ("TROLL",)))
    assert re.search("cannot be sent", in_english(refused.value))


def test_express_turns_take_the_time_as_input() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    unchanged_after(game, Move(S, tower="b2c2"), E.TimeRules, "needs the time")
    game.apply(Move(S, tower="b2c2", at=130.0))
    unchanged_after(game, EndTurn(S, at=161.0), E.TimeRules, "60 seconds ran out 1 second ago")
    unchanged_after(game, TimeUp(None, at=159.0), E.TimeRules, "still has 1 second left")
    early = refused_saying(game, TimeUp(None, at=159.75), E.TimeRules, "The turn still has 0.2 seconds left")
    assert early.params == {"reason": "time_left", "left": 0.2}
    hand = list(game.state.players[S].hand)
    events = game.apply(TimeUp(None, at=160.0))
    assert kinds(events) == ["time_up"] and game.state.turn.phase == "timeout_discard"
    unchanged_after(game, Move(S, tower="a2b2"), E.WrongPhase, "choose a Jacquard to discard")
    events = game.apply(Discard(S, jacquard=hand[0]))
    assert "drew_jacquards" not in kinds(events)  # no replacement on that turn
    assert len(game.state.players[S].hand) == 2
    assert game.current_seat is N and game.state.turn.started_at == 160.0
    assert game.view(None)["turn"]["deadline"] == 220.0


def test_express_clock_stands_still_while_the_companion_is_down() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    game.apply(Move(S, tower="b2c2", at=130.0))
    # the companion was down from 130 to 500: the turn keeps its 30 seconds
    events = game.apply(ResumeClock(None, at=500.0, paused=370.0))
    assert kinds(events) == ["clock_resumed"] and events[0].data["left"] == 30.0
    assert game.rules.deadline(game.state) == 530.0
    unchanged_after(game, TimeUp(None, at=529.0), E.TimeRules, "still has 1 second left")
    game.apply(TimeUp(None, at=530.0))
    assert ClacksGame.replay(game.log_to_json()) == game  # the pause is in the log
    unchanged_after(game, ResumeClock(S, at=600.0, paused=1.0), E.TimeRules, "Only the table")
    unchanged_after(
        ClacksGame.new(Options(), 1), ResumeClock(None, at=9.0), E.TimeRules, "Only Clacks Express"
    )
    with pytest.raises(MalformedAction) as refused:
        action_from_json({"type": "resume_clock", "at": 1.0, "paused": -4})
    assert re.search("The field “paused” must be", in_english(refused.value))


def test_an_ordinary_turn_is_logged_move_card_end_draw_and_the_next_turn() -> None:
    game = game_with_words("ADORA", "TROLL")
    pin, *_ = give_hand(game, S, ["pin", "pair", "long"])
    game.state.players[S].pawn = "a2b2"
    logged = [game.apply(Move(S, tower="b2c2")), game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1"))),
              game.apply(EndTurn(S))]
    assert [[e.to_json() for e in events] for events in logged] == [
        [{"kind": "moved", "seat": "south", "to": "b2c2", "cost": 1, "from": "a2b2"}],
        [{"kind": "jacquard_played", "seat": "south", "jacquard": pin, "name": "Pin", "lamps": ["a1"], "cost": 1}],
        [{"kind": "turn_ended", "seat": "south", "stress": 2, "transmitted": False},
         {"kind": "drew_jacquards", "seat": "south", "count": 1, "reason": "turn_end"},
         {"kind": "turn_started", "seat": "north", "round": 1, "number": 2}],
    ]
    turn = game.state.turn
    assert (turn.seat, turn.number, turn.round, turn.stress_limit, turn.start_tower, turn.can_move) == (
        N, 2, 1, 5, None, True)


def test_a_transmission_or_an_end_of_turn_refused_says_why_in_words() -> None:
    game = game_with_words("ADORA", "TROLL")
    south = game.state.players[S]
    give_hand(game, S, ["pin", "pair", "long"])
    error = refused_saying(game, Transmit(S), E.NotOnTower, "Move your pawn onto a tower before transmitting")
    assert error.params == {"reason": "no_pawn"}
    error = refused_saying(game, Transmit(S, tower="c2d2"), E.NotOnTower,
                           "In the competitive game you transmit from your pawn's tower (none yet), not c2d2")
    assert error.params == {"reason": "pawn_tower", "pawn": "none", "tower": "c2d2"}
    south.pawn = "b2c2"
    refused_saying(game, Transmit(S, tower="c2d2"), E.NotOnTower,
                   "In the competitive game you transmit from your pawn's tower (b2c2), not c2d2")
    error = refused_saying(game, Transmit(S), E.JacquardRequired, "Play at least one Jacquard before transmitting")
    assert error.params == {"reason": "transmit"}
    error = refused_saying(game, EndTurn(S), E.JacquardRequired,
                           "Play at least one Jacquard each turn: your Pin costs 1 and you have 5 stress points left")
    assert error.params == {"reason": "cheapest", "design": "pin", "cost": 1, "left": 5}
    south.must_leave = "b2c2"
    error = refused_saying(game, Transmit(S), E.MustChangeTower,
                           "Your last letter went out from b2c2; two letters in a row never go out from the "
                           "same tower, so send the next one from another tower")
    assert error.params == {"tower": "b2c2"}
    south.must_leave, game.state.dwarf = None, "b2c2"
    refused_saying(game, Transmit(S), E.TowerOccupied, "Nobody may transmit from the Deep Dwarf's tower b2c2")
    game.state.dwarf, south.progress = None, len(south.message)
    refused_saying(game, Transmit(S), E.WrongPhase, "Your message is already complete")


def test_a_transmission_refused_while_a_sabotage_or_a_discard_is_owed() -> None:
    game = game_with_words("ADORA", "TROLL")
    finish_message(game, S, "b2c2")
    game.state.players[N].pawn = "a3b3"
    error = refused_saying(game, Transmit(N), E.WrongPhase, "First darken b2c2, or end the sabotage attempt")
    assert error.params == {"reason": "darken_first", "tower": "b2c2"}
    timed = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    timed.state.players[S].pawn = "b2c2"
    timed.apply(TimeUp(None, at=160.0))
    for action in (Transmit(S, at=161.0), EndTurn(S, at=161.0)):
        refused_saying(timed, action, E.WrongPhase, "Your time ran out: choose a Jacquard to discard")


def test_a_move_refused_says_why_and_names_the_tower() -> None:
    game = game_with_words("ADORA", "TROLL", "SCONE")  # West has the Deep Dwarf behind it
    seat = game.current_seat
    player = game.state.players[seat]
    own, other, third = towers_of(seat.colour)[:3]
    foreign = next(t for t in TOWERS if TOWERS[t].colour is not seat.colour)
    player.pawn, game.state.dwarf = own, third
    pin, *_ = give_hand(game, seat, ["pin", "pair", "long"])
    colour = seat.colour
    for move, error, words, params in (
        (Move(seat, tower="zz"), E.MoveNotAllowed,
         "There is no tower “zz”; the towers are a2b2, b2c2, c2d2, a3b3, b3c3, c3d3, b1b2, b2b3, b3b4, c1c2, c2c3, c3c4",
         {"reason": "unknown_tower", "tower": "zz", "towers": TOWER_LIST}),
        (Move(seat, tower=foreign), E.WrongColour,
         f"{seat.label.capitalize()} uses the {colour.value} ({colour.shape}) towers; {foreign} is "
         f"{TOWERS[foreign].colour.value}",
         {"reason": "tower", "seat": seat.label, "tower": foreign, "colour": colour.value}),
        (Move(seat, tower=own), E.MoveNotAllowed, f"Your pawn is already on {own}",
         {"reason": "already_there", "tower": own}),
        (Move(seat, tower=third), E.TowerOccupied,
         f"You may pass through but not stop on {third}: the Deep Dwarf is there",
         {"reason": "pass_through", "tower": third, "blocker": "dwarf"}),
    ):
        assert refused_saying(game, move, error, words).params == params
    game.state.turn.stress_spent = 5
    cost = TOWERS[own].distance(TOWERS[other])
    refused_saying(game, Move(seat, tower=other), E.StressLimit,
                   f"Moving to {other} costs {cost} stress point{'s' if cost != 1 else ''}; "
                   "a turn may spend at most 5 stress points, and you have 0 left")
    game.state.turn.stress_spent = 0
    game.apply(PlayJacquard(seat, jacquard=pin, lamps=lamps("a1")))
    refusal = refused_saying(game, Move(seat, tower=other), E.MoveNotAllowed,
                             "Move before playing Jacquards: you have already played 1 this turn")
    assert refusal.params == {"reason": "played", "played": 1}


def test_a_move_refused_during_a_sabotage_or_once_the_time_ran_out() -> None:
    game = game_with_words("ADORA", "TROLL")
    finish_message(game, S, "b2c2")
    game.state.players[N].pawn = "a3b3"
    refused_saying(game, Move(N, tower="b3c3"), E.WrongPhase,
                   "During a sabotage attempt you may only play Jacquards and Fault Reports")
    timed = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    timed.apply(TimeUp(None, at=160.0))
    refused_saying(timed, Move(S, tower="b2c2", at=161.0), E.WrongPhase,
                   "Your time ran out: choose a Jacquard to discard")


def test_an_express_action_counts_to_the_last_tenth_of_the_turns_minute() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    refused_saying(game, Move(S, tower="b2c2"), E.TimeRules, "Clacks Express needs the time of every action in a turn")
    error = refused_saying(game, Move(S, tower="b2c2", at=161.26), E.TimeRules,
                           "Your 60 seconds ran out 1.3 seconds ago")
    assert error.params == {"reason": "ran_out", "seconds": 60.0, "late": 1.3}
    game.apply(Move(S, tower="b2c2", at=160.0))  # on the very second: still in time


def test_every_action_an_express_phone_is_offered_carries_its_seat_and_time_and_is_accepted() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    pin, *_ = give_hand(game, S, ["pin", "pair", "long"])
    south = game.state.players[S]
    south.pawn = "a2b2"
    game.state.fault_deck.extend(south.faults)
    south.faults.clear()
    offered = game.legal_actions(S, 130.0)
    assert {type(a) for a in offered} == {Move, PlayJacquard}  # a Jacquard is owed before the end
    # every other tower of South's colour within 4 points: the Pin's 1 point must be left
    reachable = {t for t in towers_of(S.colour) if t != "a2b2" and TOWERS["a2b2"].distance(TOWERS[t]) <= 4}
    assert {a.tower for a in offered if isinstance(a, Move)} == reachable
    for action in offered:
        assert action.seat is S and action.at == 130.0
        deepcopy(game).apply(action)
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1"), at=130.0))
    ends = [a for a in game.legal_actions(S, 131.0) if isinstance(a, (Transmit, EndTurn))]
    assert ends == [EndTurn(S, at=131.0)]
    refused_saying(game, PlayJacquard(S, jacquard=south.hand[0], lamps=lamps("a1"), at=1000.0), E.TimeRules,
                   "Your 60 seconds ran out 840 seconds ago")
    events = game.apply(EndTurn(S, at=131.0))
    drawn = next(e for e in events if e.kind == "drew_jacquards")
    assert drawn.private == {S: {"jacquards": [south.hand[-1]]}}  # only South reads which card
    assert game.state.turn.started_at == 131.0  # North's minute starts when South's turn ends
    assert [a for a in game.legal_actions(S, 161.0) if not isinstance(a, PlayFault)] == []  # North's turn now


def test_a_transmission_and_the_fault_reports_an_express_phone_is_offered_carry_its_seat_and_time() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    pin, pin2, _ = give_hand(game, S, ["pin", "pin", "pair"])
    game.state.players[S].pawn = "b2c2"
    show(game, S, "b2c2", "A", extra=("d4",))
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("b1"), at=110.0))
    game.apply(PlayJacquard(S, jacquard=pin2, lamps=lamps("b1"), at=120.0))
    ends = [a for a in game.legal_actions(S, 130.0) if isinstance(a, (Transmit, EndTurn))]
    assert ends == [Transmit(S, at=130.0), EndTurn(S, at=130.0)]
    give_faults(game, N, ["overload", "stuck-shutter"])
    offered = game.legal_actions(N, 130.0)
    assert len(offered) == 1 + 16
    for action in offered:
        assert isinstance(action, PlayFault) and action.seat is N and action.at == 130.0
        deepcopy(game).apply(action)
    assert kinds(game.apply(ends[0]))[0] == "transmitted"


def test_past_its_minute_the_player_in_turn_is_offered_only_fault_reports_and_on_the_second_all() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    give_hand(game, S, ["pin", "pair", "long"])
    (shutter,) = give_faults(game, S, ["stuck-shutter"])

    def turn_actions(at: float | None) -> list[object]:
        return [a for a in game.legal_actions(S, at) if not isinstance(a, PlayFault)]

    assert turn_actions(160.0)  # on the very second: still in time
    assert turn_actions(160.1) == []
    assert turn_actions(None) == []  # a phone that does not say the time is offered no turn action
    assert set(offered_faults(game, S, 160.1)) == {shutter}
    # the discard owed once the time is up is untimed: it waits as long as the table takes
    game.apply(TimeUp(None, at=160.1))
    hand = game.state.players[S].hand
    assert turn_actions(1000.0) == [Discard(S, jacquard=card, at=1000.0) for card in hand]
    game.apply(Discard(S, jacquard=hand[0], at=1000.0))
    assert game.current_seat is N


def test_the_table_is_offered_the_time_up_from_the_deadline_on_and_only_once() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    assert game.legal_actions(None, 159.9) == [] and game.legal_actions(None) == []
    assert game.legal_actions(None, 160.0) == [TimeUp(None, at=160.0)]
    game.apply(TimeUp(None, at=160.0))
    assert game.legal_actions(None, 300.0) == []
    hand = game.state.players[S].hand
    assert [a for a in game.legal_actions(S, 170.0) if isinstance(a, Discard)] == [
        Discard(S, jacquard=card, at=170.0) for card in hand]
    assert ClacksGame.new(Options(), 1).legal_actions(None, 1e9) == []


def test_express_clock_refusals_say_why() -> None:
    untimed = ClacksGame.new(Options(), 1)
    timed = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    for game, action, error, words in (
        (untimed, TimeUp(None, at=9.0), E.TimeRules, "Only Clacks Express turns are timed"),
        (untimed, ResumeClock(None, at=9.0), E.TimeRules, "Only Clacks Express turns are timed"),
        (timed, TimeUp(None), E.TimeRules, "The action “time_up” needs the time on the table clock"),
        (timed, ResumeClock(None, paused=5.0), E.TimeRules, "The action “resume_clock” needs the time on the table clock"),
        (timed, ResumeClock(S, at=120.0, paused=5.0), E.TimeRules, "Only the table resumes the clock"),
        (timed, Discard(S, jacquard=timed.state.players[S].hand[0], at=120.0), E.WrongPhase,
         "You only discard when your time runs out before you play a Jacquard"),
    ):
        refused_saying(game, action, error, words)


def test_once_the_time_is_up_the_clock_neither_runs_out_again_nor_resumes() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    game.apply(TimeUp(None, at=160.0))  # no Jacquard played: a discard is owed
    for action in (TimeUp(None, at=170.0), ResumeClock(None, at=170.0, paused=5.0)):
        refused_saying(game, action, E.WrongPhase, "The turn's time has already run out")
    card = game.state.players[S].hand[0]
    refused_saying(game, PlayJacquard(S, jacquard=card, lamps=lamps("a1"), at=170.0), E.WrongPhase,
                   "Your time ran out: choose a Jacquard to discard")


def test_the_discard_after_the_time_ran_out_is_logged_and_the_next_minute_starts_with_it() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    game.apply(TimeUp(None, at=160.0))
    card = game.state.players[S].hand[0]
    events = game.apply(Discard(S, jacquard=card, at=175.0))
    assert [e.to_json() for e in events] == [
        {"kind": "discarded", "seat": "south", "jacquard": card},
        {"kind": "turn_ended", "seat": "south", "stress": 0, "transmitted": False},
        {"kind": "turn_started", "seat": "north", "round": 1, "number": 2},
    ]
    assert game.state.turn.started_at == 175.0 and game.rules.deadline(game.state) == 235.0


def test_the_resumed_clock_reports_the_pause_and_the_time_left_to_a_tenth() -> None:
    game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
    game.apply(Move(S, tower="b2c2", at=130.0))
    (resumed,) = game.apply(ResumeClock(None, at=500.0, paused=370.26))
    assert resumed.to_json() == {"kind": "clock_resumed", "seat": "south", "paused": 370.3, "left": 30.3}


def test_a_clock_resumed_with_under_a_second_left_says_so_and_one_resumed_too_late_says_none() -> None:
    for paused, left in ((340.4, 0.4), (300.0, 0.0)):  # the minute ended at 160 (+ the pause)
        game = game_with_words("ADORA", "TROLL", express=True, start_time=100.0)
        (resumed,) = game.apply(ResumeClock(None, at=500.0, paused=paused))
        assert resumed.to_json() == {"kind": "clock_resumed", "seat": "south", "paused": paused, "left": left}


def test_express_timeout_after_playing_ends_the_turn_normally() -> None:
    game = game_with_words("ADORA", "TROLL", express=True)
    pin, *_ = give_hand(game, S, ["pin", "pair", "long"])
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("a1"), at=10.0))
    events = game.apply(TimeUp(None, at=61.0))
    assert [e.to_json() for e in events] == [
        {"kind": "time_up", "seat": "south"},
        {"kind": "turn_ended", "seat": "south", "stress": 1, "transmitted": False},
        {"kind": "drew_jacquards", "seat": "south", "count": 1, "reason": "turn_end"},
        {"kind": "turn_started", "seat": "north", "round": 1, "number": 2},
    ]
    assert game.state.turn.started_at == 61.0  # the next minute starts when the last ran out
    assert len(game.state.players[S].hand) == 3 and game.current_seat is N
    unchanged_after(
        ClacksGame.new(Options(), 1), TimeUp(None, at=99.0), E.TimeRules, "Only Clacks Express"
    )


def test_express_sabotage_runs_out_of_time() -> None:
    game = game_with_words("ADORA", "TROLL", express=True)
    game.state.turn.started_at = 0.0
    player = game.state.players[S]
    player.progress, player.pawn = 4, "b2c2"
    pins = give_hand(game, S, ["pin", "pin", "pair"])
    show(game, S, "b2c2", "A")
    game.apply(PlayJacquard(S, jacquard=pins[0], lamps=lamps("b1"), at=1.0))
    game.apply(PlayJacquard(S, jacquard=pins[1], lamps=lamps("b1"), at=2.0))
    sent = game.apply(Transmit(S, at=3.0))
    assert [e.to_json() for e in sent[:3]] == [
        {"kind": "transmitted", "seat": "south", "symbol": "A", "tower": "b2c2", "progress": 5, "length": 5},
        {"kind": "message_complete", "seat": "south"},
        {"kind": "turn_ended", "seat": "south", "stress": 2, "transmitted": True},
    ]
    assert sent[-1].to_json() == {"kind": "sabotage_started", "seat": "north", "target": "south", "tower": "b2c2"}
    assert game.state.players[S].finished and game.state.turn.started_at == 3.0
    events = game.apply(TimeUp(None, at=64.0))
    assert [e.to_json() for e in events] == [
        {"kind": "time_up", "seat": "north"},
        {"kind": "sabotage_failed", "seat": "north", "target": "south"},
        {"kind": "game_won", "seat": "south", "reason": "sabotage_failed"},
    ]
    assert game.winner is S


def test_a_message_completed_again_after_a_sabotage_wins_outright() -> None:
    game = game_with_words("ADORA", "TROLL")
    game.state.players[S].sabotaged = True  # a sabotage took the last letter back before
    events = finish_message(game, S, "b2c2")
    won = [e.to_json() for e in events if e.kind == "game_won"]
    assert won == [{"kind": "game_won", "seat": "south", "reason": "message_complete"}]
    assert "sabotage_started" not in kinds(events)
    assert game.winner is S and game.state.end_reason == "message_complete"


def test_quick_game_completes_the_round_and_has_no_sabotage() -> None:
    game = game_with_words("ADORA", "TROLL", quick=True)
    events = finish_message(game, S, "b2c2")
    assert "sabotage_started" not in kinds(events) and not game.over
    assert game.current_seat is N and game.state.turn.phase == "play"
    pin, *_ = give_hand(game, N, ["pin", "pair", "long"])
    game.apply(PlayJacquard(N, jacquard=pin, lamps=lamps("a1")))
    events = game.apply(EndTurn(N))
    assert [e.to_json() for e in events if e.kind in ("round_completed", "game_won")] == [
        {"kind": "round_completed", "seat": None, "finishers": ["south"]},
        {"kind": "game_won", "seat": "south", "reason": "quick_game"},
    ]
    assert game.winner is S and game.state.end_reason == "quick_game"


def test_quick_game_tie_breaks_on_last_turn_stress_then_alphabet() -> None:
    game = game_with_words("ADORA", "TROLL", quick=True)
    finish_message(game, S, "b2c2")  # South spent 2 on the last turn
    finish_message(game, N, "b2c2")  # so did North: ADORA comes first
    assert game.winner is S
    game = game_with_words("ADORA", "TROLL", quick=True)
    finish_message(game, S, "b2c2")
    north = game.state.players[N]
    north.progress, north.pawn = len(north.message) - 1, "a3b3"
    pin, *_ = give_hand(game, N, ["pin", "pair", "long"])
    game.state.board = pattern_mask(game.components.alphabet["L"], N, "a3b3") ^ lamps("a4")
    game.apply(PlayJacquard(N, jacquard=pin, lamps=lamps("a4")))  # North: 1 stress, South: 2
    game.apply(Transmit(N))
    assert game.winner is N


def test_quick_game_tie_break_reads_a_message_word_by_word() -> None:
    # AD ORAL before ADOR AL: its first word, AD, comes before ADOR, the letters being alike
    words = (("AD", "ORAL"), ("ADOR", "AL"))
    options = Options(seats=(S, N), words=words, long_message=True, quick=True)
    game = ClacksGame.new(options, 3)
    finish_message(game, S, "b2c2")
    finish_message(game, N, "b2c2")  # 2 stress on the last turn each
    assert game.winner is S and game.state.end_reason == "quick_game"


def test_four_players_take_turns_clockwise_from_the_first_word() -> None:
    game = game_with_words("TROLL", "SCONE", "ADORA", "GNOME")
    assert game.seats == [N, EAST, S, W]
    for expected in [N, EAST, S, W, N]:
        assert game.current_seat is expected
        card = game.state.players[expected].hand[0]
        mask = game.components.jacquards[card].design.placements[0].mask
        game.apply(PlayJacquard(expected, jacquard=card, lamps=mask))
        game.apply(EndTurn(expected))
    assert game.state.turn.round == 2


# ---------------------------------------------------------------- legal actions and undo


def test_legal_actions_cover_moves_plays_and_faults() -> None:
    game = game_with_words("ADORA", "TROLL")
    give_hand(game, S, ["pin", "pair", "long"])
    give_faults(game, N, ["stuck-shutter"])
    actions = game.legal_actions(S)
    assert sum(isinstance(a, Move) for a in actions) == 6
    assert sum(isinstance(a, PlayJacquard) for a in actions) == 16 + 24 + 8
    assert not any(isinstance(a, (Transmit, EndTurn)) for a in actions)
    north = game.legal_actions(N)
    assert len(north) == 16 and all(isinstance(a, PlayFault) for a in north)


def test_undo_takes_back_own_actions_until_something_is_revealed() -> None:
    game = ClacksGame.new(Options(), seed=9)
    start = game.to_json()
    seat = game.current_seat
    other = next(s for s in game.seats if s is not seat)
    assert not game.can_undo(seat)
    move = game.legal_actions(seat)[0]
    game.apply(move)
    play = next(a for a in game.legal_actions(seat) if isinstance(a, PlayJacquard))
    game.apply(play)
    assert game.can_undo(seat) and not game.can_undo(other)
    with pytest.raises(E.NothingToUndo) as refused:
        game.undo(other)
    assert re.search("only undo in your own turn", in_english(refused.value))
    game.undo(seat)
    game.undo(seat)
    assert game.to_json() == start
    game.apply(move)
    game.apply(play)
    game.apply(EndTurn(seat))  # drawing reveals
    with pytest.raises(E.NothingToUndo) as refused:
        game.undo(seat)
    assert re.search("own turn", in_english(refused.value))
    assert not game.can_undo(game.current_seat)


def test_another_players_fault_blocks_undo() -> None:
    game = game_with_words("ADORA", "TROLL")
    (shutter,) = give_faults(game, N, ["stuck-shutter"])
    game.apply(Move(S, tower="b2c2"))
    assert game.can_undo(S)
    game.apply(PlayFault(N, card=shutter, lamps=lamps("a1")))
    assert not game.can_undo(S)
    with pytest.raises(E.NothingToUndo) as refused:
        game.undo(S)
    assert re.search("revealed or followed", in_english(refused.value))
