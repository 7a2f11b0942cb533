"""Every table this companion serves, and the table clock that runs timed turns.

The engine never reads a clock; the companion does. One thread sleeps until the earliest
deadline any room's game asks for (``Session.deadline``) and then lets that room apply
what its game's clock demands (``Session.clock_action``). Every change to a room wakes
it, so a new deadline is honoured at once.

With a store, the hub starts with the tables it had (codes, PINs, seats and the game on
each, replayed to exactly where it was left); the first table is the main one, whose
address and PIN ``clacks serve`` prints. When the hub starts, each table's bots start
playing (web/bots.py), those of restored tables too, where they left off.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable

from web.bots import PAUSE_SECONDS, THINK_SECONDS
from web.errors import ApiError
from web.room import Room
from web.security import PinGuard, new_pin
from web.store import Store

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: read aloud and typed on phones
CODE_LENGTH = 4
MAX_ROOMS = 16
CLOCK_LOOK_SECONDS = 600.0


def new_code(taken: set[str] | dict[str, Room]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


class Hub:
    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        language: str = "en",
        store: Store | None = None,
        bot_pause: float = PAUSE_SECONDS,
        bot_think: float = THINK_SECONDS,
    ) -> None:
        """``store`` keeps the tables and their games (None: in memory, for this run);
        ``bot_pause`` is how long bots wait after each change of a game before they act,
        ``bot_think`` the most a bot may think over one action."""
        self.clock = clock
        self.bot_pause = bot_pause
        self.bot_think = bot_think
        self.language = language
        self.store = store or Store(None, clock)
        self.pins = PinGuard()
        self.saves_lock = threading.Lock()  # taken before any room's lock, never after
        self.rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        for saved in self.store.rooms():
            room = Room.restored(saved, self.store, self.clock, self._room_changed)
            self.rooms[room.code] = room
            room.table_clock.resume()
        mains = [r for r in self.store.rooms() if r.main]
        self.main = self.rooms[mains[0].code] if mains else self.create_room(main=True)

    @property
    def problems(self) -> list[str]:
        """What was wrong with the saves when they were opened, in words."""
        return list(self.store.problems)

    def create_room(self, code: str | None = None, main: bool = False) -> Room:
        with self._lock:
            if len(self.rooms) >= MAX_ROOMS:
                raise ApiError(
                    429, "too_many_tables", f"This companion serves at most {MAX_ROOMS} tables"
                )
            code = code or new_code(self.rooms)
            pin = new_pin()
            self.store.add_room(code, pin, self.language, main)
            room = Room(code, self.clock, self.language, self._room_changed, self.store, pin)
            self.rooms[code] = room
            if self._thread is not None:
                room.bot_turns.driver.start(self.bot_pause, self.bot_think)
            return room

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise ApiError(
                404, "unknown_room", f"There is no table with the code {code!r}", code=code
            )
        return room

    # ----------------------------------------------------------------- the table clock

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run_clock, name="table-clock", daemon=True)
            self._thread.start()
            for room in list(self.rooms.values()):
                room.bot_turns.driver.start(self.bot_pause, self.bot_think)

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        for room in list(self.rooms.values()):
            room.close()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.store.close()

    def _room_changed(self, room: Room) -> None:
        self._wake.set()

    def _run_clock(self) -> None:
        while not self._stopping:
            # Cleared before reading the deadlines: a change after this wakes the wait.
            self._wake.clear()
            now = self.clock()
            wait: float | None = None
            for room in list(self.rooms.values()):
                deadline = room.table_clock.deadline()
                if deadline is None:
                    continue
                if deadline <= now:
                    # a game that declines to act at its own deadline is asked again soon
                    wait = 0.0 if room.table_clock.tick() else min(wait if wait is not None else 1.0, 1.0)
                elif wait is None or deadline - now < wait:
                    wait = deadline - now
            if wait != 0.0:
                # looked at again at least this often, so no deadline is ever too far to wait for
                self._wake.wait(min(wait, CLOCK_LOOK_SECONDS) if wait is not None else None)
