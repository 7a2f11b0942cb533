"""Saved games: every game's action log in SQLite, written before anyone is told.

One database file (``clacks.db``) in the companion's state directory, opened with the
standard library's ``sqlite3`` in WAL mode with ``synchronous=FULL``: a transaction is
on the disk when ``COMMIT`` returns, so a pulled plug loses nothing that was answered,
pushed to a page or shown on the lamps. The web layer calls ``save_change`` from its
one change path before it publishes anything, and rolls the game back if the write
fails.

What is kept, per table (``rooms``): its code, language, the digests of its seat
tokens with the players' names, the seats bots play (``bot_seats``: seat and level), its
settings (``room_settings``: whether phones may ask for hints), its revision and the
game on it. Per game (``games``
and ``actions``): the header of the game's log (``Session.log_json()`` without its
``actions``: game, options, seed...) and one row per action, so an undo deletes the
last row and the table always holds exactly the acknowledged log. A game also keeps
who held its seats when it left its table (``holders``: seat -> token digest and name),
so only they hold them again when it is resumed, and when its secret was let out
(``revealed``: an unfinished game exported on purpose, closed for play from then on). ``answers`` keeps the
answers to requests sent with an Idempotency-Key, so a retry after a restart gets the
first answer instead of playing twice.

A file that is not a database this version can use (an empty file too: SQLite would take
it for a new one) is renamed ``*.corrupt-<time>`` and a fresh one started; a game whose
rows cannot be read or replayed, whose actions are fewer than its ``moves`` says
(rows deleted, the ``actions`` table dropped), or whose rows, count or revision do not
match its chain (see "the chain" below), is marked damaged and left out, never resumed
shortened, and every other game loads. What was set aside is told to every page
of every table (``notices``), without any detail of the game's secrets.

Nothing in the file is for other users of the machine: the state directory is made (or
made again) 0700, and the database and its journals 0600, whatever the umask. Nor is the
table PIN kept in it at all: each table's PIN lives in the companion's memory, made
afresh at every start (web/security.py), so the file, read or copied, opens nothing. A
save from before this keeps a ``pin`` column, which is emptied when it is opened.

A full disk does not keep the companion from starting. With no room even for SQLite's
shared-memory index beside the file, opening in the usual way fails, so the file is
opened again in exclusive locking mode (the index kept in memory, which one process
holding the directory's lock can afford): the saved games are read and put back, and
the store notes the trouble (``trouble``) so every table shows that saving fails until
a write succeeds again.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.interface import JSON

log = logging.getLogger("clacks.store")

DB_NAME = "clacks.db"
LOCK_NAME = "clacks.lock"
DIRECTORY_MODE = 0o700
FILE_MODE = 0o600
JOURNALS = ("-wal", "-shm", "-journal")  # SQLite's files beside the database
SCHEMA_VERSION = 1
ANSWERS_KEPT = 256  # idempotent answers kept per game
LISTED = 200  # saved games listed in the lobby, newest first
PROBE_BYTES = 3 * 4096  # what a write to learn whether the disk takes writes adds: new pages

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    pin TEXT NOT NULL,
    language TEXT NOT NULL,
    main INTEGER NOT NULL DEFAULT 0,
    names TEXT NOT NULL DEFAULT '{}',
    game_number INTEGER NOT NULL DEFAULT 0,
    revision INTEGER NOT NULL DEFAULT 0,
    game_id INTEGER,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL,
    seat TEXT NOT NULL,
    token_digest TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS bot_seats (
    room TEXT NOT NULL,
    seat TEXT NOT NULL,
    level TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS room_settings (
    room TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (room, key)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    seats TEXT NOT NULL DEFAULT '[]',
    names TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    moves INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    imported INTEGER NOT NULL DEFAULT 0,
    damaged TEXT,
    holders TEXT,
    revealed REAL,
    chain TEXT,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    seat TEXT NOT NULL,
    key TEXT NOT NULL,
    answer TEXT NOT NULL,
    UNIQUE (game_id, seat, key)
);
"""
TABLES = {
    "meta",
    "rooms",
    "seats",
    "bot_seats",
    "room_settings",
    "games",
    "actions",
    "answers",
}


