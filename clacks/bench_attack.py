"""`clacks bench --attack`: a phone plays while the table is attacked, on loopback only.

`clacks serve` runs in its own process with its saves on the disk, as always. For
``--attack-seconds`` (30 by default) a phone plays a two-player game through the API
(both seats, the self-play policy, a fresh game whenever one ends), timing each of its
requests, while at the same time, from loopback addresses of their own (clacks/attacks.py):

* a slowloris holds 4 addresses x 64 connections, each trickling one byte a second
  into a request that never ends, and opens another whenever one is closed;
* four connections at a time send 300 MB bodies, by Content-Length and chunked;
* a PIN spray guesses the table PIN from a new address for every guess;
* the table screen on the companion's own machine lists the saved games with its
  screen key every second, as its controls would.

Printed: the phone's requests, how many failed, its p50 and p99 in ms; the table screen's
failures; what the attackers got (connections opened and the longest held, bodies refused
and the most any took, guesses answered and refused); and the server's temporary files
and memory at their most.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from clacks.attacks import (
    BodyOutcome,
    Slowloris,
    attacker_address,
    big_body,
    loopback_only,
    pin_guess,
)
from clacks.bench_web import _rss_mb, served
from clacks.percentiles import percentile

SLOWLORIS_DEVICES = 4
SLOWLORIS_PER_DEVICE = 64
BODY_ATTACKERS = 4
BODY_BYTES = 300_000_000
ATTACK_SECONDS_MAX = 600.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--attack",
        action="store_true",
        help="also run the attack soak: a phone plays on loopback while the table is attacked",
    )
    parser.add_argument(
        "--attack-seconds",
        type=_attack_seconds,
        default=30.0,
        metavar="SECONDS",
        help="how long the attack soak lasts (default 30, at most 600)",
    )


def _attack_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 1 <= value <= ATTACK_SECONDS_MAX:
        raise argparse.ArgumentTypeError(f"give 1 to {ATTACK_SECONDS_MAX:.0f} seconds, not {text}")
    return value


class _Phone:
    """A phone playing both seats of a two-player game over one kept-alive connection."""

    def __init__(self, host: str, port: int, code: str, screen_key: str) -> None:
        self.host, self.port, self.code, self.screen_key = host, port, code, screen_key
        self.connection: http.client.HTTPConnection | None = None
        self.seconds: list[float] = []
        self.failed: list[str] = []
        self.tokens: dict[str, str] = {}
        self.session: Any = None  # the game as the phone chooses moves from it
        self.games = 0
        self.moves = 0

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        """One request, timed; a failure is counted and the connection opened afresh."""
        data = json.dumps(body).encode() if body is not None else None
        if data is not None:
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            text = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as exc:
            self.seconds.append(time.perf_counter() - started)
            self.failed.append(f"{method} {path}: {exc!r}")
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return None
        self.seconds.append(time.perf_counter() - started)
        if status >= 300:
            self.failed.append(f"{method} {path}: {status} {text[:200]!r}")
            return None
        return json.loads(text) if text else None

    def warm_up(self) -> None:
        """Load the rules and the self-play policy before the clock starts."""
        from engine.clacks.selfplay import next_action
        from engine.core.rng import Rng
        from engine.games import game_module

        session: Any = game_module("clacks").new({"players": 2}, 1)
        next_action(session.clacks, Rng(1), fault_chance=0)

    def new_game(self) -> None:
        from engine.games import game_module

        room = f"/api/rooms/{self.code}"
        self.games += 1
        body: dict[str, Any] = {"options": {"players": 2}, "seed": 1000 + self.games}
        # the table screen on the companion's machine starts it, with its key, whatever
        # the PIN spray has locked
        self.call("POST", f"{room}/game", body, **{"X-Screen-Key": self.screen_key})
        # the same deal as the table's, from the seed it was given, to choose moves from
        self.session = game_module("clacks").new(body["options"], body["seed"])
        for seat in ("south", "north"):
            if seat not in self.tokens:
                claimed = self.call("POST", f"{room}/seats/{seat}", {"name": seat})
                if claimed is not None:
                    self.tokens[seat] = claimed["token"]

    def play(self, until: float) -> None:
        from engine.clacks.selfplay import next_action
        from engine.core.rng import Rng

        room = f"/api/rooms/{self.code}"
        self.new_game()
        while time.monotonic() < until:
            self.call("GET", room)  # what the phone shows, fetched afresh
            if self.session.over:
                self.new_game()
                continue
            action = next_action(
                self.session.clacks, Rng(self.games * 10_000 + self.moves), fault_chance=0
            )
            assert action.seat is not None  # self-play acts for a seat
            seat = action.seat.label
            answer = self.call(
                "POST",
                f"{room}/seats/{seat}/actions",
                {"action": action.to_json()},
                **{"X-Seat-Token": self.tokens.get(seat, "")},
            )
            if answer is None:
                self.new_game()  # out of step with the table: start again in step
                continue
            self.session.apply(seat, action.to_json(), 0.0)
            self.moves += 1


def _screen_key(host: str, port: int, code: str) -> str:
    """The key the table page on the companion's own screen is handed."""
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("GET", f"/table/{code}", headers={"Host": f"{host}:{port}"})
    page = connection.getresponse().read().decode()
    connection.close()
    return page.split('data-screen-key="', 1)[1].split('"', 1)[0]


