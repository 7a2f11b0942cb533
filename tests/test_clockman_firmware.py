"""Clockman on the lit box: the buttons (gpiozero on mock pins) are quick reports, the
LEDs show the die bar and the active player's date key, a refused press flashes the box
and says why, and the show module picks out a digit's places in the key."""

from __future__ import annotations

import pytest
from firmware_support import SessionBox

from clacks.cli import main
from engine.clockman.data import load_data
from engine.clockman.lamps import mask
from engine.clockman.session import ClockmanSession
from engine.core.box import lamp_index
from engine.games import game_module
from firmware import shows
from firmware.scene import BLINK_S, HIGHLIGHT_S, TRANSMIT_S

DATA = load_data()
DIE = mask(DATA.die_lamps)
KEY = mask(DATA.date_lamps)


class Box(SessionBox[ClockmanSession]):
    """A Clockman session on a mock-pin exchange, its buttons wired as serve wires them."""

    def __init__(self, seed: int, **options: object) -> None:
        session = game_module("clockman").new({"players": 2, **options}, seed)
        assert isinstance(session, ClockmanSession)
        super().__init__(session, DATA)


def test_a_turn_reported_on_the_box_buttons() -> None:
    box = Box(seed=3, transfer=True)
    game = box.session.clockman
    starter = game.current_seat
    die = game.state.turn.die  # type: ignore[union-attr]
    # the starter entered circle 1 with the start roll: the die bar shows it, the key is dark
    assert box.lit() == mask(DATA.die_lamps[:die])
    # circle 1 has no digit but a joker: the digit button is refused, and the box flashes
    box.press("digit")
    assert box.refused == ["clockman_wrong_circle"]
    assert box.board.renderer.scene.refused_since is not None
    box.clock.advance(1.0)
    box.press("symbol")
    assert box.applied[-1][0]["kind"] == "symbol_drawn"
    box.press("end_turn")
    other = game.current_seat
    assert other is not None and other != starter
    box.press("roll")
    assert box.applied[-1][0]["kind"] == "rolled"
    assert box.board.renderer.scene.transmit is not None
    assert box.board.renderer.scene.transmit[0] == DIE
    box.clock.advance(TRANSMIT_S)
    rolled = game.state.turn.die  # type: ignore[union-attr]
    assert box.lit() & DIE == mask(DATA.die_lamps[:rolled])
    # on circle 2 the digit button takes a 0, set aside (transfer rule): its lamp blinks
    game.state.players[other].ring = 2
    box.press("digit")
    assert box.applied[-1][0] == {
        "kind": "digit_taken",
        "seat": other,
        "digit": "0",
        "pending": True,
    }
    assert box.board.renderer.scene.highlight is not None
    assert box.board.renderer.scene.highlight[0] == shows.effects("clockman", box.applied[-1])[0][1]
    box.clock.advance(HIGHLIGHT_S)
    first_zero = 1 << lamp_index("a3")
    phases = {box.lit() & first_zero}
    box.clock.advance(BLINK_S / 2)
    phases.add(box.lit() & first_zero)
    assert phases == {0, first_zero}
    box.press("undo")
    assert box.applied[-1][0]["kind"] == "undone"
    assert box.lit() & KEY == 0
    box.press("plain")
    box.press("end_turn")
    # before the roll the die bar glows in the accent colour, not lit
    assert box.lit() & DIE == 0
    assert box.session.lamps().accent & DIE == DIE


def test_the_clockman_show_module() -> None:
    zeros = mask([lamp_index(n) for n in ("a3", "c3", "b4", "c4", "d4")])
    assert shows.effects("clockman", [{"kind": "digit_taken", "digit": "0"}]) == [
        ("highlight", zeros)
    ]
    assert shows.effects("clockman", [{"kind": "digit_taken", "digit": "X"}]) == [
        ("highlight", KEY)
    ]
    assert shows.effects("clockman", [{"kind": "rolled", "die": 3}]) == []  # transmissions
    assert shows.effects("clockman", [{"kind": "reached_centre"}]) == [("highlight", (1 << 16) - 1)]
    assert shows.button_lamps("clockman", "b2c2") == DIE
    assert shows.button_lamps("clockman", "a3b3") == KEY
    assert shows.button_lamps("clockman", "b3b4") == 0
    programme = shows.attract_programme("clockman")
    assert [s.frame.lit.bit_count() for s in programme[:6]] == [1, 2, 3, 4, 5, 6]
    assert programme[-1].frame.accent == KEY


def test_the_clockman_attract_mode_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["hardware", "attract", "--game", "clockman", "--seconds", "0.3", "--terminal"]) == 0
    )
    assert "Attract mode: Clockman" in capsys.readouterr().out
