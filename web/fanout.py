"""Fan-out: what every open page of one table is sent after each change.

Every change any page should see ends in ``publish``, which bumps ``seq`` and wakes the
event streams. Streams never read the game themselves: they ask ``frame(seat, since)``
for the message that audience may see, which the table builds (``Room.snapshot_json``)
once per change and audience and which is then written as it is to every page of that
audience (the table and all spectators share one). Hidden information therefore has
exactly one way out, the table's snapshot, built from ``Session.view(seat)``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.interface import JSON

if TYPE_CHECKING:
    from web.room import Room

FRAME_FRESH_SECONDS = 0.25  # a message built longer ago gets its server_time again


@dataclass
class Subscriber:
    seat: str | None  # the seat asked for; it sees that seat's view only while it holds it
    token: str | None = None
    last_seq: int = 0
    alive: bool = True


@dataclass
class _Cache:
    seq: int = -1
    snapshots: dict[tuple[str | None, int], str] = field(default_factory=dict)
    # whole event-stream messages, encoded once per audience: (time built, bytes)
    frames: dict[tuple[str | None, int], tuple[float, bytes]] = field(default_factory=dict)


class Fanout:
    def __init__(self, room: Room, build: Callable[[str | None, int | None], JSON]) -> None:
        """``build(seat, since)`` is what ``seat`` (None: the table) may see now."""
        self.room = room
        self.lock = room.lock
        self.changed = threading.Condition(room.lock)
        self.seq = 0  # bumped by every change any page should see
        self.spectators = 0
        self.closed = False
        self._build = build
        self._cache = _Cache()

    def publish(self) -> None:
        """Something pages show changed (the caller holds the table's lock)."""
        self.seq += 1
        self.changed.notify_all()

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
                text = json.dumps(self._build(seat, since), separators=(",", ":"))
                cache.snapshots[key] = text
            # the time is added fresh: a cached snapshot may be sent much later
            return f'{text[:-1]},"server_time":{self.room.clock():.3f}}}'

    def frame(self, seat: str | None, since: int | None) -> bytes:
        """``snapshot(seat, since)`` as a whole event-stream message, encoded once per
        audience and change and then written as it is to every page of that audience."""
        with self.lock:
            cache = self._fresh_cache()
            key = (seat, -1 if since is None else since)
            now = self.room.clock()
            built = cache.frames.get(key)
            if built is None or now - built[0] > FRAME_FRESH_SECONDS:
                message = f"event: state\ndata: {self.snapshot(seat, since)}\n\n"
                built = (now, message.encode())
                cache.frames[key] = built
            return built[1]

    # ----------------------------------------------------------------- subscribers

    def subscribe(self, seat: str | None, token: str | None = None) -> Subscriber:
        with self.lock:
            subscriber = Subscriber(seat, token)
            if seat is None:
                self.spectators += 1
            elif self.room.seats.connected(seat, +1):
                self.room.publish([])
            return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            if not subscriber.alive:
                return
            subscriber.alive = False
            if subscriber.seat is None:
                self.spectators -= 1
            elif self.room.seats.connected(subscriber.seat, -1):
                self.room.publish([])

    def first(self, subscriber: Subscriber) -> bytes:
        """The message a newly opened stream starts with, recent log included."""
        with self.lock:
            subscriber.last_seq = self.seq
            return self.frame(self._audience(subscriber), None)

    def wait(self, subscriber: Subscriber, timeout: float) -> bytes | None:
        """The next message for ``subscriber``, or None after ``timeout`` seconds of quiet."""
        with self.lock:
            if subscriber.last_seq >= self.seq and not self.closed:
                self.changed.wait(timeout)
            if self.closed or subscriber.last_seq >= self.seq:
                return None
            since = subscriber.last_seq
            subscriber.last_seq = self.seq
            return self.frame(self._audience(subscriber), since)

    def _audience(self, subscriber: Subscriber) -> str | None:
        return self.room.seats.visible_seat(subscriber.seat, subscriber.token)

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.changed.notify_all()
