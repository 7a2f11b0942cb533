"""Scenario tests of the Junior Race and the solitaire game."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from map_helpers import first, kinds, new_game, one_lamp_short, put_on_slot, set_hand
from refusals import raises_in_words

from engine.clacks import ClacksGame, EndTurn, Options, PlayJacquard, Seat, Transmit
from engine.clacks import errors as E
from engine.clacks.actions import Swap
from engine.clacks.errors import BadOptions
from engine.clacks.events import Event
from engine.clacks.geometry import FULL_BOARD, mask_of

S, W, N, EAST = Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST


def junior(route: str = "easy") -> ClacksGame:
    words = (("WITCH", "NOBBY"), ("ANGUA", "DWARF"))
    return ClacksGame.new(Options(mode="junior", seats=(S, W), words=words, route=route), 7)


def send_next(game: ClacksGame, seat: Seat, tower_name: str = "b2c2") -> list[Event]:
    """Play a Pin that completes the seat's next symbol at a tower of its colour, then transmit."""
    player = game.state.players[seat]
    assert player.next_symbol is not None
    if seat.colour.value == "green" and tower_name == "b2c2":
        tower_name = "b2b3"
    lamp = {"b2c2": "b2", "b2b3": "b2", "c3d3": "d3"}[tower_name]
    pin, _, _, _ = set_hand(game, seat, ["pin", "pair", "stile", "bar"])
    one_lamp_short(game, seat, tower_name, player.next_symbol, lamp)
    game.apply(PlayJacquard(seat, jacquard=pin, lamps=mask_of([lamp])))
    return game.apply(Transmit(seat, tower=tower_name))


def test_junior_setup_two_players_at_right_angles() -> None:
    game = junior()
    state = game.state
    assert state.race is not None
    assert state.race.routes == {S: "easy", W: "hard"}  # the red seat takes the chosen route
    assert all(len(p.hand) == 4 for p in state.players.values())
    assert state.turn.seat is W  # ANGUA comes before WITCH
    assert state.players[S].message == [*"WITCH", "SPACE", *"NOBBY", "END"]
    swapped = junior(route="hard")
    assert swapped.state.race is not None and swapped.state.race.routes == {S: "hard", W: "easy"}
    with raises_in_words(BadOptions, match="right angles"):
        Options(mode="junior", seats=(S, N))
    with raises_in_words(BadOptions, match="junior race is for 2 players"):
        Options(mode="junior", seats=(S, W, N))
    with raises_in_words(BadOptions, match="each seat"):
        Options(mode="junior", seats=(S, W), words=(("WITCH", "NOBBY"),))


def test_junior_no_stress_limit_and_any_tower_of_ones_colour() -> None:
    game = junior()
    cards = set_hand(game, W, ["tee", "block", "hook", "cross"])
    for card in cards:  # 12 stress in one turn
        mask = game.components.jacquards[card].design.placements[0].mask
        game.apply(PlayJacquard(W, jacquard=card, lamps=mask))
    assert game.state.turn.stress_spent == 12
    game.apply(EndTurn(W))
    assert len(game.state.players[W].hand) == 4  # drew back up to four
    events = send_next(game, S, "c3d3")
    assert first(events, "transmitted").data["lit"] == "Morpork Gate"


def test_junior_need_not_change_tower() -> None:
    game = junior()
    send_next(game, W, "b2b3")
    send_next(game, S)
    events = send_next(game, W, "b2b3")
    assert first(events, "transmitted").data["tower"] == "b2b3"
    assert game.state.players[W].progress == 2


def test_junior_pawn_lands_on_tower_three_and_draws_a_fault_report() -> None:
    game = junior()
    overload = next(c for c in game.state.fault_deck if c.startswith("overload"))
    game.state.fault_deck.remove(overload)
    game.state.fault_deck.insert(0, overload)
    for _ in range(2):
        events = send_next(game, W, "b2b3")
        assert "card_revealed" not in kinds(events)
        send_next(game, S)
    events = send_next(game, W, "b2b3")
    assert game.state.players[W].progress == 3
    revealed = first(events, "card_revealed")
    assert revealed.data["card"] == overload and revealed.data["text"].startswith("Every shutter")
    assert game.state.board == FULL_BOARD
    view = game.view(S)
    assert next(p for p in view["players"] if p["seat"] == "west")["pawn_at"] == "Sto Plains"
    assert view["revealed"][0]["id"] == overload


