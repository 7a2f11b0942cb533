"""The table's own clock: the actions a game asks for because of time (a timed turn
running out, a saved game taken up again after the companion was down).

The engine never reads a clock; the hub's clock thread asks each table for its game's
``deadline`` and calls ``tick`` when it has passed. Both actions are the table's own
(no seat), applied through the table's change path like any other.

A timed game's clock stands still while a seat is empty (nobody holds it and no bot
plays it): nobody loses a turn's time before everyone is seated. Once the last seat is
taken the game is taken up as after a pause (``Session.resume_action``), so the turn
has the time it had left at the last acknowledged action.

When the saves refuse such an action it did not happen (web/saving.py): the clock tries
it again every ``RETRY_SECONDS`` until the disk takes it, a taking-up owed before the
turn's own deadline, so a timed turn never runs out for time the table was not playing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, Session
from web.errors import ApiError
from web.saving import RETRY_SECONDS
from web.table_state import TableState

log = logging.getLogger("clacks.web")


class TableClock:
    def __init__(
        self,
        table: TableState,
        all_held: Callable[[Session], bool],
        after_change: Callable[[list[JSON]], JSON],
    ) -> None:
        """``all_held(session)``: whether a person or a bot holds every seat of the
        game; ``after_change(events)`` is the table's change path (saved, then told)."""
        self.table = table
        self.all_held = all_held
        self.after_change = after_change
        self.retry_at: float | None = None  # after a save refused: not before then
        self.resume_owed = False  # a taking-up the saves refused, to be tried again
        self.seats_awaited = False  # the clock stood still for an empty seat

    def stands_still(self) -> bool:
        """Whether the game's clock waits for a seat to be taken (and notes that it
        did, so that the game is taken up once every seat is)."""
        table = self.table
        with table.lock:
            session = table.session
            if session is None or session.deadline() is None:
                return False
            if not self.all_held(session):
                self.seats_awaited = True
            return self.seats_awaited

    def running(self) -> bool:
        """Whether the turn's time runs now: not while it waits for a seat, nor before a
        game the table took up again has been told how long it stood still."""
        return not (self.stands_still() or self.resume_owed)

    def deadline(self) -> float | None:
        table = self.table
        with table.lock:
            if table.session is None:
                return None
            if self.stands_still():
                if not self.all_held(table.session):
                    return None
                # every seat is taken now: the game is taken up at once
                self.seats_awaited = False
                self.resume_owed = True
                self.retry_at = table.clock()
            due = self.retry_at if self.resume_owed else table.session.deadline()
            if due is not None and self.retry_at is not None:
                due = max(due, self.retry_at)
            return due

    def tick(self) -> bool:
        """Apply what the game's clock demands now; True if something happened."""
        if self.resume_owed:
            return self.resume()
        return self._table_action(lambda session, now: session.clock_action(now))

    def resume(self) -> bool:
        """Take up a saved game after the companion was down or the game put away: apply
        what the game asks for then (a timed turn's clock stands still meanwhile); True
        if something happened."""
        with self.table.lock:
            self.resume_owed = True
            done = self._table_action(lambda session, now: session.resume_action(now))
            if self.retry_at is None:
                self.resume_owed = False
            return done

    def _table_action(self, wanted: Callable[[Session, float], JSON | None]) -> bool:
        table = self.table
        with table.lock:
            session = table.session
            self.retry_at = None
            if session is None:
                return False
            now = table.clock()
            action = wanted(session, now)
            if action is None:
                return False
            try:
                events = session.apply(None, action, now)
            except IllegalAction as exc:
                log.debug("table %s: the game refused its own clock: %s", table.code, exc)
                return False
            try:
                self.after_change(events)
            except ApiError as exc:
                if exc.code != "not_saved":
                    raise
                # not saved, so not done: the same is asked of the game again shortly
                self.retry_at = now + RETRY_SECONDS
                return False
            return True
