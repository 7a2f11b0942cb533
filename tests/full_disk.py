"""A full disk under the companion's saves, made the way SQLite itself meets one.

``PRAGMA max_page_count`` on the saves' own connection says the file may not grow, and
the room left in the pages it has is then filled (rows no table reads: a game id and
table codes no game or table has), so the next write the companion makes needs a page
it cannot have and fails exactly as on a full memory card: ``database or disk is full``
(SQLITE_FULL). ``room()`` gives the space back and the companion's next try succeeds.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable

from web.store import Store

FILLER_GAMES = (-1, 1 << 62)  # below and above every game's id, so every page is filled
# (filler games, marked damaged, have ids from there on outwards)
FILLER_ROOM = "~full-"
NO_LIMIT = 1 << 30


class FullDisk:
    def __init__(self, store: Store) -> None:
        self.store = store

    def fill(self) -> None:
        with self.store._lock:
            db = self.store._db
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {pages}")
            # the pages the file has are all it may have: fill what room is left in them,
            # with ever smaller rows, in every table the companion adds rows to
            n = itertools.count()
            for size in (512, 64, 8, 0):
                for game in FILLER_GAMES:
                    _fill(
                        db,
                        "INSERT INTO actions (game_id, n, action) VALUES (?, ?, ?)",
                        lambda: (game, next(n), "x" * size),  # noqa: B023  (used at once)
                    )
                    _fill(
                        db,
                        "INSERT INTO answers (game_id, seat, key, answer) VALUES (?, '', ?, ?)",
                        lambda: (game, str(next(n)), "x" * size),  # noqa: B023
                    )
                    _fill(
                        db,
                        "INSERT INTO games (id, game, header, created, updated, damaged) "
                        "VALUES (?, '', '{}', 0, 0, ?)",
                        lambda: (game + (1 if game > 0 else -1) * next(n), "x" * size),  # noqa: B023
                    )
                    _fill(
                        db,
                        "INSERT INTO rooms (code, pin, language, main, created) "
                        "VALUES (?, ?, 'en', 0, 0)",
                        lambda: (f"{FILLER_ROOM}{next(n)}", "x" * size),  # noqa: B023
                    )

    def room(self) -> None:
        with self.store._lock:
            db = self.store._db
            db.execute(f"PRAGMA max_page_count = {NO_LIMIT}")
            for table in ("actions", "answers"):
                db.execute(f"DELETE FROM {table} WHERE game_id IN (?, ?)", FILLER_GAMES)
            db.execute("DELETE FROM games WHERE id < 0 OR id >= ?", (FILLER_GAMES[1],))
            db.execute("DELETE FROM rooms WHERE code LIKE ?", (FILLER_ROOM + "%",))


def _fill(db: sqlite3.Connection, sql: str, row: Callable[[], tuple[object, ...]]) -> None:
    """Insert ``row()`` until the file is full."""
    while True:
        try:
            db.execute(sql, row())
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc), exc
            return
