"""Clockman behind the box's seam: the lobby's options, the buttons as quick reports, the
lamps, undo, what each seat sees, saving and replaying."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clockman_support import ScriptedDice, act, place

from engine.clockman import ClockmanGame
from engine.clockman.data import load_data
from engine.clockman.errors import (
    BadOptions,
    CannotKnock,
    ChooseOnPhone,
    NothingToUndo,
    WrongCircle,
)
from engine.clockman.session import ClockmanSession
from engine.clockman.state import ClockmanState
from engine.core.box import lamp_index
from engine.core.errors import SerializationError
from engine.games import game_module
from web.refusals import in_english

DATA = load_data()
ENGINE = Path(__file__).parent.parent / "engine" / "clockman"


def bits(*names: str) -> int:
    return sum(1 << lamp_index(n) for n in names)


def session_for(seats: int = 2, starter: str = "south", **options: object) -> ClockmanSession:
    module = game_module("clockman")
    for seed in range(500):
        session = module.new({"players": seats, **options}, seed)
        assert isinstance(session, ClockmanSession)
        if session.clockman.current_seat == starter:
            session.clockman.state.rng = ScriptedDice()
            return session
    raise AssertionError("no seed")


def press(session: ClockmanSession, meaning: str) -> list[dict[str, object]]:
    button = DATA.button_for(meaning)
    assert button is not None
    found = session.button_action(button, 0.0)
    assert found is not None
    seat, action = found
    return session.apply(seat, action, 0.0)


def test_the_lobby_offers_the_four_optional_rules_with_their_values() -> None:
    module = game_module("clockman")
    mode = module.options_schema()["modes"][0]
    assert mode["players"] == [2, 3, 4]
    assert mode["choices"] == {
        "transfer": {"type": "bool", "values": [False, True], "default": False},
        "hamster": {"choices": ["off", "on", "extended"], "default": "off"},
        "robbery": {"type": "bool", "values": [False, True], "default": False},
        "swap": {"type": "bool", "values": [False, True], "default": False},
    }
    session = module.new({"mode": "clockman", "players": 3, "hamster": "extended", "swap": True}, 1)
    assert session.clockman.state.options.allowance > 1  # type: ignore[attr-defined]
    for bad, words in (
        ({"players": 5}, "Clockman is for 2 to 4 players, not 5."),
        ({"hamster": "lots"}, "the hoarding rule must be one of off, on, extended"),
        ({"robbery": "yes"}, "robbery must be on or off"),
        ({"mode": "race"}, "Clockman has one mode, not “race”."),
        ({"bots": 1}, "Unknown options: bots."),
    ):
        with pytest.raises(BadOptions) as refused:
            module.new(bad, 1)
        assert words in in_english(refused.value)
    reference = module.reference()
    assert reference["house_files"] == ["board.toml", "poses.toml"]
    assert reference["buttons"]["b2c2"] == "roll"


def test_the_buttons_report_for_the_player_whose_turn_it_is() -> None:
    session = session_for(3)
    game = session.clockman
    # the starter entered circle 1 with the start roll: the digit button has no digit there
    with pytest.raises(WrongCircle) as refused:
        session.button_action("a3b3", 0.0)
    assert "but a joker" in in_english(refused.value)
    assert [e["kind"] for e in press(session, "symbol")] == ["symbol_drawn"]
    assert [e["kind"] for e in press(session, "undo")] == ["undone"]
    assert game.state.players["south"].hand == {}
    press(session, "plain")
    press(session, "end_turn")
    game.state.rng.faces.append(3)  # type: ignore[attr-defined]
    assert [e["kind"] for e in press(session, "roll")] == ["rolled", "entered"]
    with pytest.raises(NothingToUndo):
        press(session, "undo")  # a roll cannot be taken back
    # a knock with one other piece on the circle: that one
    assert [e["kind"] for e in press(session, "knock")] == ["knocked", "knocked_out"]
    assert game.state.players["south"].ring == 0
    press(session, "plain")
    press(session, "end_turn")
    # north on circle 2 with two cards: the blockade button must ask which pose
    place(game, "north", ring=2, hand="AB")
    game.state.rng.faces.append(4)  # type: ignore[attr-defined]
    press(session, "roll")
    assert set(game.state.rings[1]) == set("ABCDE")  # five passages, five poses
    with pytest.raises(ChooseOnPhone) as choose:
        session.button_action("c3d3", 0.0)
    assert "Choose its pose on the phone" in in_english(choose.value)
    place(game, "north", hand="C")
    assert press(session, "blockade")[0]["pose"] == "C"
    assert game.state.players["north"].ring == 3
    with pytest.raises(CannotKnock):
        session.button_action("c1c2", 0.0)


def test_the_confirm_button_answers_what_the_game_waits_for() -> None:
    session = session_for(2, robbery=True)
    game = session.clockman
    place(game, "south", ring=3, date="00000")
    place(game, "north", ring=3, date="000001", cards=[("hidden", "shield")])
    act(game, "knock", victim="north")
    assert session.active_seats == ["north"]
    with pytest.raises(ChooseOnPhone) as answers:
        session.button_action("a2b2", 0.0)
    assert in_english(answers.value).startswith("North answers on the phone")
    seat, action = session.button_action("b3c3", 0.0) or (None, {})
    assert (seat, action) == ("north", {"type": "defend", "seat": "north"})
    events = session.apply(seat, action, 0.0)
    assert [e["kind"] for e in events] == ["digit_taken_from", "knocked_out"]


def test_the_lamps_show_the_die_and_the_date_key_and_on_request_the_race() -> None:
    session = session_for(2, transfer=True)
    game = session.clockman
    die = game.state.turn.die  # type: ignore[union-attr]
    frame = session.lamps()
    assert frame.lit == bits(*["a1", "b1", "c1", "d1", "a2", "b2"][:die])
    place(game, "south", ring=2, date="0X", pending="01")
    act(game, "digit", digit="0")
    frame = session.lamps()
    # date key 0 1 0 1 2 0 0 0 on a3 b3 c3 d3 a4 b4 c4 d4: one 0 held, two 0s and a 1
    # set aside (blinking), the joker standing in for the second 1
    assert frame.lit & bits("a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4") == bits("a3")
    assert frame.preview == bits("b3", "c3", "b4")
    assert frame.accent == bits("d3")
    act(game, "end_turn")
    frame = session.lamps()
    assert frame.accent & bits("a1", "b1", "c1", "d1", "a2", "b2") == bits(
        "a1", "b1", "c1", "d1", "a2", "b2"
    )
    log = json.dumps(session.log_json())
    events = session.apply("north", {"type": "lamps", "view": "race"}, 0.0)
    assert events == [{"kind": "lamps_shown", "seat": "north", "view": "race"}]
    assert json.dumps(session.log_json()) == log  # not part of the game
    # columns a (South) and c (North): South on circle 2, North at the start
    assert session.lamps().lit == bits("a1", "a2")
    session.apply("south", {"type": "lamps", "view": "turn"}, 0.0)
    assert session.lamps().accent & bits("a1", "b1", "c1", "d1", "a2", "b2")
    game.state.rng.faces.append(2)  # type: ignore[attr-defined]
    events = session.apply("north", {"type": "roll"}, 0.0)
    assert session.transmissions(events) == [bits("a1", "b1", "c1", "d1", "a2", "b2")]


def test_legal_actions_are_what_the_rules_allow_now() -> None:
    session = session_for(2)
    legal = session.legal_actions("south", 0.0)
    types = {a["type"] for a in legal}
    assert {"plain", "symbol", "event", "digit", "lift"} <= types
    assert not {"roll", "end_turn", "straight", "transfer", "blockade"} & types  # no card yet
    assert session.legal_actions("north", 0.0) == []
    session.apply("south", {"type": "plain"}, 0.0)
    assert {a["type"] for a in session.legal_actions("south", 0.0)} == {"end_turn"}


def test_each_seat_sees_its_own_hand_and_notes_only() -> None:
    session = session_for(2)
    game = session.clockman
    place(
        game,
        "south",
        ring=2,
        hand="AAC",
        cards=[("hidden", "a secret"), ("open", "everyone knows")],
    )
    mine = session.view("south")
    assert mine["you"]["hand"] == {"A": 2, "C": 1}
    assert [c["label"] for c in mine["players"][0]["cards"]] == ["a secret", "everyone knows"]
    theirs = json.dumps(session.view("north"))
    table = json.dumps(session.view(None))
    for text in (theirs, table):
        assert "a secret" not in text and '"A": 2' not in text
        assert "everyone knows" in text
        assert '"seed"' not in text and '"deck"' not in text and '"rng"' not in text
    assert session.view(None)["players"][0]["symbols"] == 3


def test_saved_and_replayed_games_are_the_same_game() -> None:
    module = game_module("clockman")
    real = module.new({"players": 3, "transfer": True}, 11)
    for action in ({"type": "symbol"}, {"type": "end_turn"}, {"type": "roll"}, {"type": "plain"}):
        seat = real.active_seats[0]
        real.apply(seat, action, 0.0)
    again = module.replay(real.log_json())
    assert again.view(None) == real.view(None)
    saved = ClockmanGame.from_json(json.loads(json.dumps(real.clockman.to_json())))  # type: ignore[attr-defined]
    assert saved == real.clockman  # type: ignore[attr-defined]
    broken = real.log_json()
    broken["actions"].append({"type": "straight", "seat": "south", "field": 1})
    with pytest.raises(SerializationError, match="illegal on replay"):
        module.replay(broken)
    tampered = real.clockman.state.to_json()  # type: ignore[attr-defined]
    tampered["supply"]["0"] += 1
    with pytest.raises(SerializationError, match="do not add up"):
        ClockmanState.from_json(tampered)


def test_every_event_has_english_words() -> None:
    kinds = set()
    for path in ENGINE.glob("*.py"):
        kinds |= set(re.findall(r'Event\.of\(\s*"(\w+)"', path.read_text()))
    assert len(kinds) > 40
    session = session_for(2)
    for kind in kinds:
        text = session.describe_event({"kind": kind, "seat": "south"})
        assert text != kind and text[0].isupper(), kind


def test_the_confirm_button_between_moves_switches_the_lamps_to_the_race() -> None:
    session = session_for(2)
    press(session, "plain")  # the starter's landing: a plain field
    assert session.lamp_view == "turn"
    log = json.dumps(session.log_json())
    assert press(session, "plain") == [{"kind": "lamps_shown", "seat": "south", "view": "race"}]
    assert session.lamps().lit == bits("a1")  # South's column: circle 1
    assert press(session, "plain")[0]["view"] == "turn"
    assert json.dumps(session.log_json()) == log
