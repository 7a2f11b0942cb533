"""The public face of a Clacks game: a state with its action log.

In the manner of python-chess's ``Board`` and OpenSpiel's ``State``: ask for the legal
actions of a seat, apply one and get events back, ``undo`` (the acting player's own
actions within their turn, back to the last reveal), ``clone``, a per-seat ``view``, and
JSON for the state and for the log. The log is the one source of truth: replaying it
from the options and seed rebuilds the state exactly.

Save format 2 holds the seed as hexadecimal digits and deals with HMAC_DRBG; format 1,
written before, holds a whole number and deals with SplitMix64 (engine.core.rng). A
game keeps the format it was started in, so an old save replays exactly.
"""

from __future__ import annotations

from typing import Any

from engine.clacks.actions import Action, TimeUp, action_from_json
from engine.clacks.components import ComponentSet
from engine.clacks.data import load_components
from engine.clacks.errors import NothingToUndo
from engine.clacks.events import Event, event
from engine.clacks.geometry import Seat
from engine.clacks.map_views import build_junior_view, build_team_view
from engine.clacks.modes import rules_for
from engine.clacks.state import ClacksState, Options
from engine.clacks.views import build_view
from engine.core.errors import IllegalAction, SerializationError
from engine.core.hidden import undone_action
from engine.core.saves import apply_all, check_header, read_actions, read_seed, seed_json

FORMAT = 2
LEGACY_FORMAT = 1  # a whole-number seed and the SplitMix64 generator
REVEALING_EVENTS = {
    "drew_jacquards",
    "drew_faults",
    "turn_started",
    "game_won",
    "time_up",
    "swapped",  # a face-down card (and an Operator's Log's Jacquard) turned up
    "card_revealed",
}


