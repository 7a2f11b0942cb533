"""Pulled plugs: the real `clacks serve` killed with SIGKILL at random moments while four
tables play scripted games through the API, and started again on the same saves.

After every restart, every table's game must be exactly the log of its last
acknowledged action (checked in the saves on the disk and through the public view), or
that log plus the one request that was in flight when the server died (committed, not
yet answered).
Then the request is retried with its Idempotency-Key, and the game must be exactly the
acknowledged log: never lost, never played twice.

CLACKS_CRASH_GAMES sets how many games are played (default 200).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from clacks_setup import seat_label
from web_client import call

from engine.clacks.selfplay import next_action
from engine.core.interface import JSON, Session
from engine.core.rng import Rng
from engine.games import game_module
from web.store import DB_NAME

GAMES = int(os.environ.get("CLACKS_CRASH_GAMES", "200"))
TABLES = 4
KILL_EVERY = (0.1, 0.8)  # seconds between kills, uniformly at random
CONFIGS: list[tuple[str, JSON]] = [
    ("clacks", {"players": 2}),
    ("clacks", {"players": 3}),
    ("clacks", {"players": 4, "quick": True}),
    ("clacks", {"mode": "coop", "players": 2}),
    ("clacks", {"mode": "coop", "players": 3, "long_distance": True}),
    ("clacks", {"mode": "solitaire", "players": 1, "night_shift": True}),
    ("clacks", {"mode": "junior", "players": 2}),
    ("clacks-trainer", {"kind": "mixed", "questions": 6}),
]


def stored_log(data_dir: Path, game_id: int) -> JSON:
    """A game's log as the saves on the disk hold it, read beside the running server."""
    with contextlib.closing(sqlite3.connect(data_dir / DB_NAME)) as db:
        (header,) = db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        actions = db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
    return {**json.loads(header), "actions": [json.loads(action) for (action,) in actions]}


class Lost(Exception):
    """The server went away during a request."""


class Server:
    """`clacks serve` as a child process on a free loopback port, on ``data_dir``."""

    def __init__(self, data_dir: Path, log: Path) -> None:
        self.data_dir = data_dir
        self.log = log
        self.starts = 0
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "clacks.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", "0", "--no-qr", "--threads", "24", "--data-dir", str(self.data_dir)]
        with open(self.log, "a") as errors:
            self.process = subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        assert self.process.stdout is not None
        text = ""
        while "Ctrl+C" not in text:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(f"clacks serve did not start:\n{text}\n{self.log.read_text()}")
            text += line
        found = re.search(r"Phones join:\s+(http://[\d.:]+)/join/([A-Z]+)", text)
        pin = re.search(r"Table PIN:\s+(\d+)", text)
        assert found and pin, text
        self.base, self.code, self.pin = found.group(1), found.group(2), pin.group(1)
        # every table's PIN is new at every start, and printed with it
        self.pins = {self.code: self.pin, **dict(re.findall(r"Table ([A-Z]+) PIN: (\d+)", text))}
        self.problems = [line for line in text.splitlines() if "Warning" in line]
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        self.starts += 1

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@dataclass
class Table:
    code: str
    pin: str
    rng: random.Random
    tokens: dict[str, str] = field(default_factory=dict)
    game_id: int | None = None
    header: JSON = field(default_factory=dict)
    acked: list[JSON] = field(default_factory=list)
    session: Session | None = None
    revision: int = 0
    budget: int = 0
    inflight: tuple[Any, ...] | None = None  # what was being asked when the server died
    planned: JSON | None = None  # the next action the policy chose

    def log(self, actions: list[JSON] | None = None) -> JSON:
        return {**self.header, "actions": self.acked if actions is None else actions}


