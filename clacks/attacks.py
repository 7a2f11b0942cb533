"""The attacks a hostile device at the table can make on the companion's transport, for
the attack soak (`clacks bench --attack`) and the tests that hold the limits to them.

Loopback only: every function refuses an address outside 127.0.0.0/8, so neither the
soak nor a test ever sends this traffic anywhere else. Each attacking "device" is a
loopback address of its own (127.0.0.2, 127.0.0.3, ...), as the companion tells devices
apart by their address.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from dataclasses import dataclass, field

BODY_CHUNK = 64 * 1024
ATTACKER_SEND_BUFFER = 64 * 1024  # fixed, so what the kernel takes on trust stays small


def loopback_only(host: str) -> None:
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"attacks go to loopback addresses only, not {host}")


def attacker_address(n: int) -> str:
    """The ``n``-th attacking device's address: 127.0.1.2, 127.0.1.3, ..."""
    return f"127.0.{1 + (n + 2) // 250}.{(n + 2) % 250}"


def _connect(host: str, port: int, source: str, timeout: float = 10.0) -> socket.socket:
    loopback_only(host)
    loopback_only(source)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, ATTACKER_SEND_BUFFER)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect((host, port))
    return sock


@dataclass
class BodyOutcome:
    sent: int  # body bytes the connection took before the server stopped it
    status: int | None  # the answer's status, if one could be read
    seconds: float


def big_body(
    host: str,
    port: int,
    path: str,
    size: int,
    source: str = "127.0.0.1",
    chunked: bool = False,
    give_up_after: float = 5.0,
) -> BodyOutcome:
    """POST a body of ``size`` bytes (announced by Content-Length, or chunked) as fast as
    the connection takes it, until the server answers or closes, or the connection has
    taken nothing for ``give_up_after`` seconds."""
    started = time.monotonic()
    sock = _connect(host, port, source, timeout=give_up_after)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"{framing}\r\n\r\n".encode()
    )
    piece = b"x" * BODY_CHUNK
    if chunked:
        piece = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    sent = 0
    with sock:
        try:
            while sent < size:
                sock.sendall(piece)
                sent += BODY_CHUNK
        except OSError:  # closed (reset, broken pipe) or stopped taking anything
            pass
        return BodyOutcome(sent, _status(sock), time.monotonic() - started)


def refused_before_body(host: str, port: int, path: str, size: int) -> int | None:
    """The status answered to a request that announces ``size`` bytes and sends none."""
    with _connect(host, port, "127.0.0.1") as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n".encode()
        )
        return _status(sock)


def _status(sock: socket.socket) -> int | None:
    sock.settimeout(2.0)
    head = b""
    with contextlib.suppress(OSError):
        while b"\r\n" not in head:
            data = sock.recv(4096)
            if not data:
                break
            head += data
    parts = head.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


@dataclass
class Slowloris:
    """``per_device`` connections from each of ``devices`` addresses, each sending a
    request one byte every ``interval`` seconds and opening again as soon as closed."""

    host: str
    port: int
    devices: list[str]
    per_device: int
    interval: float = 1.0
    opened: int = 0
    closed: list[float] = field(default_factory=list)  # how long each closed one was held
    refused: int = 0  # connections that could not even be opened
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    REQUEST = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + b"a" * 4000

    def start(self) -> Slowloris:
        loopback_only(self.host)
        self._thread = threading.Thread(target=self._run, name="slowloris", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _open(self, device: str) -> tuple[socket.socket, float, int] | None:
        try:
            sock = _connect(self.host, self.port, device, timeout=1.0)
        except OSError:
            self.refused += 1
            return None
        sock.setblocking(False)
        self.opened += 1
        return sock, time.monotonic(), 0

    def _run(self) -> None:
        held: dict[str, list[tuple[socket.socket, float, int]]] = {d: [] for d in self.devices}
        try:
            while not self._stop.is_set():
                for device, connections in held.items():
                    while len(connections) < self.per_device and not self._stop.is_set():
                        opened = self._open(device)
                        if opened is None:
                            break
                        connections.append(opened)
                    kept = []
                    for sock, since, at in connections:
                        try:
                            sock.send(
                                self.REQUEST[at % len(self.REQUEST) : at % len(self.REQUEST) + 1]
                            )
                            with contextlib.suppress(BlockingIOError):
                                if sock.recv(4096) == b"":
                                    raise ConnectionResetError
                        except OSError:
                            self.closed.append(time.monotonic() - since)
                            sock.close()
                            continue
                        kept.append((sock, since, at + 1))
                    connections[:] = kept
                self._stop.wait(self.interval)
        finally:
            for connections in held.values():
                for sock, _, _ in connections:
                    sock.close()


def pin_guess(host: str, port: int, code: str, guess: str, source: str) -> int:
    """One wrong-PIN guess at the table's saved games from ``source``; the status."""
    with _connect(host, port, source) as sock:
        sock.sendall(
            f"GET /api/rooms/{code}/saves HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"X-Table-Pin: {guess}\r\nConnection: close\r\n\r\n".encode()
        )
        return _status(sock) or 0
