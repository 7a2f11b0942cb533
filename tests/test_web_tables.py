"""The companion's tables over real HTTP and real SQLite: one bad saved table never stops
the start, tables can be closed (with their PIN or the main table's), idle ones close by
themselves, and the cap counts only the tables open now, after a restart too."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from full_disk import FullDisk
from live_server import LiveServer, companion
from test_web_api import start
from test_web_bots import wait_for
from web_client import EventStream, call

from web.hub import MAX_ROOMS, Hub
from web.store import DB_NAME, Store


def open_table(server: LiveServer) -> dict[str, str]:
    status, body = call(server.base, "POST", "/api/rooms", pin=server.pin)
    assert status == 201, body
    opened: dict[str, str] = body
    return opened


def start_at(server: LiveServer, table: dict[str, str]) -> None:
    status, body = call(
        server.base,
        "POST",
        f"/api/rooms/{table['code']}/game",
        {"options": {"players": 2}, "seed": 5},
        pin=table["pin"],
    )
    assert status == 201, body


def test_a_table_naming_a_missing_game_is_set_aside_and_the_rest_start(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        start(server)
        other = open_table(server)
        start_at(server, other)
        other_session = server.hub.rooms[other["code"]].session
        assert other_session is not None
        other_log = other_session.log_json()
        main_code = server.code
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.execute("UPDATE rooms SET game_id = 999 WHERE code = ?", (main_code,))
    with companion(data_dir=tmp_path) as again:
        assert again.code == main_code
        status, main_state = call(again.base, "GET", f"/api/rooms/{main_code}")
        assert status == 200 and main_state["room"]["game"] is None and main_state["view"] is None
        listed = call(again.base, "GET", f"/api/rooms/{main_code}/saves", pin=again.pin)[1]
        assert any("999" in problem and main_code in problem for problem in listed["problems"])
        status, other_state = call(again.base, "GET", f"/api/rooms/{other['code']}")
        assert status == 200 and other_state["room"]["game"] == "clacks"
        session = again.hub.rooms[other["code"]].session
        assert session is not None and session.log_json() == other_log
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # set aside: not tried again next time
        assert db.execute("SELECT game_id FROM rooms WHERE code = ?", (main_code,)).fetchone() == (
            None,
        )


def test_rows_no_table_can_have_are_set_aside_and_the_rest_start(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        start(server)
        broken, botted = open_table(server), open_table(server)
        for table in (broken, botted):
            start_at(server, table)
        record = server.hub.rooms[broken["code"]].record
        assert record is not None
        game_id = record.id
        south = call(server.base, "POST", f"/api/rooms/{botted['code']}/seats/south", {})[1]
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.execute("UPDATE rooms SET game_number = 'x' WHERE code = ?", (broken["code"],))
        db.execute(
            "INSERT INTO bot_seats (room, seat, level) VALUES (?, 'north', 'genius')",
            (botted["code"],),
        )
    with companion(data_dir=tmp_path) as again:
        base = again.base
        # the table that cannot be put back is closed; its game is free to resume elsewhere
        assert call(base, "GET", f"/api/rooms/{broken['code']}")[0] == 404
        listed = call(base, "GET", f"/api/rooms/{again.code}/saves", pin=again.pin)[1]
        assert any(broken["code"] in p and "game_number" in p for p in listed["problems"])
        assert any("genius" in p for p in listed["problems"])
        path = f"/api/rooms/{again.code}/saves/{game_id}/resume"
        assert call(base, "POST", path, pin=again.pin)[0] == 200
        # a bot no game has is left out: the seat is free, and the table plays on
        room = again.hub.rooms[botted["code"]]
        assert room.seats.bots == {}
        move = {"action": {"type": "move", "tower": "b2c2"}}
        path = f"/api/rooms/{botted['code']}/seats/south/actions"
        assert call(base, "POST", path, move, token=south["token"])[0] == 200
        assert call(base, "POST", f"/api/rooms/{botted['code']}/seats/north", {})[0] == 200
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # closed: not tried again next time
        rows = db.execute("SELECT code FROM rooms WHERE code = ?", (broken["code"],)).fetchall()
        assert rows == []


def test_a_damaged_game_on_a_full_disk_does_not_stop_the_start(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        start(server)
        game_id = server.game_id
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.execute(
            "INSERT INTO actions (game_id, n, action) VALUES (?, 0, '{\"type\": \"fly\"}')",
            (game_id,),
        )
    store = Store(tmp_path)
    FullDisk(store).fill()  # the mark "damaged" cannot be written either
    hub = Hub(store=store)
    try:
        assert hub.main.session is None
        assert any(str(game_id) in problem for problem in hub.problems)
    finally:
        hub.stop()


def test_tables_close_with_their_pin_and_the_cap_counts_only_open_ones(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        tables = [open_table(server) for _ in range(MAX_ROOMS - 1)]
        status, body = call(server.base, "POST", "/api/rooms", pin=server.pin)
        assert status == 429 and body["error"] == "too_many_tables"
        # a table's own PIN closes it; its game stays with the saved games
        first = tables.pop(0)
        start_at(server, first)
        status, body = call(server.base, "DELETE", f"/api/rooms/{first['code']}", pin="000000")
        assert status == 403 and body["error"] == "bad_pin"
        status, body = call(server.base, "DELETE", f"/api/rooms/{first['code']}", pin=first["pin"])
        assert status == 200 and body == {"closed": first["code"]}
        assert call(server.base, "GET", f"/api/rooms/{first['code']}")[0] == 404
        listed = call(server.base, "GET", f"/api/rooms/{server.code}/saves", pin=server.pin)[1]
        assert [s["table"] for s in listed["saves"]] == [None]
        tables.append(open_table(server))
        # the main table is never closed
        status, body = call(server.base, "DELETE", f"/api/rooms/{server.code}", pin=server.pin)
        assert status == 409 and body["error"] == "main_table"
    # after a restart every open table is back, and closing one (the main table's PIN
    # may close any) makes room for another
    with companion(data_dir=tmp_path) as again:
        assert len(again.hub.rooms) == MAX_ROOMS
        assert call(again.base, "POST", "/api/rooms", pin=again.pin)[0] == 429
        status, _ = call(again.base, "DELETE", f"/api/rooms/{tables[3]['code']}", pin=again.pin)
        assert status == 200
        open_table(again)


def test_an_idle_table_closes_by_itself_and_a_watched_one_stays(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path, table_idle=1.0) as server:
        idle, watched = open_table(server), open_table(server)
        screen = EventStream(server.base, f"/api/rooms/{watched['code']}/stream")
        screen.next_state()
        wait_for(lambda: idle["code"] not in server.hub.rooms, seconds=10)
        assert call(server.base, "GET", f"/api/rooms/{idle['code']}")[0] == 404
        time.sleep(1.5)
        assert watched["code"] in server.hub.rooms and server.code in server.hub.rooms
        screen.close()
        # the screen's going is noticed when its stream is next written to (here a game
        # started; at a quiet table the next keep-alive), and the table is idle from then on
        start_at(server, watched)
        wait_for(lambda: watched["code"] not in server.hub.rooms, seconds=10)
        assert server.code in server.hub.rooms  # the main table never closes
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        assert db.execute("SELECT COUNT(*) FROM rooms").fetchone() == (1,)


def test_the_tables_language_is_the_table_screens_to_set_and_is_kept(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        path = f"/api/rooms/{server.code}/language"
        # only the table switches the table's language (the phones follow it)
        status, body = call(server.base, "POST", path, {"language": "cs"})
        assert status == 403 and body["error"] == "pin_required", body
        status, body = call(server.base, "POST", path, {"language": "de"}, pin=server.pin)
        assert status == 400 and body["params"]["field"] == "language", body
        revision = server.room.revision
        status, body = call(server.base, "POST", path, {"language": "cs"}, pin=server.pin)
        assert (status, body) == (200, {"language": "cs"})
        assert server.room.language == "cs"
        stream = EventStream(server.base, f"/api/rooms/{server.code}/stream")
        try:
            pushed = stream.next_state()
        finally:
            stream.close()
        assert pushed["room"]["language"] == "cs" and server.room.revision == revision
    with companion(data_dir=tmp_path) as again:  # after a restart too
        assert again.room.language == "cs"