def _server_temp_files(pid: int, saves: str) -> int:
    """How many files the server holds open in the temporary directory, besides its
    saves (which the soak keeps there too): a spooled request body would be one."""
    where = os.path.realpath(tempfile.gettempdir()) + "/"
    saves = os.path.realpath(saves) + "/"
    held = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        held += target.startswith(where) and not target.startswith(saves)
    return held


def measure(args: argparse.Namespace) -> dict[str, Any]:
    seconds = min(float(getattr(args, "attack_seconds", None) or 30.0), ATTACK_SECONDS_MAX)
    with served() as (data_dir, process, base, code, _pin):
        return _run(process.pid, base, code, seconds, str(data_dir))


def _attack(host: str, port: int, code: str, seconds: float, pipe: Connection) -> None:
    """Every attack at once for ``seconds``, in a process of its own (so its threads
    never keep the phone's from its turn); what they got goes back through ``pipe``."""
    stop = threading.Event()
    slowloris = Slowloris(
        host,
        port,
        [attacker_address(n) for n in range(SLOWLORIS_DEVICES)],
        SLOWLORIS_PER_DEVICE,
        interval=1.0,
    ).start()
    bodies: list[BodyOutcome] = []

    def send_bodies(n: int) -> None:
        path = f"/api/rooms/{code}/seats/south"
        while not stop.is_set():
            source = attacker_address(100 + n)
            bodies.append(big_body(host, port, path, BODY_BYTES, source, chunked=n % 2 == 1))

    guesses = {"wrong": 0, "locked": 0, "other": 0}

    def spray() -> None:
        n = 0
        while not stop.is_set():
            status = pin_guess(host, port, code, f"{n % 1_000_000:06d}", attacker_address(200 + n))
            guesses[{403: "wrong", 429: "locked"}.get(status, "other")] += 1
            n += 1
            stop.wait(0.05)

    workers = [threading.Thread(target=send_bodies, args=(n,)) for n in range(BODY_ATTACKERS)]
    workers.append(threading.Thread(target=spray))
    for worker in workers:
        worker.daemon = True
        worker.start()
    pipe.send("under way")
    time.sleep(seconds)
    stop.set()
    slowloris.stop()
    for worker in workers:
        worker.join(timeout=15)
    pipe.send(
        {
            "attack_slowloris_connections_opened": slowloris.opened,
            "attack_slowloris_longest_held_s": round(max(slowloris.closed, default=0.0), 1),
            "attack_bodies_sent": len(bodies),
            "attack_bodies_refused_413": sum(b.status == 413 for b in bodies),
            "attack_body_most_taken_kb": round(max((b.sent for b in bodies), default=0) / 1024),
            "attack_pin_guesses_wrong": guesses["wrong"],
            "attack_pin_guesses_locked": guesses["locked"],
        }
    )


def _run(pid: int, base: str, code: str, seconds: float, saves: str) -> dict[str, Any]:
    host, port_text = base.removeprefix("http://").split(":")
    port = int(port_text)
    loopback_only(host)
    key = _screen_key(host, port, code)
    phone = _Phone(host, port, code, key)
    phone.warm_up()
    stop = threading.Event()
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    attackers = multiprocessing.get_context("spawn").Process(
        target=_attack, args=(host, port, code, seconds, theirs), daemon=True
    )
    attackers.start()
    assert ours.recv() == "under way"
    until = time.monotonic() + seconds
    screen = _Phone(host, port, code, key)

    def table_screen() -> None:
        while not stop.is_set():
            screen.call("GET", f"/api/rooms/{code}/saves", **{"X-Screen-Key": key})
            stop.wait(1.0)

    temp_files = [0]
    rss = [0.0]

    def watch_server() -> None:
        while not stop.is_set():
            temp_files[0] = max(temp_files[0], _server_temp_files(pid, saves))
            rss[0] = max(rss[0], _rss_mb(pid))
            stop.wait(0.05)

    watchers = [threading.Thread(target=f, daemon=True) for f in (table_screen, watch_server)]
    for watcher in watchers:
        watcher.start()
    try:
        phone.play(until)
    finally:
        stop.set()
        for watcher in watchers:
            watcher.join(timeout=15)
    figures: dict[str, Any] = ours.recv() if ours.poll(30) else {}
    attackers.join(timeout=10)
    ms = [s * 1000 for s in phone.seconds] or [0.0]
    figures.update(
        {
            "attack_seconds": round(seconds, 1),
            "attack_phone_requests": len(phone.seconds),
            "attack_phone_moves": phone.moves,
            "attack_phone_failed": len(phone.failed),
            "attack_phone_p50_ms": round(percentile(ms, 0.5), 1),
            "attack_phone_p99_ms": round(percentile(ms, 0.99), 1),
            "attack_phone_max_ms": round(max(ms), 1),
            "attack_screen_requests": len(screen.seconds),
            "attack_screen_failed": len(screen.failed),
            "attack_server_temp_files_max": temp_files[0],
            "attack_server_rss_mb_max": rss[0],
        }
    )
    for failure in (phone.failed + screen.failed)[:5]:
        print(f"  failed: {failure}", file=sys.stderr)
    return figures
