"""The companion drives an ExchangeBoard: every frame (with previews), the transmit
animation, refusals, and button presses coming back from the board.

The board here records what it is asked to do and turns ``press`` into the registered
callback, as the firmware's simulator does; it stands in for LED and GPIO hardware
only, at the ExchangeBoard interface.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from live_server import LiveServer
from web_client import call

from engine.clacks.geometry import tower
from engine.clacks.selfplay import choose_turn_action
from engine.core.interface import LampFrame
from engine.core.rng import Rng


class RecordingBoard:
    def __init__(self) -> None:
        self.frames: list[LampFrame] = []
        self.transmissions: list[int] = []
        self.refusals = 0
        self.started = False
        self.callback: Callable[[str], None] | None = None

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def show(self, frame: LampFrame) -> None:
        self.frames.append(frame)

    def transmitted(self, lamps: int) -> None:
        self.transmissions.append(lamps)

    def refused(self) -> None:
        self.refusals += 1

    def attract(self, enabled: bool) -> None:
        pass

    def on_press(self, callback: Callable[[str], None]) -> None:
        self.callback = callback

    def press(self, button: str) -> None:
        assert self.callback is not None
        self.callback(button)

    def pixels(self) -> list[tuple[int, int, int]]:
        return []

    def status(self) -> dict[str, Any]:
        return {"drivers": ["recording"]}


def test_the_board_shows_every_change_and_its_buttons_play() -> None:
    board = RecordingBoard()
    server = LiveServer(board=board)
    try:
        room = server.room
        status, _ = call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/game",
            {"options": {"players": 2}, "seed": 10},
        )
        assert status == 201
        session = room.session
        assert session is not None
        assert board.frames[-1] == session.lamps()
        status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")
        assert snapshot["room"]["hardware"] == {"drivers": ["recording"]}

        # a press on the table screen goes through the board, like a physical press
        status, _ = call(server.base, "POST", f"/api/rooms/{server.code}/buttons/b2c2")
        assert status == 200 and session.view(None)["players"][0]["pawn"] == "b2c2"
        refusals = board.refusals
        status, body = call(server.base, "POST", f"/api/rooms/{server.code}/buttons/b2b3")
        assert status == 422 and body["rule"] == "wrong_colour"
        assert board.refusals == refusals + 1
        assert call(server.base, "POST", f"/api/rooms/{server.code}/buttons/zz")[0] == 404
        assert room.notice is not None and room.notice.error["rule"] == "wrong_colour"

        # a preview blinks on the board, and goes when the card is played
        token = room.claim("south", "Ann", None)["token"]
        play = next(
            a for a in session.legal_actions("south", time.time()) if a["type"] == "play_jacquard"
        )
        room.show_preview("south", token, play)
        assert board.frames[-1].preview and board.frames[-1].lit == session.lamps().lit
        room.act("south", token, play)
        assert board.frames[-1] == session.lamps()

        # play on until someone transmits: the board animates the tower it came from
        north = room.claim("north", "Bob", None)["token"]
        tokens = {"south": token, "north": north}
        rng = Rng(3)
        clacks = session.clacks  # type: ignore[attr-defined]
        while not board.transmissions and not session.over:
            seat = session.active_seats[0]
            room.act(seat, tokens[seat], choose_turn_action(clacks, rng).to_json())
        sent = [e for _, e in room.log if e["kind"] == "transmitted"]
        assert board.transmissions == [tower(sent[0]["tower"]).mask]
    finally:
        server.close()