def disk_refused(exc: BaseException) -> bool:
    """Whether SQLite failed because the disk would not take or give bytes (full, an
    I/O error), as opposed to a file that is not a database it can use."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)


class StoreError(Exception):
    """The saves cannot be used at all (another companion holds them, no disk)."""


class DamagedGame(Exception):
    """A saved game whose rows cannot be read back; it is set aside, not loaded."""

    def __init__(self, problem: str, moves: int | None = None) -> None:
        super().__init__(problem)
        self.moves = moves  # how many actions it should have, when that is known


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def split_log(log_json: JSON) -> tuple[JSON, list[JSON]]:
    """A game's log as its header and its actions (``Session.log_json`` keeps the
    actions, in order, under ``actions``; everything else is the header)."""
    actions = log_json.get("actions")
    if not isinstance(actions, list):
        raise ValueError("a game's log must list its actions under 'actions'")
    header = {k: v for k, v in log_json.items() if k != "actions"}
    return header, list(actions)


# ------------------------------------------------------------------ the chain
#
# Every game's actions carry a chain: link n is the SHA-256 of link n-1, the row's number
# and the row's text as stored, from CHAIN_START. What ``games.chain`` keeps is the last
# link sealed with the game's count of moves, the table revision it was last saved at
# (``games.revision``, equal to its table's ``rooms.revision`` while it is on a table),
# and the game and its log's header (its options, seed and components). A row deleted,
# added, edited or renumbered, a count or revision changed, or a header edited (a game
# that would replay under other rules) no longer matches it, and the game is set aside
# as damaged. It is no secret: a forger who recomputes the whole chain goes unnoticed,
# as the README says.

CHAIN_START = hashlib.sha256(b"Clacks Exchange saved actions").hexdigest()


def chain_link(previous: str, n: int, text: str) -> str:
    return hashlib.sha256(f"{previous}\n{n}\n{text}".encode()).hexdigest()


def chain_links(texts: list[str], start: str = CHAIN_START, first: int = 0) -> list[str]:
    """The links after each of ``texts`` (rows ``first``, ``first`` + 1, ...)."""
    links: list[str] = []
    link = start
    for n, text in enumerate(texts, first):
        link = chain_link(link, n, text)
        links.append(link)
    return links


def chain_seal(links: list[str], revision: int, game: str, header: JSON) -> str:
    """What ``games.chain`` holds for a ``game`` whose rows give ``links``, saved at
    ``revision`` with its log's ``header``."""
    last = links[-1] if links else CHAIN_START
    sealed = f"{last}\n{len(links)}\n{revision}\n{game}\n{_dumps(header)}"
    return hashlib.sha256(sealed.encode()).hexdigest()


def seal_before_headers(links: list[str], revision: int) -> str:
    """What ``games.chain`` held before the seal covered the game and its header (saves
    whose meta has no ``seal``): read once, to seal such a game afresh."""
    last = links[-1] if links else CHAIN_START
    return hashlib.sha256(f"{last}\n{len(links)}\n{revision}".encode()).hexdigest()


SEAL_FORMAT = "header"  # meta's ``seal``: the seals cover each game and its header


def _seal_headers(db: sqlite3.Connection) -> bool:
    """Saves sealed before the seal covered each game's header are sealed afresh, in one
    transaction, each game whose rows, count and revision still match its old seal; any
    other keeps the seal it had, which no longer matches, and is set aside when loaded.
    False if the disk refused: the old seals are then taken as they are until the next
    start does it (a game is not set aside for the disk's sake)."""
    if db.execute("SELECT 1 FROM meta WHERE key = 'seal'").fetchone() is not None:
        return True
    try:
        _seal_afresh(db)
    except sqlite3.OperationalError as exc:
        if not disk_refused(exc):
            raise
        log.warning("the saves' seals are made afresh at the next start: %s", exc)
        return False
    return True


def _seal_afresh(db: sqlite3.Connection) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        games = db.execute(
            "SELECT id, game, header, chain, revision FROM games WHERE chain IS NOT NULL"
        ).fetchall()
        for game_id, game, header_text, chain, revision in games:
            rows = db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
            links = chain_links([text for (text,) in rows])
            if chain != seal_before_headers(links, revision):
                continue
            db.execute(
                "UPDATE games SET chain = ? WHERE id = ?",
                (chain_seal(links, revision, game, _loads_dict(header_text)), game_id),
            )
        db.execute("INSERT INTO meta (key, value) VALUES ('seal', ?)", (SEAL_FORMAT,))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # a full disk may have rolled it back already
            db.execute("ROLLBACK")
        raise


def _forget_pins(db: sqlite3.Connection) -> None:
    """Saves from before the PIN was kept in memory only held it in ``rooms.pin``: it is
    wiped, its old bytes overwritten (``secure_delete``) and the write-ahead log emptied,
    so no copy of it stays in the file. A disk that refuses leaves it for the next start;
    it opens nothing by then, as each start makes new PINs."""
    if db.execute("SELECT 1 FROM rooms WHERE pin != '' LIMIT 1").fetchone() is None:
        return
    try:
        db.execute("PRAGMA secure_delete=ON")
        db.execute("UPDATE rooms SET pin = ''")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError as exc:
        log.warning("the old table PINs stay in the saves for now: %s", exc)
    finally:
        db.execute("PRAGMA secure_delete=OFF")


