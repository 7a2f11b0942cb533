"""What every game's public class does with its action log, whatever its rules.

``LoggedGame``: the log as JSON (``log_to_json``) and a game rebuilt from it (``replay``,
``replay_actions``). ``SnapshotGame`` adds the whole state as JSON (``to_json``,
``from_json``), equality, ``clone``, and undo from kept copies of the state, for games
whose state can be saved and copied. A game names itself and its formats in class
constants and says how to read its state, options and actions; its rules, ``apply``
and its undo policy stay its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from engine.core.errors import IllegalAction, SerializationError
from engine.core.rng import Rng
from engine.core.saves import apply_all, check_header, read_actions, read_seed, seed_json


class SavedOptions(Protocol):
    @property
    def seats(self) -> Sequence[str]: ...

    def to_json(self) -> dict[str, Any]: ...


class SavedAction(Protocol):
    @property
    def seat(self) -> str | None: ...

    def to_json(self) -> dict[str, Any]: ...


class LoggedState(Protocol):
    @property
    def options(self) -> SavedOptions: ...

    @property
    def seed(self) -> int: ...

    @property
    def rng(self) -> Rng: ...

    @property
    def over(self) -> bool: ...


class SnapshotState(LoggedState, Protocol):
    undo_floor: int

    def to_json(self) -> dict[str, Any]: ...

    def clone(self) -> Self: ...


S = TypeVar("S", bound=LoggedState)
T = TypeVar("T", bound=SnapshotState)
A = TypeVar("A", bound=SavedAction)
Opts = TypeVar("Opts")
R = TypeVar("R")


class LoggedGame(Generic[S, A, Opts]):
    """A game as its state and the log of actions that made it."""

    GAME: ClassVar[str]  # the name a save gives
    TITLE: ClassVar[str]  # the name errors give
    NOUN: ClassVar[str] = "game"  # what one sitting is called
    FORMAT: ClassVar[int]  # the save format this version writes
    LEGACY_FORMAT: ClassVar[int | None] = None  # an older one it still reads and keeps

    state: S
    log: list[A]

    # ----------------------------------------------------------------- each game's own

    @classmethod
    def new(cls, options: Opts | None = None, seed: int = 0) -> Self:
        raise NotImplementedError

    def apply(self, action: A) -> Sequence[object]:
        raise NotImplementedError

    @classmethod
    def read_options(cls, data: object) -> Opts:
        raise NotImplementedError

    @classmethod
    def read_action(cls, data: object) -> A:
        raise NotImplementedError

    @classmethod
    def start(cls, options: Opts, seed: int, legacy: bool) -> Self:
        """A new game to replay a log on (``legacy``: one saved in ``LEGACY_FORMAT``)."""
        return cls.new(options, seed)

    # ----------------------------------------------------------------- shared

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def legacy(self) -> bool:
        """Whether this game was saved in the legacy format, and keeps its generator."""
        return self.LEGACY_FORMAT is not None and self.state.rng.legacy

    @property
    def save_format(self) -> int:
        if self.LEGACY_FORMAT is not None and self.legacy:
            return self.LEGACY_FORMAT
        return self.FORMAT

    @classmethod
    def formats(cls) -> tuple[int, ...]:
        """Every save format this version reads."""
        if cls.LEGACY_FORMAT is None:
            return (cls.FORMAT,)
        return (cls.FORMAT, cls.LEGACY_FORMAT)

    def log_to_json(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "format": self.save_format,
            "options": self.state.options.to_json(),
            "seed": seed_json(self.state.seed, self.legacy),
            "actions": [a.to_json() for a in self.log],
        }

    @classmethod
    def replay(cls, data: object) -> Self:
        """Rebuild a game from ``log_to_json``; raises SerializationError if the log is
        not one these rules can reproduce."""
        saved = check_header(data, cls.GAME, cls.formats(), cls.NOUN)
        options, actions = cls.read_saved(
            saved, "options", cls.read_options, "actions", "action log"
        )
        legacy = saved["format"] == cls.LEGACY_FORMAT
        return cls.replay_actions(options, read_seed(saved, legacy), actions, legacy)

    @classmethod
    def read_saved(
        cls, saved: dict[str, Any], head: str, read_head: Callable[[object], R], log: str, what: str
    ) -> tuple[R, list[A]]:
        """What a save holds under ``head`` (its options or state) and the actions under
        ``log``; raises SerializationError, naming ``what`` the save was meant to be, if
        either is not one this game reads."""
        try:
            return read_head(saved[head]), read_actions(saved[log], cls.read_action)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a {cls.TITLE} {what}: {exc}") from exc

    @classmethod
    def replay_actions(
        cls, options: Opts, seed: int, actions: list[A], legacy: bool = False
    ) -> Self:
        return apply_all(cls.start(options, seed, legacy), actions)


class SnapshotGame(LoggedGame[T, A, Opts], Generic[T, A, Opts]):
    """A logged game whose whole state can be saved and copied: it keeps the states
    before the actions that may still be undone, and saves itself with its state."""

    def __init__(self, state: T, log: list[A] | None = None, opening: list[Any] | None = None):
        self.state = state
        self.log = list(log or [])
        self._opening = list(opening or [])
        # the state before each action that may still be undone (a replay would do, but
        # a game can be hundreds of actions long)
        self._before: list[T] = []

    @classmethod
    def read_state(cls, data: object) -> T:
        raise NotImplementedError

    def opening_events(self) -> list[Any]:
        """What happened at set-up (rolls, a first deal), as it happened."""
        return list(self._opening)

    @property
    def seats(self) -> list[str]:
        return list(self.state.options.seats)

    @property
    def current_seat(self) -> str | None:
        raise NotImplementedError

    def own_last_action(self, seat: str | None) -> bool:
        """Whether ``seat``, in its own turn of a game not over, took the last action and
        nothing since has made it final: what every undo needs first."""
        return (
            seat is not None
            and not self.over
            and len(self.log) > self.state.undo_floor
            and self.log[-1].seat == seat
            and seat == self.current_seat
        )

    def _settle(self, before: T | None, final: bool) -> None:
        """After an action is logged: ``final`` (it can never be taken back) sets the
        undo floor here; otherwise ``before``, the state it left, is kept for undo."""
        if final:
            self.state.undo_floor = len(self.log)
            self._before.clear()
        elif before is not None:
            self._before.append(before)

    def _take_back(self) -> A:
        """Drop the last action and return to the state before it."""
        undone = self.log.pop()
        if self._before:
            self.state = self._before.pop()
        else:  # read back from JSON: nothing kept, so replay
            options = cast(Opts, self.state.options)
            self.state = self.replay_actions(options, self.state.seed, self.log, self.legacy).state
        return undone

    def clone(self) -> Self:
        copy = type(self)(self.state.clone(), list(self.log), self._opening)
        copy._before = [state.clone() for state in self._before]
        return copy

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "format": self.save_format,
            "state": self.state.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        saved = check_header(data, cls.GAME, cls.formats(), cls.NOUN)
        state, log = cls.read_saved(saved, "state", cls.read_state, "log", cls.NOUN)
        return cls(state, log)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, type(self))
            and self.log == other.log
            and self.state.to_json() == other.state.to_json()
        )

    __hash__ = None  # type: ignore[assignment]
