"""Scenario tests of the co-operative Race to Genua: setup, turns, passing, transmitting,
swapping from both kinds of slot, and how the race is won and lost."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from map_helpers import bag_only, copy_of, first, kinds, new_game, one_lamp_short, set_hand
from refusals import raises_in_words

from engine.clacks import ClacksGame, EndTurn, Options, PlayJacquard, Seat, Transmit
from engine.clacks import errors as E
from engine.clacks.actions import Swap
from engine.clacks.geometry import mask_of, read_pattern
from engine.clacks.mode_state import Slot, TeamState
from web.refusals import in_english

S, W, N, EAST = Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST


def test_setup_deals_the_shared_message_hands_and_slots() -> None:
    game = new_game("coop", 3, seed=5)
    state, team = game.state, game.state.team
    assert team is not None
    assert len(team.words) == 2 and all(w in game.components.words for w in team.words)
    assert team.message == [*team.words[0], "SPACE", *team.words[1], "END"]
    assert len(team.message) == 12 == len(game.components.routes["easy"].towers)
    assert state.order == [S, W, N] and state.turn.seat is S  # South sits nearest Ankh-Morpork
    assert [len(state.players[s].hand) for s in state.order] == [2, 1, 1]
    incidents = [s for s in team.slots if s.kind == "incident"]
    logs = [s for s in team.slots if s.kind == "log"]
    assert [game.components.jacquards[str(s.jacquard)].design.id for s in incidents] == list(
        game.components.face_up
    )
    assert all(s.card in game.components.incidents for s in incidents)
    assert all(s.card in game.components.logs for s in logs)
    assert len(team.set_aside) == 12  # 6 Incident Reports and 6 Operator's Logs out of play
    assert len(state.bag) == 48 - 4 - 4
    assert team.track == 38 and team.post_office == 0


def test_hard_route_has_its_own_track_and_towers() -> None:
    game = new_game("coop", 2, route="hard")
    assert game.state.team is not None and game.state.team.track == 34
    view = game.view(S)
    assert view["route"]["towers"][2:9:3] == ["Sto Plains", "Ramtops", "Überwald"]
    easy = new_game("coop", 2).view(S)["route"]["towers"]
    assert easy[2:9:3] == ["Forest of Skund", "Zlobenia", "Borogravia"]


def test_each_stress_point_moves_the_post_office_at_once() -> None:
    game = new_game("coop", 2)
    tee, _ = set_hand(game, S, ["tee", "pin"])
    placement = game.components.jacquards[tee].design.placements[0].mask
    events = game.apply(PlayJacquard(S, jacquard=tee, lamps=placement))
    moved = first(events, "post_office_moved")
    assert moved.data["steps"] == 3 and moved.data["cause"] == "stress"
    assert game.state.team is not None and game.state.team.post_office == 3
    assert game.state.team.stress_total == 3


def test_no_stress_limit_in_co_op() -> None:
    game = new_game("coop", 2)
    tee, block = set_hand(game, S, ["tee", "block"])
    for card in (tee, block):
        mask = game.components.jacquards[card].design.placements[0].mask
        game.apply(PlayJacquard(S, jacquard=card, lamps=mask))
    assert game.state.turn.stress_spent == 6


def test_transmit_from_any_tower_of_the_seat_colour_read_from_the_seat() -> None:
    game = new_game("coop", 2, seats=(S, W))
    game.state.turn.seat = S
    team = game.state.team
    assert team is not None
    pin, bar = set_hand(game, S, ["pin", "bar"])
    symbol = team.next_symbol
    assert symbol is not None
    one_lamp_short(game, S, "c3d3", symbol, "d2")
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["d2"])))
    with pytest.raises(E.WrongColour):
        game.apply(Transmit(S, tower="b2b3"))  # a green tower
    events = game.apply(Transmit(S, tower="c3d3"))
    sent = first(events, "transmitted")
    assert sent.data["symbol"] == symbol and sent.data["lit"] == "Morpork Gate"
    assert team.progress == 1
    assert game.state.turn.seat is W  # transmitting ends the turn
    assert game.state.players[W].hand.count(bar) == 1  # the unplayed Jacquard was passed
    # West reads green towers from the west side
    pin_w, _ = set_hand(game, W, ["pin", "pair"])
    second = team.next_symbol
    assert second is not None
    one_lamp_short(game, W, "b2b3", second, "a3")
    game.apply(PlayJacquard(W, jacquard=pin_w, lamps=mask_of(["a3"])))
    assert read_pattern(game.state.board, W, "b2b3") == game.components.pattern(second)
    events = game.apply(Transmit(W))  # no tower named: the first that shows it freshly
    assert first(events, "transmitted").data["symbol"] == second
    assert team.progress == 2


def test_a_pattern_already_on_the_board_cannot_be_claimed() -> None:
    game = new_game("coop", 2)
    team = game.state.team
    assert team is not None and team.next_symbol is not None
    pin, _ = set_hand(game, S, ["pin", "pair"])
    one_lamp_short(game, S, "a2b2", team.next_symbol, "a1")
    game.state.board ^= mask_of(["a1"])  # already complete before the turn's play
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["d4"])))
    with pytest.raises(E.PatternNotFresh):
        game.apply(Transmit(S, tower="a2b2"))


def test_wrong_pattern_is_refused_naming_what_shows() -> None:
    game = new_game("coop", 2)
    pin, _ = set_hand(game, S, ["pin", "pair"])
    game.state.board = 0
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["a1"])))
    with pytest.raises(E.WrongPattern) as caught:
        game.apply(Transmit(S))
    assert "None of your six red towers" in in_english(caught.value)


def test_at_least_one_jacquard_each_turn() -> None:
    game = new_game("coop", 2)
    with pytest.raises(E.JacquardRequired):
        game.apply(EndTurn(S))


def test_playing_one_passes_the_other_left_and_draws_one() -> None:
    game = new_game("coop", 3)
    pin, bar = set_hand(game, S, ["pin", "bar"])
    west_before = list(game.state.players[W].hand)
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["a1"])))
    events = game.apply(EndTurn(S))
    passed = first(events, "jacquard_passed")
    assert passed.data == {"to": "west", "drawn": False}
    assert game.state.players[W].hand == [*west_before, bar]
    assert len(game.state.players[S].hand) == 1 and bar not in game.state.players[S].hand
    assert game.state.turn.seat is W and len(game.state.players[W].hand) == 2


def test_playing_both_draws_one_to_pass() -> None:
    game = new_game("coop", 2)
    pin, pair = set_hand(game, S, ["pin", "pair"])
    to_pass, to_keep = copy_of(game, "knight"), copy_of(game, "gap")
    bag_only(game, [to_pass, to_keep])
    game.state.bag = [to_pass]  # draws take a random card: one at a time makes them known
    game.state.discard.append(to_keep)
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["a1"])))
    game.apply(PlayJacquard(S, jacquard=pair, lamps=mask_of(["a1", "b1"])))
    events = game.apply(EndTurn(S))
    assert first(events, "jacquard_passed").data == {"to": "north", "drawn": True}
    assert to_pass in game.state.players[N].hand
    assert len(game.state.players[S].hand) == 1  # then the bag refilled for South's own draw
    assert "bag_refilled" in kinds(events)


def slot_holding(
    game: ClacksGame, name: str, cards: Iterable[str], card: str
) -> tuple[TeamState, Slot]:
    """The team and its slot ``name``, with its Jacquard, holding the first of ``cards``
    whose id starts with ``card``."""
    team = game.state.team
    assert team is not None
    slot = team.slot(name)
    assert slot is not None and slot.jacquard is not None
    slot.card = next(c for c in cards if c.startswith(card))
    return team, slot


def test_swap_from_an_incident_slot() -> None:
    game = new_game("coop", 2)
    team, slot = slot_holding(game, "incident-1", game.components.incidents, "lightning")
    face_up = slot.jacquard
    pin, pair = set_hand(game, S, ["pin", "pair"])
    events = game.apply(Swap(S, jacquard=pin, slot="incident-1"))
    swapped = first(events, "swapped")
    assert swapped.data["lifted"] == face_up and swapped.data["cost"] == 0
    assert first(events, "card_revealed").data["name"] == "Storm over the Ramtops"
    assert game.state.board == 0  # the card's effect applied at once
    assert team.post_office == 0  # no lifting cost for an Incident Report
    assert pin in game.state.discard and face_up in game.state.players[S].hand
    assert slot.taken and slot.card is None and slot.jacquard is None  # not refilled
    with pytest.raises(E.SwapNotAllowed):  # one swap per turn
        game.apply(Swap(S, jacquard=pair, slot="incident-2"))
    with pytest.raises(E.LiftedNotPlayed):  # the lifted Jacquard must be played
        game.apply(EndTurn(S))
    game.apply(PlayJacquard(S, jacquard=pair, lamps=mask_of(["a1", "b1"])))
    with pytest.raises(E.LiftedNotPlayed):
        game.apply(EndTurn(S))
    mask = game.components.jacquards[face_up].design.placements[0].mask
    game.apply(PlayJacquard(S, jacquard=face_up, lamps=mask))
    assert team.post_office == 2 + 3
    game.apply(EndTurn(S))
    card = game.state.players[N].hand[0]
    with raises_in_words(E.SwapNotAllowed, match="already been taken"):
        game.apply(Swap(N, jacquard=card, slot="incident-1"))


def test_swap_from_an_operators_log_costs_one_more() -> None:
    game = new_game("coop", 2, long_distance=True)
    team, slot = slot_holding(game, "log-2", game.components.logs, "quiet-shift")
    hidden = slot.jacquard
    assert all(s["jacquard"] is None for s in game.view(N)["slots"] if s["kind"] == "log")
    pin, _ = set_hand(game, S, ["pin", "pair"])
    events = game.apply(Swap(S, jacquard=pin, slot="log-2"))
    swapped = first(events, "swapped")
    assert swapped.data["lifted"] is None  # the Log's Jacquard stays the lifter's secret
    assert swapped.data["cost"] == 1 and team.post_office == 1
    assert first(events, "card_revealed").data["effect"] == "nothing"
    assert hidden in game.state.players[S].hand
    assert "hand" not in next(p for p in game.view(N)["players"] if p["seat"] == "south")
    cost = game.components.jacquards[hidden].cost
    mask = game.components.jacquards[hidden].design.placements[0].mask
    game.apply(PlayJacquard(S, jacquard=hidden, lamps=mask))
    assert team.post_office == 1 + cost


def test_message_delivered_before_the_post_office_wins_for_everyone() -> None:
    game = new_game("coop", 3)
    team = game.state.team
    assert team is not None
    team.progress = 11  # only END to go
    team.post_office = team.track - 2
    pin, _ = set_hand(game, S, ["pin", "pair"])
    one_lamp_short(game, S, "b3c3", "END", "c4")
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["c4"])))
    events = game.apply(Transmit(S, tower="b3c3"))
    assert "race_won" in kinds(events)
    assert game.over and team.result == "won" and game.winners == [S, W, N]
    assert game.state.end_reason == "message_delivered"
    assert game.view(None)["message"]["towers_lit"][-1] == "Genua"
    with pytest.raises(E.GameIsOver) as refused:
        game.apply(EndTurn(W))
    assert re.search("message reached Genua", in_english(refused.value))


def test_post_office_and_end_on_the_same_turn_goes_to_the_post_office() -> None:
    game = new_game("coop", 2)
    team = game.state.team
    assert team is not None
    team.progress = 11
    team.post_office = team.track - 1
    pin, _ = set_hand(game, S, ["pin", "pair"])
    one_lamp_short(game, S, "b3c3", "END", "c4")
    events = game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["c4"])))
    # the Jacquard that makes END also brings the Post Office to Genua: the team loses
    assert read_pattern(game.state.board, S, "b3c3") == game.components.pattern("END")
    assert "race_lost" in kinds(events)
    assert game.over and team.result == "lost" and game.winners == []
    assert game.state.end_reason == "post_office_arrived"
    with pytest.raises(E.GameIsOver) as refused:
        game.apply(Transmit(S, tower="b3c3"))
    assert re.search("Post Office reached Genua", in_english(refused.value))
    assert game.legal_actions(S) == []


def test_post_office_stops_at_genua() -> None:
    game = new_game("coop", 2)
    team = game.state.team
    assert team is not None
    team.post_office = team.track - 1
    tee, _ = set_hand(game, S, ["tee", "pin"])
    mask = game.components.jacquards[tee].design.placements[0].mask
    events = game.apply(PlayJacquard(S, jacquard=tee, lamps=mask))
    assert first(events, "post_office_moved").data["steps"] == 1
    assert team.post_office == team.track


def test_other_modes_actions_are_refused() -> None:
    from engine.clacks import Move

    game = new_game("coop", 2)
    with pytest.raises(E.WrongPhase) as refused:
        game.apply(Move(S, tower="b2c2"))
    assert re.search("The action “move” is not part of this game", in_english(refused.value))


def test_only_the_current_player_acts() -> None:
    game = new_game("coop", 2)
    card = game.state.players[N].hand[0]
    mask = game.components.jacquards[card].design.placements[0].mask
    with pytest.raises(E.NotYourTurn):
        game.apply(PlayJacquard(N, jacquard=card, lamps=mask))
    assert game.legal_actions(N) == []


def test_legal_actions_are_all_legal_and_cover_every_kind() -> None:
    game = new_game("coop", 2, seed=9)
    team = game.state.team
    assert team is not None and team.next_symbol is not None
    pin, _ = set_hand(game, S, ["pin", "pair"])
    one_lamp_short(game, S, "b2c2", team.next_symbol, "c1")
    actions = game.legal_actions(S)
    assert {a.TYPE for a in actions} == {"play_jacquard", "swap"}
    for action in actions:
        assert game.is_legal(action)
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["c1"])))
    after = game.legal_actions(S)
    assert Transmit(S, tower="b2c2") in after and EndTurn(S) in after
    for action in after:
        assert game.is_legal(action)


def test_options_for_team_modes_are_checked() -> None:
    from engine.clacks.errors import BadOptions

    with raises_in_words(BadOptions, match="2 to 4 players"):
        Options(mode="coop", seats=(S,))
    with raises_in_words(BadOptions, match="competitive variant"):
        Options.for_players(2, mode="coop", express=True)
    with raises_in_words(BadOptions, match="There is no route “scenic”"):
        Options.for_players(2, mode="coop", route="scenic")
    with raises_in_words(BadOptions, match="Long Distance"):
        Options.for_players(1, mode="solitaire", long_distance=True)
    with raises_in_words(BadOptions, match="co-operative variant"):
        Options.for_players(2, night_shift=True)
    with raises_in_words(BadOptions, match="1 list"):
        Options.for_players(2, mode="coop", words=(("GENUA", "MOIST"), ("TROLL", "SCONE")))


def test_the_teams_own_words() -> None:
    game = ClacksGame.new(Options.for_players(2, mode="coop", words=(("Ánkh", "Lančre"),)), 1)
    team = game.state.team
    assert team is not None and team.words == ["ANKH", "LANCRE"]
    assert len(team.message) == 12
    from engine.clacks.errors import BadOptions

    with raises_in_words(BadOptions, match="“!”"):
        Options.for_players(2, mode="coop", words=(("GENUA", "MOIS!"),))
    with raises_in_words(BadOptions, match="10 together"):
        Options.for_players(2, mode="coop", words=(("GENUA", "MOIS"),))