def _add_new_columns(db: sqlite3.Connection) -> None:
    """Saves from before some columns were kept get them, and games from before the
    chain are chained, in one transaction: an interrupted upgrade is done again."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    missing = [
        (column, kind)
        for column, kind in (
            ("holders", "TEXT"),
            ("revealed", "REAL"),
            ("chain", "TEXT"),
            ("revision", "INTEGER NOT NULL DEFAULT 0"),
        )
        if column not in columns
    ]
    if not missing:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for column, kind in missing:
            db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
        if "chain" not in columns:
            _chain_old_saves(db)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _chain_old_saves(db: sqlite3.Connection) -> None:
    """Saves from before the chain: each game whose rows are whole (numbered from 0, as
    many as its count) is chained as it stands, at its table's revision; one that is not
    is left without a chain and set aside when it is loaded, as it would have been. The
    rows are all the evidence there is of such a game, so trusting them once is what
    keeps every game the player had."""
    on_tables = dict(db.execute("SELECT game_id, revision FROM rooms WHERE game_id IS NOT NULL"))
    games = db.execute("SELECT id, moves, game, header FROM games").fetchall()
    for game_id, moves, game, header_text in games:
        rows = db.execute(
            "SELECT n, action FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
        if [n for n, _ in rows] != list(range(moves)):
            continue
        revision = int(on_tables.get(game_id, 0))
        links = chain_links([text for _, text in rows])
        db.execute(
            "UPDATE games SET chain = ?, revision = ? WHERE id = ?",
            (chain_seal(links, revision, game, _loads_dict(header_text)), revision, game_id),
        )


@dataclass
class GameRecord:
    """A game as stored: what ``save_change`` compares the next log against, with the
    chain's link after each of its actions."""

    id: int
    game: str
    header: JSON
    actions: list[JSON] = field(default_factory=list)
    links: list[str] = field(default_factory=list)

    def log(self) -> JSON:
        return {**self.header, "actions": list(self.actions)}


@dataclass
class SavedSeat:
    digest: str
    name: str


@dataclass
class SavedRoom:
    code: str
    language: str
    main: bool
    names: dict[str, str]
    game_number: int
    revision: int
    game_id: int | None
    seats: dict[str, SavedSeat]
    bots: dict[str, str] = field(default_factory=dict)  # seat -> bot level
    hints: bool = False  # phones may ask for hints


