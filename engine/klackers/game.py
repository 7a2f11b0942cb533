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

from engine.core.hidden import undone_action
from engine.core.logged_game import SnapshotGame
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
REVEALING_EVENTS = {"rolled", "turn_started", "round_started", "game_won"}


class KlackersGame(SnapshotGame[KlackersState, Action, KlackersOptions]):
    """A match of Klackers in progress."""

    GAME = GAME
    TITLE = "Klackers"
    NOUN = "match"
    FORMAT = FORMAT
    LEGACY_FORMAT = LEGACY_FORMAT

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls, options: KlackersOptions | None = None, seed: int = 0, legacy: bool = False
    ) -> KlackersGame:
        state, opening = rules.setup(options or KlackersOptions(), seed, legacy)
        return cls(state, opening=opening)

    @classmethod
    def start(cls, options: KlackersOptions, seed: int, legacy: bool) -> KlackersGame:
        return cls.new(options, seed, legacy)

    read_state = staticmethod(KlackersState.from_json)
    read_options = staticmethod(KlackersOptions.from_json)
    read_action = staticmethod(action_from_json)

    # ----------------------------------------------------------------- playing

    @property
    def winners(self) -> list[str]:
        return list(self.state.winners)

    @property
    def current_seat(self) -> str | None:
        turn = self.state.turn
        return turn.seat if turn is not None else None

    def legal_actions(self, seat: str | None) -> list[Action]:
        return rules.legal_actions(self.state, seat)

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action``; raises an IllegalAction subclass and changes nothing if the
        rules do not allow it."""
        if not isinstance(action, (Roll, Pull)):
            raise TypeError(f"not a Klackers action: {action!r}")
        before = self.state.clone() if isinstance(action, Pull) else None
        events = rules.apply(self.state, action)
        self.log.append(action)
        self._settle(before, final=any(e.kind in REVEALING_EVENTS for e in events))
        return events

    def can_undo(self, seat: str | None) -> bool:
        return self.state.options.undo_pull and self.own_last_action(seat)

    def undo(self, seat: str) -> list[Event]:
        """Take back ``seat``'s last pull, if nothing has been rolled since."""
        if not self.can_undo(seat):
            if self.over:
                raise NothingToUndo(reason="over")
            if not self.state.options.undo_pull:
                raise NothingToUndo(reason="pulls_stay")
            if seat != self.current_seat:
                raise NothingToUndo(reason="own_turn")
            raise NothingToUndo(reason="dice")
        undone = self._take_back()
        return [event("undone", seat, action=undone_action(undone.to_json()))]

    # ----------------------------------------------------------------- views

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see; ``None`` for the table and spectators."""
        return build_view(self.state, seat, self.can_undo(seat))
