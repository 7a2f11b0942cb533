"""A real companion for tests: waitress on a free loopback port, in this process.

The same ``web.server.build`` as ``clacks serve``, so tests go over real HTTP through
the production server; running in-process lets a test read the game it is driving
(``server.room.session``) to choose moves, as a person looking at the table would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from web.hub import Hub
from web.room import Room
from web.server import build


class LiveServer:
    def __init__(
        self,
        board: Any = None,
        threads: int = 24,
        data_dir: Path | None = None,
        bot_pause: float = 0.0,
        **options: Any,
    ) -> None:
        """``data_dir`` keeps the saved games there (None: in memory, gone on close);
        bots act ``bot_pause`` seconds after each change (none: tests do not wait);
        ``options`` are ``web.server.build``'s other keywords."""
        self.hub: Hub
        self.server, self.hub, self.base = build(
            "127.0.0.1", 0, "en", threads, board, data_dir, bot_pause, **options
        )
        self.closing = False
        self.thread = threading.Thread(target=self._run, name="waitress", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except (OSError, ValueError):
            # closing the listening socket from another thread ends the loop this way
            if not self.closing:
                raise

    @property
    def room(self) -> Room:
        return self.hub.main

    @property
    def code(self) -> str:
        return self.hub.main.code

    @property
    def pin(self) -> str:
        """The main table's PIN, as the table screen and the terminal show it."""
        return self.hub.main.pin

    @property
    def game_id(self) -> int:
        """The stored id of the game on the main table (one is always on it)."""
        record = self.hub.main.record
        assert record is not None, "no game on the main table"
        return record.id

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def close(self) -> None:
        self.closing = True
        self.hub.stop()  # ends every event stream, so the server's threads come free
        self.server.task_dispatcher.shutdown(timeout=2)
        self.server.close()


@contextmanager
def companion(**settings: Any) -> Iterator[LiveServer]:
    """A ``LiveServer(**settings)``, closed when the block ends however it ends."""
    server = LiveServer(**settings)
    try:
        yield server
    finally:
        server.close()
