"""Every table this companion serves, and the table clock that runs timed turns.

The engine never reads a clock; the companion does. One thread sleeps until the earliest
deadline any room's game asks for (``Session.deadline``) and then lets that room apply
what its game's clock demands (``Session.clock_action``). Every change to a room wakes
it, so a new deadline is honoured at once.

With a store, the hub starts with the tables it had (codes, PINs, seats and the game on
each, replayed to exactly where it was left); the first table is the main one, whose
address and PIN ``clacks serve`` prints. A table that cannot be put back is closed (its
game stays saved; the main table is only left out for this run) with a warning
(``problems``), and the others start. When the hub starts, each table's
bots start playing (web/bots.py), those of restored tables too, where they left off.

Besides the main table the hub serves up to ``MAX_ROOMS`` tables in all. A table other
than the main one can be closed (its game stays with the saved games), and one that no
page has shown and nobody has played at for ``table_idle`` seconds is closed by the
clock thread, so the places of tables left behind come free again.

Nothing that fails at one table stops the clock thread: a failed save is tried again
(web/table_clock.py), anything else is logged and the table looked at again shortly.
While any table's saves fail (a full disk, from the start too), the clock thread tries
a small write every few seconds, so the tables stop saying so as soon as there is room.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable

from web.bots import PAUSE_SECONDS, THINK_SECONDS
from web.errors import ApiError, saved_or_refused
from web.room import Room
from web.saving import RETRY_SECONDS, WRITE_ERRORS
from web.security import PinGuard, new_pin, new_token
from web.stand import Stand, StandSettings
from web.store import SavedRoom, Store, StoreError

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: read aloud and typed on phones
CODE_LENGTH = 4
MAX_ROOMS = 16
CLOCK_LOOK_SECONDS = 600.0
TABLE_IDLE_SECONDS = 2 * 3600.0  # no page open and no play for this long: the table closes
IDLE_LOOK_SECONDS = 60.0
FAILED_LOOK_SECONDS = 1.0  # a table whose clock failed unexpectedly is looked at again

log = logging.getLogger("clacks.web")


def new_code(taken: set[str]) -> str:
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
        table_idle: float = TABLE_IDLE_SECONDS,
        stand: StandSettings | None = None,
    ) -> None:
        """``store`` keeps the tables and their games (None: in memory, for this run);
        ``bot_pause`` is how long bots wait after each change of a game before they act,
        ``bot_think`` the most a bot may think over one action; a table other than the
        main one closes after ``table_idle`` seconds without a page or a change; with
        ``stand`` the main table runs a convention stand (web/stand.py)."""
        self.clock = clock
        self.bot_pause = bot_pause
        self.bot_think = bot_think
        self.table_idle = table_idle
        self.language = language
        self.store = store or Store(None, clock)
        self.pins = PinGuard()
        self.screen_key = new_token()  # handed to table pages on the companion's own screen
        self.saves_lock = threading.Lock()  # taken before any room's lock, never after
        self.rooms: dict[str, Room] = {}
        self.left_out: set[str] = set()  # codes of saved tables that could not be put back
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._idle_look = 0.0
        main: Room | None = None
        for saved in self.store.rooms():
            room = self._restore(saved)
            if room is not None and saved.main and main is None:
                main = room
        self.main = main or self._first_table()
        self.stand = Stand(stand, self.main, clock) if stand is not None else None
        self._saves_look = 0.0
        if self.store.trouble is not None:  # opened on a full disk: every table says so
            for room in self.rooms.values():
                with room.lock:
                    room.saving.failed(self.store.trouble)

    def _first_table(self) -> Room:
        """The main table, new: the saves must take it, or its code and PIN would change
        at the next start."""
        try:
            return self.create_room(main=True)
        except ApiError as exc:
            if exc.code != "not_saved":
                raise
            raise StoreError(
                "cannot start a table, as the saves refuse writes (is the disk full?)"
            ) from None

    def _restore(self, saved: SavedRoom) -> Room | None:
        """A saved table put back, or None (with a warning) if it cannot be."""
        try:
            room = Room.restored(saved, self.store, self.clock, self._room_changed)
            room.table_clock.resume()
        except Exception as exc:  # one bad table never keeps the others from starting
            log.exception("table %s could not be put back", saved.code)
            outcome = "it was left out"
            if not saved.main:
                # closed, so its place and its game come free (the game stays saved)
                try:
                    self.store.remove_room(saved.code)
                    outcome = "it was closed, and its game stays with the saved games"
                except (sqlite3.Error, OSError):
                    pass  # left out for this run, and looked at again at the next start
            self.store.problems.append(
                f"Table {saved.code} could not be put back ({exc}); {outcome}."
            )
            self.left_out.add(saved.code)
            return None
        self.rooms[room.code] = room
        return room

    @property
    def problems(self) -> list[str]:
        """What was wrong with the saves when they were opened, in words."""
        return list(self.store.problems)

    def create_room(self, code: str | None = None, main: bool = False) -> Room:
        with self._lock:
            if len(self.rooms) >= MAX_ROOMS:
                raise ApiError(
                    429,
                    "too_many_tables",
                    f"This companion serves at most {MAX_ROOMS} tables; close one first",
                    tables=MAX_ROOMS,
                )
            code = code or new_code(set(self.rooms) | self.left_out)
            pin = new_pin()
            with saved_or_refused():
                self.store.add_room(code, self.language, main)
            room = Room(code, self.clock, self.language, self._room_changed, self.store, pin)
            self.rooms[code] = room
            if self._thread is not None:
                room.bot_turns.driver.start(self.bot_pause, self.bot_think)
            return room

    def close_room(self, code: str) -> None:
        """Close a table other than the main one: its game is put away with the saved
        games, its pages and bots stop, and its place comes free."""
        room = self.room(code)
        if room is self.main:
            raise ApiError(409, "main_table", "The main table cannot be closed", table=room.code)
        with self.saves_lock, room.lock:
            if room.closed:
                return
            with room.saving.kept():
                self.store.remove_room(room.code)
            with self._lock:
                self.rooms.pop(room.code, None)
            log.warning("table %s closed", room.code)
        room.close()

    def close_idle_tables(self) -> list[str]:
        """Close every table but the main one that no page has shown and nobody has
        played at for ``table_idle`` seconds; the codes closed."""
        now = self.clock()
        closed = []
        for room in list(self.rooms.values()):
            if room is self.main:
                continue
            if room.pages_open():
                room.last_active = now
            elif now - room.last_active >= self.table_idle:
                try:
                    self.close_room(room.code)
                except ApiError as exc:  # the saves refuse: tried again at the next look
                    log.warning("idle table %s stays open: %s", room.code, exc.message)
                    continue
                closed.append(room.code)
        return closed

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

    def let_pages_go(self) -> None:
        """End every page's event stream now (the companion is stopping): each holds a
        server thread, which the server waits for before it exits."""
        for room in list(self.rooms.values()):
            with room.lock:
                room.fanout.close()

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
            wait = min(self._look_for_idle_tables(now), self._try_saves_again(now))
            wait = min(wait, self._look_at_stand(now))
            for room in list(self.rooms.values()):
                try:
                    deadline = room.table_clock.deadline()
                    if deadline is None:
                        continue
                    if deadline <= now:
                        # a game that declines to act at its own deadline is asked again soon
                        wait = 0.0 if room.table_clock.tick() else min(wait, 1.0)
                    elif deadline - now < wait:
                        wait = deadline - now
                except Exception:  # one table's trouble never stops the others' clocks
                    log.exception("table %s: the table clock failed", room.code)
                    wait = min(wait, FAILED_LOOK_SECONDS)
            if wait != 0.0:
                self._wake.wait(wait)

    def _try_saves_again(self, now: float) -> float:
        """While the disk refuses any table's saves, try a small write every ``RETRY_SECONDS``; once
        the disk takes it, every table stops saying so (whatever a table owes is tried
        again by its own clock and bots). How long until the next try."""
        troubled = [
            room
            for room in list(self.rooms.values())
            if room.saving.since is not None and room.saving.from_disk
        ]
        if not troubled:
            return CLOCK_LOOK_SECONDS
        first = min(room.saving.since or now for room in troubled)
        self._saves_look = max(self._saves_look, first + RETRY_SECONDS)
        if now < self._saves_look:
            return self._saves_look - now
        self._saves_look = now + RETRY_SECONDS
        try:
            self.store.probe()
        except WRITE_ERRORS as exc:
            log.debug("the saves still refuse writes: %s", exc)
            return RETRY_SECONDS
        for room in troubled:
            with room.lock:
                room.saving.succeeded()
        return RETRY_SECONDS

    def _look_at_stand(self, now: float) -> float:
        """Let the stand end a game whose time is up; how long until it looks again."""
        if self.stand is None:
            return CLOCK_LOOK_SECONDS
        try:
            return self.stand.look(now)
        except Exception:  # the stand's trouble never stops the tables' clocks
            log.exception("the stand could not look at its table")
            return FAILED_LOOK_SECONDS

    def _look_for_idle_tables(self, now: float) -> float:
        """Close idle tables when it is time to look; how long until the next look (at
        most ``CLOCK_LOOK_SECONDS``, so no deadline is ever too far to wait for)."""
        every = min(IDLE_LOOK_SECONDS, max(self.table_idle / 2, 0.05))
        if now >= self._idle_look:
            self._idle_look = now + every
            try:
                self.close_idle_tables()
            except Exception:
                log.exception("closing idle tables failed")
        return min(max(self._idle_look - now, 0.0), CLOCK_LOOK_SECONDS)