@pytest.mark.parametrize("design", ["emergency-repair", "clacks-technician"])
def test_junior_emergency_repair_and_technician_do_nothing(design: str) -> None:
    game = junior()
    card = next(c for c in game.state.fault_deck if c.startswith(design))
    game.state.fault_deck.remove(card)
    game.state.fault_deck.insert(0, card)
    deck_after = game.state.fault_deck[1:]
    game.state.players[W].progress = 2
    events = send_next(game, W, "b2b3")
    board_after_play = game.state.board
    assert first(events, "card_revealed").data["effect"] == "nothing"
    assert game.state.fault_deck == deck_after  # nothing more revealed
    assert game.state.race is not None and game.state.race.ledger.repair is None
    assert game.state.board == board_after_play


def test_junior_first_to_genua_wins() -> None:
    game = junior()
    game.state.players[W].progress = 11
    events = send_next(game, W, "b2b3")
    assert "game_won" in kinds(events)
    assert game.over and game.winner is W and game.winners == [W]
    assert game.state.end_reason == "reached_genua"
    assert game.view(S)["players"][0]["pawn_at"] == "Genua"


def test_junior_hands_are_private() -> None:
    game = junior()
    for seat in (S, W):
        view = game.view(seat)
        assert all("hand" not in p for p in view["players"])
        assert len(view["you"]["hand"]) == 4
    assert game.view(None)["you"] is None


def test_junior_faults_are_not_held_or_played() -> None:
    from engine.clacks import PlayFault

    game = junior()
    assert all(not p.faults for p in game.state.players.values())
    with pytest.raises(E.WrongPhase):
        game.apply(PlayFault(W, card="overload-1"))


FAULT_TOWERS = (3, 6, 9)
OTHER_ROUTE = {"easy": "hard", "hard": "easy"}


def put_fault_on_top(game: ClacksGame, design: str) -> str:
    card = next(c for c in game.state.fault_deck if c.startswith(design))
    game.state.fault_deck.remove(card)
    game.state.fault_deck.insert(0, card)
    return card


@pytest.mark.parametrize("route", ["easy", "hard"])
@pytest.mark.parametrize(
    ("tower_number", "design", "board_after"),
    [
        (3, "overload", lambda board: FULL_BOARD),  # light_all
        (6, "grit-in-gears", lambda board: 0),  # darken_all
        (9, "stuck-shutter", lambda board: board ^ mask_of(["b3"])),  # flip_named_lamps
    ],
)
def test_junior_fault_tower_draws_a_fault_report_and_applies_its_junior_effect(
    route: str, tower_number: int, design: str, board_after: Callable[[int], int]
) -> None:
    game = junior(route=OTHER_ROUTE[route])  # West, first to play, takes the other route
    assert game.state.race is not None and game.state.race.routes[W] == route
    path = game.components.routes[route]
    assert tower_number in path.fault_towers
    card = put_fault_on_top(game, design)
    deck_after = game.state.fault_deck[1:]
    game.state.players[W].progress = tower_number - 1
    player = game.state.players[W]
    assert player.next_symbol is not None
    pin, _, _, _ = set_hand(game, W, ["pin", "pair", "stile", "bar"])
    one_lamp_short(game, W, "b2b3", player.next_symbol, "b2")
    game.apply(PlayJacquard(W, jacquard=pin, lamps=mask_of(["b2"])))
    board_before = game.state.board
    events = game.apply(Transmit(W, tower="b2b3"))
    assert player.progress == tower_number
    assert first(events, "transmitted").data["lit"] == path.towers[tower_number - 1]
    junior_meaning = game.components.faults[card].design.meaning("junior")
    revealed = first(events, "card_revealed")
    assert revealed.seat is W and revealed.data["card"] == card
    assert revealed.data["effect"] == junior_meaning.effect
    assert revealed.data["text"] == junior_meaning.text  # the junior text, not the competitive
    assert board_after(board_before) != board_before  # the effect shows on the board
    assert game.state.board == board_after(board_before)
    assert game.state.fault_deck == deck_after
    assert player.faults == []  # read out and applied, never held
    view = game.view(S)
    assert view["revealed"][-1]["id"] == card
    pawn = next(p for p in view["players"] if p["seat"] == "west")["pawn_at"]
    assert pawn == path.towers[tower_number - 1]


