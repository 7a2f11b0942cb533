"""The exchange board at a table: its lamps follow what the table shows, and its tower
buttons (or the table screen's drawn ones) play in the game in progress.

An attached ExchangeBoard (the LEDs and tower buttons, or their simulator) is driven
through the firmware's ``Companion``: every change is shown on it, and its presses are
played by ``SessionButtons`` under the table's lock, through the table's change path.
A press the game refuses flashes the lamps and leaves a ``Notice`` for the table
screen, saying why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, Session
from firmware.companion import Companion, SessionButtons
from web.errors import ApiError
from web.table_parts import Table


@dataclass
class Notice:
    """A refusal worth showing on the table screen (a button press that did nothing)."""

    seq: int
    seat: str | None
    error: JSON


class Presses:
    def __init__(self, room: Table) -> None:
        self.room = room
        self.board: Any = None  # an ExchangeBoard, when one is attached
        self.companion: Companion | None = None  # keeps the board in step with the game
        self.notice: Notice | None = None

    def attach(self, board: Any) -> None:
        """Drive an ExchangeBoard from this table: show every frame, play its buttons in
        the game in progress (attract mode while no game is in play)."""
        room = self.room
        with room.lock:
            self.board = board
            board.on_frame(self._frame_written)
            self.companion = Companion(board)
            self.companion.set_press_handler(
                SessionButtons(
                    self.companion,
                    # the buttons are the current player's: in a bot's turn they wait
                    lambda: None if room.bot_turns.playing() else room.session,
                    clock=room.clock,
                    lock=room.lock,
                    kept=lambda session, events: self._keep(events),
                    applied=lambda session, events: room.changed(events),
                    refused=self._refused,
                )
            )
            self.show()

    def _keep(self, events: list[JSON]) -> None:
        """A press's action is saved before the lamps or any page show it."""
        self.room.save_change(events, None)

    # ----------------------------------------------------------------- the lamps

    def show(self) -> None:
        """Show on the board what the table shows now."""
        companion = self.companion
        if companion is None:
            return
        room = self.room
        replay = room.replay.viewer
        if replay is not None:  # the replay viewer: the step shown, on the lamps too
            companion.idle(False)
            companion.show(replay.lamps())
            return
        session = room.session
        if session is None or session.over:
            companion.idle(True)  # no game in play: the convention attract mode
            return
        companion.idle(False)
        companion.show(room.previews.board_frame(session.lamps()))

    def game_changed(self, session: Session, events: list[JSON]) -> None:
        if self.companion is not None:
            self.companion.game_changed(session, events)

    def refused(self) -> None:
        if self.companion is not None:
            self.companion.refused()  # the lamps flash, as for a refused press

    def board_json(self) -> JSON:
        """The board's lamps as its LEDs show them now (animations included), for the
        table screen's picture of a simulated board."""
        if self.board is None:
            raise ApiError(404, "no_board", "No exchange board is attached to this table")
        return {
            "pixels": [list(p) for p in self.board.pixels()],
            "screen": [list(p) for p in self.board.screen_pixels()],
            "leds": (self.board.status().get("leds") or {}).get("backend"),
        }

    def status(self) -> JSON | None:
        return self.board.status() if self.board is not None else None

    def game_options(self, game: str) -> JSON:
        """The options the attached board's settings give a new game of ``game`` (none
        without a board)."""
        options: JSON = self.board.game_options(game) if self.board is not None else {}
        return options

    def simulated(self) -> bool:
        """Whether the board's LEDs are drawn on a screen only (no LED driver runs, or
        the one that ran failed): then the table screen draws them."""
        status = self.status()
        leds = status.get("leds") if status is not None else None
        return isinstance(leds, dict) and leds.get("backend") == "simulator"

    def _frame_written(self) -> None:
        """A frame reached the LEDs (from the renderer's thread): a simulated board's
        picture follows it on the table screens."""
        if self.simulated():
            self.room.fanout.board_changed()

    # ----------------------------------------------------------------- the buttons

    def press(self, button: str) -> JSON:
        """A tower button pressed on the table screen: through the board when one is
        attached (its debounce, the same press handler as the physical button), else
        straight on. The buttons are the current player's, so in a bot's turn they wait."""
        if self.board is None:
            return self._press_without_board(button)
        room = self.room
        with room.lock:  # the press handler takes it again in this thread
            room.require_session()
            room.bot_turns.refuse_in_bot_turn()
            notice_before = self.notice
            try:
                self.board.press(button)
            except ValueError as exc:  # not one of the board's buttons
                raise ApiError(404, "unknown_button", str(exc), button=button) from None
            if self.notice is not None and self.notice is not notice_before:
                error = self.notice.error
                refusal = ApiError(422, error["rule"], error["message"], **error["params"])
                refusal.rule = error["rule"]
                raise refusal
            return {"revision": room.revision}

    def _press_without_board(self, button: str) -> JSON:
        room = self.room
        with room.lock:
            session = room.require_session()
            room.bot_turns.refuse_in_bot_turn()
            room.check_play()
            try:
                meaning = session.button_action(button, room.clock())
                if meaning is None:
                    return {"revision": room.revision, "events": []}
                seat, action = meaning
                events = session.apply(seat, action, room.clock())
            except IllegalAction as exc:
                self._refused(session, exc)
                raise ApiError.from_illegal(exc) from None
            except ValueError as exc:
                raise ApiError(404, "unknown_button", str(exc), button=button) from None
            return room.after_change(events)

    def _refused(self, session: Session, exc: IllegalAction) -> None:
        """A press the game refused (the board has flashed): the table screen says why."""
        room = self.room
        self.notice = Notice(room.seq + 1, None, _illegal_json(exc))
        room.publish([])

    def notice_json(self, since: int | None) -> JSON | None:
        notice = self.notice
        if notice is None or (since is not None and notice.seq <= since):
            return None
        return {"seat": notice.seat, "error": notice.error}


def _illegal_json(exc: IllegalAction) -> JSON:
    return {"rule": exc.rule, "message": exc.message, "params": _jsonable(exc.params)}


def _jsonable(params: dict[str, object]) -> JSON:
    plain: JSON = json.loads(json.dumps(params, default=str))
    return plain
