"""waitress's HTTP channel without a busy loop while event streams are written.

When a task thread writes to a connection (an event-stream message, say), waitress
appends the bytes to the channel's output buffer and the task thread sends them itself,
holding the buffer's lock. Meanwhile the main loop sees a channel with output pending,
finds the lock taken, and asks again at once: for as long as the write lasts, and every
time it goes round it asks each of the open connections whether it is readable or
writable. With 54 streams written after every change that spin cost more processor time
than everything else the companion does for an action (some 110 rounds of the main loop
per action, against 2 with this channel).

Here a channel whose buffer lock a task thread holds is not writable (the task is
sending), and after each write the task thread wakes the main loop if anything is left
to send (a slow client's full socket buffer), so nothing waits for the loop's timeout.

What one client that does not read may hold is bounded too. Its kernel send buffer is
small (``SEND_BUFFER_BYTES``); beyond it, what waits for the client stays in memory
(never spilled to a temporary file) and a connection is closed as soon as more than
``unsent_max`` bytes of it wait, or anything has waited ``stall_seconds`` without the
client taking a byte: a page that does not read its event stream (a phone asleep, or
someone hostile) lets go of its server thread at its stream's next message, and its
browser simply opens the stream again once it reads.

What one client may hold while it sends is bounded as well (a slowloris):

* A request must arrive whole, its headers and its body, within ``request_seconds`` of
  its first byte (a fresh connection: of being accepted). The deadline is fixed when the
  request begins, so bytes trickled in one at a time cannot push it back, as they push
  back waitress's own idle timeout. The main loop looks at it at least once a second.
* One address may hold at most ``CONNECTIONS_PER_DEVICE`` connections; more are closed as
  they are accepted, so one device never takes every connection the server accepts.
* When the server nears waitress's ``connection_limit`` (past which it stops accepting
  anyone), a new connection makes room by closing the oldest idle connection of the
  address that holds the most, so several hogging addresses together still leave room
  for a table's devices, which each hold a few.
"""

from __future__ import annotations

import contextlib
import re
import socket
import time
from typing import Any

from waitress.buffers import ReadOnlyFileBasedBuffer
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import RequestEntityTooLarge

from web.security import device_of
from web.table_api import IMPORT_MAX_BYTES

UNSENT_MAX_BYTES = 256 * 1024  # some fifty messages of a table's stream
STALL_SECONDS = 30.0
SEND_BUFFER_BYTES = 16 * 1024  # the kernel doubles it; a LAN fills 32 KB in well under 10 ms
# a page holds its stream and a fetch or two; a device with a few pages open stays well under
CONNECTIONS_PER_DEVICE = 32
# a phone on a poor Wi-Fi sends its largest request (16 KB at most) in well under a second
REQUEST_SECONDS = 10.0
# how far below waitress's connection_limit new connections start making room
SPARE_CONNECTIONS = 16


# What a request's body may be, as waitress reads it: a little more than the API's own
# limits (web.app.MAX_REQUEST_BYTES; a replay file imported, IMPORT_MAX_BYTES), so a body
# just over them still gets the API's answer in its words, and anything larger is refused
# by its Content-Length before a byte of it is read (a chunked one once it passes).
BODY_LIMIT_BYTES = 64 * 1024
IMPORT_LIMIT_BYTES = IMPORT_MAX_BYTES + BODY_LIMIT_BYTES
IMPORT_PATH = re.compile(r"/api/rooms/[^/]+/saves/?")


class LimitedParser(HTTPRequestParser):
    """Waitress's request parser with a body limit by path: the replay import may send
    up to ``IMPORT_LIMIT_BYTES``, every other request ``BODY_LIMIT_BYTES``."""

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        if self.error is None and self.headers_finished:
            # both str once the header is read (types-waitress has the command as bytes,
            # and no path)
            command: object = self.command
            path: object = getattr(self, "path", None)
            limit = body_limit(
                command if isinstance(command, str) else None,
                path if isinstance(path, str) else None,
            )
            if max(self.content_length, self.body_bytes_received) > limit:
                self.error = RequestEntityTooLarge(f"exceeds max_body of {limit}")
                self.completed = True
        if self.error is not None:
            # no "100 Continue" for what is refused: waitress would send one and then
            # read the body it had refused (up to its own limit) before answering
            self.expect_continue = False
        return consumed