class ClacksGame:
    """A game of Clacks in progress."""

    GAME = "clacks"

    def __init__(
        self, state: ClacksState, components: ComponentSet, log: list[Action] | None = None
    ) -> None:
        self.state = state
        self.components = components
        self.rules = rules_for(state.options.mode, components)
        self.log: list[Action] = list(log or [])

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls,
        options: Options | None = None,
        seed: int = 0,
        components: ComponentSet | None = None,
        legacy: bool = False,
    ) -> ClacksGame:
        """A new game dealt from ``seed`` (``legacy``: as a game saved in format 1 was)."""
        components = components or load_components()
        options = options or Options()
        state = rules_for(options.mode, components).setup(options, seed, legacy)
        return cls(state, components)

    @property
    def legacy(self) -> bool:
        """Whether this game was saved before HMAC_DRBG, and keeps SplitMix64."""
        return self.state.rng.legacy

    def opening_events(self) -> list[Event]:
        return [
            event(
                "game_started",
                None,
                mode=self.state.options.mode,
                seats=[s.label for s in self.state.order],
            ),
            event("turn_started", self.state.order[0], round=1, number=1),
        ]

    # ----------------------------------------------------------------- playing

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winner(self) -> Seat | None:
        """The one winner of a competitive or junior game (None in co-op: see winners)."""
        return self.state.winner

    @property
    def winners(self) -> list[Seat]:
        """Everyone who won; in co-op the whole team, or nobody if the Post Office won."""
        return self.state.winners

    @property
    def seats(self) -> list[Seat]:
        return list(self.state.order)

    @property
    def current_seat(self) -> Seat:
        return self.state.turn.seat

    def legal_actions(self, seat: Seat | None, at: float | None = None) -> list[Action]:
        """Every action ``seat`` may take now (``None``: the table clock's own actions)."""
        return self.rules.legal_actions(self.state, seat, at)

    def is_legal(self, action: Action) -> bool:
        try:
            self.clone().apply(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Apply an action; raises an IllegalAction subclass and changes nothing if the
        rules do not allow it."""
        acting_turn = self.state.turn.seat
        events = self.rules.apply(self.state, action)
        self.log.append(action)
        if (
            action.seat is not acting_turn
            or isinstance(action, TimeUp)
            or any(e.kind in REVEALING_EVENTS for e in events)
        ):  # another player's action, the clock, or a reveal: nothing before it can be undone
            self.state.undo_floor = len(self.log)
        return events

    def can_undo(self, seat: Seat | None) -> bool:
        return (
            seat is not None
            and not self.over
            and len(self.log) > self.state.undo_floor
            and self.log[-1].seat is seat
            and seat is self.state.turn.seat
        )

    def undo(self, seat: Seat) -> list[Event]:
        """Take back ``seat``'s last action, if it is theirs, in their own turn, and nothing
        has been revealed since (Board Game Arena's policy)."""
        if not self.can_undo(seat):
            if self.over:
                raise NothingToUndo(reason="over")
            if seat is not self.state.turn.seat:
                raise NothingToUndo(reason="own_turn")
            raise NothingToUndo(reason="revealed")
        undone = self.log[-1]
        replayed = self.replay_actions(
            self.state.options, self.state.seed, self.log[:-1], self.components, self.legacy
        )
        self.state = replayed.state
        self.log = replayed.log
        return [event("undone", seat, action=undone_action(undone.to_json()))]

    def pop(self) -> Action:
        """Take back the last action whoever made it (for analysis; ignores undo rules)."""
        if not self.log:
            raise NothingToUndo(reason="none")
        undone = self.log[-1]
        replayed = self.replay_actions(
            self.state.options, self.state.seed, self.log[:-1], self.components, self.legacy
        )
        self.state, self.log = replayed.state, replayed.log
        return undone

    def clone(self) -> ClacksGame:
        return ClacksGame(self.state.clone(), self.components, list(self.log))

    # ----------------------------------------------------------------- views

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see; ``None`` for the table and spectators (no hand at all,
        except the open hands of a standard co-op team)."""
        can_undo = self.can_undo(seat)
        if self.state.team is not None:
            return build_team_view(self.state, self.components, seat, can_undo)
        if self.state.race is not None:
            return build_junior_view(self.state, self.components, seat, can_undo)
        return build_view(
            self.state, self.components, seat, self.can_undo(seat), self.rules.deadline(self.state)
        )

    # ----------------------------------------------------------------- JSON

    def log_to_json(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "format": LEGACY_FORMAT if self.legacy else FORMAT,
            "components": self.components.digest_for(self.state.options.word_list),
            "options": self.state.options.to_json(),
            "seed": seed_json(self.state.seed, self.legacy),
            "actions": [a.to_json() for a in self.log],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "format": LEGACY_FORMAT if self.legacy else FORMAT,
            "components": self.components.digest_for(self.state.options.word_list),
            "state": self.state.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    @classmethod
    def from_json(cls, data: object, components: ComponentSet | None = None) -> ClacksGame:
        components = components or load_components()
        saved = _check_header(data, components)
        try:
            state = ClacksState.from_json(saved["state"])
            log = read_actions(saved["log"], action_from_json)
        except (KeyError, TypeError) as exc:
            raise SerializationError(f"not a Clacks game: {exc}") from exc
        return cls(state, components, log)

    @classmethod
    def replay(cls, data: object, components: ComponentSet | None = None) -> ClacksGame:
        """Rebuild a game from its log (``log_to_json``); raises SerializationError if the
        log is not a game these rules and components can reproduce."""
        components = components or load_components()
        saved = _check_header(data, components)
        try:
            options = Options.from_json(saved["options"])
            actions = read_actions(saved["actions"], action_from_json)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a Clacks action log: {exc}") from exc
        legacy = saved["format"] == LEGACY_FORMAT
        return cls.replay_actions(options, read_seed(saved, legacy), actions, components, legacy)

    @classmethod
    def replay_actions(
        cls,
        options: Options,
        seed: int,
        actions: list[Action],
        components: ComponentSet,
        legacy: bool = False,
    ) -> ClacksGame:
        return apply_all(cls.new(options, seed, components, legacy), actions)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ClacksGame)
            and self.log == other.log
            and self.state.to_json() == other.state.to_json()
        )

    __hash__ = None  # type: ignore[assignment]


def _check_header(data: object, components: ComponentSet) -> dict[str, Any]:
    saved = check_header(data, ClacksGame.GAME, (FORMAT, LEGACY_FORMAT), "game")
    digest = saved.get("components")
    options = saved.get("options")
    word_list = options.get("word_list", "en") if isinstance(options, dict) else "en"
    loaded = components.digest_for(word_list if isinstance(word_list, str) else "en")
    if digest is not None and digest != loaded:
        raise SerializationError(
            f"this game was played with a different component set ({digest}); "
            f"the loaded set is {loaded}"
        )
    return saved
