"""A tampered save is always noticed, with real SQLite and the real companion: every
game's actions carry a chain kept beside its count of moves and its revision, so a row
deleted, added, edited or renumbered, or a count or revision out of step, sets the game
aside with a warning instead of resuming it; saves from before the chain are chained
as they stand when first opened, and then guarded like any other."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from live_server import LiveServer, companion
from serve_process import ready
from test_web_damaged_start import (
    Saved,
    saved_game,
    serve_on_full_tmpfs,
    tmpfs_allowed,  # noqa: F401  (a fixture)
)
from web_client import call

from engine.games import game_module
from web.store import DB_NAME, chain_links, seal_before_headers

ACTIONS = 14


def run(data_dir: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    with sqlite3.connect(data_dir / DB_NAME) as db:
        for sql, params in statements:
            db.execute(sql, params)


def renumber_from(data_dir: Path, game_id: int, first: int, by: int) -> None:
    """Rows ``first`` on move by ``by`` (through negative numbers: n is a key)."""
    run(
        data_dir,
        ("UPDATE actions SET n = -n - 1 WHERE game_id = ? AND n >= ?", (game_id, first)),
        ("UPDATE actions SET n = -n - 1 + ? WHERE game_id = ? AND n < 0", (by, game_id)),
    )


def rows_deleted(data_dir: Path, saved: Saved, first: int, count: int) -> None:
    """Rows ``first`` to ``first + count - 1`` deleted, and the count of moves with them."""
    run(
        data_dir,
        (
            "DELETE FROM actions WHERE game_id = ? AND n >= ? AND n < ?",
            (saved.game_id, first, first + count),
        ),
        ("UPDATE games SET moves = moves - ? WHERE id = ?", (count, saved.game_id)),
    )


def last_row_deleted(data_dir: Path, saved: Saved) -> None:
    rows_deleted(data_dir, saved, len(saved.actions) - 1, 1)


def last_ten_deleted(data_dir: Path, saved: Saved) -> None:
    rows_deleted(data_dir, saved, len(saved.actions) - 10, 10)


def last_row_deleted_revision_lowered(data_dir: Path, saved: Saved) -> None:
    last_row_deleted(data_dir, saved)
    run(data_dir, ("UPDATE rooms SET revision = revision - 1 WHERE code = ?", (saved.code,)))


def middle_row_deleted_and_renumbered(data_dir: Path, saved: Saved) -> None:
    middle = len(saved.actions) // 2
    rows_deleted(data_dir, saved, middle, 1)
    renumber_from(data_dir, saved.game_id, middle + 1, -1)


def row_inserted_and_renumbered(data_dir: Path, saved: Saved) -> None:
    """The last action played twice: a row added before it, the count raised."""
    last = len(saved.actions) - 1
    renumber_from(data_dir, saved.game_id, last, 1)
    run(
        data_dir,
        (
            "INSERT INTO actions (game_id, n, action) SELECT game_id, ?, action FROM actions "
            "WHERE game_id = ? AND n = ?",
            (last, saved.game_id, last + 1),
        ),
        ("UPDATE games SET moves = moves + 1 WHERE id = ?", (saved.game_id,)),
    )


def legal_row_added(data_dir: Path, saved: Saved) -> None:
    """A move nobody made, one the rules allow there, added at the end with the count."""
    session = game_module("clacks").replay(saved.log)
    seat = session.active_seats[0]
    added = session.legal_actions(seat, 0.0)[0]
    last = saved.actions[-1]
    row = {**last, "seat": seat, "action": added} if "action" in last else added
    assert game_module("clacks").replay({**saved.log, "actions": [*saved.actions, row]})
    run(
        data_dir,
        (
            "INSERT INTO actions (game_id, n, action) VALUES (?, ?, ?)",
            (saved.game_id, len(saved.actions), json.dumps(row, separators=(",", ":"))),
        ),
        ("UPDATE games SET moves = moves + 1 WHERE id = ?", (saved.game_id,)),
    )


def last_row_edited(data_dir: Path, saved: Saved) -> None:
    """The last action replaced by another the rules allowed there: the game still
    replays, only differently."""
    *before, last = saved.actions
    session = game_module("clacks").replay({**saved.log, "actions": before})
    seat = session.active_seats[0]
    other = next(a for a in session.legal_actions(seat, 0.0) if a != last.get("action", last))
    edited = {**last, "action": other} if "action" in last else other
    assert game_module("clacks").replay({**saved.log, "actions": [*before, edited]})
    run(
        data_dir,
        (
            "UPDATE actions SET action = ? WHERE game_id = ? AND n = ?",
            (json.dumps(edited, separators=(",", ":")), saved.game_id, len(before)),
        ),
    )


def revision_lowered(data_dir: Path, saved: Saved) -> None:
    run(data_dir, ("UPDATE rooms SET revision = revision - 3 WHERE code = ?", (saved.code,)))


def header_edited(data_dir: Path, saved: Saved) -> None:
    """The game's rules changed under its rows: ten minutes a turn instead of one, with
    every action as it was, so the game still replays."""
    options = {**saved.log["options"], "turn_seconds": 600.0}
    assert game_module("clacks").replay({**saved.log, "options": options})
    run(
        data_dir,
        (
            "UPDATE games SET header = json_set(header, '$.options.turn_seconds', 600.0) "
            "WHERE id = ?",
            (saved.game_id,),
        ),
    )


TAMPERS: list[Callable[[Path, Saved], None]] = [
    last_row_deleted,
    last_ten_deleted,
    last_row_deleted_revision_lowered,
    middle_row_deleted_and_renumbered,
    row_inserted_and_renumbered,
    legal_row_added,
    last_row_edited,
    revision_lowered,
    header_edited,
]


def assert_set_aside(data_dir: Path, saved: Saved) -> None:
    with companion(data_dir=data_dir) as server:
        assert server.code == saved.code and server.room.session is None, "resumed tampered"
        assert any(f"Saved game {saved.game_id} was set aside" in p for p in server.hub.problems)
        snapshot = call(server.base, "GET", f"/api/rooms/{saved.code}")[1]
        [notice] = snapshot["room"]["saves_set_aside"]
        assert notice["kind"] == "game_set_aside" and notice["game"] == saved.game_id
        path = f"/api/rooms/{saved.code}/saves"
        listed = {s["id"]: s for s in call(server.base, "GET", path, pin=server.pin)[1]["saves"]}
        assert listed[saved.game_id]["damaged"] and listed[saved.game_id]["table"] is None


@pytest.mark.parametrize("tamper", TAMPERS, ids=[t.__name__ for t in TAMPERS])
def test_a_tampered_save_is_set_aside_with_a_warning(
    tmp_path: Path, tamper: Callable[[Path, Saved], None]
) -> None:
    saved = saved_game(tmp_path, ACTIONS)
    assert len(saved.actions) >= 11
    tamper(tmp_path, saved)
    assert_set_aside(tmp_path, saved)


def test_a_save_from_before_the_chain_resumes_and_is_guarded_from_then_on(
    tmp_path: Path,
) -> None:
    saved = saved_game(tmp_path, ACTIONS)
    run(
        tmp_path,
        ("ALTER TABLE games DROP COLUMN chain", ()),
        ("ALTER TABLE games DROP COLUMN revision", ()),
    )
    server = LiveServer(data_dir=tmp_path)
    try:
        record = server.room.record
        assert record is not None and record.id == saved.game_id
        assert record.actions == saved.actions and not server.hub.problems
    finally:
        server.close()
    last_row_deleted(tmp_path, saved)
    assert_set_aside(tmp_path, saved)


def test_a_save_sealed_before_its_header_was_resumes_and_is_guarded_from_then_on(
    tmp_path: Path,
) -> None:
    """Saves whose seals covered the rows but not the header are sealed afresh as they
    stand when first opened; then a header edited is noticed like any tampering."""
    saved = saved_game(tmp_path, ACTIONS)
    sealed_as_before_headers(tmp_path, saved)
    with companion(data_dir=tmp_path) as server:
        record = server.room.record
        assert record is not None and record.id == saved.game_id
        assert record.actions == saved.actions and not server.hub.problems
    header_edited(tmp_path, saved)
    assert_set_aside(tmp_path, saved)


@pytest.mark.usefixtures("tmpfs_allowed")
def test_a_save_sealed_before_its_header_was_resumes_on_a_full_disk(tmp_path: Path) -> None:
    """A save from before the header was sealed, on a disk with no room left: the
    companion starts and resumes its game, setting nothing aside."""
    saved = saved_game(tmp_path / "saved", ACTIONS)
    sealed_as_before_headers(tmp_path / "saved", saved)
    process = serve_on_full_tmpfs(tmp_path, tmp_path / "saved")
    try:
        text, base, code, _ = ready(process)
        assert code == saved.code and "is full" in text, text
        status, snapshot = call(base, "GET", f"/api/rooms/{code}")
        assert status == 200 and snapshot["room"]["game"] == "clacks", snapshot
        assert snapshot["room"]["saves_set_aside"] == []
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.terminate()
        process.wait(timeout=20)


def sealed_as_before_headers(data_dir: Path, saved: Saved) -> None:
    """The save as a version whose seals did not cover the header left it."""
    with sqlite3.connect(data_dir / DB_NAME) as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY n", (saved.game_id,)
        ).fetchall()
        (revision,) = db.execute(
            "SELECT revision FROM games WHERE id = ?", (saved.game_id,)
        ).fetchone()
    old_seal = seal_before_headers(chain_links([text for (text,) in rows]), revision)
    run(
        data_dir,
        ("UPDATE games SET chain = ? WHERE id = ?", (old_seal, saved.game_id)),
        ("DELETE FROM meta WHERE key = 'seal'", ()),
    )


def test_an_untouched_save_resumes_after_undo_end_and_resume(tmp_path: Path) -> None:
    """The chain follows every way a game's log and revision change: moves, an undo, the
    game put away and put on again, a restart."""
    saved = saved_game(tmp_path, 6)
    with companion(data_dir=tmp_path) as server:
        room = server.room
        assert room.record is not None and room.record.id == saved.game_id
        seat = room.require_session().active_seats[0]
        undo = f"/api/rooms/{saved.code}/seats/{seat}/undo"
        status, undone = call(server.base, "POST", undo, {}, token=saved.tokens[seat])
        assert status == 200, undone
        pin = server.pin
        assert call(server.base, "DELETE", f"/api/rooms/{saved.code}/game", pin=pin)[0] == 200
        resume = f"/api/rooms/{saved.code}/saves/{saved.game_id}/resume"
        assert call(server.base, "POST", resume, pin=pin)[0] == 200
        actions = list(room.record.actions) if room.record is not None else None
    with companion(data_dir=tmp_path) as server:
        assert server.room.record is not None and server.room.record.actions == actions
        assert not server.hub.problems
