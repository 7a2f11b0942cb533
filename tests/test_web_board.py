"""The companion drives an ExchangeBoard: every frame (with previews), the transmit
animation, refusals, and button presses coming back from the board.

The board here records what it is asked to do and turns ``press`` into the registered
callback, as the firmware's simulator does; it stands in for LED and GPIO hardware
only, at the ExchangeBoard interface.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from live_server import LiveServer, companion
from web_client import ask_for_game, call

from engine.clacks.geometry import tower
from engine.clacks.selfplay import choose_turn_action
from engine.core.interface import JSON, LampFrame, Session
from engine.core.rng import Rng


class RecordingBoard:
    def __init__(self) -> None:
        self.frames: list[LampFrame] = []
        self.transmissions: list[int] = []
        self.highlights: list[int] = []
        self.attracting: list[bool] = []
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

    def highlight(self, lamps: int) -> None:
        self.highlights.append(lamps)

    def refused(self) -> None:
        self.refusals += 1

    def attract(self, enabled: bool) -> None:
        self.attracting.append(enabled)

    def on_press(self, callback: Callable[[str], None]) -> None:
        self.callback = callback

    def press(self, button: str) -> None:
        if len(button) != 4:
            raise ValueError(f"unknown button {button!r}")
        assert self.callback is not None
        self.callback(button)

    def on_frame(self, callback: Callable[[], None]) -> None:
        pass  # nothing is drawn, so no frame is ever written

    def pixels(self) -> list[tuple[int, int, int]]:
        return [(0, 0, 0)] * 16

    def screen_pixels(self) -> list[tuple[int, int, int]]:
        return [(0, 0, 0)] * 16

    def game_options(self, game: str) -> dict[str, Any]:
        return {}

    def status(self) -> dict[str, Any]:
        return {"drivers": ["recording"]}


@contextmanager
def game_on_the_box(
    game: str, options: JSON, seed: int
) -> Iterator[tuple[RecordingBoard, LiveServer, Session]]:
    """A companion with a recording exchange board, ``game`` started on it and its lamps
    shown on the board."""
    board = RecordingBoard()
    with companion(board=board) as server:
        server.room.new_game(game, options, seed=seed)
        session = server.room.require_session()
        assert board.frames[-1] == session.lamps()
        yield board, server, session


def test_the_board_shows_every_change_and_its_buttons_play() -> None:
    board = RecordingBoard()
    with companion(board=board) as server:
        room = server.room
        assert board.attracting == [True]  # no game yet: the attract programme
        status, _ = ask_for_game(server, {"options": {"players": 2}, "seed": 12})
        assert status == 201
        session = room.session
        assert session is not None
        assert board.frames[-1] == session.lamps() and board.attracting[-1] is False
        status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")
        assert snapshot["room"]["hardware"] == {"drivers": ["recording"]}

        # a press on the table screen goes through the board, like a physical press
        press = f"/api/rooms/{server.code}/buttons"
        status, _ = call(server.base, "POST", f"{press}/b2c2", pin=server.pin)
        assert status == 200 and session.view(None)["players"][0]["pawn"] == "b2c2"
        assert board.highlights == [tower("b2c2").mask]  # the tower the pawn arrived at
        refusals = board.refusals
        status, body = call(server.base, "POST", f"{press}/b2b3", pin=server.pin)
        assert status == 422 and body["rule"] == "wrong_colour"
        assert board.refusals == refusals + 1
        assert call(server.base, "POST", f"{press}/zz", pin=server.pin)[0] == 404
        # a name the board has but the game does not know: refused, nothing breaks
        refusals = board.refusals
        board.press("e5e6")
        assert board.refusals == refusals + 1 and room.revision == 2
        assert room.presses.notice is not None and room.presses.notice.error["rule"] == "wrong_colour"

        # a preview blinks on the board, and goes when the card is played
        token = room.seats.claim("south", "Ann", None)["token"]
        play = next(
            a for a in session.legal_actions("south", time.time()) if a["type"] == "play_jacquard"
        )
        room.previews.show("south", token, play)
        assert board.frames[-1].preview and board.frames[-1].lit == session.lamps().lit
        # a phone's refused action flashes the lamps too, over HTTP like the phone sends it
        refusals = board.refusals
        status, body = call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/seats/south/actions",
            {"action": {"type": "move", "tower": "b2b3"}},
            token=token,
        )
        assert status == 422 and body["rule"] == "wrong_colour"
        assert board.refusals == refusals + 1
        room.act("south", token, play)
        assert board.frames[-1] == session.lamps()

        # play on until someone transmits: the board animates the tower it came from
        north = room.seats.claim("north", "Bob", None)["token"]
        tokens = {"south": token, "north": north}
        rng = Rng(3)
        clacks = session.clacks  # type: ignore[attr-defined]
        while not board.transmissions and not session.over:
            seat = session.active_seats[0]
            room.act(seat, tokens[seat], choose_turn_action(clacks, rng).to_json())
        assert room.game_log is not None
        told = [e for step in room.game_log.steps for e in step.events]
        sent = [e for e in told if e["kind"] == "transmitted"]
        assert board.transmissions == [tower(sent[0]["tower"]).mask]  # animated once

        # a press from the board itself (its GPIO thread) plays for the current player
        seat = session.active_seats[0]
        before = room.revision
        move = next(
            (a for a in session.legal_actions(seat, time.time()) if a["type"] == "move"), None
        )
        if move is not None:
            board.press(move["tower"])
            assert room.revision == before + 1
        while not session.over:
            seat = session.active_seats[0]
            room.act(seat, tokens[seat], choose_turn_action(clacks, rng).to_json())
        assert board.attracting[-1] is True  # the game is over: attract mode again


def test_a_simulated_exchange_shows_its_leds_and_presses_through_its_debounce() -> None:
    from firmware.config import BoardConfig
    from firmware.factory import create_board
    from firmware.sinks import RecordingSink

    board = create_board(BoardConfig(), model=None, sink=RecordingSink())
    server = LiveServer(board=board)
    board.start()
    try:
        code = server.code
        status, body = call(server.base, "GET", f"/api/rooms/{code}/board")
        assert status == 200 and len(body["pixels"]) == len(body["screen"]) == 16
        ask_for_game(server, {"options": {"players": 2}})
        session = server.room.session
        assert session is not None
        lit = session.lamps().lit
        deadline = time.time() + 5
        while time.time() < deadline:
            body = call(server.base, "GET", f"/api/rooms/{code}/board")[1]
            shown = {i for i, p in enumerate(body["pixels"]) if sum(p) > 0}
            if shown == {i for i in range(16) if lit >> i & 1}:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"the LEDs never showed the board: {body}")
        # two clicks on the same on-screen button within the debounce time: one press
        board.debouncer.clock = lambda: 1000.0  # the debounce's own clock: no time passes
        first = call(server.base, "POST", f"/api/rooms/{code}/buttons/b2c2", pin=server.pin)
        second = call(server.base, "POST", f"/api/rooms/{code}/buttons/b2c2", pin=server.pin)
        assert first == (200, {"revision": 2}) and second == (200, {"revision": 2})
        # a name no button has is refused before it reaches the game
        status, body = call(server.base, "POST", f"/api/rooms/{code}/buttons/e5e6", pin=server.pin)
        assert status == 404 and body["error"] == "unknown_button"
    finally:
        server.close()
        board.stop()


def test_a_table_without_a_board_has_no_led_picture(server: LiveServer) -> None:
    status, body = call(server.base, "GET", f"/api/rooms/{server.code}/board")
    assert status == 404 and body["error"] == "no_board"
