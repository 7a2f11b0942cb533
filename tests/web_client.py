"""A small HTTP client for the companion's JSON API and its event stream."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any
from urllib.parse import urlsplit


def ask_for_game(server: Any, body: dict[str, Any]) -> tuple[int, Any]:
    """The main table of ``server`` (a LiveServer) asked, with its PIN, for a new game as
    ``body`` says (its ``options``, ``game``, ``seed``...); returns (status, answer)."""
    return call(server.base, "POST", f"/api/rooms/{server.code}/game", body, pin=server.pin)


def press(server: Any, button: str) -> tuple[int, Any]:
    """``button`` of the box pressed, through the main table of ``server`` (a LiveServer)
    with its PIN, as the table screen's own buttons press it; returns (status, answer)."""
    return call(server.base, "POST", f"/api/rooms/{server.code}/buttons/{button}", pin=server.pin)


def call(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
    pin: str | None = None,
) -> tuple[int, Any]:
    """One request; returns (status, decoded JSON or None). ``pin`` is the table PIN."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    sent = dict(headers or {})
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    if token:
        sent["X-Seat-Token"] = token
    if pin:
        sent["X-Table-Pin"] = pin
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    try:
        return response.status, json.loads(text) if text else None
    except ValueError:
        return response.status, text.decode(errors="replace")


class EventStream:
    """A raw server-sent-event reader over a socket, to see exactly what is pushed."""

    def __init__(self, base: str, path: str) -> None:
        parts = urlsplit(base)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.buffer = b""
        self.raw = b""
        self.seq = -1  # seq of the last state read
        self.last: dict[str, Any] | None = None  # the last state read
        head = self._read_until(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("stream closed")
            self.buffer += chunk
            self.raw += chunk
        head, self.buffer = self.buffer.split(marker, 1)
        return head

    def next_state(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next `state` message's JSON (chunk framing and comments skipped)."""
        self.sock.settimeout(timeout)
        while True:
            block = self._read_until(b"\n\n")
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    result: dict[str, Any] = json.loads(line[6:])
                    self.seq = result["seq"]
                    self.last = result
                    return result

    def catch_up(self, seq: int) -> None:
        """Read states until the one numbered ``seq`` (or later) has arrived."""
        while self.seq < seq:
            self.next_state()

    def close(self) -> None:
        self.sock.close()
