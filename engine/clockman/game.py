"""The public face of a Clockman game: its state with its action log.

The same shape as the other games: ``apply`` returning events, ``undo`` within the
engine's policy, ``clone``, a per-seat ``view``, JSON for the state and the log, and
``replay``. The log (options, seed and actions) is the one source of truth: replaying it
rebuilds the game exactly, dice and symbol cards included, because both come from the
seeded generator in the state.

``apply`` works on a copy of the state and keeps it only if the rules allow the action,
so a refused report leaves the game exactly as it was.

Undo: the player whose turn it is may take back their own reports, back to their last
roll. A roll can never be taken back, nor anything another player did or answered (a
defence, an accepted or declined trade, an event card played out of turn, a check of
the winner's cards), nor the end of a turn.
"""

from __future__ import annotations

from typing import Any

from engine.clockman import rules
from engine.clockman.actions import Action, action_from_json
from engine.clockman.data import ClockmanData, load_data
from engine.clockman.errors import GameIsOver, NothingToUndo
from engine.clockman.events import Event
from engine.clockman.options import ClockmanOptions
from engine.clockman.state import ClockmanState
from engine.clockman.views import build_view
from engine.core.errors import IllegalAction
from engine.core.hidden import undone_action
from engine.core.logged_game import SnapshotGame

GAME = "clockman"
FORMAT = 1
COMMITTING = {"roll", "end_turn", "accept", "decline", "defend", "inspect", "confirm", "revoke"}


class ClockmanGame(SnapshotGame[ClockmanState, Action, ClockmanOptions]):
    """A game of Clockman in progress."""

    GAME = GAME
    TITLE = "Clockman"
    FORMAT = FORMAT

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls, options: ClockmanOptions | None = None, seed: int = 0, data: ClockmanData | None = None
    ) -> ClockmanGame:
        state, opening = rules.setup(options or ClockmanOptions(), seed, data or load_data())
        return cls(state, opening=opening)

    read_state = staticmethod(ClockmanState.from_json)
    read_options = staticmethod(ClockmanOptions.from_json)
    read_action = staticmethod(action_from_json)

    # ----------------------------------------------------------------- playing

    @property
    def current_seat(self) -> str | None:
        turn = self.state.turn
        return turn.seat if turn is not None else None

    def active_seats(self) -> list[str]:
        """Who the game waits for: the player whose turn it is (and the player a trade
        is offered to), a knocked player's defence, the hitter's choice of digit, or the
        others' check of a winner's cards."""
        state = self.state
        turn = state.turn
        if turn is None:
            return []
        if state.check is not None:
            return [
                p.seat for p in state.players.values() if p.in_play and p.seat != state.check.winner
            ]
        if state.hit is not None:
            return [state.hit.victim if state.hit.stage == "defence" else state.hit.hitter]
        waiting = [turn.seat]
        if state.offer is not None:
            waiting.append(state.offer.to)
        return waiting

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action``; raises an IllegalAction subclass and changes nothing if the
        rules do not allow it."""
        if not isinstance(action, Action):
            raise TypeError(f"not a Clockman action: {action!r}")
        if self.over:
            raise GameIsOver(reason="over")
        actor_has_turn = action.seat == self.current_seat and self.state.hit is None
        working = self.state.clone()
        events = rules.apply(working, action)
        before, self.state = self.state, working
        self.log.append(action)
        self._settle(before, final=action.type in COMMITTING or not actor_has_turn or working.over)
        return events

    def is_legal(self, action: Action) -> bool:
        try:
            rules.apply(self.state.clone(), action)
        except IllegalAction:
            return False
        return True

    def can_undo(self, seat: str | None) -> bool:
        state = self.state
        return state.hit is None and state.check is None and self.own_last_action(seat)

    def undo(self, seat: str) -> list[Event]:
        """Take back ``seat``'s last report, if nothing has been rolled since."""
        if not self.can_undo(seat):
            if self.over:
                raise NothingToUndo(reason="over")
            if seat != self.current_seat:
                raise NothingToUndo(reason="own_turn")
            if self.state.hit is not None or self.state.check is not None:
                raise NothingToUndo(reason="answer_asked")
            raise NothingToUndo(reason="die")
        undone = self._take_back()
        return [Event.of("undone", seat, action=undone_action(undone.to_json()))]

    # ----------------------------------------------------------------- views

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see; ``None`` for the table and spectators."""
        return build_view(self.state, seat, self.can_undo(seat))
