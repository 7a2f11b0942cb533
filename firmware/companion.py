"""Keeps the exchange in step with the game in play, and gives its buttons a meaning.

The serve process owns the session, its lock and its saves; it tells the companion when
the game changed (after any action, from a phone, a button or the clock) and hands it a
press handler. ``SessionButtons`` is the standard handler: it asks the game what a press
means (``Session.button_action``), applies it, and flashes the lamps when refused.
Everything goes through the game-agnostic seam: the transmit animation plays on the lamps
the game names in ``Session.transmissions(events)``; other highlights (the tower a press
moved a pawn to) come from the game's show module (firmware/shows.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, LampFrame, Session
from firmware import shows
from firmware.board import ExchangeBoard

PressHandler = Callable[[str], None]
log = logging.getLogger(__name__)


class Companion:
    def __init__(self, board: ExchangeBoard, press_handler: PressHandler | None = None) -> None:
        self.board = board
        self._press_handler = press_handler
        board.on_press(self._pressed)

    def set_press_handler(self, handler: PressHandler | None) -> None:
        self._press_handler = handler

    def _pressed(self, button: str) -> None:
        handler = self._press_handler
        if handler is not None:
            handler(button)

    def game_changed(self, session: Session, events: Sequence[JSON] = ()) -> None:
        """Show the game's lamps, and animate what its events did (a transmit, a move)."""
        self.board.attract(False)
        self.board.show(session.lamps())
        for lamps in session.transmissions(list(events)):
            self.board.transmitted(lamps)
        options = self.board.game_options(session.game)
        for _, lamps in shows.effects(session.game, events, options):
            self.board.highlight(lamps)

    def show(self, frame: LampFrame) -> None:
        """Show a frame the serve process built (the game's lamps with a preview)."""
        self.board.show(frame)

    def preview(self, session: Session, seat: str, action: JSON | None) -> None:
        """Blink the lamps ``action`` would flip (None: stop previewing)."""
        frame = session.preview(seat, action) if action is not None else None
        self.board.show(frame or session.lamps())

    def refused(self) -> None:
        self.board.refused()

    def idle(self, enabled: bool) -> None:
        """No game in play: the attract programme, until the next game change."""
        self.board.attract(enabled)


class SessionButtons:
    """A press handler that plays the press in the current session.

    ``current()`` returns the session in play (or None); ``lock`` is the lock the serve
    process holds while it changes the session; ``clock`` gives table time; ``applied``
    is told of every applied press (to tell the phones), ``refused`` of every refused
    one, with the game's reason. ``kept`` is told of an applied press before anything
    shows it, lamps included (to save it); if it raises (the save failed, and the serve
    process has undone the press) the lamps flash a refusal and nothing else happens.
    """

    def __init__(
        self,
        companion: Companion,
        current: Callable[[], Session | None],
        *,
        clock: Callable[[], float] = time.time,
        lock: AbstractContextManager[object] | None = None,
        applied: Callable[[Session, list[JSON]], None] | None = None,
        refused: Callable[[Session, IllegalAction], None] | None = None,
        kept: Callable[[Session, list[JSON]], None] | None = None,
    ) -> None:
        self.companion = companion
        self.current = current
        self.clock = clock
        self.lock: AbstractContextManager[object] = lock if lock is not None else nullcontext()
        self.applied = applied
        self.kept = kept
        self.on_refused = refused

    def __call__(self, button: str) -> None:
        with self.lock:
            session = self.current()
            if session is None:
                return
            now = self.clock()
            try:
                meaning = session.button_action(button, now)
                if meaning is None:
                    return
                seat, action = meaning
                events = session.apply(seat, action, now)
            except IllegalAction as exc:
                log.info("press of %s refused: %s", button, exc)
                self.companion.refused()
                if self.on_refused:
                    self.on_refused(session, exc)
                return
            except ValueError as exc:
                # a button name the game does not know (the settings file may name pins
                # freely): nothing to play, but the player sees the press was not taken
                log.warning("press of %s means nothing in %s: %s", button, session.game, exc)
                self.companion.refused()
                return
            if self.kept:
                try:
                    self.kept(session, events)
                except Exception:
                    log.exception("press of %s could not be kept", button)
                    self.companion.refused()
                    return
            self.companion.game_changed(session, events)
            if self.applied:
                self.applied(session, events)
