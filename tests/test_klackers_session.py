"""Klackers behind the box's seam: registration, lamps, buttons, marks, previews and the
roll's animation, the layout file, and a round played through a room with a board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from klackers_support import ScriptedDice, end_turn_scoring, rolled_until_a_pull

from clacks.check_data import run
from engine.clacks.geometry import LAMP_NAMES as CLACKS_LAMPS
from engine.clacks.geometry import TOWERS
from engine.core.box import BUTTONS, LAMP_NAMES, lamp_index
from engine.core.errors import DataError, IllegalAction, MalformedAction, SerializationError
from engine.core.interface import LampFrame
from engine.games import game_module, game_modules
from engine.klackers.bots import make_bot
from engine.klackers.errors import NothingMarked, NotStanding, NotYourTurn, RollFirst, WrongSum
from engine.klackers.layout import DEFAULT_PATH, default_layout, layout_problems, load_layout
from engine.klackers.numbers import ALL_STANDING, mask_of
from engine.klackers.session import KlackersSession
from firmware.config import DEFAULT_BUTTON_PINS

LAYOUT = default_layout()


def lamps(*names: str) -> int:
    return sum(1 << lamp_index(n) for n in names)


def numbers_lamps(*numbers: int) -> int:
    return LAYOUT.number_lamps(mask_of(numbers))


def session(seed: int = 0, **options: Any) -> KlackersSession:
    made = game_module("klackers").new({"players": 2, **options}, seed)
    assert isinstance(made, KlackersSession)
    made.klackers.state.rng = ScriptedDice()
    return made


def rolled(s: KlackersSession, *faces: int) -> list[dict[str, Any]]:
    dice = s.klackers.state.rng
    assert isinstance(dice, ScriptedDice)
    dice.faces.extend(faces)
    seat = s.active_seats[0]
    return s.apply(seat, {"type": "roll", "dice": len(faces)}, 0.0)


def press(s: KlackersSession, button: str) -> list[dict[str, Any]]:
    meaning = s.button_action(button, 0.0)
    assert meaning is not None
    seat, action = meaning
    return s.apply(seat, action, 0.0)


def test_klackers_is_registered_with_its_lobby_choices_and_reference() -> None:
    assert set(game_modules()) >= {"clacks", "klackers"}
    module = game_module("klackers")
    assert module.title == "Klackers"
    mode = module.options_schema()["modes"][0]
    assert mode["players"] == [2, 3, 4]
    assert mode["variants"] == ["hughie", "klack_to_win", "klack_worth_two", "undo_pull"]
    assert mode["default_seats"]["3"] == ["south", "west", "north"]
    assert mode["choices"]["rounds"]["default"] == 3 and mode["choices"]["target"]["default"] == 0
    reference = module.reference()
    assert reference["layout"]["numbers"]["7"] == "a4" and reference["one_die_limit"] == 6
    assert sum(reference["two_dice"].values()) == pytest.approx(1)


def test_the_module_refuses_bad_options_as_an_illegal_action() -> None:
    lobby = {"mode": "klackers", "players": 3, "rounds": 2, "target": 0, "hughie": True}
    made = game_module("klackers").new(lobby, 1)
    assert isinstance(made, KlackersSession)
    assert made.klackers.state.options.target is None and len(made.seats) == 3
    refused_options: list[Any] = [{"players": 7}, {"rounds": -1}, {"variant": 1}, {"mode": "coop"}, []]
    for options in refused_options:
        with pytest.raises(IllegalAction) as caught:
            game_module("klackers").new(options, 1)
        # a number out of its range is refused naming the range (engine.core.options)
        assert caught.value.rule == ("option_range" if "rounds" in options else "klackers_options")


def test_the_box_is_the_same_for_every_game() -> None:
    assert set(BUTTONS) == set(TOWERS) == set(DEFAULT_BUTTON_PINS)
    assert LAMP_NAMES == CLACKS_LAMPS
    assert {b for b, _ in LAYOUT.buttons} == set(BUTTONS)


def test_the_lamps_show_the_player_with_the_dice() -> None:
    s = session()
    seat = s.active_seats[0]
    dice_row = lamps("a1", "b1", "c1", "d1")
    # before the roll: all nine up, the dice row glowing
    assert s.lamps() == LampFrame(lit=numbers_lamps(*range(1, 10)), accent=dice_row)
    assert s.transmissions(rolled(s, 5, 6)) == [dice_row]
    # after it: 11 in binary on the dice row (8 + 2 + 1)
    assert s.lamps() == LampFrame(lit=numbers_lamps(*range(1, 10)) | lamps("a1", "c1", "d1"))
    s.apply(seat, {"type": "pull", "numbers": [2, 9]}, 0.0)
    assert s.lamps() == LampFrame(lit=numbers_lamps(1, 3, 4, 5, 6, 7, 8), accent=dice_row)
    assert s.transmissions([{"kind": "pulled"}]) == []


def scripted(s: KlackersSession, *faces: int) -> None:
    dice = s.klackers.state.rng
    assert isinstance(dice, ScriptedDice)
    dice.faces.extend(faces)


def test_buttons_mark_numbers_and_pull_them() -> None:
    s = session()
    seat = s.active_seats[0]
    with pytest.raises(RollFirst):
        press(s, "a2b2")  # the 1, before any roll
    scripted(s, 3, 4)
    press(s, "b1b2")  # roll two dice
    assert s.view(None)["turn"]["dice"] == [3, 4]
    events = press(s, "a3b3")  # the 4
    assert events == [{"kind": "marked", "seat": seat, "numbers": [4]}]
    press(s, "c2d2")  # the 3
    assert s.view(None)["marked"] == [3, 4]
    assert s.lamps().preview == numbers_lamps(3, 4)
    press(s, "c2d2")  # the 3 again: unmarked
    assert s.view(None)["marked"] == [4]
    press(s, "c2d2")
    assert [a["type"] for a in s.log_json()["actions"]] == ["roll"]  # marks are not logged
    events = press(s, "c2c3")  # pull
    assert [e["kind"] for e in events] == ["pulled"] and events[0]["numbers"] == [3, 4]
    assert s.marked == 0 and s.view(seat)["marked"] == []
    with pytest.raises(NothingMarked):
        s.button_action("c2c3", 0.0)
    # the one die at the dice row's right: refused, with the reason, at 38 standing
    with pytest.raises(IllegalAction) as caught:
        press(s, "c1c2")
    assert caught.value.rule == "one_die_not_allowed"
    # a number that is down cannot be marked; marks that do not make the roll are refused
    scripted(s, 1, 1)
    press(s, "b1b2")
    with pytest.raises(NotStanding):
        press(s, "a3b3")
    press(s, "a2b2")  # the 1
    with pytest.raises(WrongSum):
        press(s, "c2c3")
    press(s, "a2b2")
    press(s, "b2c2")  # the 2
    press(s, "c2c3")
    assert s.view(seat)["players"][0 if seat == "south" else 1]["down"] == [2, 3, 4]


def test_a_roll_button_is_refused_while_a_pull_is_due_and_unknown_buttons_are_not_ours() -> None:
    s = session()
    scripted(s, 3, 4)
    press(s, "b1b2")
    with pytest.raises(IllegalAction) as caught:
        press(s, "b1b2")
    assert caught.value.rule == "pull_first"
    with pytest.raises(ValueError) as unknown:
        s.button_action("z9z9", 0.0)
    assert not isinstance(unknown.value, IllegalAction)


def test_marks_come_only_from_the_player_with_the_dice() -> None:
    s = session()
    seat = s.active_seats[0]
    other = next(x.id for x in s.seats if x.id != seat)
    rolled(s, 3, 4)
    with pytest.raises(NotYourTurn):
        s.apply(other, {"type": "mark", "number": 3}, 0.0)
    with pytest.raises(NotYourTurn):
        s.apply(None, {"type": "mark", "number": 3}, 0.0)
    for bad in ({"type": "mark", "number": 0}, {"type": "mark", "number": 3, "extra": 1}):
        with pytest.raises(MalformedAction):
            s.apply(seat, bad, 0.0)


def test_a_phone_previews_its_choice_on_the_lamps() -> None:
    s = session()
    seat = s.active_seats[0]
    other = next(x.id for x in s.seats if x.id != seat)
    assert s.preview(seat, {"type": "pull", "numbers": [3]}) is None  # before the roll
    rolled(s, 3, 4)
    frame = s.preview(seat, {"type": "pull", "numbers": [3]})  # part of a pull is fine
    assert frame is not None and frame.preview == numbers_lamps(3)
    assert frame.lit == s.lamps().lit
    for action in (
        {"type": "pull", "numbers": []},
        {"type": "pull", "numbers": [12]},
        {"type": "roll"},
        "pull",
    ):
        assert s.preview(seat, action) is None  # type: ignore[arg-type]
    assert s.preview(other, {"type": "pull", "numbers": [3]}) is None


def test_actions_come_from_their_own_seat() -> None:
    s = session()
    seat = s.active_seats[0]
    other = next(x.id for x in s.seats if x.id != seat)
    with pytest.raises(NotYourTurn):
        s.apply(other, {"type": "roll", "seat": seat}, 0.0)
    with pytest.raises(NotYourTurn):
        s.apply(None, {"type": "roll", "seat": seat}, 0.0)
    assert s.legal_actions(seat, 0.0) == [{"type": "roll", "seat": seat, "dice": 2}]
    assert s.legal_actions(other, 0.0) == []


def test_undo_and_replay_through_the_seam() -> None:
    module = game_module("klackers")
    s = module.new({"players": 3, "klack_worth_two": True, "undo_pull": True}, 8)
    seat, legal = rolled_until_a_pull(s)
    assert not s.can_undo(seat)  # the roll revealed the dice
    before = s.view(seat)
    s.apply(seat, legal[-1], 0.0)
    assert s.can_undo(seat)
    assert s.undo(seat)[0]["kind"] == "undone"
    assert s.view(seat) == before
    s.apply(seat, legal[0], 0.0)
    rebuilt = module.replay(s.log_json())
    assert rebuilt.view(None) == s.view(None) and rebuilt.lamps() == s.lamps()
    assert s.result() is None and s.deadline() is None and s.clock_action(0.0) is None


def test_the_result_names_the_winner_and_the_chips() -> None:
    s = session(rounds=1)
    end_turn_scoring(s.klackers, 3)
    end_turn_scoring(s.klackers, 5)
    result = s.result()
    assert result is not None and result["reason"] == "most_chips"
    assert result["chips"][result["winners"][0]] == 1 and s.over and s.active_seats == []
    assert s.button_action("b1b2", 0.0) is None  # nothing left to press for
    assert s.lamps() == LampFrame(lit=0, accent=numbers_lamps(*range(1, 10)))
    assert "wins the match" in s.describe_event({"kind": "game_won", "seat": "south"})


def test_every_event_reads_as_a_sentence() -> None:
    s = game_module("klackers").new({"players": 4, "klack_worth_two": True}, 3)
    assert isinstance(s, KlackersSession)
    bot = make_bot("planner")
    events = [e.to_json() for e in s.klackers.opening_events()]
    while not s.over:
        seat = s.active_seats[0]
        events += s.apply(seat, bot.choose(s.view(seat)).to_json(), 0.0)
    for event in events:
        text = s.describe_event(event)
        assert text and text != event["kind"] and "None" not in text, event
    kinds = {event["kind"] for event in events}
    assert {"starter_rolled", "rolled", "pulled", "turn_ended", "round_ended"} <= kinds


# ------------------------------------------------------------------ the layout file


def test_the_default_layout_is_the_shipped_file() -> None:
    assert load_layout(DEFAULT_PATH) == LAYOUT
    assert LAYOUT.dice_lamps(12) == lamps("a1", "b1")
    assert LAYOUT.meaning("b2b3") == "7" and LAYOUT.button_for("pull") == "c2c3"
    assert LAYOUT.number_lamps(ALL_STANDING).bit_count() == 9


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["numbers"].pop("5"), "numbers.5: is missing"),
        (lambda d: d["numbers"].update({"10": "d2"}), "numbers.10: the numbers are 1 to 9"),
        (lambda d: d["numbers"].update({"2": "a2"}), "lamp a2 is already numbers.1"),
        (lambda d: d["numbers"].update({"2": "e9"}), "'e9' is not a lamp"),
        (lambda d: d["dice"].update({"lamps": ["a1"]}), "dice.lamps: must list 4 lamps"),
        (lambda d: d["dice"].update({"lamps": ["a1", "b1", "c1", "a2"]}), "already numbers.1"),
        (lambda d: d["buttons"].update({"x1y1": "roll"}), "buttons.x1y1: no such button"),
        (lambda d: d["buttons"].update({"b2b3": "dance"}), "'dance' is not a number"),
        (lambda d: d["buttons"].update({"b2b3": "roll"}), "roll is already on"),
        (lambda d: d.update({"extra": {}}), "unknown section 'extra'"),
        (lambda d: d.pop("buttons"), "[buttons] is missing"),
    ],
)
def test_every_mistake_in_a_layout_is_named(change: Any, problem: str) -> None:
    data = LAYOUT.to_json()
    data = {
        "numbers": dict(data["numbers"]),
        "dice": {"lamps": list(data["dice"])},
        "buttons": dict(data["buttons"]),
    }
    assert layout_problems(data) == []
    change(data)
    problems = layout_problems(data)
    assert any(problem in p for p in problems), problems


def test_a_broken_layout_file_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "layout.toml"
    path.write_text(DEFAULT_PATH.read_text().replace('1 = "a2"', '1 = "a9"'))
    with pytest.raises(DataError) as caught:
        load_layout(path)
    assert str(path) in str(caught.value) and "a9" in str(caught.value)
    path.write_text("[numbers\n")
    with pytest.raises(DataError, match="not valid TOML"):
        load_layout(path)
    with pytest.raises(DataError, match="cannot be read"):
        load_layout(tmp_path / "missing.toml")


def test_check_data_checks_a_klackers_layout_as_every_game_s_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The layout is Klackers' data file: ``clacks check-data`` checks the shipped one and
    a box's own, naming the file and the entry of each mistake."""
    assert run(None, "klackers") == 0
    assert "all Klackers data files are valid" in capsys.readouterr().out
    broken = DEFAULT_PATH.read_text().replace('1 = "a2"', '1 = "a9"').replace("[dice]", "[die]")
    (tmp_path / "layout.toml").write_text(broken)
    assert run(str(tmp_path), "klackers") == 1
    said = capsys.readouterr().err
    assert f"{tmp_path / 'layout.toml'}: numbers.1: 'a9' is not a lamp" in said, said
    assert "unknown section 'die'; did you mean 'dice'?" in said, said
    assert "dice.lamps: must list 4 lamps" in said and "3 problems" in said, said


