"""The table's own clock: the actions a game asks for because of time (a timed turn
running out, a saved game taken up again after the companion was down).

The engine never reads a clock; the hub's clock thread asks each table for its game's
``deadline`` and calls ``tick`` when it has passed. Both actions are the table's own
(no seat), applied through the table's change path like any other.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, Session

if TYPE_CHECKING:
    from web.room import Room

log = logging.getLogger("clacks.web")


class TableClock:
    def __init__(self, room: Room) -> None:
        self.room = room

    def deadline(self) -> float | None:
        room = self.room
        with room.lock:
            return room.session.deadline() if room.session is not None else None

    def tick(self) -> bool:
        """Apply what the game's clock demands now; True if something happened."""
        return self._table_action(lambda session, now: session.clock_action(now))

    def resume(self) -> bool:
        """Take up a saved game after the companion was down or the game put away: apply
        what the game asks for then (a timed turn's clock stands still meanwhile); True
        if something happened."""
        return self._table_action(lambda session, now: session.resume_action(now))

    def _table_action(self, wanted: Callable[[Session, float], JSON | None]) -> bool:
        room = self.room
        with room.lock:
            session = room.session
            if session is None:
                return False
            now = room.clock()
            action = wanted(session, now)
            if action is None:
                return False
            try:
                events = session.apply(None, action, now)
            except IllegalAction as exc:
                log.debug("table %s: the game refused its own clock: %s", room.code, exc)
                return False
            room.after_change(events)
            return True
