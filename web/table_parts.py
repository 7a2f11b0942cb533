"""What a table's parts may ask of the table: small protocols, so that the parts
(web/seats.py, fanout, bots, previews, presses, table_clock, replay, saving) are handed
the table and never import it.

``web.room.Room`` is the one table there is; it hands itself to each part it builds, and
mypy checks that it is every protocol here. Each protocol lists only what some part uses,
so a part's reach into the table is written down in one place.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from engine.core.interface import JSON, LampFrame, Session
from web.store import Store


class TableSeats(Protocol):
    """Who sits where (web/seats.py), as the other parts ask."""

    @property
    def bots(self) -> dict[str, str]: ...

    def bot_levels(self) -> list[str]: ...

    def authorize(self, seat: str, token: str | None) -> None: ...

    def visible_seat(self, seat: str | None, token: str | None) -> str | None: ...

    def connected(self, seat: str | None, change: int) -> bool: ...

    def all_held(self, session: Session) -> bool: ...


class TableBots(Protocol):
    """The bots' turns (web/bots.py), as the other parts ask."""

    def seated(self, seat: str) -> None: ...

    def playing(self) -> str | None: ...

    def refuse_in_bot_turn(self) -> None: ...


class ShownStep(Protocol):
    """The replay viewer's step on show: its lamps."""

    def lamps(self) -> LampFrame: ...


class TableReplayShown(Protocol):
    """The replay viewer in place of the game (web/replay.py), as the other parts ask."""

    @property
    def showing(self) -> bool: ...

    @property
    def viewer(self) -> ShownStep | None: ...


class TableBoard(Protocol):
    """The exchange board's lamps and buttons (web/presses.py), as the other parts ask."""

    @property
    def board(self) -> Any: ...

    def simulated(self) -> bool: ...

    def board_json(self) -> JSON: ...


class TablePreviews(Protocol):
    """The placement previews (web/previews.py), as the other parts ask."""

    def board_frame(self, frame: LampFrame) -> LampFrame: ...


class TableFanout(Protocol):
    """The open pages (web/fanout.py), as the other parts ask."""

    def board_changed(self) -> None: ...


class TableSaving(Protocol):
    """Trouble with the saves (web/saving.py), as the other parts ask."""

    def kept(self) -> AbstractContextManager[None]: ...


class Table(Protocol):
    """One table, as its parts see it: its game, its lock and clock, its saves, the one
    change path, and the other parts."""

    @property
    def code(self) -> str: ...

    @property
    def lock(self) -> threading.RLock: ...

    @property
    def session(self) -> Session | None: ...

    @property
    def game_name(self) -> str | None: ...

    @property
    def revision(self) -> int: ...

    @property
    def changed_at(self) -> float: ...

    @property
    def closed(self) -> bool: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def stand(self) -> JSON | None: ...

    @property
    def store(self) -> Store: ...

    @property
    def seq(self) -> int: ...

    @property
    def seats(self) -> TableSeats: ...

    @property
    def bot_turns(self) -> TableBots: ...

    @property
    def replay(self) -> TableReplayShown: ...

    @property
    def presses(self) -> TableBoard: ...

    @property
    def previews(self) -> TablePreviews: ...

    @property
    def fanout(self) -> TableFanout: ...

    @property
    def saving(self) -> TableSaving: ...

    def require_session(self) -> Session: ...

    def apply(self, seat: str | None, action: Any, key: str | None = None) -> JSON: ...

    def check_play(self) -> None: ...

    def after_change(self, events: list[JSON], answering: tuple[str, str] | None = None) -> JSON: ...

    def save_change(self, events: list[JSON], answering: tuple[str, str] | None) -> JSON: ...

    def changed(self, events: list[JSON]) -> None: ...

    def publish(self, events: list[JSON]) -> None: ...

    def take_off(self) -> None: ...

    def game_changed(self, events: list[JSON]) -> None: ...
