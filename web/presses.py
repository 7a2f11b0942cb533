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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, LampFrame, Session
from firmware.companion import Companion, SessionButtons
from web.errors import ApiError
from web.table_state import Publish, TableState


@dataclass
class Notice:
    """A refusal worth showing on the table screen (a button press that did nothing)."""

    seq: int
    seat: str | None
    error: JSON


@dataclass(frozen=True)
class ChangePath:
    """The table's one change path, as a press takes it (callables the table gives).

    ``check_play()`` refuses play the table does not allow yet (a stand's table waiting
    for its players); ``save(events)`` commits the game as it now is; ``told(events)``
    tells every page of a saved change the board has shown; ``after_change(events)``
    is all three (saved, shown on the board, told) and answers the change."""

    check_play: Callable[[], None]
    save: Callable[[list[JSON]], None]
    told: Callable[[list[JSON]], None]
    after_change: Callable[[list[JSON]], JSON]


@dataclass(eq=False)
class Presses:
    """The tower buttons' presses on the table: ``publish`` tells every page of a refused
    press; ``seq()`` is the number of the pages' last change; ``shown()`` the lamps the
    table shows now (None: no game in play); ``bot_playing()`` the seat whose turn a bot
    plays now, if any; ``board_changed()`` says that a frame reached the board's LEDs."""

    table: TableState
    change: ChangePath
    publish: Publish
    seq: Callable[[], int]
    shown: Callable[[], LampFrame | None]
    bot_playing: Callable[[], str | None]
    board_changed: Callable[[], None]
    board: Any = field(default=None, init=False)  # an ExchangeBoard, when one is attached
    # keeps the board in step with the game
    companion: Companion | None = field(default=None, init=False)
    notice: Notice | None = field(default=None, init=False)

    def attach(self, board: Any) -> None:
        """Drive an ExchangeBoard from this table: show every frame, play its buttons in
        the game in progress (attract mode while no game is in play)."""
        table = self.table
        with table.lock:
            self.board = board
            board.on_frame(self._frame_written)
            self.companion = Companion(board)
            self.companion.set_press_handler(
                SessionButtons(
                    self.companion,
                    # the buttons are the current player's: in a bot's turn they wait
                    lambda: None if self.bot_playing() else table.session,
                    clock=table.clock,
                    lock=table.lock,
                    # a press's action is saved before the lamps or any page show it
                    kept=lambda session, events: self.change.save(events),
                    applied=lambda session, events: self.change.told(events),
                    refused=self._refused,
                )
            )
            self.show()

    # ----------------------------------------------------------------- the lamps

    def show(self) -> None:
        """Show on the board what the table shows now."""
        companion = self.companion
        if companion is None:
            return
        frame = self.shown()
        companion.idle(frame is None)  # no game in play: the convention attract mode
        if frame is not None:
            companion.show(frame)

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
            self.board_changed()

    # ----------------------------------------------------------------- the buttons

    def press(self, button: str) -> JSON:
        """A tower button pressed on the table screen: through the board when one is
        attached (its debounce, the same press handler as the physical button), else
        straight on. The buttons are the current player's, so in a bot's turn they wait."""
        if self.board is None:
            return self._press_without_board(button)
        table = self.table
        with table.lock:  # the press handler takes it again in this thread
            table.require_session()
            self._refuse_in_bot_turn()
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
            return {"revision": table.revision}

    def _press_without_board(self, button: str) -> JSON:
        table = self.table
        with table.lock:
            session = table.require_session()
            self._refuse_in_bot_turn()
            self.change.check_play()
            try:
                meaning = session.button_action(button, table.clock())
                if meaning is None:
                    return {"revision": table.revision, "events": []}
                seat, action = meaning
                events = session.apply(seat, action, table.clock())
            except IllegalAction as exc:
                self._refused(session, exc)
                raise ApiError.from_illegal(exc) from None
            except ValueError as exc:
                raise ApiError(404, "unknown_button", str(exc), button=button) from None
            return self.change.after_change(events)

    def _refuse_in_bot_turn(self) -> None:
        seat = self.bot_playing()
        if seat is not None:
            raise ApiError(
                409, "bot_turn", f"A bot is playing {seat}'s turn; wait for it", seat=seat
            )

    def _refused(self, session: Session, exc: IllegalAction) -> None:
        """A press the game refused (the board has flashed): the table screen says why."""
        self.notice = Notice(self.seq() + 1, None, _illegal_json(exc))
        self.publish([])

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
