"""A full disk never stops the table, over real HTTP and real SQLite (its own
SQLITE_FULL, tests/full_disk.py): the table clock and the bots outlive refused saves, every
page is told, what the table does by itself is tried again, and play resumes by itself
once the disk takes writes again; a person's move meanwhile is refused and changes
nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from full_disk import FullDisk
from live_server import LiveServer, companion
from test_web_api import act, claim, start
from test_web_bots import saved_actions, wait_for
from web_client import EventStream, call

from web.saving import RETRY_SECONDS


@contextmanager
def full_disk_companion(data_dir: Path, **settings: Any) -> Iterator[tuple[LiveServer, FullDisk]]:
    """A companion saving to ``data_dir``, and the disk under its saves, to fill at will."""
    with companion(data_dir=data_dir, **settings) as server:
        yield server, FullDisk(server.hub.store)


def table_stream(server: LiveServer) -> EventStream:
    return EventStream(server.base, f"/api/rooms/{server.code}/stream")


def express(server: LiveServer, turn_seconds: float) -> None:
    status, body = call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/game",
        {"options": {"players": 2, "express": True, "turn_seconds": turn_seconds}, "seed": 10},
        pin=server.pin,
    )
    assert status == 201, body
    for seat in server.room.session.seats:  # type: ignore[union-attr]
        if seat.id not in server.room.seats.claims:  # the clock waits for every seat
            claim(server, seat.id)


def state_where(watcher: EventStream, wanted: Any, seconds: float = 10.0) -> dict[str, Any]:
    """The first state on the stream for which ``wanted(state)`` holds."""
    deadline = time.monotonic() + seconds
    while True:
        state = watcher.next_state(timeout=max(0.1, deadline - time.monotonic()))
        if wanted(state):
            return state
        assert time.monotonic() < deadline, "never came"


def kinds(state: dict[str, Any]) -> list[str]:
    return [event["kind"] for event in state["events"]]


def test_the_table_clock_outlives_a_full_disk_and_the_turn_runs_out_once_it_saves(
    tmp_path: Path,
) -> None:
    with full_disk_companion(tmp_path) as (server, disk):
        express(server, 1)
        watcher = table_stream(server)
        watcher.next_state()
        disk.fill()
        # the turn runs out while nothing can be saved: it is not played, and every page
        # is told why
        trouble = state_where(watcher, lambda s: s["room"]["saving"] is not None)
        assert "full" in trouble["room"]["saving"]["error"]
        assert trouble["room"]["saving"]["failing_since"] <= time.time()
        revision = server.room.revision
        time.sleep(2 * RETRY_SECONDS)  # tried again, and refused again
        assert server.room.revision == revision
        assert server.hub._thread is not None and server.hub._thread.is_alive()
        # the disk has room again: the turn runs out by itself, and the trouble is over
        disk.room()
        resumed = state_where(watcher, lambda s: "time_up" in kinds(s))
        assert resumed["room"]["saving"] is None
        assert saved_actions(server) == server.room.session.log_json()["actions"]  # type: ignore[union-attr]
        # and the clock goes on timing every later game
        express(server, 1)
        state_where(watcher, lambda s: "time_up" in kinds(s) and s["revision"] > revision + 2)
        watcher.close()


def test_a_table_of_bots_stops_on_a_full_disk_and_plays_on_by_itself_after(
    tmp_path: Path,
) -> None:
    with full_disk_companion(tmp_path, bot_pause=0.05) as (server, disk):
        status, body = call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/game",
            {"options": {"players": 2}, "seed": 3, "bots": {"south": "random", "north": "random"}},
            pin=server.pin,
        )
        assert status == 201, body
        room = server.room
        wait_for(lambda: room.revision >= 4)
        disk.fill()
        wait_for(lambda: room.saving.since is not None)
        stopped = room.revision
        time.sleep(2 * RETRY_SECONDS)
        assert room.revision == stopped and room.session is not None and not room.session.over
        snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")[1]
        assert snapshot["room"]["saving"]["error"]
        disk.room()
        wait_for(lambda: room.revision >= stopped + 5, seconds=4 * RETRY_SECONDS + 10)
        assert room.saving.since is None
        assert saved_actions(server) == room.session.log_json()["actions"]


def test_a_move_the_disk_refuses_is_not_played_and_the_next_try_is(tmp_path: Path) -> None:
    with full_disk_companion(tmp_path) as (server, disk):
        start(server)
        south = claim(server, "south")
        watcher = EventStream(
            server.base, f"/api/rooms/{server.code}/stream?seat=south&token={south}"
        )
        watcher.next_state()
        before = server.room.session.log_json()  # type: ignore[union-attr]
        disk.fill()
        status, body = act(server, "south", south, {"type": "move", "tower": "b2c2"})
        assert status == 503 and body["error"] == "not_saved" and "full" in body["message"]
        assert server.room.session.log_json() == before  # type: ignore[union-attr]
        told = state_where(watcher, lambda s: s["room"]["saving"] is not None)
        assert told["revision"] == 1 and told["view"]["you"]["seat"] == "south"
        disk.room()
        status, body = act(server, "south", south, {"type": "move", "tower": "b2c2"})
        assert status == 200, body
        moved = state_where(watcher, lambda s: "moved" in kinds(s))
        assert moved["room"]["saving"] is None  # the stream lived through it all
        watcher.close()


def test_opening_a_table_on_a_full_disk_is_a_clear_503(tmp_path: Path) -> None:
    with full_disk_companion(tmp_path) as (server, disk):
        disk.fill()
        status, body = call(server.base, "POST", "/api/rooms", pin=server.pin)
        assert status == 503 and body["error"] == "not_saved", body
        assert len(server.hub.rooms) == 1
        disk.room()
        status, body = call(server.base, "POST", "/api/rooms", pin=server.pin)
        assert status == 201, body
