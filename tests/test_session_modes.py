"""Every Clacks mode through the game-agnostic interface the lobby, pages and buttons use."""

from __future__ import annotations

import json

import pytest
from map_helpers import one_lamp_short, set_hand
from refusals import raises_in_words

from engine.clacks import errors as E
from engine.clacks.geometry import lamps_of, mask_of
from engine.clacks.session import ClacksSession
from engine.games import game_module


def test_options_schema_offers_every_mode_and_variant() -> None:
    schema = game_module("clacks").options_schema()
    modes = {m["id"]: m for m in schema["modes"]}
    assert list(modes) == ["competitive", "coop", "solitaire", "junior"]
    assert modes["coop"]["variants"] == ["long_distance", "night_shift"]
    assert modes["coop"]["choices"]["route"]["choices"] == ["easy", "hard"]
    assert modes["solitaire"]["players"] == [1]
    assert modes["junior"]["default_seats"] == {"2": ["south", "west"]}
    # own words: which lists a lobby asks for, checked against what the game accepts
    assert [modes[m]["word_lists"] for m in modes] == ["seat", "team", "team", "seat"]
    for mode in ("coop", "junior"):
        spec = modes[mode]
        players = spec["players"][0]
        lists = 1 if spec["word_lists"] == "team" else players
        letters = spec["message_letters"]
        words = [["A" * (letters - 4), "B" * 4]] * lists
        assert spec["words_per_list"] == 2
        game_module("clacks").new({"mode": mode, "players": players, "words": words}, 1)
        too_long = [["A" * (letters - 3), "B" * 4]] * lists
        with raises_in_words(E.BadOptions, match="letters"):
            game_module("clacks").new({"mode": mode, "players": players, "words": too_long}, 1)


def test_the_trainer_draws_on_the_clacks_exchange() -> None:
    reference = game_module("clacks-trainer").reference()
    assert reference["game"] == "clacks-trainer"
    assert reference["alphabet"] == game_module("clacks").reference()["alphabet"]
    assert len(reference["towers"]) == 12


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "coop", "players": 5}, "co-operative game is for 2 to 4 players"),
        ({"mode": "solitaire", "players": 2}, "solitaire game is for 1 player"),
        ({"mode": "junior", "seats": ["south", "north"]}, "right angles"),
        ({"mode": "coop", "players": 2, "express": True}, "competitive variant"),
        ({"mode": "coop", "players": 2, "route": 3}, "route must be a string"),
        ({"mode": "coop", "players": 2, "words": [["GENUA", "M0IST"]]}, "“0”"),
        ({"mode": "chess"}, "There is no mode “chess”"),
        ({"mode": "coop", "players": "two"}, "whole number"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, object], message: str) -> None:
    with raises_in_words(E.BadOptions, match=message):
        game_module("clacks").new(options, 1)


def test_a_co_op_game_through_the_interface() -> None:
    module = game_module("clacks")
    session = module.new({"mode": "coop", "players": 3, "long_distance": True}, 7)
    assert isinstance(session, ClacksSession)
    assert [s.id for s in session.seats] == ["south", "west", "north"]
    assert session.active_seats == ["south"] and session.result() is None
    view = session.view("west")
    assert view["hints_allowed"] is False
    assert all("hand" not in p for p in view["players"] if p["seat"] != "west")
    legal = session.legal_actions("south", 0.0)
    swap = next(a for a in legal if a["type"] == "swap")
    events = session.apply("south", swap, 0.0)
    assert events[0]["kind"] == "swapped"
    assert not session.can_undo("south")  # a card was revealed
    with pytest.raises(E.NotYourTurn):
        session.apply("west", swap, 0.0)
    again = module.replay(json.loads(json.dumps(session.log_json())))
    assert again.view("south") == session.view("south")