@pytest.mark.parametrize("route", ["easy", "hard"])
def test_junior_only_towers_three_six_and_nine_draw_fault_reports(route: str) -> None:
    """Both pawns walk their whole route, one on each: a Fault Report is drawn and
    applied on landing on towers 3, 6 and 9, and on no other tower."""
    game = junior(route=route)
    assert game.state.race is not None
    drawn_at: dict[Seat, list[int]] = {S: [], W: []}
    for _ in range(11):
        for seat, tower_name in ((W, "b2b3"), (S, "b2c2")):
            top = game.state.fault_deck[0]
            deck_size = len(game.state.fault_deck)
            events = send_next(game, seat, tower_name)
            progress = game.state.players[seat].progress
            path = game.components.routes[game.state.race.routes[seat]]
            assert first(events, "transmitted").data["lit"] == path.towers[progress - 1]
            reveals = [e for e in events if e.kind == "card_revealed"]
            if progress in FAULT_TOWERS:
                assert [e.data["card"] for e in reveals] == [top]
                meaning = game.components.faults[top].design.meaning("junior")
                assert reveals[0].data["effect"] == meaning.effect
                assert reveals[0].data["text"] == meaning.text
                assert len(game.state.fault_deck) == deck_size - 1
                drawn_at[seat].append(progress)
            else:
                assert reveals == []
                assert len(game.state.fault_deck) == deck_size
    assert drawn_at == {S: [3, 6, 9], W: [3, 6, 9]}
    assert {game.state.race.routes[S], game.state.race.routes[W]} == {"easy", "hard"}
    assert all(p.progress == 11 and not p.faults for p in game.state.players.values())
    assert len(game.state.race.ledger.revealed) == 6


# ----------------------------------------------------------------- solitaire


def test_solitaire_two_cards_hand_of_two_no_passing() -> None:
    game = new_game("solitaire", 1, seed=4)
    state = game.state
    assert state.order == [S] and len(state.players[S].hand) == 2
    team = state.team
    assert team is not None and len(team.message) == 12
    assert len([s for s in team.slots if not s.taken]) == 4  # the slots are set out too
    pin, pair = set_hand(game, S, ["pin", "pair"])
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["a1"])))
    events = game.apply(EndTurn(S))
    assert "jacquard_passed" not in kinds(events)
    assert pair in state.players[S].hand and len(state.players[S].hand) == 2
    assert state.turn.seat is S and state.turn.number == 2


def test_solitaire_swaps_and_transmits_like_co_op() -> None:
    game = new_game("solitaire", 1, seed=4)
    team = game.state.team
    assert team is not None and team.next_symbol is not None
    put_on_slot(game, "log-1", "quiet-shift")
    pin, pair = set_hand(game, S, ["pin", "pair"])
    game.apply(Swap(S, jacquard=pair, slot="log-1"))
    assert team.post_office == 1
    lifted = game.state.players[S].hand[-1]
    mask = game.components.jacquards[lifted].design.placements[0].mask
    game.apply(PlayJacquard(S, jacquard=lifted, lamps=mask))
    one_lamp_short(game, S, "a2b2", team.next_symbol, "a1")
    game.apply(PlayJacquard(S, jacquard=pin, lamps=mask_of(["a1"])))
    game.apply(Transmit(S, tower="a2b2"))
    assert team.progress == 1 and len(game.state.players[S].hand) == 2


def test_solitaire_words_and_seats() -> None:
    game = ClacksGame.new(Options(mode="solitaire", seats=(N,), words=(("QUIRM", "GENUA"),)), 3)
    assert game.state.team is not None and game.state.team.words == ["QUIRM", "GENUA"]
    with raises_in_words(BadOptions, match="1 player"):
        Options(mode="solitaire", seats=(S, N))
