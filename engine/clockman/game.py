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
from engine.core.errors import IllegalAction, SerializationError
from engine.core.saves import check_header, read_actions, read_seed, seed_json

GAME = "clockman"
FORMAT = 1
COMMITTING = {"roll", "end_turn", "accept", "decline", "defend", "inspect", "confirm", "revoke"}


class ClockmanGame:
    """A game of Clockman in progress."""

    GAME = GAME

    def __init__(
        self,
        state: ClockmanState,
        log: list[Action] | None = None,
        opening: list[Event] | None = None,
    ) -> None:
        self.state = state
        self.log: list[Action] = list(log or [])
        self._opening = list(opening or [])
        # the state before each action that may still be undone
        self._before: list[ClockmanState] = []

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls, options: ClockmanOptions | None = None, seed: int = 0, data: ClockmanData | None = None
    ) -> ClockmanGame:
        state, opening = rules.setup(options or ClockmanOptions(), seed, data or load_data())
        return cls(state, opening=opening)

    def opening_events(self) -> list[Event]:
        """The start rolls and the Whytooki set-up, as they happened at set-up."""
        return list(self._opening)

    # ----------------------------------------------------------------- playing

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def seats(self) -> list[str]:
        return list(self.state.options.seats)

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
            raise GameIsOver("The game is over")
        actor_has_turn = action.seat == self.current_seat and self.state.hit is None
        working = self.state.clone()
        events = rules.apply(working, action)
        before, self.state = self.state, working
        self.log.append(action)
        if action.type in COMMITTING or not actor_has_turn or working.over:
            self.state.undo_floor = len(self.log)
            self._before.clear()
        else:
            self._before.append(before)
        return events

    def apply_json(self, data: object) -> list[Event]:
        return self.apply(action_from_json(data))

    def is_legal(self, action: Action) -> bool:
        try:
            rules.apply(self.state.clone(), action)
        except IllegalAction:
            return False
        return True

    def can_undo(self, seat: str | None) -> bool:
        state = self.state
        return (
            seat is not None
            and not self.over
            and state.hit is None
            and state.check is None
            and len(self.log) > state.undo_floor
            and self.log[-1].seat == seat
            and seat == self.current_seat
        )

    def undo(self, seat: str) -> list[Event]:
        """Take back ``seat``'s last report, if nothing has been rolled since."""
        if not self.can_undo(seat):
            if self.over:
                raise NothingToUndo("The game is over")
            if seat != self.current_seat:
                raise NothingToUndo("You can only undo in your own turn")
            if self.state.hit is not None or self.state.check is not None:
                raise NothingToUndo(
                    "Another player has been asked to answer: that cannot be undone"
                )
            raise NothingToUndo("Nothing to undo: a roll of the die cannot be taken back")
        undone = self.log.pop()
        if self._before:
            self.state = self._before.pop()
        else:  # read back from JSON: nothing kept, so replay
            self.state = self.replay_actions(self.state.options, self.state.seed, self.log).state
        return [Event.of("undone", seat, action=undone.to_json())]

    def clone(self) -> ClockmanGame:
        copy = ClockmanGame(self.state.clone(), list(self.log), self._opening)
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
            "format": FORMAT,
            "options": self.state.options.to_json(),
            "seed": seed_json(self.state.seed),
            "actions": [a.to_json() for a in self.log],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "format": FORMAT,
            "state": self.state.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    @classmethod
    def from_json(cls, data: object) -> ClockmanGame:
        saved = check_header(data, GAME, FORMAT, "game")
        try:
            state = ClockmanState.from_json(saved["state"])
            log = read_actions(saved["log"], action_from_json)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a Clockman game: {exc}") from exc
        return cls(state, log)

    @classmethod
    def replay(cls, data: object) -> ClockmanGame:
        """Rebuild a game from ``log_to_json``; raises SerializationError if the log is
        not one these rules can reproduce."""
        saved = check_header(data, GAME, FORMAT, "game")
        try:
            options = ClockmanOptions.from_json(saved["options"])
            actions = read_actions(saved["actions"], action_from_json)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a Clockman action log: {exc}") from exc
        return cls.replay_actions(options, read_seed(saved), actions)

    @classmethod
    def replay_actions(
        cls, options: ClockmanOptions, seed: int, actions: list[Action]
    ) -> ClockmanGame:
        game = cls.new(options, seed)
        for index, action in enumerate(actions):
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise SerializationError(
                    f"action {index + 1} of the log ({action.type}) is illegal on replay: {exc}"
                ) from exc
        return game

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ClockmanGame)
            and self.log == other.log
            and self.state.to_json() == other.state.to_json()
        )

    __hash__ = None  # type: ignore[assignment]
