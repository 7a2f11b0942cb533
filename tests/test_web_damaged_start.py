"""Starting on saves that are not whole, with real SQLite over real HTTP: on a full disk
(a real tmpfs, filled) the companion starts, puts its games back, shows that saving fails
and saves again once there is room; a game whose action rows were removed, a dropped
table of actions and an empty file are set aside with a warning every table screen
shows, and no game is ever resumed shortened."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from browser_support import TV, Page
from live_server import LiveServer, companion
from serve_process import ready
from test_web_api import act, claim, start
from test_web_saves import play, saves
from web_client import call

from engine.clacks.selfplay import next_action
from engine.core.rng import Rng
from engine.games import game_module
from web.hub import Hub
from web.i18n import translate
from web.store import DB_NAME, Store, StoreError

REPO = Path(__file__).resolve().parents[1]
TMPFS_BYTES = 400 * 1024

# In a mount namespace of its own: a small tmpfs holding the saves, filled to the last
# block, and `clacks serve` on it; a line on standard input makes room.
ON_FULL_TMPFS = """
set -e
mount -t tmpfs -o size={size} tmpfs "$1"
cp "$2/{db}" "$1/"
dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null || true
"$3" -m clacks.cli serve --host 127.0.0.1 --port 0 --no-qr --data-dir "$1" &
server=$!
trap 'kill -TERM $server; wait $server; exit $?' TERM
exec 3<&0
(read line; rm -f "$1/filler") <&3 >/dev/null 2>&1 &
wait $server
"""


class Saved(NamedTuple):
    code: str  # the table's
    game_id: int
    actions: list[Any]
    log: Any  # the game's whole log
    tokens: dict[str, str]  # the seats'


def saved_game(data_dir: Path, actions: int) -> Saved:
    """A table with a game of ``actions`` actions saved in ``data_dir``, the companion
    stopped cleanly."""
    with companion(data_dir=data_dir) as server:
        start(server)
        tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
        play(server, tokens, actions=actions)
        record = server.room.record
        assert record is not None
        return Saved(server.code, record.id, list(record.actions), record.log(), tokens)


def move_after(saved: Saved) -> tuple[str, Any]:
    """The seat on turn in the saved game, and a move it may make."""
    session = game_module("clacks").replay(saved.log)
    action = next_action(session.clacks, Rng(7))  # type: ignore[attr-defined]
    assert action.seat is not None
    return action.seat.label, action.to_json()


@pytest.fixture
def tmpfs_allowed(tmp_path: Path) -> None:
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(
        ["unshare", "-rm", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or shutil.which("unshare") is None:
        pytest.skip(f"this machine cannot mount a tmpfs in a namespace: {done.stderr.strip()}")


def serve_on_full_tmpfs(tmp_path: Path, saved: Path) -> subprocess.Popen[str]:
    """`clacks serve` on a copy of the saves in ``saved``, on a full tmpfs of its own; a
    line on its standard input makes room."""
    mountpoint = tmp_path / "tmpfs"
    mountpoint.mkdir()
    script = ON_FULL_TMPFS.format(size=TMPFS_BYTES, db=DB_NAME)
    return subprocess.Popen(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(mountpoint), str(saved), sys.executable],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
    )


def test_the_companion_starts_on_a_full_disk_and_saves_once_there_is_room(
    tmp_path: Path, tmpfs_allowed: None
) -> None:
    saved = saved_game(tmp_path / "saved", 4)
    code, actions = saved.code, saved.actions
    seat, move = move_after(saved)
    path = f"/api/rooms/{code}/seats/{seat}/actions"
    process = serve_on_full_tmpfs(tmp_path, tmp_path / "saved")
    assert process.stdin is not None
    try:
        text, base, served_code, pin = ready(process)
        assert served_code == code and "Traceback" not in text
        assert "Warning: The disk under" in text and "is full" in text, text
        # the game was put back whole, and every page is told that saving fails
        status, snapshot = call(base, "GET", f"/api/rooms/{code}")
        assert status == 200 and snapshot["room"]["saving"] is not None, snapshot
        assert len(snapshot["log_steps"]) >= 1 and snapshot["room"]["game"] == "clacks"
        # a move cannot be kept, so it is not played
        status, body = call(base, "POST", path, {"action": move}, token=saved.tokens[seat])
        assert status == 503 and body["error"] == "not_saved", body
        # room is made on the disk: the companion finds out by itself and saves again
        process.stdin.write("room\n")
        process.stdin.flush()
        deadline = time.monotonic() + 20
        while call(base, "GET", f"/api/rooms/{code}")[1]["room"]["saving"] is not None:
            assert time.monotonic() < deadline, "saving never came back"
            time.sleep(0.2)
        status, body = call(base, "POST", path, {"action": move}, token=saved.tokens[seat])
        assert status == 200, body
        status, listing = call(base, "GET", f"/api/rooms/{code}/saves", pin=pin)
        [game] = [s for s in listing["saves"] if s["table"] == code]
        assert game["moves"] == len(actions) + 1 and not game["damaged"]
        assert process.poll() is None  # it never exited
    finally:
        process.stdin.close()
        process.terminate()
        process.wait(timeout=20)
        assert process.stdout is not None
        out = process.stdout.read()
    assert "Traceback" not in out, out


def remove_rows(data_dir: Path, sql: str, *params: Any) -> None:
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute(sql, params)


def test_a_game_with_action_rows_removed_is_set_aside_and_the_table_screen_says_so(
    tmp_path: Path, browser: Any
) -> None:
    code, game_id, actions, _, _ = saved_game(tmp_path, 8)
    remove_rows(tmp_path, "DELETE FROM actions WHERE game_id = ? AND n >= 3", game_id)
    server = LiveServer(data_dir=tmp_path)
    screens = {lang: Page(browser, f"table-{lang}", **TV) for lang in ("en", "cs")}
    try:
        assert server.code == code and server.room.session is None  # not resumed shortened
        assert any(
            f"it has 3 of its {len(actions)} saved actions" in p for p in server.hub.problems
        )
        status, snapshot = call(server.base, "GET", f"/api/rooms/{code}")
        [notice] = snapshot["room"]["saves_set_aside"]
        assert notice == {
            "kind": "game_set_aside",
            "game": game_id,
            "table": code,
            "moves": len(actions),
        }
        listed = {s["id"]: s for s in saves(server)}
        assert listed[game_id]["damaged"] and listed[game_id]["table"] is None
        path = f"/api/rooms/{code}/saves/{game_id}/resume"
        status, body = call(server.base, "POST", path, pin=server.pin)
        assert status == 409 and body["error"] == "damaged_save"
        for lang, screen in screens.items():
            screen.page.goto(server.url(f"/table/{code}?lang={lang}"))
            screen.page.wait_for_selector("#set-aside:not([hidden])")
            shown = screen.page.inner_text("#set-aside")
            expected = translate(
                lang, "ui.set_aside_game_short", game=game_id, table=code, moves=len(actions)
            )
            assert shown.strip() == expected, (lang, shown)
            assert screen.errors == []
    finally:
        for screen in screens.values():
            screen.context.close()
        server.close()


def test_a_dropped_table_of_actions_resumes_nothing_at_zero(tmp_path: Path) -> None:
    code, _, actions, _, tokens = saved_game(tmp_path, 5)
    remove_rows(tmp_path, "DROP TABLE actions")
    with companion(data_dir=tmp_path) as server:
        assert server.code == code and server.room.session is None
        assert any(
            f"it has 0 of its {len(actions)} saved actions" in p for p in server.hub.problems
        )
        snapshot = call(server.base, "GET", f"/api/rooms/{code}")[1]
        assert [n["kind"] for n in snapshot["room"]["saves_set_aside"]] == ["game_set_aside"]
        start(server)  # the table plays a new game, saved as ever
        assert act(server, "south", tokens["south"], {"type": "move", "tower": "b2c2"})[0] == 200


def test_an_empty_database_file_is_set_aside_with_a_warning(tmp_path: Path) -> None:
    saved_game(tmp_path, 2)
    (tmp_path / DB_NAME).write_bytes(b"")
    for leftover in tmp_path.glob(f"{DB_NAME}-*"):
        leftover.unlink()
    with companion(data_dir=tmp_path) as server:
        [aside] = list(tmp_path.glob(f"{DB_NAME}.corrupt-*"))
        assert aside.stat().st_size == 0
        assert any("the file is empty" in p for p in server.hub.problems)
        snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")[1]
        assert snapshot["room"]["saves_set_aside"] == [{"kind": "file_set_aside", "file": aside.name}]


def test_saves_that_refuse_the_first_table_are_a_clear_error_not_a_traceback(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path)
    store._db.execute("PRAGMA query_only = 1")  # as a memory card gone read-only refuses
    with pytest.raises(StoreError, match="cannot start a table"):
        Hub(store=store)
    store.close()