def body_limit(method: str | None, path: str | None) -> int:
    """The largest body a request for ``path`` may have."""
    if method == "POST" and path is not None and IMPORT_PATH.fullmatch(path):
        return IMPORT_LIMIT_BYTES
    return BODY_LIMIT_BYTES


class StreamingChannel(HTTPChannel):
    parser_class = LimitedParser
    unsent_max = UNSENT_MAX_BYTES
    stall_seconds = STALL_SECONDS
    request_seconds = REQUEST_SECONDS

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        self.device = device_of(addr[0] if isinstance(addr, tuple) and addr else None)
        others = [
            channel
            for channel in list(server.active_channels.values())
            if isinstance(channel, StreamingChannel) and not channel.given_up
        ]
        own = sum(1 for channel in others if channel.device == self.device)
        self.given_up: bool = False
        # when the request on the way began arriving (None: none is on the way); a fresh
        # connection's first request is due from the moment it is accepted
        self.request_began: float | None = time.monotonic()
        super().__init__(server, sock, addr, adj, map)
        if own >= CONNECTIONS_PER_DEVICE:
            self.give_up()
        elif len(others) >= adj.connection_limit - SPARE_CONNECTIONS:
            self._make_room(others, own)

    def _make_room(self, others: list[StreamingChannel], own: int) -> None:
        """The server is nearly full: close the oldest idle connection of the address
        holding the most, unless this one's own address is that address."""
        held: dict[str, list[StreamingChannel]] = {}
        for channel in others:
            held.setdefault(channel.device, []).append(channel)
        hog = max(held.values(), key=len)
        idle = [channel for channel in hog if not channel.requests]
        if len(hog) <= own + 1 or not idle:
            self.give_up()
            return
        min(idle, key=lambda channel: channel.creation_time).give_up()

    def give_up(self) -> None:
        """Close the connection at the main loop's next look, whatever waits to be sent."""
        self.given_up = True
        self.will_close = True
        self.server.pull_trigger()

    def readable(self) -> Any:
        # runs on the main loop, for every connection, at least once a second
        if self.given_up:
            return False
        began = self.request_began
        if began is not None and time.monotonic() - began > self.request_seconds:
            self.give_up()  # a request this slow is someone holding the connection
            return False
        return super().readable()

    def received(self, data: bytes) -> Any:
        before = self.request
        answer = super().received(data)
        if self.request is None:
            self.request_began = None  # nothing on the way: waitress's idle timeout applies
        elif self.request is not before and (before is not None or self.request_began is None):
            self.request_began = time.monotonic()
        return answer

    def writable(self) -> Any:
        # runs on the main loop, for every connection, before each wait for the sockets
        if self.given_up:
            if self.connected:
                self.handle_close()
            return False
        if self.total_outbufs_len:
            if not self.outbuf_lock.acquire(False):
                return False  # a task thread is sending right now
            try:
                if self._too_far_behind():
                    self.give_up()
                    self.handle_close()
                    return False
            finally:
                self.outbuf_lock.release()
        return super().writable()

    def _too_far_behind(self) -> bool:
        if time.time() - self.last_activity > self.stall_seconds:
            return True
        held = sum(
            len(buffer)
            for buffer in self.outbufs
            if not isinstance(buffer, ReadOnlyFileBasedBuffer)  # a file is already on the disk
        )
        return held > self.unsent_max

    def write_soon(self, data: Any) -> int:
        written: int = super().write_soon(data)
        if self.total_outbufs_len:
            self.server.pull_trigger()  # what the task thread could not send, the loop will
        return written


def use_streaming_channels(
    server: Any,
    unsent_max: int = UNSENT_MAX_BYTES,
    stall_seconds: float = STALL_SECONDS,
    request_seconds: float = REQUEST_SECONDS,
) -> None:
    """Make ``server`` (as waitress's ``create_server`` returns it) accept connections
    as StreamingChannel, on every socket it listens on, closing a connection that holds
    more than ``unsent_max`` unsent bytes, took nothing for ``stall_seconds`` or did not
    send a whole request within ``request_seconds``."""
    channel = type(
        "StreamingChannel",
        (StreamingChannel,),
        {
            "unsent_max": unsent_max,
            "stall_seconds": stall_seconds,
            "request_seconds": request_seconds,
        },
    )
    listeners = [server, *getattr(server, "map", {}).values()]
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = channel
