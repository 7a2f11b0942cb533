"""`clacks bench --load`: a convention table under load. Four players play real games
(the self-play policy, through the API) while 50 spectators and the four phones follow
the table's event stream, for two minutes (``--duration``).

The server is `clacks serve` in its own process, with its saves on the disk as always.
The 54 event streams are read by one more process, a single ``selectors`` loop, so the
measuring costs the server's two cores as little as possible and never waits on a
Python thread's turn. It stamps when each revision reaches each stream (the monotonic
clock is the same in every process); an action's figure is from just before it is
posted to the moment the last of the 54 streams has it. Every public event the answers
announced must arrive on every stream: ``events_lost`` counts those that did not.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import selectors
import socket
import statistics
import time
from multiprocessing.connection import Connection
from typing import Any

from clacks.bench_web import _rss_mb, device_address, served

PLAYERS = 4
SPECTATORS = 50
REVISION = re.compile(rb'"revision":(\d+)')


# --------------------------------------------------------------------- the stream reader


class _Stream:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()
        self.revision = -1
        self.events = 0
        self.messages = 0


def read_streams(host: str, port: int, paths: list[str], pipe: Connection) -> None:
    """Follow every stream; report to ``pipe`` each revision once all streams have it."""
    selector = selectors.DefaultSelector()
    streams: list[_Stream] = []
    for n, path in enumerate(paths):
        sock = socket.create_connection((host, port), source_address=device_address(host, n))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        sock.setblocking(False)
        stream = _Stream(sock)
        streams.append(stream)
        selector.register(sock, selectors.EVENT_READ, stream)
    complete = -1  # the highest revision every stream has
    ready = False
    while True:
        if pipe.poll():
            command = pipe.recv()
            if command == "stop":
                pipe.send(
                    {
                        "events": [s.events for s in streams],
                        "messages": [s.messages for s in streams],
                    }
                )
                break
        for key, _ in selector.select(timeout=0.02):
            stream = key.data
            data = stream.sock.recv(1 << 18)
            if not data:
                selector.unregister(stream.sock)
                continue
            now = time.perf_counter()
            stream.buffer += data
            _parse(stream)
            lowest = min(s.revision for s in streams)
            if not ready and lowest >= 0:
                ready = True
                pipe.send(("ready", lowest, now))
            if lowest > complete:
                complete = lowest
                pipe.send(("complete", complete, now))
    for stream in streams:
        stream.sock.close()


def _parse(stream: _Stream) -> None:
    while True:
        end = stream.buffer.find(b"\n\n")
        if end < 0:
            return
        block = bytes(stream.buffer[:end])
        del stream.buffer[: end + 2]
        start = block.find(b"data: ")
        if start < 0:
            continue  # a keep-alive comment, the retry line or chunk framing
        found = REVISION.search(block, start, start + 80)
        if found is None:
            continue
        stream.messages += 1
        stream.revision = max(stream.revision, int(found.group(1)))
        if b'"fresh":true' in block:
            continue  # the first snapshot's recent log is not news
        events_at = block.find(b'"events":[', start)
        events_end = block.find(b'],"fresh":', events_at)
        stream.events += block.count(b'{"kind":', events_at, events_end)


# --------------------------------------------------------------------- the players


class _Players:
    """The four players' connections (keep-alive), the table's PIN, and a copy of the
    game to choose moves from, kept in step with the answers."""

    def __init__(self, base: str, code: str, pin: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connections: dict[str, http.client.HTTPConnection] = {}
        self.host, self.port, self.code, self.pin = host, int(port), code, pin
        self.tokens: dict[str, str] = {}
        self.session: Any = None
        self.header: dict[str, Any] = {}
        self.actions: list[Any] = []
        self.seed = 1000
        self.table = http.client.HTTPConnection(self.host, self.port, timeout=10)

    def request(
        self,
        connection: http.client.HTTPConnection,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        sent = {"Content-Type": "application/json", **(headers or {})}
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {answer}")
        return answer

    def new_game(self) -> None:
        from engine.games import game_module

        pin = {"X-Table-Pin": self.pin}
        room = f"/api/rooms/{self.code}"
        self.seed += 1
        body: dict[str, Any] = {"options": {"players": PLAYERS}, "seed": self.seed}
        self.request(self.table, "POST", f"{room}/game", body, pin)
        # the same deal as the table's, from the seed the table was given (an unfinished
        # game's file is not handed out)
        self.session = game_module("clacks").new(body["options"], self.seed)
        for seat in (s.id for s in self.session.seats):
            if seat not in self.tokens:
                connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
                self.connections[seat] = connection
                claimed = self.request(connection, "POST", f"{room}/seats/{seat}", {"name": seat})
                self.tokens[seat] = claimed["token"]

    def play(self) -> tuple[float, float, int, int]:
        """One action: (sent, answered, revision, public events it announced)."""
        from engine.clacks.selfplay import next_action
        from engine.core.rng import Rng

        action = next_action(
            self.session.clacks, Rng(self.seed + len(self.actions)), fault_chance=0
        )
        assert action.seat is not None  # self-play acts for a seat
        seat = action.seat.label
        sent = time.perf_counter()
        answer = self.request(
            self.connections[seat],
            "POST",
            f"/api/rooms/{self.code}/seats/{seat}/actions",
            {"action": action.to_json()},
            {"X-Seat-Token": self.tokens[seat]},
        )
        answered = time.perf_counter()
        self.session.apply(seat, action.to_json(), 0.0)
        self.actions.append(action)
        return sent, answered, answer["revision"], len(answer["events"])


# --------------------------------------------------------------------- the measure


def measure(args: argparse.Namespace) -> dict[str, Any]:
    duration = float(getattr(args, "duration", None) or 120.0)
    with served() as (_data_dir, process, base, code, pin):
        return _run(process.pid, base, code, pin, duration)


def _run(pid: int, base: str, code: str, pin: str, duration: float) -> dict[str, Any]:
    players = _Players(base, code, pin)
    players.new_game()
    time.sleep(0.5)
    rss_idle = _rss_mb(pid)
    paths = [
        f"/api/rooms/{code}/stream?seat={seat}&token={token}"
        for seat, token in players.tokens.items()
    ] + [f"/api/rooms/{code}/stream"] * SPECTATORS
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    reader = context.Process(
        target=read_streams, args=(players.host, players.port, paths, theirs), daemon=True
    )
    reader.start()
    kind, complete, _ = ours.recv()
    assert kind == "ready"
    while ours.poll(0.3):  # the phones' connections are published too: let them settle
        complete = ours.recv()[1]
    delays: list[float] = []
    answers: list[float] = []
    expected_events = 0
    games = 1
    cpu_before = _cpu_seconds(pid)
    finish = time.perf_counter() + duration
    while time.perf_counter() < finish:
        if players.session.over:
            players.new_game()
            games += 1
            expected_events += 1  # game_started
            continue
        sent, answered, revision, events = players.play()
        expected_events += events
        answers.append((answered - sent) * 1000)
        while complete < revision:
            if not ours.poll(10):
                raise RuntimeError(f"the streams never got revision {revision}")
            _, complete, reached = ours.recv()
            if complete >= revision:
                delays.append((reached - sent) * 1000)
    cpu = _cpu_seconds(pid) - cpu_before
    time.sleep(0.3)
    rss_after = _rss_mb(pid)
    ours.send("stop")
    counts = ours.recv()
    while not isinstance(counts, dict):  # progress the reader sent before it read the stop
        counts = ours.recv()
    reader.join(timeout=10)
    lost = sum(max(0, expected_events - got) for got in counts["events"])
    return {
        "action_to_clients_p50_ms": _percentile(delays, 50),
        "action_to_clients_p99_ms": _percentile(delays, 99),
        "action_answered_p50_ms": _percentile(answers, 50),
        "action_answered_p99_ms": _percentile(answers, 99),
        "events_lost": lost,
        "rss_mb_idle": rss_idle,
        "rss_mb_after_load": rss_after,
        "load_actions": len(delays),
        "load_games": games,
        "load_clients": len(paths),
        "load_seconds": round(duration),
        "load_server_cpu_ms_per_action": round(cpu * 1000 / max(1, len(delays)), 2),
    }


def _cpu_seconds(pid: int) -> float:
    """User and system time the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], percent: int) -> float:
    if not values:
        return 0.0
    if percent == 50:
        return round(statistics.median(values), 2)
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * percent / 100))], 2)