class Store:
    """The saves of one companion. Thread-safe: one connection behind one lock."""

    def __init__(self, directory: Path | None, clock: Callable[[], float] = time.time) -> None:
        """Open (or create) the saves in ``directory``; None keeps them in memory only."""
        self.directory = directory
        self.clock = clock
        self.problems: list[str] = []  # what was wrong with the saves found, in words
        # the same for every page of every table to show: what was set aside, no details
        self.notices: list[JSON] = []
        # why the saves refused writes when they were opened (None: they did not)
        self.trouble: sqlite3.Error | None = None
        self._lock = threading.Lock()
        self._lock_file: Any = None
        self._old_seals = False  # the disk refused to seal the games' headers yet
        if directory is None:
            self.path: Path | None = None
            self._db = self._connect(":memory:")
            return
        try:
            directory.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot keep saved games in {directory}: {exc}") from None
        self.path = directory / DB_NAME
        self._keep_private(directory)
        self._hold_directory(directory)
        try:
            if self.path.is_file() and self.path.stat().st_size == 0:
                raise sqlite3.DatabaseError("the file is empty")
            self._db = self._connect_private()
        except sqlite3.DatabaseError as exc:
            if disk_refused(exc):
                self._db = self._open_on_full_disk(exc)
                return
            aside = self._set_aside(str(exc))
            self.problems.append(
                f"The saved games in {self.path} could not be read ({exc}); the file was "
                f"set aside as {aside.name} and a new one started."
            )
            self.notices.append({"kind": "file_set_aside", "file": aside.name})
            try:
                self._db = self._connect_private()
            except sqlite3.DatabaseError as again:
                raise StoreError(f"cannot start new saves in {directory}: {again}") from None
        except OSError as exc:
            raise StoreError(f"cannot read the saved games in {directory}: {exc}") from None

    def _open_on_full_disk(self, exc: sqlite3.DatabaseError) -> sqlite3.Connection:
        """The saves, opened on a disk that takes no more: read as they are, every write
        refused until there is room again."""
        log.error("the saves refuse writes as they are opened: %s", exc)
        try:
            db = self._connect(str(self.path), exclusive=True)
        except sqlite3.DatabaseError as again:
            raise StoreError(
                f"cannot read the saved games in {self.path}: {again} (is the disk full?)"
            ) from None
        self.trouble = exc
        self.problems.append(
            f"The disk under {self.path} is full ({exc}): the saved games were read, but "
            "nothing new can be saved until there is room."
        )
        return db

    # ----------------------------------------------------------------- opening

    def _connect_private(self) -> sqlite3.Connection:
        """The saves, opened; a new file is made 0600 before SQLite opens it, since SQLite
        gives its journals the database file's mode."""
        assert self.path is not None
        if not self.path.exists():
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        return self._connect(str(self.path))

    def _keep_private(self, directory: Path) -> None:
        """The state directory 0700 and the saves 0600, however they were made (saves from
        before this were 0755 and 0644): nobody else on the machine reads them."""
        assert self.path is not None
        try:
            directory.chmod(DIRECTORY_MODE)
            for name in ("", *JOURNALS):
                file = Path(f"{self.path}{name}")
                if file.exists():
                    file.chmod(FILE_MODE)
        except OSError as exc:
            log.warning("cannot make the saves private to this user: %s", exc)
            self.problems.append(
                f"The saved games in {directory} may be readable by other users of this "
                f"machine ({exc}); make the folder 0700 and its files 0600."
            )

    def _hold_directory(self, directory: Path) -> None:
        """One companion per state directory: two would both write the same tables."""
        try:
            descriptor = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, FILE_MODE)
            handle = os.fdopen(descriptor, "a+")
        except OSError as exc:
            raise StoreError(f"cannot keep saved games in {directory}: {exc}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreError(
                f"another Clacks companion is already using {directory}; stop it first "
                "or give this one another --data-dir"
            ) from None
        self._lock_file = handle

    def _connect(self, target: str, exclusive: bool = False) -> sqlite3.Connection:
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=10)
        try:
            if exclusive:  # before WAL is first used: no shared-memory file is ever made
                db.execute("PRAGMA locking_mode=EXCLUSIVE")
            if target != ":memory:":
                mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise sqlite3.DatabaseError(f"cannot use write-ahead logging ({mode})")
            db.execute("PRAGMA synchronous=FULL")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise sqlite3.DatabaseError("this is not a Clacks Exchange save file")
            if "meta" in tables:
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None or row[0] != str(SCHEMA_VERSION):
                    found = row[0] if row else "none"
                    raise sqlite3.DatabaseError(
                        f"save format {found}; this version reads {SCHEMA_VERSION}"
                    )
            db.executescript(SCHEMA)
            _add_new_columns(db)
            self._old_seals = not _seal_headers(db)
            _forget_pins(db)
            db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)",
                (str(SCHEMA_VERSION),),
            )
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _set_aside(self, reason: str) -> Path:
        assert self.path is not None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                source.rename(Path(f"{aside}{suffix}"))
        log.error("saved games unreadable (%s); set aside as %s", reason, aside)
        return aside

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._lock_file is not None:
                self._lock_file.close()
                self._lock_file = None

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, durable on the disk when the block ends without error."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def probe(self) -> None:
        """A durable write needing new pages, as a move of a long game does, to learn
        whether the disk takes writes again; it leaves nothing behind."""
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', ?)", ("x" * PROBE_BYTES,)
            )
            db.execute("DELETE FROM meta WHERE key = 'probe'")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    # ----------------------------------------------------------------- tables

    def rooms(self) -> list[SavedRoom]:
        rows = self._read(
            "SELECT code, language, main, names, game_number, revision, game_id "
            "FROM rooms ORDER BY main DESC, created"
        )
        seats: dict[str, dict[str, SavedSeat]] = {}
        for room, seat, digest, name in self._read(
            "SELECT room, seat, token_digest, name FROM seats"
        ):
            seats.setdefault(room, {})[seat] = SavedSeat(digest, name)
        bots: dict[str, dict[str, str]] = {}
        for room, seat, level in self._read("SELECT room, seat, level FROM bot_seats"):
            bots.setdefault(room, {})[seat] = level
        hints = {
            room
            for (room,) in self._read(
                "SELECT room FROM room_settings WHERE key = 'hints' AND value = '1'"
            )
        }
        return [
            SavedRoom(
                code=code,
                language=language,
                main=bool(main),
                names=_loads_dict(names),
                game_number=game_number,
                revision=revision,
                game_id=game_id,
                seats=seats.get(code, {}),
                bots=bots.get(code, {}),
                hints=code in hints,
            )
            for code, language, main, names, game_number, revision, game_id in rows
        ]

    def set_language(self, code: str, language: str) -> None:
        """Table ``code`` speaks ``language`` from now (its phones follow it)."""
        with self._write() as db:
            db.execute("UPDATE rooms SET language = ? WHERE code = ?", (language, code))

    def add_room(self, code: str, language: str, main: bool) -> None:
        """A new table; its PIN is not kept (it is made afresh at every start)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO rooms (code, pin, language, main, created) VALUES (?, '', ?, ?, ?)",
                (code, language, int(main), self.clock()),
            )

    def remove_room(self, code: str) -> None:
        """Table ``code`` is closed: its seats and settings go, its games stay saved."""
        with self._write() as db:
            self._keep_holders(db, code)
            for table in ("seats", "bot_seats", "room_settings"):
                db.execute(f"DELETE FROM {table} WHERE room = ?", (code,))
            db.execute("DELETE FROM rooms WHERE code = ? AND main = 0", (code,))

    def set_seat(self, code: str, seat: str, digest: str, name: str) -> None:
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO seats (room, seat, token_digest, name) VALUES (?, ?, ?, ?)",
                (code, seat, digest, name),
            )
            self._name_in_game(db, code, seat, name)

    def free_seat(self, code: str, seat: str) -> None:
        """Nobody holds ``seat`` any more: neither a person nor a bot."""
        with self._write() as db:
            db.execute("DELETE FROM seats WHERE room = ? AND seat = ?", (code, seat))
            db.execute("DELETE FROM bot_seats WHERE room = ? AND seat = ?", (code, seat))

    def free_seats(self, code: str) -> None:
        """Nobody holds any seat of table ``code`` any more: neither people nor bots."""
        with self._write() as db:
            db.execute("DELETE FROM seats WHERE room = ?", (code,))
            db.execute("DELETE FROM bot_seats WHERE room = ?", (code,))

    def set_bot(self, code: str, seat: str, level: str) -> None:
        """A bot of ``level`` plays ``seat`` from now on (a person's claim on it ends)."""
        with self._write() as db:
            db.execute("DELETE FROM seats WHERE room = ? AND seat = ?", (code, seat))
            db.execute(
                "INSERT OR REPLACE INTO bot_seats (room, seat, level) VALUES (?, ?, ?)",
                (code, seat, level),
            )

    def set_hints(self, code: str, allowed: bool) -> None:
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO room_settings (room, key, value) VALUES (?, 'hints', ?)",
                (code, "1" if allowed else "0"),
            )

    def _name_in_game(self, db: sqlite3.Connection, code: str, seat: str, name: str) -> None:
        row = db.execute(
            "SELECT games.id, games.names FROM rooms JOIN games ON games.id = rooms.game_id "
            "WHERE rooms.code = ?",
            (code,),
        ).fetchone()
        if row is not None and name:
            names = _loads_dict(row[1])
            names[seat] = name
            db.execute("UPDATE games SET names = ? WHERE id = ?", (_dumps(names), row[0]))

    def _keep_holders(self, db: sqlite3.Connection, code: str) -> None:
        """The game on table ``code`` leaves it: who holds its seats now goes with it."""
        row = db.execute(
            "SELECT games.id, games.seats FROM rooms JOIN games ON games.id = rooms.game_id "
            "WHERE rooms.code = ?",
            (code,),
        ).fetchone()
        if row is None:
            return
        game_id, seats = row[0], set(_loads_list(row[1]))
        held = {
            seat: [digest, name]
            for seat, digest, name in db.execute(
                "SELECT seat, token_digest, name FROM seats WHERE room = ?", (code,)
            )
            if seat in seats
        }
        db.execute("UPDATE games SET holders = ? WHERE id = ?", (_dumps(held), game_id))

    def holders(self, game_id: int) -> dict[str, SavedSeat] | None:
        """Who held a saved game's seats when it left its table (None: not known, a game
        saved before this was kept)."""
        rows = self._read("SELECT holders FROM games WHERE id = ?", (game_id,))
        if not rows or rows[0][0] is None:
            return None
        return {
            seat: SavedSeat(str(held[0]), str(held[1]))
            for seat, held in _loads_dict(rows[0][0]).items()
            if isinstance(held, list) and len(held) == 2
        }

    def _keep_seats(self, db: sqlite3.Connection, code: str, seats: list[str]) -> None:
        marks = ",".join("?" * len(seats))
        for table in ("seats", "bot_seats"):
            db.execute(
                f"DELETE FROM {table} WHERE room = ? AND seat NOT IN ({marks})",
                (code, *seats),
            )

    # ----------------------------------------------------------------- a table's game

    def start_game(
        self,
        code: str,
        game: str,
        log_json: JSON,
        seats: list[str],
        names: dict[str, str],
        room_names: dict[str, str],
        revision: int,
        game_number: int,
        language: str,
        bots: dict[str, str] | None = None,
        freed: tuple[str, ...] = (),
    ) -> GameRecord:
        """A new game on table ``code``; the game it had stays saved. ``names`` are the
        players' names kept with the game, ``room_names`` those typed in the lobby;
        ``bots`` (seat -> level), when given, are exactly the seats bots play from now;
        the people holding ``freed`` seats are let go with the old game."""
        header, actions = split_log(log_json)
        texts = [_dumps(a) for a in actions]
        links = chain_links(texts)
        now = self.clock()
        with self._write() as db:
            self._keep_holders(db, code)
            game_id = _insert_game(db, game, header, texts, links, seats, names, now, revision)
            db.execute(
                "UPDATE rooms SET game_id = ?, revision = ?, game_number = ?, names = ?, "
                "language = ? WHERE code = ?",
                (game_id, revision, game_number, _dumps(room_names), language, code),
            )
            self._keep_seats(db, code, [seat for seat in seats if seat not in freed])
            if bots is not None:
                self._set_bots(db, code, bots)
        return GameRecord(game_id, game, header, actions, links)

    def _set_bots(self, db: sqlite3.Connection, code: str, bots: dict[str, str]) -> None:
        db.execute("DELETE FROM bot_seats WHERE room = ?", (code,))
        db.executemany(
            "INSERT INTO bot_seats (room, seat, level) VALUES (?, ?, ?)",
            [(code, seat, level) for seat, level in bots.items()],
        )

    def save_change(
        self,
        code: str,
        record: GameRecord,
        log_json: JSON,
        revision: int,
        over: bool,
        result: JSON | None,
        answer: tuple[str, str, JSON] | None = None,
    ) -> None:
        """Make the stored log of ``record`` equal ``log_json`` (an action more, or one
        taken back), in one durable transaction with the table's revision and, for a
        request with an Idempotency-Key, its answer (seat, key, answer). ``record`` is
        updated only once the transaction is committed."""
        header, actions = split_log(log_json)
        kept = 0
        stored = record.actions
        while kept < len(stored) and kept < len(actions) and stored[kept] == actions[kept]:
            kept += 1
        texts = [_dumps(actions[n]) for n in range(kept, len(actions))]
        links = record.links[:kept]
        links += chain_links(texts, links[-1] if links else CHAIN_START, kept)
        with self._write() as db:
            if header != record.header:
                db.execute("UPDATE games SET header = ? WHERE id = ?", (_dumps(header), record.id))
            if kept < len(stored):
                db.execute("DELETE FROM actions WHERE game_id = ? AND n >= ?", (record.id, kept))
            db.executemany(
                "INSERT INTO actions (game_id, n, action) VALUES (?, ?, ?)",
                [(record.id, n, text) for n, text in enumerate(texts, kept)],
            )
            db.execute(
                "UPDATE games SET moves = ?, over = ?, result = ?, updated = ?, chain = ?, "
                "revision = ? WHERE id = ?",
                (
                    len(actions),
                    int(over),
                    _dumps(result) if result is not None else None,
                    self.clock(),
                    chain_seal(links, revision, record.game, header),
                    revision,
                    record.id,
                ),
            )
            db.execute("UPDATE rooms SET revision = ? WHERE code = ?", (revision, code))
            if answer is not None:
                self._keep_answer(db, record.id, *answer)
        record.header = header
        record.actions = actions
        record.links = links

    def _keep_answer(
        self, db: sqlite3.Connection, game_id: int, seat: str, key: str, answer: JSON
    ) -> None:
        db.execute(
            "INSERT OR REPLACE INTO answers (game_id, seat, key, answer) VALUES (?, ?, ?, ?)",
            (game_id, seat, key, _dumps(answer)),
        )
        db.execute(
            "DELETE FROM answers WHERE game_id = ? AND id <= (SELECT id FROM answers "
            "WHERE game_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
            (game_id, game_id, ANSWERS_KEPT),
        )

    def answers(self, game_id: int) -> list[tuple[str, str, JSON]]:
        rows = self._read(
            "SELECT seat, key, answer FROM answers WHERE game_id = ? ORDER BY id", (game_id,)
        )
        kept = []
        for seat, key, answer in rows:
            with contextlib.suppress(ValueError):
                kept.append((seat, key, json.loads(answer)))
        return kept

    def put_away(self, code: str, revision: int) -> None:
        """Take the game off table ``code``; it stays saved."""
        with self._write() as db:
            self._keep_holders(db, code)
            db.execute(
                "UPDATE rooms SET game_id = NULL, revision = ? WHERE code = ?", (revision, code)
            )

    def put_on(
        self,
        code: str,
        record: GameRecord,
        revision: int,
        game_number: int,
        seats: list[str],
        bots: dict[str, str] | None = None,
        holders: dict[str, SavedSeat] | None = None,
    ) -> None:
        """Put saved game ``record`` on table ``code`` (its current game stays saved);
        ``bots``, when given, are exactly the seats bots play from now, ``holders``, when
        given, exactly the people who hold its seats (else the table's keep them). Its
        chain is sealed afresh at the table's revision."""
        game_id = record.id
        with self._write() as db:
            self._keep_holders(db, code)
            db.execute(
                "UPDATE rooms SET game_id = ?, revision = ?, game_number = ? WHERE code = ?",
                (game_id, revision, game_number, code),
            )
            db.execute(
                "UPDATE games SET chain = ?, revision = ? WHERE id = ?",
                (chain_seal(record.links, revision, record.game, record.header), revision, game_id),
            )
            self._keep_seats(db, code, seats)
            if holders is not None:
                db.execute("DELETE FROM seats WHERE room = ?", (code,))
                db.executemany(
                    "INSERT INTO seats (room, seat, token_digest, name) VALUES (?, ?, ?, ?)",
                    [(code, seat, held.digest, held.name) for seat, held in holders.items()],
                )
            if bots is not None:
                self._set_bots(db, code, bots)

    def exists(self, game_id: int) -> bool:
        return bool(self._read("SELECT 1 FROM games WHERE id = ?", (game_id,)))

    def finished_or_open(self, game_id: int) -> bool:
        """Whether a saved game's file may leave the companion: it is over, its secret
        was let out already, or it is damaged (never to be played again)."""
        rows = self._read("SELECT over, revealed, damaged FROM games WHERE id = ?", (game_id,))
        return bool(rows) and any(value for value in rows[0])

    def revealed(self, game_id: int) -> float | None:
        rows = self._read("SELECT revealed FROM games WHERE id = ?", (game_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    def reveal(self, game_id: int) -> float:
        """Note that a game's secret was let out (now, unless it was before); when."""
        with self._write() as db:
            db.execute(
                "UPDATE games SET revealed = ? WHERE id = ? AND revealed IS NULL",
                (self.clock(), game_id),
            )
            (when,) = db.execute("SELECT revealed FROM games WHERE id = ?", (game_id,)).fetchone()
        return float(when)

    def table_of(self, game_id: int) -> str | None:
        rows = self._read("SELECT code FROM rooms WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    # ----------------------------------------------------------------- saved games

    def load(self, game_id: int) -> tuple[GameRecord, dict[str, str]]:
        """A saved game's log and names; DamagedGame if its rows cannot be read, or do
        not match their count, their chain or their table's revision."""
        rows = self._read(
            "SELECT g.game, g.header, g.names, g.damaged, g.moves, g.chain, g.revision, "
            "r.revision FROM games g LEFT JOIN rooms r ON r.game_id = g.id WHERE g.id = ?",
            (game_id,),
        )
        if not rows:
            raise KeyError(game_id)
        game, header_text, names_text, damaged, moves, chain, revision, table_revision = rows[0]
        if damaged:
            raise DamagedGame(damaged)
        actions: list[JSON] = []
        texts: list[str] = []
        try:
            header = json.loads(header_text)
            if not isinstance(header, dict):
                raise ValueError("the header is not a JSON object")
            for n, (index, text) in enumerate(
                self._read("SELECT n, action FROM actions WHERE game_id = ? ORDER BY n", (game_id,))
            ):
                if index != n:
                    raise ValueError(f"action {n + 1} is missing")
                actions.append(json.loads(text))
                texts.append(text)
        except (ValueError, TypeError) as exc:
            raise DamagedGame(f"its saved rows cannot be read: {exc}") from None
        if len(actions) != moves:
            # rows lost off the end (or a table of them dropped): never play on shortened
            raise DamagedGame(f"it has {len(actions)} of its {moves} saved actions", moves)
        links = chain_links(texts)
        record = GameRecord(game_id, str(game), header, actions, links)
        _check_chain(record, chain, revision, table_revision, self._old_seals)
        return record, _loads_dict(names_text)

    def mark_damaged(self, game_id: int, problem: str) -> None:
        """Set a game aside: kept in the file for inspection, never loaded again."""
        with self._write() as db:
            db.execute("UPDATE games SET damaged = ? WHERE id = ?", (problem[:500], game_id))
            db.execute("UPDATE rooms SET game_id = NULL WHERE game_id = ?", (game_id,))
        self.problems.append(f"Saved game {game_id} was set aside: {problem}")

    def set_aside_damaged(
        self, game_id: int, damage: DamagedGame, table: str | None = None
    ) -> None:
        """``mark_damaged`` while the tables are put back: a disk that refuses the mark
        leaves the game out for this run all the same (it is looked at again next time).
        Every page is told, in the words of ``notices`` (the problem itself may name
        what the game keeps secret, so only the saves' own list shows it)."""
        problem = str(damage)
        log.error("saved game %s set aside: %s", game_id, problem)
        self.notices.append(
            {"kind": "game_set_aside", "game": game_id, "table": table, "moves": damage.moves}
        )
        try:
            self.mark_damaged(game_id, problem)
        except (sqlite3.Error, OSError) as exc:
            self.problems.append(
                f"Saved game {game_id} was left out: {problem} (it could not be marked: {exc})"
            )

    def set_aside_missing(self, code: str, game_id: int) -> None:
        """Table ``code`` names a game the saves no longer hold: the table starts without."""
        problem = f"Table {code} had saved game {game_id}, which is missing; it starts without one."
        log.error("%s", problem)
        self.problems.append(problem)
        self.notices.append({"kind": "game_missing", "game": game_id, "table": code})
        with contextlib.suppress(sqlite3.Error, OSError), self._write() as db:
            db.execute("UPDATE rooms SET game_id = NULL WHERE code = ?", (code,))

    def raw_log(self, game_id: int) -> JSON:
        """What is stored of a game, even a damaged one, as a log (for export)."""
        header_rows = self._read("SELECT header FROM games WHERE id = ?", (game_id,))
        if not header_rows:
            raise KeyError(game_id)
        header = _loads_dict(header_rows[0][0])
        actions: list[Any] = []
        for (text,) in self._read(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
        ):
            try:
                actions.append(json.loads(text))
            except ValueError:
                actions.append(text)
        return {**header, "actions": actions}

    def listing(self) -> list[JSON]:
        rows = self._read(
            "SELECT g.id, g.game, g.seats, g.names, g.header, g.created, g.updated, g.moves, "
            "g.over, g.result, g.imported, g.damaged, g.revealed, r.code FROM games g "
            "LEFT JOIN rooms r ON r.game_id = g.id ORDER BY g.updated DESC LIMIT ?",
            (LISTED,),
        )
        listed = []
        for (
            game_id,
            game,
            seats,
            names,
            header,
            created,
            updated,
            moves,
            over,
            result,
            imported,
            damaged,
            revealed,
            table,
        ) in rows:
            options = _loads_dict(header).get("options")
            mode = options.get("mode") if isinstance(options, dict) else None
            listed.append(
                {
                    "id": game_id,
                    "game": game,
                    "mode": mode if isinstance(mode, str) else None,
                    "seats": _loads_list(seats),
                    "names": _loads_dict(names),
                    "created": created,
                    "updated": updated,
                    "moves": moves,
                    "over": bool(over),
                    "result": _loads_dict(result) if result else None,
                    "imported": bool(imported),
                    "damaged": damaged,
                    "revealed": revealed,
                    "table": table,
                }
            )
        return listed

    def delete(self, game_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM answers WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def add_saved(
        self,
        game: str,
        log_json: JSON,
        seats: list[str],
        names: dict[str, str],
        over: bool,
        result: JSON | None,
    ) -> int:
        """A game read from a replay file, saved without a table."""
        header, actions = split_log(log_json)
        texts = [_dumps(a) for a in actions]
        now = self.clock()
        with self._write() as db:
            game_id = _insert_game(
                db, game, header, texts, chain_links(texts), seats, names, now, revision=0
            )
            db.execute(
                "UPDATE games SET over = ?, result = ?, imported = 1, holders = '{}' WHERE id = ?",
                (int(over), _dumps(result) if result is not None else None, game_id),
            )
        return game_id


def _insert_game(
    db: sqlite3.Connection,
    game: str,
    header: JSON,
    texts: list[str],
    links: list[str],
    seats: list[str],
    names: dict[str, str],
    now: float,
    revision: int,
) -> int:
    """A new game's row and its actions (``texts``, chained as ``links``), sealed at
    ``revision``: the game's id."""
    cursor = db.execute(
        "INSERT INTO games (game, header, seats, names, created, updated, moves, chain, "
        "revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game,
            _dumps(header),
            _dumps(seats),
            _dumps(names),
            now,
            now,
            len(texts),
            chain_seal(links, revision, game, header),
            revision,
        ),
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    db.executemany(
        "INSERT INTO actions (game_id, n, action) VALUES (?, ?, ?)",
        [(game_id, n, text) for n, text in enumerate(texts)],
    )
    return game_id


def _check_chain(
    record: GameRecord, chain: object, revision: object, table_revision: object, old: bool
) -> None:
    """Raise DamagedGame unless a game's rows, count, revision and header match its
    chain (``old``: or its seal from before the header was sealed), and the revision is
    its table's (when it is on one)."""
    if not isinstance(chain, str) or not isinstance(revision, int):
        raise DamagedGame("its saved actions carry no chain")
    sealed = chain_seal(record.links, revision, record.game, record.header)
    if not secrets.compare_digest(chain, sealed) and not (
        old and secrets.compare_digest(chain, seal_before_headers(record.links, revision))
    ):
        raise DamagedGame(
            f"its {len(record.links)} saved actions do not match their chain: rows were "
            "deleted, added, edited or renumbered, or its count, revision or header changed"
        )
    if table_revision is not None and table_revision != revision:
        raise DamagedGame(
            f"its table's revision {table_revision} is out of step with its own {revision}"
        )


def _loads_dict(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _loads_list(text: str | None) -> list[Any]:
    try:
        value = json.loads(text) if text else []
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def default_data_dir() -> Path:
    """Where the saves live when no --data-dir is given: the service's state directory
    (systemd's StateDirectory sets ``$STATE_DIRECTORY``), else ``$CLACKS_STATE_DIR``,
    else the user's own state directory (``$XDG_STATE_HOME/clacks``)."""
    for variable in ("STATE_DIRECTORY", "CLACKS_STATE_DIR"):
        value = os.environ.get(variable)
        if value:
            return Path(value.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "clacks"
