"""Klackers on the lit box: the buttons (gpiozero on mock pins) roll, mark and pull; the
LEDs show the player's numbers, blink the marked ones and rattle the dice row."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from firmware_support import FakeClock, SessionBox, lit_lamps, mock_board
from live_server import LiveServer
from web_client import call

from clacks.cli import main
from engine.games import game_module
from engine.klackers.layout import default_layout
from engine.klackers.session import KlackersSession
from firmware import shows
from firmware.companion import Companion
from firmware.config import load_config
from firmware.exchange import Exchange
from firmware.scene import BLINK_S, HIGHLIGHT_S, TRANSMIT_S

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = default_layout()


class Box(SessionBox[KlackersSession]):
    """A Klackers session on a mock-pin exchange, its buttons wired as serve wires them."""

    def __init__(self, seed: int) -> None:
        session = game_module("klackers").new({"players": 2}, seed)
        assert isinstance(session, KlackersSession)
        super().__init__(session, LAYOUT)


def test_a_turn_on_the_box_buttons() -> None:
    box = Box(seed=4)
    session = box.session
    assert lit_lamps(box.pixels()) == LAYOUT.number_lamps((1 << 9) - 1)
    # the pull button before any roll: refused, and the box flashes red
    box.press("pull")
    assert box.refused == ["nothing_marked"]
    assert box.board.renderer.scene.refused_since is not None
    box.clock.advance(1.0)
    # roll until the dice can be pulled; each roll rattles the dice row
    while not session.view(None)["turn"]["combinations"]:
        box.press("roll")
        assert box.applied[-1][0]["kind"] == "rolled"
        assert box.board.renderer.scene.transmit is not None
        assert box.board.renderer.scene.transmit[0] == LAYOUT.dice_mask
        box.clock.advance(TRANSMIT_S)
    turn = session.view(None)["turn"]
    shown = lit_lamps(box.pixels())
    assert shown & LAYOUT.dice_mask == LAYOUT.dice_lamps(turn["total"])
    # mark a combination with the number buttons: the marked numbers blink
    combination = turn["combinations"][0]
    for number in combination:
        box.press(str(number))
    marked = LAYOUT.number_lamps(sum(1 << (n - 1) for n in combination))
    blink_phase = [lit_lamps(box.pixels())]
    box.clock.advance(BLINK_S / 2)
    blink_phase.append(lit_lamps(box.pixels()))
    assert {phase & marked for phase in blink_phase} == {0, marked}
    # pull: they go down, and are picked out for a moment
    box.press("pull")
    assert box.applied[-1][0]["kind"] == "pulled"
    assert box.board.renderer.scene.highlight is not None
    assert box.board.renderer.scene.highlight[0] == marked
    box.clock.advance(HIGHLIGHT_S)
    assert lit_lamps(box.pixels()) & marked == 0


def test_the_klackers_show_module() -> None:
    assert shows.effects("klackers", [{"kind": "rolled", "dice": [2, 3]}]) == []  # transmissions
    assert shows.effects("klackers", [{"kind": "pulled", "numbers": [1, 9]}]) == [
        ("highlight", LAYOUT.number_lamps(1 | 1 << 8))
    ]
    assert shows.effects("klackers", [{"kind": "pulled", "numbers": ["x"]}]) == []
    assert shows.button_lamps("klackers", "b1b2") == LAYOUT.dice_mask
    assert shows.button_lamps("klackers", "a2b2") == LAYOUT.number_lamps(1)
    assert shows.button_lamps("klackers", "c2c3") == 0
    programme = shows.attract_programme("klackers")
    assert programme[0].frame.lit == LAYOUT.number_lamps((1 << 9) - 1)
    assert [s.frame.lit.bit_count() for s in programme[1:10]] == list(range(8, -1, -1))


def test_the_klackers_attract_mode_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["hardware", "attract", "--game", "klackers", "--seconds", "0.3", "--terminal"]) == 0
    )
    out = capsys.readouterr().out
    assert "Attract mode: Klackers" in out and "     a   b   c   d" in out


# ------------------------------------------------ the layout from the settings file

# the numbers moved one column right (column a dark), the dice and buttons as shipped
MOVED = {"1": "b2", "2": "c2", "3": "d2", "4": "b3", "5": "c3", "6": "d3", "7": "b4", "8": "c4"}
MOVED["9"] = "d4"


def lamp_mask(names: list[str]) -> int:
    return sum(1 << (int(name[1]) - 1) * 4 + "abcd".index(name[0]) for name in names)


@pytest.fixture
def settings_file(tmp_path: Path) -> Iterator[Path]:
    """A settings file for the test to fill."""
    yield tmp_path / "config.toml"


def configured_box(
    path: Path, seed: int = 4
) -> tuple[KlackersSession, Exchange, Companion, FakeClock]:
    """The settings file read as serve reads it, the board built from it, then a game
    started as a table starts one: the box's options under the lobby's."""
    board, _, clock, _ = mock_board(load_config(path))
    session = game_module("klackers").new({**board.game_options("klackers"), "players": 2}, seed)
    assert isinstance(session, KlackersSession)
    companion = Companion(board)
    companion.game_changed(session)
    return session, board, companion, clock


def shown(board: Exchange) -> int:
    board.renderer.tick()
    return lit_lamps(board.pixels())


def test_a_layout_in_the_settings_lights_the_numbers_at_its_lamps(settings_file: Path) -> None:
    numbers = "\n".join(f'{n} = "{lamp}"' for n, lamp in MOVED.items())
    settings_file.write_text(f"[leds]\nglow = 0.0\n\n[klackers.layout.numbers]\n{numbers}\n")
    session, board, companion, clock = configured_box(settings_file)
    assert board.status()["warnings"] == []
    everything = lamp_mask(list(MOVED.values()))
    assert shown(board) == everything  # before the roll: all nine standing, dice row dark
    assert shown(board) & lamp_mask(["a2", "a3", "a4"]) == 0
    # a roll lights the total on the (shipped) dice row; a pull darkens its numbers' lamps
    seat = session.active_seats[0]
    companion.game_changed(session, session.apply(seat, {"type": "roll"}, 0.0))
    clock.advance(TRANSMIT_S)  # the dice rattle on their row, then show the total
    turn = session.view(None)["turn"]
    assert shown(board) & LAYOUT.dice_mask == LAYOUT.dice_lamps(turn["total"])
    pulled = turn["combinations"][0]  # seed 4 rolls a 4 first: something fits
    events = session.apply(seat, {"type": "pull", "numbers": pulled}, 0.0)
    companion.game_changed(session, events)
    clock.advance(HIGHLIGHT_S)
    assert session.active_seats == [seat]  # still their turn, so still their numbers
    down = lamp_mask([MOVED[str(n)] for n in pulled])
    assert shown(board) & everything == everything & ~down
    # the phones and the table screen draw the same layout
    assert session.view(None)["layout"]["numbers"] == MOVED
    replayed = game_module("klackers").replay(session.log_json())  # a saved game keeps it
    assert replayed.view(None)["layout"]["numbers"] == MOVED
    # and so do the effects and the attract programme
    options = board.game_options("klackers")
    assert shows.button_lamps("klackers", "a2b2", options) == lamp_mask(["b2"])
    assert shows.attract_programme("klackers", options)[0].frame.lit == everything


def test_a_layout_file_named_in_the_settings(settings_file: Path) -> None:
    shipped = (ROOT / "engine" / "data" / "klackers" / "layout.toml").read_text()
    swapped = shipped.replace('1 = "a2"', '1 = "TMP"').replace('9 = "c4"', '9 = "a2"')
    (settings_file.parent / "my-box.toml").write_text(swapped.replace('"TMP"', '"c4"'))
    settings_file.write_text('[klackers]\nlayout = "my-box.toml"\n')  # next to the settings
    session, board, _, _ = configured_box(settings_file)
    assert board.status()["warnings"] == []
    assert session.view(None)["layout"]["numbers"]["1"] == "c4"
    assert session.view(None)["layout"]["numbers"]["9"] == "a2"
    assert shown(board) == LAYOUT.number_lamps((1 << 9) - 1)  # the same nine lamps lit
    assert shows.button_lamps("klackers", "a2b2", board.game_options("klackers")) == lamp_mask(["c4"])


@pytest.mark.parametrize(
    ("layout", "named"),
    [
        ('[klackers.layout.numbers]\n3 = "z9"\n', ["[klackers.layout]", "numbers.3", "'z9'"]),
        ('[klackers.layout.numbers]\n3 = "a1"\n', ["numbers.3", "a1"]),  # a dice lamp
        (
            '[klackers.layout.buttons]\nb1b2 = "roll"\nc1c2 = "roll"\n',
            ["buttons.c1c2", "roll is already on b1b2"],
        ),
        ('[klackers]\nlayout = "missing.toml"\n', ["missing.toml", "cannot be read"]),
        ('[klackers]\nlayout = "broken.toml"\n', ["broken.toml", "not valid TOML"]),
    ],
)
def test_a_bad_layout_warns_and_keeps_the_shipped_one(
    settings_file: Path, layout: str, named: list[str]
) -> None:
    (settings_file.parent / "broken.toml").write_text("[numbers\n")
    settings_file.write_text(f"[buttons]\ndebounce_ms = 35\n\n{layout}")
    session, board, _, _ = configured_box(settings_file)
    (warning,) = board.status()["warnings"]
    for part in named:
        assert part in warning
    assert warning.endswith("Klackers uses the shipped layout")
    assert str(settings_file) in warning or str(settings_file.parent) in warning
    assert board.config.buttons.debounce_ms == 35  # the rest of the file still applies
    assert shown(board) == LAYOUT.number_lamps((1 << 9) - 1)  # the shipped lamps
    assert session.layout == LAYOUT and board.game_options("klackers") == {}


def test_a_klackers_game_started_at_the_table_takes_the_box_s_layout(settings_file: Path) -> None:
    numbers = "\n".join(f'{n} = "{lamp}"' for n, lamp in MOVED.items())
    settings_file.write_text(f"[leds]\nglow = 0.0\n\n[klackers.layout.numbers]\n{numbers}\n")
    board, _, _, _ = mock_board(load_config(settings_file))
    server = LiveServer(board=board)
    try:
        new_game = f"/api/rooms/{server.code}/game"
        game = {"game": "klackers", "options": {"players": 2}, "seed": 4}
        assert call(server.base, "POST", new_game, game, pin=server.pin)[0] == 201
        status, table = call(server.base, "GET", f"/api/rooms/{server.code}")
        assert status == 200 and table["view"]["layout"]["numbers"] == MOVED
        assert shown(board) == lamp_mask(list(MOVED.values()))
        # the lobby's own layout goes over the box's, and one that cannot be used is refused
        game["options"] = {"players": 2, "layout": {"numbers": {**MOVED, "9": "a1"}}}
        status, refusal = call(server.base, "POST", new_game, game, pin=server.pin)
        assert status == 400 and "numbers.9" in refusal["message"]
        # a game of another kind takes nothing of it
        game = {"game": "clockman", "options": {"players": 2}, "seed": 4}
        assert call(server.base, "POST", new_game, game, pin=server.pin)[0] == 201
    finally:
        server.close()