class Harness:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.cond = threading.Condition()
        self.generation = 0
        self.paused = False
        self.waiting = 0
        self.running = TABLES
        self.games_done = 0
        self.kills = 0
        self.verified = 0
        self.retried = 0
        self.in_flight_committed = 0
        self.actions = 0
        self.failure: BaseException | None = None

    # ----------------------------------------------------------------- requests

    def call(self, method: str, path: str, body: Any = None, **kwargs: Any) -> tuple[int, Any]:
        with self.cond:
            self._wait_while(lambda: self.paused)
            base, generation = self.server.base, self.generation
            table = re.match(r"/api/rooms/([A-Z]+)", path)
            if "pin" in kwargs and table is not None:
                # asked before a restart, sent after it: with the PIN the table has now
                kwargs["pin"] = self.server.pins.get(table.group(1), kwargs["pin"])
        try:
            status, answer = call(base, method, path, body, **kwargs)
        except (OSError, http.client.HTTPException):
            raise Lost(generation) from None
        assert status < 500, (method, path, status, answer)
        return status, answer

    def _wait_while(self, condition: Any) -> None:
        if not condition():
            return
        self.waiting += 1
        self.cond.notify_all()
        while condition():
            self.cond.wait()
        self.waiting -= 1

    def park(self, generation: int) -> None:
        """Wait for the server to be back (and the tables checked) after it died."""
        with self.cond:
            self._wait_while(lambda: self.generation == generation or self.paused)

    # ----------------------------------------------------------------- the killer

    def kill_and_restart(self, tables: list[Table]) -> None:
        with self.cond:
            self.paused = True
        self.server.kill()
        self.kills += 1
        with self.cond:  # every table's client has noticed, and waits
            while self.waiting < self.running:
                self.cond.wait(0.05)
        self.server.start()
        assert not self.server.problems, self.server.problems
        for table in tables:
            table.pin = self.server.pins[table.code]
            self.verify_after_restart(table)
        with self.cond:
            self.generation += 1
            self.paused = False
            self.cond.notify_all()

    def saved_game(self, table: Table, direct: bool = False) -> tuple[int | None, JSON | None]:
        """The game on ``table`` as the server has it (``direct``: asked by the killer,
        while the clients wait)."""
        pin = table.pin

        def ask(path: str, **kwargs: Any) -> tuple[int, Any]:
            return (
                call(self.server.base, "GET", path, **kwargs)
                if direct
                else self.call("GET", path, **kwargs)
            )

        status, listed = ask(f"/api/rooms/{table.code}/saves", pin=pin)
        assert status == 200, listed
        on_table = [s["id"] for s in listed["saves"] if s["table"] == table.code]
        if not on_table:
            return None, None
        game_id = on_table[0]
        # an unfinished game's file is not handed out: its log is read from the saves
        log = stored_log(self.server.data_dir, game_id)
        # the game in play is the game in the log, to the last lamp
        status, snapshot = ask(f"/api/rooms/{table.code}")
        expected = game_module(log["game"]).replay(log).view(None)
        assert snapshot["view"] == json.loads(json.dumps(expected))
        return game_id, log

    def verify_after_restart(self, table: Table) -> None:
        game_id, log = self.saved_game(table, direct=True)
        kind = table.inflight[0] if table.inflight else None
        if kind == "new_game" and game_id != table.game_id:
            assert log is not None and log["actions"] == []
        elif kind == "end_game" and game_id is None:
            pass
        elif table.game_id is None:
            assert game_id is None
        else:
            assert game_id == table.game_id and log is not None
            allowed = [table.log()]
            if kind == "action":
                allowed.append(table.log([*table.acked, table.inflight[3]]))  # type: ignore[index]
            elif kind == "undo":
                allowed.append(table.log(table.acked[:-1]))
            assert log in allowed, (kind, len(log["actions"]), len(table.acked))
            if log != table.log():
                self.in_flight_committed += 1
        self.verified += 1


# --------------------------------------------------------------------- a table's client


def play_table(harness: Harness, table: Table) -> None:
    try:
        while True:
            with harness.cond:
                if harness.games_done >= GAMES or harness.failure is not None:
                    return
            try:
                if table.inflight is not None:
                    resolve(harness, table)
                step(harness, table)
            except Lost as lost:
                harness.park(lost.args[0])
    except BaseException as exc:
        harness.failure = exc
    finally:
        with harness.cond:
            harness.running -= 1
            harness.cond.notify_all()


def step(harness: Harness, table: Table) -> None:
    session = table.session
    if session is None or session.over or table.budget <= 0:
        if session is not None:
            with harness.cond:
                harness.games_done += 1
            if not session.over:
                table.inflight = ("end_game",)
                harness.call("DELETE", f"/api/rooms/{table.code}/game", pin=table.pin)
                table.inflight, table.game_id = None, None
        start_game(harness, table)
        return
    seat = choose_seat(table, session)
    if seat not in table.tokens:
        claim(harness, table, seat)
        return
    if session.can_undo(seat) and table.rng.random() < 0.15:
        key = uuid.uuid4().hex
        table.inflight = ("undo", seat, key)
        send_undo(harness, table, seat, key)
        return
    action = choose_action(table, session, seat)
    trial = game_module(session.game).replay(table.log())
    trial.apply(seat, action, 0.0)
    stored = trial.log_json()["actions"][-1]
    key = uuid.uuid4().hex
    table.inflight = ("action", seat, key, stored, action)
    send_action(harness, table, seat, key, action, stored)


def choose_seat(table: Table, session: Session) -> str:
    if session.game == "clacks":
        action = next_action(session.clacks, Rng(table.rng.randrange(2**32)))  # type: ignore[attr-defined]
        table.planned = action.to_json()
        return seat_label(action)
    return session.active_seats[0]


def choose_action(table: Table, session: Session, seat: str) -> JSON:
    if session.game == "clacks":
        assert table.planned is not None
        return table.planned
    return table.rng.choice(session.legal_actions(seat, 0.0))