def test_the_docs_table_of_buttons_is_the_layout() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "klackers.md").read_text()
    table = docs.split("The buttons act for the player who has the dice:", 1)[1].split("\n\n")[1]
    documented: dict[str, str] = {}
    for row in table.splitlines()[2:]:
        buttons_cell, meaning = row.strip("|").split("|", 1)
        buttons = buttons_cell.replace("`", "").split()
        if "roll one die" in meaning:
            meanings = ["roll_one"]
        elif "roll two dice" in meaning:
            meanings = ["roll"]
        elif "pull the marked" in meaning:
            meanings = ["pull"]
        else:
            numbers = meaning.split("unmark", 1)[1].split("(")[0]
            meanings = [n.strip() for n in numbers.split(",")]
        assert len(buttons) == len(meanings), row
        documented.update(zip(buttons, meanings, strict=True))
    assert documented == dict(LAYOUT.buttons)


def test_bots_can_take_a_seat_and_the_planner_gives_hints() -> None:
    s = session(seed=5)
    seat = s.active_seats[0]
    other = next(x.id for x in s.seats if x.id != seat)
    assert s.bot_levels() == ["random", "greedy", "planner"]
    assert s.bot_action(other, "planner", 0.0) is None
    assert s.hint(other) is None and s.hint_lamps(other) is None
    with pytest.raises(ValueError, match="unknown bot level"):
        s.bot_action(seat, "genius", 0.0)
    assert s.bot_action(seat, "planner", 0.0) == {"type": "roll", "seat": seat, "dice": 2}
    advice = s.hint(seat)
    assert advice is not None and advice["objective"] == "score"
    assert advice["expected"] == pytest.approx(11.107, abs=1e-3)
    scripted(s, 2, 2)
    s.apply(seat, {"type": "roll"}, 0.0)
    advice = s.hint(seat)
    assert advice is not None and advice["actions"] == [s.bot_action(seat, "planner", 0.0)]
    numbers = advice["actions"][0]["numbers"]
    assert sum(numbers) == 4
    frame = s.hint_lamps(seat)
    assert frame is not None and frame.preview == numbers_lamps(*numbers)
    # the random bot's choice is fixed by the match and the moment
    assert s.bot_action(seat, "random", 0.0) == s.bot_action(seat, "random", 9.0)
    s.apply(seat, advice["actions"][0], 0.0)


def test_a_layout_is_an_option_of_the_game_and_kept_in_its_log() -> None:
    module = game_module("klackers")
    lamps = ("b2", "c2", "d2", "b3", "c3", "d3", "b4", "c4", "d4")
    moved = {str(n): lamp for n, lamp in enumerate(lamps, start=1)}
    session = module.new({"players": 2, "layout": {"numbers": moved}}, 3)
    assert isinstance(session, KlackersSession)
    assert session.view(None)["layout"]["numbers"] == moved
    assert session.view(None)["layout"]["dice"] == default_layout().to_json()["dice"]  # shipped
    replayed = module.replay(session.log_json())
    assert isinstance(replayed, KlackersSession) and replayed.layout == session.layout
    # a game on the shipped layout saves exactly as before
    assert "layout" not in module.new({"players": 2}, 3).log_json()
    # a layout that cannot be used is refused, naming the entry, from the lobby or a log
    with pytest.raises(IllegalAction, match=r"numbers\.9"):
        module.new({"players": 2, "layout": {"numbers": {**moved, "9": "a1"}}}, 3)
    tampered = {**session.log_json(), "layout": {"numbers": {"1": "z9"}}}
    with pytest.raises(SerializationError, match="z9"):
        module.replay(tampered)