def test_a_tower_button_transmits_in_the_map_games() -> None:
    session = game_module("clacks").new({"mode": "coop", "players": 2}, 3)
    assert isinstance(session, ClacksSession)
    game = session.clacks
    team = game.state.team
    assert team is not None and team.next_symbol is not None
    south = game.current_seat
    with pytest.raises(E.JacquardRequired):
        session.button_action("b2c2", 0.0)  # refused at once, with the reason
    with pytest.raises(E.WrongColour):
        session.button_action("b2b3", 0.0)
    pin, _ = set_hand(game, south, ["pin", "pair"])
    one_lamp_short(game, south, "b2c2", team.next_symbol, "c1")
    session.apply("south", {"type": "play_jacquard", "jacquard": pin, "lamps": ["c1"]}, 0.0)
    pressed = session.button_action("b2c2", 0.0)
    assert pressed == ("south", {"type": "transmit", "seat": "south", "tower": "b2c2"})
    events = session.apply(*pressed, 0.0)
    assert any(e["kind"] == "transmitted" for e in events)
    assert "Tower lit: Morpork Gate" in session.describe_event(events[0])


def test_competitive_buttons_still_move_the_pawn() -> None:
    session = game_module("clacks").new({"players": 2}, 1)
    assert session.button_action("b2c2", 0.0) == (
        "south" if session.active_seats == ["south"] else "north",
        {"type": "move", "seat": session.active_seats[0], "tower": "b2c2"},
    )


def test_the_whole_team_shares_one_result() -> None:
    session = game_module("clacks").new({"mode": "coop", "players": 4}, 2)
    assert isinstance(session, ClacksSession)
    game = session.clacks
    team = game.state.team
    assert team is not None
    team.post_office = team.track - 1
    card = game.state.players[game.current_seat].hand[0]
    mask = game.components.jacquards[card].design.placements[0].mask
    session.apply(
        game.current_seat.label,
        {"type": "play_jacquard", "jacquard": card, "lamps": lamps_of(mask)},
        0.0,
    )
    assert session.over and session.active_seats == []
    assert session.result() == {"winners": [], "reason": "post_office_arrived", "team": "lost"}
    for seat in ("south", "west", "north", "east"):
        assert session.view(seat)["result"] == "lost"


def test_a_junior_race_through_the_interface() -> None:
    session = game_module("clacks").new(
        {"mode": "junior", "players": 2, "words": [["WITCH", "NOBBY"], ["ANGUA", "DWARF"]]}, 4
    )
    assert [s.id for s in session.seats] == ["west", "south"]
    assert [s.colour for s in session.seats] == ["green", "red"]
    view = session.view("south")
    assert {p["route"] for p in view["players"]} == {"easy", "hard"}
    assert view["you"]["hand"] and len(view["you"]["hand"]) == 4
    assert mask_of(view["lit"]) == view["board"]


def test_competitive_transmit_names_only_the_pawns_tower() -> None:
    from engine.clacks import ClacksGame, Move, Options, Transmit

    game = ClacksGame.new(Options.for_players(2), 1)
    seat = game.current_seat
    game.apply(Move(seat, tower="b2c2"))
    with raises_in_words(E.NotOnTower, match="from your pawn's tower"):
        game.apply(Transmit(seat, tower="a2b2"))
    assert Transmit(seat).to_json() == {"type": "transmit", "seat": seat.label}


def test_every_fault_report_previews_what_it_changes() -> None:
    """A Fault Report's preview is the lamps it would change (none for a card that only
    changes stress) and the tower it names, whatever its target."""
    from engine.clacks.data import load_components
    from engine.clacks.geometry import tower

    designs = {card.design.id: card_id for card_id, card in load_components().faults.items()}
    for design, card_id in sorted(designs.items()):
        session = game_module("clacks").new({"players": 2}, 4)
        assert isinstance(session, ClacksSession)
        seat = session.active_seats[0]
        # the pawn on a tower first, so a free move has somewhere to go
        move = next(a for a in session.legal_actions(seat, 0.0) if a["type"] == "move")
        session.apply(seat, move, 0.0)
        session.clacks.state.players[session.clacks.state.turn.seat].faults = [card_id]
        plays = [a for a in session.legal_actions(seat, 0.0) if a.get("card") == card_id]
        assert plays, design
        for action in plays[:6]:
            frame = session.preview(seat, action)
            assert frame is not None, (design, action)
            trial = session.clacks.clone()
            session_board = session.clacks.state.board
            trial_session = ClacksSession(trial)
            trial_session.apply(seat, action, 0.0)
            assert frame.lit == session_board
            assert frame.preview == session_board ^ trial.state.board, (design, action)
            named = action.get("tower")
            assert frame.accent == (tower(named).mask if named else 0), (design, action)
