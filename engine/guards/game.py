"""The public face of a game of Guards! Guards!: its state with its action log.

The log (options, seed and actions) is the one source of truth: replaying it rebuilds
the game exactly, dice included, because every die comes from the seeded generator in
the state, and every card typed on a phone is in the action that typed it.

Undo: a player may take back their own last reports, back to the last roll of the dice
(a roll is never taken back), the end of a turn, or another player's action.
"""

from __future__ import annotations

from typing import Any, Self

from engine.core.logged_game import LoggedGame
from engine.core.saves import check_header, read_seed
from engine.guards import rules
from engine.guards.actions import Action, action_from_json
from engine.guards.errors import NothingToUndo
from engine.guards.events import Event, ev
from engine.guards.options import FirstReadingOptions, GuardsOptions
from engine.guards.state import GameState, new_state
from engine.guards.views import build_view

GAME = "guards"
# Save format 2: the rules to the letter (GuardsOptions.letter). A format 1 log is replayed, and
# saved again, by the first reading, so it plays on exactly as it was played.
FORMAT = 2
FIRST_FORMAT = 1


class GuardsGame(LoggedGame[GameState, Action, GuardsOptions]):
    """A game of Guards! Guards! in progress."""

    GAME = GAME
    TITLE = "Guards! Guards!"
    FORMAT = FORMAT

    def __init__(self, state: GameState, log: list[Action] | None = None) -> None:
        self.state = state
        self.log: list[Action] = list(log or [])
        self.undo_floor = 0  # log length before which nothing may be undone

    @classmethod
    def new(cls, options: GuardsOptions | None = None, seed: int = 0) -> GuardsGame:
        return cls(new_state(options or GuardsOptions(), seed))

    @classmethod
    def formats(cls) -> tuple[int, ...]:
        return (FORMAT, FIRST_FORMAT)

    @property
    def save_format(self) -> int:
        return FORMAT if self.state.options.letter else FIRST_FORMAT

    @classmethod
    def replay(cls, data: object) -> Self:
        saved = check_header(data, cls.GAME, cls.formats(), cls.NOUN)
        options, actions = cls.read_saved(
            saved, "options", cls.read_options, "actions", "action log"
        )
        if saved["format"] == FIRST_FORMAT:
            options = FirstReadingOptions.of(options)
        return cls.replay_actions(options, read_seed(saved), actions)

    read_options = staticmethod(GuardsOptions.from_json)
    read_action = staticmethod(action_from_json)

    @property
    def seats(self) -> list[str]:
        return list(self.state.seats)

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action``; raises an IllegalAction subclass and changes nothing if the
        rules do not allow it."""
        rng_before, turn_before = self.state.rng.to_json(), self.state.turns
        events = rules.apply(self.state, action)
        self.log.append(action)
        if self.state.rng.to_json() != rng_before or self.state.turns != turn_before or self.over:
            # the dice have spoken, or a turn has passed: nothing before this comes back
            self.undo_floor = len(self.log)
        return events

    def apply_json(self, data: object, seat: str | None = None) -> list[Event]:
        return self.apply(action_from_json(data, seat))

    def can_undo(self, seat: str | None) -> bool:
        return (
            seat is not None
            and not self.over
            and len(self.log) > self.undo_floor
            and self.log[-1].seat == seat
        )

    def undo(self, seat: str) -> list[Event]:
        if not self.can_undo(seat):
            if self.over:
                raise NothingToUndo(reason="over")
            raise NothingToUndo(reason="nothing_of_yours")
        undone = self.log[-1]
        rebuilt = self.replay_actions(self.state.options, self.state.seed, self.log[:-1])
        self.state, self.log, self.undo_floor = rebuilt.state, rebuilt.log, rebuilt.undo_floor
        return [ev("undone", seat, action=undone.type)]

    def view(self, seat: str | None) -> dict[str, Any]:
        return build_view(self.state, seat if seat in self.state.players else None, self.can_undo(seat))
