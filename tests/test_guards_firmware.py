"""Guards! Guards! on the lit box: the buttons (gpiozero on mock pins) roll and mark
quadrants; the LEDs show the die as a bar, the Dragons' quadrants, and the show module's
flashes and attract programme."""

from __future__ import annotations

import pytest
from firmware_support import SessionBox
from guards_support import GUILD_CARDS, to_move, volunteer

from clacks.cli import main
from engine.games import game_module
from engine.guards.data import shipped_data
from engine.guards.lamps import BAR, DICE_ROWS, bar, block_lamps
from engine.guards.session import GuardsSession
from firmware import shows
from firmware.scene import HIGHLIGHT_S, TRANSMIT_S

BLOCKS = shipped_data().blocks


class Box(SessionBox[GuardsSession]):
    def __init__(self) -> None:
        session = game_module("guards").new({"players": 2}, 6)
        assert isinstance(session, GuardsSession)
        for i, seat in enumerate(session.guards.seats):
            session.apply(seat, {"type": "choose_guild", "card": GUILD_CARDS[i]}, 0)
            for deck in ("lords_ladies", "man_beast"):
                session.apply(seat, {"type": "dealt", "deck": deck, "values": volunteer(deck=deck)}, 0)
        super().__init__(session)

    def press(self, button: str) -> None:
        self.press_button(button)

    def shown(self) -> int:
        return self.lit()


def test_the_box_rolls_shows_the_die_and_marks_quadrants() -> None:
    box = Box()
    box.press("b2c2")  # roll for the first player
    assert box.applied[-1][0]["kind"] == "start_rolled"
    scene = box.board.renderer.scene
    assert scene.transmit is not None and scene.transmit[0] == DICE_ROWS
    box.clock.advance(TRANSMIT_S)
    face = box.session.view(None)["last_roll"]["faces"][0]
    assert box.shown() & DICE_ROWS == bar(face, BAR)
    # a quadrant button marks its block for the phone's next report; it blinks
    box.press("a2b2")
    quadrant = next(q for q, b in BLOCKS.items() if b == "sw")
    assert box.session.view(None)["marked"] == [quadrant]
    assert box.session.lamps().preview == block_lamps("sw")
    # end the turn from the box; undo has nothing to take back
    turn = to_move(box.session.guards)
    box.press("b1b2")
    assert to_move(box.session.guards) != turn
    box.press("c1c2")
    assert box.refused == ["nothing_to_undo"]


def test_the_guards_show_module() -> None:
    assert shows.effects("guards", [{"kind": "rolled", "faces": [6], "passed": True}]) == [("highlight", bar(6, BAR))]
    assert shows.effects("guards", [{"kind": "rolled", "faces": [6], "passed": False}]) == []
    dragon = {"kind": "dragon_summoned", "quadrant": "thieves"}
    assert shows.effects("guards", [dragon]) == [("highlight", block_lamps(BLOCKS["thieves"]))]
    assert shows.effects("guards", [{"kind": "dragon_summoned", "quadrant": "nowhere"}]) == []
    assert shows.button_lamps("guards", "c3d3") == block_lamps("ne")
    assert shows.button_lamps("guards", "b2c2") == DICE_ROWS
    assert shows.button_lamps("guards", "c2c3") == 0
    programme = shows.attract_programme("guards")
    lit = [step.frame.lit.bit_count() for step in programme]
    assert lit[1:5] == [4, 8, 12, 16] and lit[-1] == 0
    assert HIGHLIGHT_S > 0


def test_the_guards_attract_mode_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "attract", "--game", "guards", "--seconds", "0.2", "--terminal"]) == 0
    assert "Attract mode: Guards! Guards!" in capsys.readouterr().out
