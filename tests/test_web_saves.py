"""Saved games over real HTTP and real SQLite: a game comes back exactly after a restart
(its table, PIN, seats and idempotent answers too), undo is stored, the lobby's saved
games (resume, delete, export, import), the replay viewer on the screen and the lamps,
and damaged saves set aside while everything else loads."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, companion
from test_web_api import act, claim, start
from test_web_board import RecordingBoard
from web_client import call

from engine.clacks.selfplay import next_action
from engine.core.rng import Rng, seed_to_hex
from engine.games import game_module
from web.hub import Hub
from web.store import DB_NAME, Store, StoreError


def saves(server: LiveServer) -> list[dict[str, Any]]:
    status, body = call(server.base, "GET", f"/api/rooms/{server.code}/saves", pin=server.pin)
    assert status == 200, body
    listed: list[dict[str, Any]] = body["saves"]
    return listed


def play(
    server: LiveServer, tokens: dict[str, str], actions: int | None = None
) -> list[list[dict[str, Any]]]:
    """Play on with the self-play policy through the API, to the end or for ``actions``;
    the events each action raised."""
    session = server.room.session
    assert session is not None
    rng = Rng(7)
    raised: list[list[dict[str, Any]]] = []
    while not session.over and (actions is None or len(raised) < actions):
        action = next_action(session.clacks, rng)  # type: ignore[attr-defined]
        seat = action.seat.label if action.seat else None
        assert seat is not None
        status, body = act(server, seat, tokens[seat], action.to_json())
        assert status == 200, body
        raised.append(body["events"])
    return raised


def stored_actions(data_dir: Path, game_id: int) -> int:
    with sqlite3.connect(data_dir / DB_NAME) as db:
        count: int = db.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    return count


def test_a_game_comes_back_exactly_after_a_restart(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as first:
        start(first)
        tokens = {"south": claim(first, "south", "Ann"), "north": claim(first, "north", "Bob")}
        play(first, tokens, actions=9)
        key = {"Idempotency-Key": "tap-42"}
        seat = first.room.session.active_seats[0]  # type: ignore[union-attr]
        legal = first.room.session.legal_actions(seat, 0.0)  # type: ignore[union-attr]
        answer = act(first, seat, tokens[seat], legal[0], headers=key)
        assert answer[0] == 200
        code, pin, revision = first.code, first.pin, first.room.revision
        log = first.room.session.log_json()  # type: ignore[union-attr]
        views = {s: first.room.session.view(s) for s in (None, "south", "north")}  # type: ignore[union-attr]

    with companion(data_dir=tmp_path) as again:
        assert (again.code, again.room.revision) == (code, revision)
        assert again.pin != pin  # kept in memory only: each start makes a new one
        session = again.room.session
        assert session is not None and session.log_json() == log
        assert {s: session.view(s) for s in views} == views
        # the phones' tokens still hold their seats, and a retried tap is not played twice
        status, mine = call(
            again.base, "GET", f"/api/rooms/{code}?seat=north", token=tokens["north"]
        )
        assert status == 200 and mine["view"]["you"]["seat"] == "north"
        assert act(again, seat, tokens[seat], legal[0], headers=key) == answer
        assert session.log_json() == log
        assert again.room.room_json()["seats"][0]["name"] == "Ann"


def test_the_database_is_durable_and_holds_exactly_the_acknowledged_log(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        start(server)
        token = claim(server, "south")
        record = server.room.record
        assert record is not None
        db = server.hub.store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert act(server, "south", token, {"type": "move", "tower": "b2c2"})[0] == 200
        assert stored_actions(tmp_path, record.id) == 1
        undo = call(
            server.base, "POST", f"/api/rooms/{server.code}/seats/south/undo", {}, token=token
        )
        assert undo[0] == 200
        assert stored_actions(tmp_path, record.id) == 0
        # a refused action writes nothing
        assert act(server, "south", token, {"type": "move", "tower": "b2b3"})[0] == 422
        assert stored_actions(tmp_path, record.id) == 0
        # no seat token is kept in the clear
        text = (tmp_path / DB_NAME).read_bytes() + (tmp_path / f"{DB_NAME}-wal").read_bytes()
        assert token.encode() not in text


def test_a_second_companion_may_not_share_the_saves(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        with pytest.raises(StoreError, match="already using"):
            Store(tmp_path)
    finally:
        store.close()


def test_table_actions_need_the_table_pin(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    base, code = server.base, server.code
    refused = [
        call(base, "POST", f"/api/rooms/{code}/game", {"options": {"players": 2}}),
        call(base, "POST", f"/api/rooms/{code}/game", {}, pin="000000x"),
        call(base, "DELETE", f"/api/rooms/{code}/game"),
        call(base, "POST", f"/api/rooms/{code}/buttons/b2c2"),
        call(base, "GET", f"/api/rooms/{code}/saves"),
        call(base, "GET", f"/api/rooms/{code}/saves/1/export"),
        call(base, "POST", "/api/rooms"),
        call(base, "DELETE", f"/api/rooms/{code}/seats/south", token="a-guess"),
        call(
            base, "POST", f"/api/rooms/{code}/seats/south/actions", {"action": {}}, pin=server.pin
        ),
    ]
    for status, body in refused:
        assert status == 403 and body["error"] in ("pin_required", "bad_pin", "bad_token"), body
    assert server.room.revision == 1 and server.room.session.log_json()["actions"] == []  # type: ignore[union-attr]
    # the table frees a seat; the phone's token then holds nothing
    status, _ = call(base, "DELETE", f"/api/rooms/{code}/seats/south", pin=server.pin)
    assert status == 200 and "south" not in server.room.seats.claims
    assert act(server, "south", south, {"type": "move", "tower": "b2c2"})[0] == 403
    # another table has its own PIN
    status, other = call(base, "POST", "/api/rooms", pin=server.pin)
    assert status == 201 and other["pin"] != server.pin
    assert call(base, "GET", f"/api/rooms/{other['code']}/saves", pin=server.pin)[0] == 403
    assert call(base, "GET", f"/api/rooms/{other['code']}/saves", pin=other["pin"])[0] == 200


def test_end_resume_delete_export_and_import(tmp_path: Path) -> None:
    server = LiveServer(data_dir=tmp_path)
    base, code, pin = server.base, server.code, server.pin
    try:
        start(server)
        tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
        play(server, tokens, actions=5)
        unfinished = server.room.session.log_json()  # type: ignore[union-attr]
        first_id = server.game_id

        assert call(base, "DELETE", f"/api/rooms/{code}/game", pin=pin)[0] == 200
        assert server.room.session is None
        [listed] = saves(server)
        assert listed["id"] == first_id and listed["table"] is None and not listed["over"]
        assert listed["moves"] == 5 and listed["mode"] == "competitive"
        assert listed["names"]["south"] == "Ann"

        # a new game; the first is resumed later exactly where it was, seats kept
        status, _ = call(
            base,
            "POST",
            f"/api/rooms/{code}/game",
            {"options": {"players": 2}, "seed": 11},
            pin=pin,
        )
        assert status == 201
        play(server, tokens)
        finished_id = server.game_id
        status, body = call(base, "POST", f"/api/rooms/{code}/saves/{first_id}/resume", pin=pin)
        assert status == 200, body
        assert server.room.session is not None and server.room.session.log_json() == unfinished
        assert act(server, "south", tokens["south"], {"type": "end_turn"})[0] in (200, 422)
        # a game on a table cannot be deleted; one put away can
        status, body = call(
            base, "DELETE", f"/api/rooms/{code}/saves/{server.game_id}", pin=pin
        )
        assert status == 409 and body["error"] == "on_a_table"

        # export the finished game and import it back: the same log
        status, exported = call(
            base, "GET", f"/api/rooms/{code}/saves/{finished_id}/export", pin=pin
        )
        assert status == 200 and exported["seed"] == seed_to_hex(11)
        assert exported["names"]["south"] == "Ann"
        status, imported = call(base, "POST", f"/api/rooms/{code}/saves", exported, pin=pin)
        assert status == 201 and imported["over"] is True
        status, again = call(
            base, "GET", f"/api/rooms/{code}/saves/{imported['id']}/export", pin=pin
        )
        assert again == exported
        assert call(base, "DELETE", f"/api/rooms/{code}/saves/{imported['id']}", pin=pin)[0] == 200
        assert call(base, "DELETE", f"/api/rooms/{code}/saves/{imported['id']}", pin=pin)[0] == 404
        assert {s["id"] for s in saves(server)} == {first_id, finished_id}
    finally:
        server.close()


def test_a_bad_replay_file_is_refused_and_changes_nothing(server: LiveServer) -> None:
    start(server)
    good = server.room.session.log_json()  # type: ignore[union-attr]
    path = f"/api/rooms/{server.code}/saves"
    illegal = dict(good, actions=[{"type": "move", "seat": "south", "tower": "b2b3"}])
    cases: list[tuple[Any, bytes | None]] = [
        (None, b"{not json"),
        (None, b"[1, 2, 3]"),
        ({"game": "chess"}, None),
        ({"game": "clacks"}, None),
        (dict(good, seed="ten"), None),
        (dict(good, format=99), None),
        (dict(good, actions=[{"type": "fly"}]), None),
        (illegal, None),
        (dict(good, options={"players": "many"}), None),
    ]
    for body, raw in cases:
        status, answer = call(server.base, "POST", path, body, raw=raw, pin=server.pin)
        assert status == 400 and answer["error"] == "bad_replay" and answer["message"], answer
    status, answer = call(server.base, "POST", path, raw=b" " * (1024 * 1024 + 10), pin=server.pin)
    assert status == 413
    assert len(saves(server)) == 1  # only the game on the table
    status, answer = call(server.base, "POST", path, dict(illegal, actions=[]), pin=server.pin)
    assert status == 201


def test_the_replay_viewer_steps_through_a_finished_game_on_screen_and_lamps() -> None:
    board = RecordingBoard()
    server = LiveServer(board=board)
    base, code, pin = server.base, server.code, server.pin
    try:
        start(server)
        tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
        raised = play(server, tokens, actions=4)
        unfinished_id = server.game_id
        status, body = call(
            base, "POST", f"/api/rooms/{code}/replay", {"save": unfinished_id}, pin=pin
        )
        assert status == 409 and body["error"] == "not_finished"
        raised += play(server, tokens)
        session = server.room.session
        assert session is not None and session.over
        log = session.log_json()
        assert len(raised) == len(log["actions"])
        game_id = server.game_id

        status, body = call(base, "POST", f"/api/rooms/{code}/replay", {"save": game_id}, pin=pin)
        assert status == 200 and body == {"step": 0, "steps": len(log["actions"])}
        module = game_module("clacks")
        for step in (0, 3, len(log["actions"]), 10**6, -5):
            status, body = call(
                base, "POST", f"/api/rooms/{code}/replay/step", {"step": step}, pin=pin
            )
            assert status == 200
            shown = max(0, min(step, len(log["actions"])))
            expected = module.replay({**log, "actions": log["actions"][:shown]})
            snapshot = call(base, "GET", f"/api/rooms/{code}")[1]
            assert snapshot["replay"]["step"] == shown
            assert snapshot["replay"]["view"] == json.loads(json.dumps(expected.view(None)))
            # what the step's action did, as it was told when it was played
            assert snapshot["replay"]["events"] == (raised[shown - 1] if shown else [])
            assert snapshot["view"] is None  # phones keep their seats and wait
            assert board.frames[-1] == expected.lamps()
            assert '"seed"' not in json.dumps(snapshot) and '"actions"' not in json.dumps(snapshot)
        # the step may not be sent without the PIN; closing leaves the table empty
        assert call(base, "POST", f"/api/rooms/{code}/replay/step", {"step": 1})[0] == 403
        assert call(base, "DELETE", f"/api/rooms/{code}/replay", pin=pin)[0] == 200
        assert call(base, "GET", f"/api/rooms/{code}")[1]["replay"] is None
    finally:
        server.close()


def test_a_corrupt_database_is_set_aside_and_a_new_one_started(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"this is no database" * 100)
    with companion(data_dir=tmp_path) as server:
        [problem] = server.hub.problems
        assert "could not be read" in problem and "set aside" in problem
        aside = list(tmp_path.glob(f"{DB_NAME}.corrupt-*"))
        assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is no database")
        start(server)  # the fresh saves work
        status, body = call(server.base, "GET", f"/api/rooms/{server.code}/saves", pin=server.pin)
        assert status == 200 and body["problems"] == [problem] and len(body["saves"]) == 1


def test_a_game_that_cannot_be_replayed_is_set_aside_and_the_rest_load(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        start(server)
        tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
        play(server, tokens, actions=6)
        status, other = call(server.base, "POST", "/api/rooms", pin=server.pin)
        other_room = server.hub.room(other["code"])
        other_room.new_game("clacks", {"players": 3}, 5)
        south = other_room.seats.claim("south", "Cy", None)["token"]
        other_room.act("south", south, {"type": "move", "tower": "b2c2"})
        assert other_room.session is not None
        other_log = other_room.session.log_json()
        broken_id, main_code = server.game_id, server.code
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # the third action now cannot be played
        db.execute(
            "UPDATE actions SET action = ? WHERE game_id = ? AND n = 2",
            (json.dumps({"type": "move", "seat": "north", "tower": "a1b1"}), broken_id),
        )
    with companion(data_dir=tmp_path) as again:
        assert again.code == main_code and again.room.session is None
        assert any(f"Saved game {broken_id} was set aside" in p for p in again.hub.problems)
        resumed = again.hub.room(other["code"]).session
        assert resumed is not None and resumed.log_json() == other_log
        listed = {s["id"]: s for s in saves(again)}
        assert listed[broken_id]["damaged"] and listed[broken_id]["table"] is None
        status, body = call(
            again.base, "POST", f"/api/rooms/{main_code}/saves/{broken_id}/resume", pin=again.pin
        )
        assert status == 409 and body["error"] == "damaged_save"
        # it can still be exported as stored, to look into, and deleted
        status, raw = call(
            again.base, "GET", f"/api/rooms/{main_code}/saves/{broken_id}/export", pin=again.pin
        )
        assert status == 200 and len(raw["actions"]) == 6
        path = f"/api/rooms/{main_code}/saves/{broken_id}"
        assert call(again.base, "DELETE", path, pin=again.pin)[0] == 200
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # a row that is not even JSON
        other_id = db.execute(
            "SELECT game_id FROM rooms WHERE code = ?", (other["code"],)
        ).fetchone()[0]
        db.execute("UPDATE actions SET action = '{oops' WHERE game_id = ?", (other_id,))
    with companion(data_dir=tmp_path) as third:
        assert third.hub.room(other["code"]).session is None
        assert any("cannot be read" in p for p in third.hub.problems)


def test_a_change_that_cannot_be_saved_is_not_played(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(server)
    token = claim(server, "south")
    room = server.room
    before = (room.revision, room.session.log_json())  # type: ignore[union-attr]

    def disk_full(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(room.store, "save_change", disk_full)
    status, body = act(server, "south", token, {"type": "move", "tower": "b2c2"})
    assert status == 503 and body["error"] == "not_saved" and "disk is full" in body["message"]
    assert (room.revision, room.session.log_json()) == before  # type: ignore[union-attr]
    assert room.saving.since is not None  # the pages are told (seq moved on for that alone)
    monkeypatch.undo()
    assert act(server, "south", token, {"type": "move", "tower": "b2c2"})[0] == 200
    assert room.saving.since is None


def test_an_express_turn_keeps_its_time_over_a_restart_and_a_put_away(tmp_path: Path) -> None:
    now = [1000.0]
    hub = Hub(clock=lambda: now[0], store=Store(tmp_path, lambda: now[0]))
    room = hub.main
    room.new_game("clacks", {"players": 2, "express": True}, seed=4)
    assert room.session is not None
    seat = room.session.active_seats[0]
    token = room.seats.claim(seat, "Ann", None)["token"]
    other = next(s.id for s in room.session.seats if s.id != seat)
    room.seats.claim(other, "Bob", None)  # the clock runs once every seat is taken
    now[0] = 1010.0
    move = next(a for a in room.session.legal_actions(seat, now[0]) if a["type"] == "move")
    room.act(seat, token, move)
    assert room.table_clock.deadline() == 1060.0
    hub.stop()

    now[0] = 5000.0  # the plug was pulled at 1010 and the companion is back at 5000
    hub = Hub(clock=lambda: now[0], store=Store(tmp_path, lambda: now[0]))
    room = hub.main
    assert room.session is not None
    assert room.table_clock.deadline() == 5050.0  # the 50 seconds left at the last action
    assert not room.table_clock.tick()
    assert room.session.log_json()["actions"][-1]["type"] == "resume_clock"
    assert room.game_log is not None  # the log, derived from the saves, tells of it
    assert room.game_log.steps[-1].events[0]["kind"] == "clock_resumed"
    log = room.session.log_json()
    hub.stop()

    now[0] = 5010.0  # back again 10 s later: the resume itself was saved
    hub = Hub(clock=lambda: now[0], store=Store(tmp_path, lambda: now[0]))
    room = hub.main
    assert room.session is not None
    assert room.session.log_json()["actions"][: len(log["actions"])] == log["actions"]
    assert room.table_clock.deadline() == 5060.0
    game_id = room.record.id  # type: ignore[union-attr]
    room.end_game()  # put away for a while, then resumed from the lobby
    now[0] = 7000.0
    room.resume(game_id)
    assert room.table_clock.deadline() == 7050.0
    hub.stop()


def test_an_unfinished_game_hands_out_its_secret_only_when_revealed_and_is_then_closed(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    start(server)
    tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
    play(server, tokens, actions=3)
    game_id = server.game_id
    base, code, pin = server.base, server.code, server.pin
    export = f"/api/rooms/{code}/saves/{game_id}/export"
    # in play: no file, not even to the companion's own screen
    status, body = call(base, "GET", export, pin=pin)
    assert status == 409 and body["error"] == "unfinished" and body["params"]["table"] == code
    assert "every hand" in body["message"]
    # put away: no file either
    assert call(base, "DELETE", f"/api/rooms/{code}/game", pin=pin)[0] == 200
    status, body = call(base, "GET", export, pin=pin)
    assert status == 409 and body["error"] == "unfinished" and body["params"]["table"] is None
    # meanwhile someone else sits at South in another game; resumed, the game's seats
    # are its own players' again, and only theirs
    status, _ = call(base, "POST", f"/api/rooms/{code}/game", {"options": {"players": 2}}, pin=pin)
    assert status == 201
    assert call(base, "DELETE", f"/api/rooms/{code}/seats/south", pin=pin)[0] == 200
    carl = claim(server, "south", "Carl")
    status, _ = call(base, "POST", f"/api/rooms/{code}/saves/{game_id}/resume", pin=pin)
    assert status == 200 and len(server.room.session.log_json()["actions"]) == 3  # type: ignore[union-attr]
    legal = f"/api/rooms/{code}/seats/south/legal"
    assert call(base, "GET", legal, token=carl)[1]["error"] == "bad_token"
    assert call(base, "GET", legal, token=tokens["south"])[0] == 200
    # revealed on purpose: the file, the game taken off its table, said in the log, and
    # never played again
    status, exported = call(base, "POST", f"/api/rooms/{code}/saves/{game_id}/reveal", pin=pin)
    assert status == 200 and len(exported["actions"]) == 3 and "seed" in exported
    assert server.room.session is None
    assert any(
        "revealed" in r.getMessage() and str(game_id) in r.getMessage() for r in caplog.records
    )
    [listed] = [s for s in saves(server) if s["id"] == game_id]
    assert listed["revealed"] is not None and listed["table"] is None and not listed["over"]
    status, body = call(base, "POST", f"/api/rooms/{code}/saves/{game_id}/resume", pin=pin)
    assert status == 409 and body["error"] == "revealed"
    status, again = call(base, "GET", export, pin=pin)
    assert status == 200 and again == exported
    # an unfinished game read back from a file is a new game: nobody holds its seats
    status, imported = call(base, "POST", f"/api/rooms/{code}/saves", exported, pin=pin)
    assert status == 201
    status, _ = call(base, "POST", f"/api/rooms/{code}/saves/{imported['id']}/resume", pin=pin)
    assert status == 200 and server.room.seats.claims == {}


def test_a_game_in_play_is_revealed_only_at_its_own_table(server: LiveServer) -> None:
    start(server)
    game_id = server.game_id
    status, other = call(server.base, "POST", "/api/rooms", pin=server.pin)
    assert status == 201
    path = f"/api/rooms/{other['code']}/saves/{game_id}/reveal"
    status, body = call(server.base, "POST", path, pin=other["pin"])
    assert status == 409 and body["error"] == "on_another_table"
    assert server.room.session is not None and not saves(server)[0]["revealed"]
