"""Nothing secret in the saves is readable by other users of the machine, with real
SQLite and the real companion: the state directory is 0700 and the database and its
journals 0600 whatever the umask, under `./run` and under systemd alike, saves made
readable by an earlier version are made private when opened, and the table PIN is
never in the file at all (each start makes a new one, kept in memory)."""

from __future__ import annotations

import configparser
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import LiveServer, companion
from test_web_api import claim, start
from test_web_saves import play
from web_client import call

from web.store import DB_NAME, Store

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "clacks.service"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The umask a shared machine often has: everything readable by everyone."""
    was = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(was)


def files_of(directory: Path) -> dict[str, int]:
    return {file.name: mode(file) for file in directory.iterdir()}


def test_new_saves_are_private_to_their_user(tmp_path: Path, open_umask: None) -> None:
    state = tmp_path / "state" / "clacks"
    with companion(data_dir=state) as server:
        start(server)
        tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
        play(server, tokens, actions=4)
        assert mode(state) == 0o700
        found = files_of(state)
        assert {DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"} <= set(found), found
        assert all(bits == 0o600 for bits in found.values()), found


def test_saves_an_earlier_version_left_readable_are_made_private(
    tmp_path: Path, open_umask: None
) -> None:
    state = tmp_path / "clacks"
    Store(state).close()
    state.chmod(0o755)
    for name in (DB_NAME, f"{DB_NAME}-journal"):
        (state / name).touch()
        (state / name).chmod(0o644)
    store = Store(state)
    try:
        assert mode(state) == 0o700
        assert all(bits == 0o600 for bits in files_of(state).values()), files_of(state)
    finally:
        store.close()


def test_the_service_makes_its_state_directory_and_files_private() -> None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    service = parser["Service"]
    assert service["StateDirectory"] == "clacks"
    assert service["StateDirectoryMode"] == "0700"
    assert int(service["UMask"], 8) & 0o077 == 0o077


def file_bytes(state: Path) -> bytes:
    return b"".join(
        (state / name).read_bytes()
        for name in (DB_NAME, f"{DB_NAME}-wal")
        if (state / name).exists()
    )


def test_the_table_pin_is_never_in_the_saves_and_is_new_at_every_start(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        start(server)
        status, other = call(server.base, "POST", "/api/rooms", pin=server.pin)
        assert status == 201
        pins = {server.code: server.pin, other["code"]: other["pin"]}
        with sqlite3.connect(tmp_path / DB_NAME) as db:
            stored = sorted(db.execute("SELECT code, pin FROM rooms"))
        assert stored == sorted((code, "") for code in pins)
        held = file_bytes(tmp_path)
        assert all(pin.encode() not in held for pin in pins.values())
    again = LiveServer(data_dir=tmp_path)
    try:
        fresh = {code: again.hub.rooms[code].pin for code in pins}
        assert all(fresh[code] != pins[code] for code in pins)
        saves = f"/api/rooms/{server.code}/saves"
        assert call(again.base, "GET", saves, pin=pins[server.code])[1]["error"] == "bad_pin"
        assert call(again.base, "GET", saves, pin=again.pin)[0] == 200
    finally:
        again.close()


def test_a_pin_an_earlier_version_saved_is_wiped_from_the_file(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        code = server.code
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # as the earlier version kept it
        db.execute("UPDATE rooms SET pin = '480215' WHERE code = ?", (code,))
    assert b"480215" in file_bytes(tmp_path)
    with companion(data_dir=tmp_path) as server:
        assert server.pin != "480215"
        assert b"480215" not in file_bytes(tmp_path)
