"""Server-sent events: each open page gets what it may see after every change.

A stream is opened for a seat (with that seat's token) or for the table. Every message
is a whole snapshot (``Fanout.frame``: encoded once per audience, then written as it is to
every page of that audience) plus the public events since the previous one,
so a page that missed messages is simply up to date again with the next. A comment line
every ``heartbeat`` seconds keeps proxies and phones from dropping a quiet stream. A page
that goes is seen within ``LOOK_SECONDS``: waitress reads ahead on the connection and
notices it close, which a waiting stream looks at every ``LOOK_SECONDS`` (its seat then
shows as empty at once, and a convention stand ends a game its visitors have left).

Each open stream holds one server thread while it waits, so streams are bounded
(``StreamGate``): ``CLACKS_STREAM_LIMIT`` in all, which keeps threads free for ordinary
requests; ``STREAMS_PER_DEVICE`` for the table's and spectators' pages of one device
(beyond: ``429 too_many_streams``); and ``STREAMS_PER_SEAT`` per seat, a seat's newest
stream ending its oldest (a phone that reloads). When all are taken, a seat's stream
(its token) ends the oldest page of the device with the most, and so does another
device's page if that device holds two more than it: a device that opens page after
page can only take its own share, and a player always gets their stream. Otherwise
``503 busy`` with ``Retry-After`` (the pages' EventSource retries by itself). A stream
whose page does not read what it is sent is closed by the server (web/server_channel.py).

With ``?board=1`` (the table screen drawing a simulated board) the stream also carries
``board`` messages: the LEDs as lit, animations included, instead of the page polling.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Blueprint, Response, current_app, request

from web.api import checked_token, room, seat_id
from web.errors import ApiError
from web.fanout import Subscriber
from web.room import Room
from web.security import device_of

stream = Blueprint("stream", __name__)

STREAMS_PER_DEVICE = 8
STREAMS_PER_SEAT = 2

# How soon a browser's EventSource tries again after its stream drops (the pages also
# reconnect by themselves, with a short backoff, and show that they are offline).
RETRY = b"retry: 500\n\n"
# How often a waiting stream looks whether its page has gone (waitress tells, as it reads
# ahead on the connection): a phone that closed its page is seen gone within this.
LOOK_SECONDS = 1.0


@dataclass(eq=False)
class OpenStream:
    device: str
    room: Room
    seat: str | None  # a seat's stream (its token held it when opened), else None
    ended: bool = False  # let go to make room for another: the stream ends at once
    subscriber: Subscriber | None = None  # once it follows the table


class StreamGate:
    """The open streams, against the limits."""

    def __init__(self, limit: int, per_device: int = STREAMS_PER_DEVICE) -> None:
        self.limit = limit
        self.per_device = per_device
        self.streams: list[OpenStream] = []  # oldest first
        self._lock = threading.Lock()

    def enter(self, device: str, found: Room, seat: str | None) -> OpenStream:
        """A place for a new stream, or the reason there is none."""
        with self._lock:
            ending: list[OpenStream] = []
            if seat is not None:
                same = [s for s in self.streams if s.room is found and s.seat == seat]
                ending += same[: max(0, len(same) - STREAMS_PER_SEAT + 1)]
            elif (
                sum(s.device == device and s.seat is None for s in self.streams) >= self.per_device
            ):
                raise ApiError(
                    429,
                    "too_many_streams",
                    f"This device has {self.per_device} pages of tables open already",
                    streams=self.per_device,
                )
            if len(self.streams) - len(ending) >= self.limit:
                room_for = self._share_for(device, seat is not None, ending)
                if room_for is None:
                    raise ApiError(503, "busy", "Too many open pages; retrying shortly")
                ending.append(room_for)
            for gone in ending:
                gone.ended = True
                self.streams.remove(gone)
            opened = OpenStream(device, found, seat)
            self.streams.append(opened)
        for gone in ending:  # woken outside the gate's lock: they end at once
            if gone.subscriber is not None:
                gone.room.fanout.let_go(gone.subscriber)
        return opened

    def _share_for(self, device: str, a_seat: bool, ending: list[OpenStream]) -> OpenStream | None:
        """The page to end for a new stream when all are taken: the oldest page of the
        device with the most, if the newcomer is a seat's or that device holds two more
        pages than the newcomer's."""
        pages: dict[str, list[OpenStream]] = {}
        for s in self.streams:
            if s.seat is None and s not in ending:
                pages.setdefault(s.device, []).append(s)
        if not pages:
            return None
        most = max(pages.values(), key=len)
        if a_seat or len(most) > len(pages.get(device, [])) + 1:
            return most[0]
        return None

    def leave(self, opened: OpenStream) -> None:
        with self._lock:
            if opened in self.streams:
                self.streams.remove(opened)


def gate() -> StreamGate:
    found: StreamGate = current_app.extensions["clacks_streams"]
    return found


@stream.get("/rooms/<code>/stream")
def events(code: str) -> Response:
    found = room(code)
    seat = request.args.get("seat") or None
    token = checked_token(request.args.get("token"))
    board = request.args.get("board") == "1"
    if seat is not None:
        found.seats.seat_for_token(seat_id(seat), token)  # refuses a wrong token with 403
    heartbeat = float(current_app.config["CLACKS_HEARTBEAT"])
    streams = gate()
    opened = streams.enter(device_of(request.remote_addr), found, seat)
    try:
        subscriber = found.fanout.subscribe(seat, token, board)
        opened.subscriber = subscriber  # (a stream ended before this stops at its next look)
    except BaseException:
        streams.leave(opened)
        raise
    gone = request.environ.get("waitress.client_disconnected", _never)
    return _sse(_EventStream(found, subscriber, heartbeat, streams, opened, gone))


def _never() -> bool:
    return False


def _sse(body: _EventStream) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@dataclass(eq=False)
class _EventStream:
    """The stream's body. An iterator with ``close`` rather than a generator, so the
    subscription ends even when the page goes before the first message is sent."""

    room: Room
    subscriber: Subscriber
    heartbeat: float
    streams: StreamGate
    opened: OpenStream
    gone: Callable[[], bool] = _never  # whether the page has gone (its connection closed)
    started: bool = field(default=False, init=False)
    closed: bool = field(default=False, init=False)

    def __iter__(self) -> _EventStream:
        return self

    def __next__(self) -> bytes:
        if self._over():
            self.close()
            raise StopIteration
        if not self.started:
            self.started = True
            return RETRY + self.room.fanout.first(self.subscriber)
        # the page's going is looked for every LOOK_SECONDS (the server notices a closed
        # connection at once, but this thread only when it looks), so its seat is seen
        # empty within moments, and a keep-alive is sent after ``heartbeat`` of quiet
        quiet_until = time.monotonic() + self.heartbeat
        while True:
            wait = min(LOOK_SECONDS, max(0.0, quiet_until - time.monotonic()))
            message = self.room.fanout.wait(self.subscriber, wait)
            if self._over() or self.gone():
                self.close()
                raise StopIteration
            if message is not None:
                return message
            if time.monotonic() >= quiet_until:
                return b": keep-alive\n\n"

    def _over(self) -> bool:
        """The stream ends: closed, its table closed or stopping, or let go for another."""
        return self.closed or self.room.closed or self.room.fanout.closed or self.opened.ended

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.room.fanout.unsubscribe(self.subscriber)
            self.streams.leave(self.opened)
