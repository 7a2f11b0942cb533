"""What the parts of one table read of it: its code, lock, clock and saves, and the game
on it (``TableState``).

``web.room.Room`` owns one and alone changes it; each part it builds (web/seats.py,
fanout, bots, previews, presses, table_clock, replay, saving) is handed this state, or
only the values of it that it uses, and callables for what it may ask the table to do
(publish a change, apply an action). A part never holds the room or another part:
whatever follows from one part's change in another is decided by the room.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar, overload

from engine.core.interface import JSON, Session
from web.errors import ApiError
from web.store import Store

Clock = Callable[[], float]
Publish = Callable[[list[JSON]], None]  # something pages show changed, with these events

Value = TypeVar("Value")


@dataclass(eq=False)
class TableState:
    """One table's game as its parts read it (under ``lock``)."""

    code: str
    lock: threading.RLock
    clock: Clock
    store: Store
    session: Session | None = None
    game_name: str | None = None
    revision: int = 0  # bumped by every change of the game itself
    changed_at: float = field(default_factory=time.monotonic)  # for the bots' pause
    closed: bool = False
    # what this table offers visitors when it is a convention stand (web/stand.py)
    stand: JSON | None = None

    def require_session(self) -> Session:
        if self.session is None:
            raise ApiError(409, "no_game", "No game is running on this table yet")
        return self.session


class HasState(Protocol):
    @property
    def state(self) -> TableState: ...


class InState(Generic[Value]):
    """An attribute of the room kept in its ``TableState``, where the parts read it."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, holder: None, owner: type | None = None) -> InState[Value]: ...

    @overload
    def __get__(self, holder: HasState, owner: type | None = None) -> Value: ...

    def __get__(self, holder: HasState | None, owner: type | None = None) -> Value | InState[Value]:
        if holder is None:  # asked of the class itself
            return self
        value: Value = getattr(holder.state, self.name)
        return value

    def __set__(self, holder: HasState, value: Value) -> None:
        setattr(holder.state, self.name, value)
