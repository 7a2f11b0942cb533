"""Companion figures: how soon `clacks serve` answers, and how fast a change reaches
every open page through the event stream.

The server runs as its own process (`clacks serve` on a free loopback port), exactly as
a user starts it; its memory is read from /proc.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SPECTATORS = 10


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


Served = tuple[Path, subprocess.Popen[str], str, str, str]


@contextmanager
def served() -> Iterator[Served]:
    """`clacks serve` on loopback with its saves in a directory of its own, stopped
    afterwards: the directory, the process, its address, the main table's code and PIN."""
    with tempfile.TemporaryDirectory(prefix="clacks-bench-") as data_dir:
        process, base, code, pin, _ready = _start_server(Path(data_dir))
        try:
            yield Path(data_dir), process, base, code, pin
        finally:
            process.terminate()
            process.wait(timeout=10)


def _start_server(data_dir: Path) -> tuple[subprocess.Popen[str], str, str, str, float]:
    """`clacks serve` with its saves in ``data_dir``: the process, its address, the main
    table's code and PIN, and how long it took to answer a page."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clacks.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-qr",
            "--data-dir",
            str(data_dir),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    base = code = pin = ""
    while not (base and code and pin):
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("clacks serve stopped before it was ready")
        if found := re.search(r"Phones join:\s+(http://[^/\s]+)/join/([A-Z]+)", line):
            base, code = found.group(1), found.group(2)
        if found := re.search(r"Table PIN:\s+(\d+)", line):
            pin = found.group(1)
    while True:  # ready means: it answers a page
        try:
            with urllib.request.urlopen(f"{base}/", timeout=2) as response:
                if response.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.005)
    ready_ms = (time.perf_counter() - started) * 1000
    threading.Thread(target=process.stdout.read, daemon=True).start()  # keep the pipe drained
    return process, base, code, pin, ready_ms


def _post(base: str, path: str, body: Any, token: str | None = None, pin: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    if pin:
        headers["X-Table-Pin"] = pin
    request = urllib.request.Request(
        f"{base}{path}", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def device_address(host: str, n: int) -> tuple[str, int] | None:
    """Where the ``n``-th page of a bench connects from: on loopback each its own address
    (127.0.0.2, 127.0.0.3, ...), as each spectator at a table has a device of its own and
    the companion bounds the pages of any one device."""
    return (f"127.0.{(n + 2) // 250}.{(n + 2) % 250}", 0) if host.startswith("127.") else None


class _Listener(threading.Thread):
    """Reads one event stream and notes when each revision first arrives."""

    def __init__(self, base: str, path: str, n: int = 0) -> None:
        super().__init__(daemon=True)
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection(
            (host, int(port)), source_address=device_address(host, n)
        )
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        pending = b""
        with self.sock:
            while True:
                try:
                    chunk = self.sock.recv(65536)
                except OSError:
                    return
                if not chunk:
                    return
                now = time.perf_counter()
                pending += chunk
                for found in re.finditer(rb'data: \{"seq":\d+,"revision":(\d+)', pending):
                    self.arrived.setdefault(int(found.group(1)), now)
                    self.ready.set()
                pending = pending[-200:]

    def close(self) -> None:
        self.sock.close()


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(f"{base}{path}", timeout=5) as response:
        return json.load(response)


def _first_move(base: str, code: str) -> tuple[str, str]:
    """The seat whose turn it is and a tower of its colour to place its pawn on: the
    bench moves for whoever the deal made first, whatever the seed."""
    snapshot = _get(base, f"/api/rooms/{code}")
    seat = snapshot["active"][0]
    colour = next(s["colour"] for s in snapshot["room"]["seats"] if s["id"] == seat)
    towers = _get(base, "/api/games/clacks/reference")["towers"]
    return seat, next(t["id"] for t in towers if t["colour"] == colour)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    rounds = 40 if args.quick else 200
    with tempfile.TemporaryDirectory(prefix="clacks-bench-") as data_dir:
        return _measure(rounds, Path(data_dir))


def _measure(rounds: int, data_dir: Path) -> dict[str, Any]:
    process, base, code, pin, ready_ms = _start_server(data_dir)
    try:
        time.sleep(0.3)
        rss_idle = _rss_mb(process.pid)
        _post(base, f"/api/rooms/{code}/game", {"options": {"players": 2}, "seed": 10}, pin=pin)
        seat, tower_name = _first_move(base, code)
        token = _post(base, f"/api/rooms/{code}/seats/{seat}", {"name": "bench"})["token"]
        listeners = [_Listener(base, f"/api/rooms/{code}/stream?seat={seat}&token={token}")]
        listeners += [
            _Listener(base, f"/api/rooms/{code}/stream", n) for n in range(1, SPECTATORS + 1)
        ]
        for listener in listeners:
            listener.start()
            listener.ready.wait(5)
        delays: list[float] = []
        for index in range(rounds):
            # a move and its undo, over and over: each is a change every page must see
            sent = time.perf_counter()
            if index % 2 == 0:
                path, body = "actions", {"action": {"type": "move", "tower": tower_name}}
            else:
                path, body = "undo", {}
            revision = _post(base, f"/api/rooms/{code}/seats/{seat}/{path}", body, token)["revision"]
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline and not all(
                revision in listener.arrived for listener in listeners
            ):
                time.sleep(0.0005)
            delays.append(
                (max(listener.arrived.get(revision, deadline) for listener in listeners) - sent)
                * 1000
            )
        rss_after = _rss_mb(process.pid)
        for listener in listeners:
            listener.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
    delays.sort()
    return {
        "serve_ready_ms": round(ready_ms),
        "web_action_to_pages_p50_ms": round(statistics.median(delays), 2),
        "web_action_to_pages_p99_ms": round(
            delays[min(len(delays) - 1, int(len(delays) * 0.99))], 2
        ),
        "web_pages_open": len(listeners),
        "web_rss_mb_idle": rss_idle,
        "web_rss_mb_after": rss_after,
    }
