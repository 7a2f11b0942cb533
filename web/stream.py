"""Server-sent events: each open page gets what it may see after every change.

A stream is opened for a seat (with that seat's token) or for the table. Every message
is a whole snapshot (``Fanout.frame``: encoded once per audience, then written as it is to
every page of that audience) plus the public events since the previous one,
so a page that missed messages is simply up to date again with the next. A comment line
every ``heartbeat`` seconds keeps proxies and phones from dropping a quiet stream and
tells the server when a page has gone (its write fails and the stream ends).

Each open stream holds one server thread while it waits; ``CLACKS_STREAM_LIMIT`` keeps
some threads free for ordinary requests and answers 503 with ``Retry-After`` beyond it
(browsers' EventSource retries by itself).

With ``?board=1`` (the table screen drawing a simulated board) the stream also carries
``board`` messages: the LEDs as lit, animations included, instead of the page polling.
"""

from __future__ import annotations

import threading

from flask import Blueprint, Response, current_app, request

from web.api import checked_token, room, seat_id
from web.errors import ApiError
from web.fanout import Subscriber
from web.room import Room

stream = Blueprint("stream", __name__)

# How soon a browser's EventSource tries again after its stream drops (the pages also
# reconnect by themselves, with a short backoff, and show that they are offline).
RETRY = b"retry: 500\n\n"


class StreamGate:
    """Counts open streams against the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def enter(self) -> None:
        with self._lock:
            if self.open >= self.limit:
                raise ApiError(503, "busy", "Too many open pages; retrying shortly")
            self.open += 1

    def leave(self) -> None:
        with self._lock:
            self.open -= 1


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
    streams.enter()
    try:
        subscriber = found.fanout.subscribe(seat, token, board)
    except BaseException:
        streams.leave()
        raise
    return _sse(_EventStream(found, subscriber, heartbeat, streams))


def _sse(body: _EventStream) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response


class _EventStream:
    """The stream's body. An iterator with ``close`` rather than a generator, so the
    subscription ends even when the page goes before the first message is sent."""

    def __init__(
        self, found: Room, subscriber: Subscriber, heartbeat: float, streams: StreamGate
    ) -> None:
        self.streams = streams
        self.room = found
        self.subscriber = subscriber
        self.heartbeat = heartbeat
        self.started = False
        self.closed = False

    def __iter__(self) -> _EventStream:
        return self

    def __next__(self) -> bytes:
        if self.closed or self.room.closed:
            self.close()
            raise StopIteration
        if not self.started:
            self.started = True
            return RETRY + self.room.fanout.first(self.subscriber)
        message = self.room.fanout.wait(self.subscriber, self.heartbeat)
        return b": keep-alive\n\n" if message is None else message

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.room.fanout.unsubscribe(self.subscriber)
            self.streams.leave()
