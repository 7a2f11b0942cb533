"""Klackers on the lit box: the buttons (gpiozero on mock pins) roll, mark and pull; the
LEDs show the player's numbers, blink the marked ones and rattle the dice row."""

from __future__ import annotations

import threading

import pytest
from firmware_support import FakeClock, mock_board
from gpiozero.pins.mock import MockFactory

from clacks.cli import main
from engine.core.interface import JSON, game_module
from engine.klackers.layout import default_layout
from engine.klackers.session import KlackersSession
from firmware import shows
from firmware.companion import Companion, SessionButtons
from firmware.config import DEFAULT_BUTTON_PINS
from firmware.exchange import Exchange
from firmware.scene import BLINK_S, HIGHLIGHT_S, TRANSMIT_S

AMBER = (153, 54, 3)
LAYOUT = default_layout()


def lit_lamps(pixels: list[tuple[int, int, int]]) -> int:
    return sum(1 << i for i, p in enumerate(pixels) if p == AMBER)


class Box:
    """A Klackers session on a mock-pin exchange, its buttons wired as serve wires them."""

    def __init__(self, seed: int) -> None:
        session = game_module("klackers").new({"players": 2}, seed)
        assert isinstance(session, KlackersSession)
        self.session = session
        self.board: Exchange
        self.clock: FakeClock
        self.factory: MockFactory
        self.board, _, self.clock, self.factory = mock_board()
        self.companion = Companion(self.board)
        self.applied: list[list[JSON]] = []
        self.refused: list[str] = []
        self.companion.set_press_handler(
            SessionButtons(
                self.companion,
                lambda: self.session,
                lock=threading.RLock(),
                clock=lambda: 0.0,
                applied=lambda s, events: self.applied.append(events),
                refused=lambda s, exc: self.refused.append(exc.rule),
            )
        )
        self.companion.game_changed(session)

    def press(self, meaning: str) -> None:
        button = LAYOUT.button_for(meaning)
        assert button is not None
        pin = self.factory.pin(DEFAULT_BUTTON_PINS[button])
        pin.drive_low()
        self.clock.advance(0.05)
        pin.drive_high()
        self.clock.advance(0.05)

    def pixels(self) -> list[tuple[int, int, int]]:
        self.board.renderer.tick()
        return self.board.pixels()


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
    assert shows.effects("klackers", [{"kind": "rolled", "dice": [2, 3]}]) == [
        ("transmit", LAYOUT.dice_mask)
    ]
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
