"""When the saves refuse a write: the table says so, and what it does by itself is tried
again.

Every change is saved before anyone is told (web/room.py). When the disk refuses (full,
gone read-only, a failing memory card) the change is not made and the request that
asked for it is answered ``503 not_saved``: a person simply tries again. What the table
does by itself (a timed turn running out, a bot's turn) is tried again by the table
clock and the bots every ``RETRY_SECONDS``, so play resumes by itself once the disk
takes writes again. Meanwhile every page of the table is told (the snapshot's
``room.saving``) and the table screen says so; the first write that succeeds clears it.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator

from engine.core.interface import JSON
from web.errors import not_saved
from web.store import disk_refused
from web.table_state import Clock, Publish

log = logging.getLogger("clacks.web")

RETRY_SECONDS = 2.0  # between tries of what the table does by itself, while saves fail
WRITE_ERRORS = (sqlite3.Error, OSError, ValueError)


class SaveTrouble:
    """Whether the table's last write to the saves failed, since when and why."""

    def __init__(self, code: str, clock: Clock, publish: Publish) -> None:
        """``publish`` tells every page of the table that its saves' state changed."""
        self.code = code
        self.clock = clock
        self.publish = publish
        self.since: float | None = None  # the table clock's time of the first failure
        self.error = ""
        self.from_disk = False  # whether the disk refused (full, failing), as SQLite said

    @contextlib.contextmanager
    def kept(self) -> Iterator[None]:
        """Around one write of the table's saves (the caller holds the table's lock): a
        failure is reported and refused with ``503 not_saved``; a success ends any
        trouble."""
        try:
            yield
        except WRITE_ERRORS as exc:
            self.failed(exc)
            raise not_saved(exc) from None
        self.succeeded()

    def failed(self, exc: BaseException) -> None:
        first = self.since is None
        if first:
            self.since = self.clock()
            log.error("table %s: the saves refuse writes: %s", self.code, exc)
        self.error = str(exc)[:200]
        self.from_disk = disk_refused(exc)
        if first:
            self.publish([])

    def succeeded(self) -> None:
        if self.since is not None:
            log.warning("table %s: saving again", self.code)
            self.since = None
            self.error = ""
            self.from_disk = False
            self.publish([])

    def to_json(self) -> JSON | None:
        """None while saves work; else since when they fail, and the disk's words."""
        if self.since is None:
            return None
        return {"failing_since": self.since, "error": self.error}
