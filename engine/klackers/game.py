"""The public face of a Klackers match: its state with its action log.

The same shape as a Clacks game: legal actions for a seat, ``apply`` returning events,
``undo`` within the engine's policy, ``clone``, a per-seat ``view``, JSON for the state
and for the log, and ``replay``. The log (options, seed and actions) is the one source
of truth: replaying it rebuilds the match exactly, dice included, because the dice come
from the seeded generator in the state.

Undo: a player may take back their own pulls in their own turn, back to their last roll.
A roll reveals the dice and can never be taken back; neither can anything that ended a
turn (the next player has the dice).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction, SerializationError
from engine.core.saves import apply_all, check_header, read_actions, read_seed, seed_json
from engine.klackers import rules
from engine.klackers.actions import Action, Pull, Roll, action_from_json
from engine.klackers.errors import NothingToUndo
from engine.klackers.events import Event, event
from engine.klackers.options import KlackersOptions
from engine.klackers.state import KlackersState
from engine.klackers.views import build_view

GAME = "klackers"
FORMAT = 2  # the seed as hexadecimal digits, dice from HMAC_DRBG (engine.core.rng)
LEGACY_FORMAT = 1  # before: a whole-number seed and SplitMix64, kept for old saves
FORMATS = (FORMAT, LEGACY_FORMAT)
REVEALING_EVENTS = {"rolled", "turn_started", "round_started", "game_won"}


class KlackersGame:
    """A match of Klackers in progress."""

    GAME = GAME

    def __init__(
        self,
        state: KlackersState,
        log: list[Action] | None = None,
        opening: list[Event] | None = None,
    ) -> None:
        self.state = state
        self.log: list[Action] = list(log or [])
        self._opening = list(opening or [])
        # the state before each pull that may still be undone (a replay would do, but
        # a match can be hundreds of actions long)
        self._before: list[KlackersState] = []

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls, options: KlackersOptions | None = None, seed: int = 0, legacy: bool = False
    ) -> KlackersGame:
        state, opening = rules.setup(options or KlackersOptions(), seed, legacy)
        return cls(state, opening=opening)

    @property
    def legacy(self) -> bool:
        """Whether this match was saved before HMAC_DRBG, and keeps SplitMix64."""
        return self.state.rng.legacy

    def opening_events(self) -> list[Event]:
        """The roll-off and the first round's start, as they happened at setup."""
        return list(self._opening)

    # ----------------------------------------------------------------- playing

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winners(self) -> list[str]:
        return list(self.state.winners)

    @property
    def seats(self) -> list[str]:
        return list(self.state.options.seats)

    @property
    def current_seat(self) -> str | None:
        turn = self.state.turn
        return turn.seat if turn is not None else None

    def legal_actions(self, seat: str | None) -> list[Action]:
        return rules.legal_actions(self.state, seat)

    def is_legal(self, action: Action) -> bool:
        try:
            self.clone().apply(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action``; raises an IllegalAction subclass and changes nothing if the
        rules do not allow it."""
        if not isinstance(action, (Roll, Pull)):
            raise TypeError(f"not a Klackers action: {action!r}")
        before = self.state.clone() if isinstance(action, Pull) else None
        events = rules.apply(self.state, action)
        self.log.append(action)
        if any(e.kind in REVEALING_EVENTS for e in events):
            self.state.undo_floor = len(self.log)
            self._before.clear()
        elif before is not None:
            self._before.append(before)
        return events

    def apply_json(self, data: object) -> list[Event]:
        return self.apply(action_from_json(data))

    def can_undo(self, seat: str | None) -> bool:
        return (
            seat is not None
            and not self.over
            and len(self.log) > self.state.undo_floor
            and self.log[-1].seat == seat
            and seat == self.current_seat
        )

    def undo(self, seat: str) -> list[Event]:
        """Take back ``seat``'s last pull, if nothing has been rolled since."""
        if not self.can_undo(seat):
            if self.over:
                raise NothingToUndo("The match is over")
            if seat != self.current_seat:
                raise NothingToUndo("You can only undo in your own turn")
            raise NothingToUndo("Nothing to undo: a roll of the dice cannot be taken back")
        undone = self.log.pop()
        if self._before:
            self.state = self._before.pop()
        else:  # read back from JSON: nothing kept, so replay
            self.state = self.replay_actions(
                self.state.options, self.state.seed, self.log, self.legacy
            ).state
        return [event("undone", seat, action=undone.to_json())]

    def clone(self) -> KlackersGame:
        copy = KlackersGame(self.state.clone(), list(self.log), self._opening)
        copy._before = [state.clone() for state in self._before]
        return copy

    # ----------------------------------------------------------------- views

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see; ``None`` for the table and spectators."""
        return build_view(self.state, seat, self.can_undo(seat))

    # ----------------------------------------------------------------- JSON

    def log_to_json(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "format": LEGACY_FORMAT if self.legacy else FORMAT,
            "options": self.state.options.to_json(),
            "seed": seed_json(self.state.seed, self.legacy),
            "actions": [a.to_json() for a in self.log],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "format": LEGACY_FORMAT if self.legacy else FORMAT,
            "state": self.state.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    @classmethod
    def from_json(cls, data: object) -> KlackersGame:
        saved = check_header(data, GAME, FORMATS, "match")
        try:
            state = KlackersState.from_json(saved["state"])
            log = read_actions(saved["log"], action_from_json)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a Klackers match: {exc}") from exc
        return cls(state, log)

    @classmethod
    def replay(cls, data: object) -> KlackersGame:
        """Rebuild a match from ``log_to_json``; raises SerializationError if the log is
        not one these rules can reproduce."""
        saved = check_header(data, GAME, FORMATS, "match")
        try:
            options = KlackersOptions.from_json(saved["options"])
            actions = read_actions(saved["actions"], action_from_json)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a Klackers action log: {exc}") from exc
        legacy = saved["format"] == LEGACY_FORMAT
        return cls.replay_actions(options, read_seed(saved, legacy), actions, legacy)

    @classmethod
    def replay_actions(
        cls, options: KlackersOptions, seed: int, actions: list[Action], legacy: bool = False
    ) -> KlackersGame:
        return apply_all(cls.new(options, seed, legacy), actions)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, KlackersGame)
            and self.log == other.log
            and self.state.to_json() == other.state.to_json()
        )

    __hash__ = None  # type: ignore[assignment]