def send_action(
    harness: Harness, table: Table, seat: str, key: str, action: JSON, stored: JSON
) -> None:
    status, answer = harness.call(
        "POST",
        f"/api/rooms/{table.code}/seats/{seat}/actions",
        {"action": action},
        token=table.tokens[seat],
        headers={"Idempotency-Key": key},
    )
    assert status == 200, (action, answer)
    table.acked.append(stored)
    table.session = game_module(table.header["game"]).replay(table.log())
    table.revision = answer["revision"]
    table.budget -= 1
    table.inflight = None
    harness.actions += 1


def send_undo(harness: Harness, table: Table, seat: str, key: str) -> None:
    status, answer = harness.call(
        "POST",
        f"/api/rooms/{table.code}/seats/{seat}/undo",
        {},
        token=table.tokens[seat],
        headers={"Idempotency-Key": key},
    )
    assert status == 200, answer
    table.acked.pop()
    table.session = game_module(table.header["game"]).replay(table.log())
    table.inflight = None
    harness.actions += 1


def claim(harness: Harness, table: Table, seat: str) -> None:
    table.inflight = ("claim", seat)
    path = f"/api/rooms/{table.code}/seats/{seat}"
    status, answer = harness.call("POST", path, {"name": seat})
    if status == 409:  # claimed by a request whose answer the crash swallowed
        harness.call("DELETE", path, pin=table.pin)
        status, answer = harness.call("POST", path, {"name": seat})
    assert status == 200, answer
    table.tokens[seat] = answer["token"]
    table.inflight = None


def start_game(harness: Harness, table: Table) -> None:
    game, options = table.rng.choice(CONFIGS)
    table.inflight = ("new_game",)
    body = {"game": game, "options": options, "seed": table.rng.randrange(2**32)}
    status, answer = harness.call("POST", f"/api/rooms/{table.code}/game", body, pin=table.pin)
    assert status == 201, answer
    adopt_game(harness, table)


def adopt_game(harness: Harness, table: Table) -> None:
    game_id, log = harness.saved_game(table)
    assert game_id is not None and log is not None
    table.game_id, table.acked = game_id, list(log["actions"])
    table.header = {k: v for k, v in log.items() if k != "actions"}
    table.session = game_module(log["game"]).replay(log)
    table.budget = table.rng.randint(12, 40)
    table.tokens = {
        s: t for s, t in table.tokens.items() if s in [i.id for i in table.session.seats]
    }
    table.inflight = None


def resolve(harness: Harness, table: Table) -> None:
    """Finish what the crash interrupted: the retried request must not act twice."""
    assert table.inflight is not None
    kind = table.inflight[0]
    harness.retried += 1
    if kind == "action":
        _, seat, key, stored, action = table.inflight
        send_action(harness, table, seat, key, action, stored)
    elif kind == "undo":
        _, seat, key = table.inflight
        send_undo(harness, table, seat, key)
    elif kind == "new_game":
        game_id, _ = harness.saved_game(table)
        if game_id is not None and game_id != table.game_id:
            adopt_game(harness, table)
        else:
            start_game(harness, table)
        return
    elif kind == "end_game":
        if harness.saved_game(table)[0] is not None:
            harness.call("DELETE", f"/api/rooms/{table.code}/game", pin=table.pin)
        table.inflight, table.game_id = None, None
        start_game(harness, table)
        return
    elif kind == "claim":
        claim(harness, table, table.inflight[1])
        return
    # after the retry the game is exactly the acknowledged log
    game_id, log = harness.saved_game(table)
    assert game_id == table.game_id and log == table.log()


# --------------------------------------------------------------------- the test


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "state", tmp_path / "server.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.slow
def test_every_game_survives_being_killed_at_random_moments(served: Server) -> None:
    chooser = random.Random(20261121)
    harness = Harness(served)
    tables = [Table(served.code, served.pin, random.Random(chooser.randrange(2**32)))]
    for _ in range(TABLES - 1):
        status, created = call(served.base, "POST", "/api/rooms", pin=served.pin)
        assert status == 201
        tables.append(
            Table(created["code"], created["pin"], random.Random(chooser.randrange(2**32)))
        )
    threads = [threading.Thread(target=play_table, args=(harness, t), daemon=True) for t in tables]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads) and harness.failure is None:
        time.sleep(chooser.uniform(*KILL_EVERY))
        if harness.running:
            harness.kill_and_restart(tables)
    for thread in threads:
        thread.join(timeout=30)
    if harness.failure is not None:
        raise harness.failure
    elapsed = time.monotonic() - started
    print(
        f"\ncrash test: {harness.games_done} games, {harness.actions} actions, "
        f"{harness.kills} SIGKILLs, {harness.verified} table checks after restarts, "
        f"{harness.in_flight_committed} in-flight requests found committed, "
        f"{harness.retried} retried, {elapsed:.0f} s"
    )
    assert harness.games_done >= GAMES
    assert harness.kills >= 10 and harness.verified == harness.kills * TABLES
