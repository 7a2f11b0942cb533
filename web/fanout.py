"""Fan-out: what every open page of one table is sent after each change.

Every change any page should see ends in ``publish``, which bumps ``seq`` and wakes the
event streams. Streams never read the game themselves: they ask ``frame(seat, since)``
for the message that audience may see, which the table builds (``Room.snapshot_json``)
once per change and audience and which is then written as it is to every page of that
audience (the table and all spectators share one). Hidden information therefore has
exactly one way out, the table's snapshot, built from ``Session.view(seat)``.

A page that asks for the board (the table screen drawing a simulated board) also gets a
``board`` message with the LEDs as lit whenever a frame is written to them, at most
every ``BOARD_FRAME_SECONDS``. Those pages wait on a lock of their own, which the lamp
renderer's thread takes to tell of a frame, so the lamps never wait for the table's lock.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.interface import JSON
from web.table_state import Clock

FRAME_FRESH_SECONDS = 0.25  # a message built longer ago gets its server_time again
EVENTS_KEPT = 500  # events announced lately, for pages a few messages behind
BOARD_FRAME_SECONDS = 0.05  # the board's LEDs reach a page at most 20 times a second


@dataclass
class Subscriber:
    seat: str | None  # the seat asked for; it sees that seat's view only while it holds it
    token: str | None = None
    last_seq: int = 0
    alive: bool = True
    board: bool = False  # also the board's LEDs, as lit (a simulated board's picture)
    board_seq: int = -1  # the LED frame last sent
    board_sent: float = 0.0  # when (time.monotonic)
    let_go: bool = False  # its stream is ended to make room for another: no more waiting


@dataclass
class _Cache:
    seq: int = -1
    snapshots: dict[tuple[str | None, int], str] = field(default_factory=dict)
    # whole event-stream messages, encoded once per audience: (time built, bytes)
    frames: dict[tuple[str | None, int], tuple[float, bytes]] = field(default_factory=dict)


@dataclass(frozen=True)
class Audiences:
    """What the fan-out asks of the table about who reads it (callables the table gives).

    ``build(seat, since)`` is what ``seat`` (None: the table) may see now;
    ``visible_seat(seat, token)`` the seat a page asking for ``seat`` with ``token`` sees
    (None: the public view); ``presence(seat, change)`` says that a page of ``seat``
    opened (+1) or closed (-1)."""

    build: Callable[[str | None, int | None], JSON]
    visible_seat: Callable[[str | None, str | None], str | None]
    presence: Callable[[str, int], None]


@dataclass(frozen=True)
class BoardPicture:
    """The exchange board's LEDs as the table screen draws them (callables the table
    gives): whether a board is attached, whether only a screen shows its LEDs, and the
    LEDs as lit now."""

    attached: Callable[[], bool]
    simulated: Callable[[], bool]
    lit: Callable[[], JSON]


class Fanout:
    def __init__(
        self, lock: threading.RLock, clock: Clock, audiences: Audiences, board: BoardPicture
    ) -> None:
        """``lock`` is the table's."""
        self.lock = lock
        self.clock = clock
        self.audiences = audiences
        self.picture = board
        self.changed = threading.Condition(lock)
        self.seq = 0  # bumped by every change any page should see
        self.spectators = 0
        self.closed = False
        self._cache = _Cache()
        self._events: deque[tuple[int, JSON]] = deque(maxlen=EVENTS_KEPT)
        self._board_lock = threading.Lock()  # taken after the table's lock, never before
        self._board_watch = threading.Condition(self._board_lock)
        self.board_seq = 0  # bumped by every frame written to the board's LEDs
        self._board_frame: tuple[int, bytes] = (-1, b"")

    def publish(self, events: list[JSON]) -> None:
        """Something pages show changed, announcing ``events`` (the caller holds the
        table's lock)."""
        self.seq += 1
        for event in events:
            self._events.append((self.seq, event))
        self.changed.notify_all()
        with self._board_lock:
            self._board_watch.notify_all()

    def board_changed(self) -> None:
        """A frame was written to the board's LEDs (from the lamp renderer's thread)."""
        with self._board_lock:
            self.board_seq += 1
            self._board_watch.notify_all()

    def events_since(self, since: int | None) -> list[JSON]:
        """The events announced after change ``since`` (a fresh page: none; what
        happened before it is in the log)."""
        if since is None:
            return []
        return [e for s, e in self._events if s > since]

    # ----------------------------------------------------------------- snapshots

    def _fresh_cache(self) -> _Cache:
        if self._cache.seq != self.seq:
            self._cache = _Cache(self.seq)
        return self._cache

    def snapshot(self, seat: str | None, since: int | None = None) -> str:
        """What ``seat`` (None: the table and spectators) may see now, as JSON text, with
        what changed after ``since`` (None: a fresh page)."""
        with self.lock:
            cache = self._fresh_cache()
            key = (seat, -1 if since is None else since)
            text = cache.snapshots.get(key)
            if text is None:
                text = json.dumps(self.audiences.build(seat, since), separators=(",", ":"))
                cache.snapshots[key] = text
            # the time is added fresh: a cached snapshot may be sent much later
            return f'{text[:-1]},"server_time":{self.clock():.3f}}}'

    def frame(self, seat: str | None, since: int | None) -> bytes:
        """``snapshot(seat, since)`` as a whole event-stream message, encoded once per
        audience and change and then written as it is to every page of that audience."""
        with self.lock:
            cache = self._fresh_cache()
            key = (seat, -1 if since is None else since)
            now = self.clock()
            built = cache.frames.get(key)
            if built is None or now - built[0] > FRAME_FRESH_SECONDS:
                message = f"event: state\ndata: {self.snapshot(seat, since)}\n\n"
                built = (now, message.encode())
                cache.frames[key] = built
            return built[1]

    # ----------------------------------------------------------------- subscribers

    def subscribe(
        self, seat: str | None, token: str | None = None, board: bool = False
    ) -> Subscriber:
        with self.lock:
            subscriber = Subscriber(seat, token, board=board and self.picture.attached())
            if seat is None:
                self.spectators += 1
            else:
                self.audiences.presence(seat, +1)
            return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            if not subscriber.alive:
                return
            subscriber.alive = False
            if subscriber.seat is None:
                self.spectators -= 1
            else:
                self.audiences.presence(subscriber.seat, -1)

    def first(self, subscriber: Subscriber) -> bytes:
        """The message a newly opened stream starts with, recent log included."""
        with self.lock:
            subscriber.last_seq = self.seq
            message = self.frame(self._audience(subscriber), None)
        if subscriber.board and self.picture.simulated():
            message += self._board_message(subscriber)
        return message

    def wait(self, subscriber: Subscriber, timeout: float) -> bytes | None:
        """The next message for ``subscriber``, or None after ``timeout`` seconds of quiet."""
        if subscriber.board:
            return self._wait_with_board(subscriber, timeout)
        with self.lock:
            if subscriber.last_seq >= self.seq and not self.closed and not subscriber.let_go:
                self.changed.wait(timeout)
            if self.closed or subscriber.let_go or subscriber.last_seq >= self.seq:
                return None
            since = subscriber.last_seq
            subscriber.last_seq = self.seq
            return self.frame(self._audience(subscriber), since)

    def _wait_with_board(self, subscriber: Subscriber, timeout: float) -> bytes | None:
        """``wait`` for a page that also follows the board's LEDs: whichever comes
        first, a change of the table or a frame of the board (once the last frame sent
        is ``BOARD_FRAME_SECONDS`` old)."""
        deadline = time.monotonic() + timeout
        with self._board_lock:
            while True:
                now = time.monotonic()
                if (
                    self.closed
                    or subscriber.let_go
                    or subscriber.last_seq < self.seq
                    or now >= deadline
                ):
                    break
                wake = deadline
                if subscriber.board_seq < self.board_seq:
                    due = subscriber.board_sent + BOARD_FRAME_SECONDS
                    if now >= due:
                        break
                    wake = min(wake, due)
                self._board_watch.wait(wake - now)
        message = b""
        with self.lock:
            if self.closed or subscriber.let_go:
                return None
            if subscriber.last_seq < self.seq:
                since = subscriber.last_seq
                subscriber.last_seq = self.seq
                message += self.frame(self._audience(subscriber), since)
        now = time.monotonic()
        if (
            subscriber.board_seq < self.board_seq
            and now >= subscriber.board_sent + BOARD_FRAME_SECONDS
        ):
            message += self._board_message(subscriber)
        return message or None

    def let_go(self, subscriber: Subscriber) -> None:
        """End ``subscriber``'s wait at once (its stream made room for another)."""
        with self.lock:
            subscriber.let_go = True
            self.changed.notify_all()
            with self._board_lock:
                self._board_watch.notify_all()

    def _board_message(self, subscriber: Subscriber) -> bytes:
        """The board's LEDs as lit now, as an event-stream message (built once per
        frame, for every page that follows the board)."""
        with self._board_lock:
            seq, built = self._board_frame
            if seq != self.board_seq:
                seq = self.board_seq
                data = json.dumps(self.picture.lit(), separators=(",", ":"))
                built = f"event: board\ndata: {data}\n\n".encode()
                self._board_frame = (seq, built)
        subscriber.board_seq = seq
        subscriber.board_sent = time.monotonic()
        return built

    def _audience(self, subscriber: Subscriber) -> str | None:
        return self.audiences.visible_seat(subscriber.seat, subscriber.token)

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.changed.notify_all()
            with self._board_lock:
                self._board_watch.notify_all()
