"""The seam between a game's rules and everything else on the box.

The lobby, the web pages, the LED renderer, the buttons and the saves talk to games only
through two protocols, ``GameModule`` (how to start or load a game) and ``Session`` (one
game in progress), and the value types they pass (``LampFrame``, ``SeatInfo``, ``Told``),
in JSON-ready dicts and seat labels. A game's classes subclass the protocols to take
their shared defaults. A new game is one new module registered in ``engine.games``, which
this module never imports; nothing outside the game needs to know its rules.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engine.core.budget import Cancelled
from engine.core.errors import IllegalAction

if TYPE_CHECKING:
    from engine.core.data_check import DataCheck

JSON = dict[str, Any]

# Why a seat gets no hint (``Session.no_hint_reason``), the same words for every game.
HINT_NOT_YOUR_TURN = "not_your_turn"
HINT_NOTHING_TO_DO = "nothing_to_do"  # its turn, but nothing is left for it to do
HINT_FORBIDDEN = "forbidden"  # the game's options allow no hints


@dataclass(frozen=True)
class LampFrame:
    """What the 4x4 lamp matrix should show, by lamp index (bit ``row * 4 + col``).

    ``lit`` is the board itself; ``preview`` marks lamps a pending placement would flip
    (shown blinking); ``accent`` marks lamps a game wants picked out (a tower, a number).
    """

    lit: int
    preview: int = 0
    accent: int = 0


@dataclass(frozen=True)
class SeatInfo:
    id: str  # stable label used in URLs and actions, e.g. "south"
    colour: str | None = None  # button colour, where the game has one
    extra: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class Told:
    """What one action told the table: ``events`` for everyone (as ``apply`` returns
    them), and ``private``: per seat, per index of one of ``events``, the details only
    that seat may read (the Jacquards it drew, not how many). ``seat`` took the action
    (None: the table itself)."""

    seat: str | None
    events: list[JSON]
    private: dict[str, dict[int, JSON]] = field(default_factory=dict)


class Session(Protocol):
    """One game in progress: the only thing the rest of the box holds of it."""

    game: str = ""

    @property
    @abstractmethod
    def seats(self) -> list[SeatInfo]: ...

    @property
    @abstractmethod
    def active_seats(self) -> list[str]:
        """Seats expected to act now (whose turn it is)."""

    @property
    @abstractmethod
    def over(self) -> bool: ...

    @abstractmethod
    def result(self) -> JSON | None:
        """The outcome once over: at least ``winners`` (seat ids) and ``reason``."""

    @abstractmethod
    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        """Apply ``action`` on behalf of ``seat`` (None: the table itself) at table time
        ``now``; returns public events. Raises IllegalAction (state unchanged)."""

    def apply_told(self, seat: str | None, action: JSON, now: float) -> Told:
        """``apply``, also returning what only one seat may read of it (its own draws);
        a game with nothing private need not override it."""
        return Told(seat, self.apply(seat, action, now))

    def replay_action(self, action: JSON) -> Told:
        """Apply one action as the saved log holds it (``log_json()["actions"]``), as
        ``GameModule.replay`` does, and return what it told. The default takes the seat
        the action names (or the one seat to act, for a game whose actions name none)
        and the time it was taken from ``at``."""
        acting = self.active_seats
        named = action.get("seat") if "seat" in action or not acting else acting[0]
        seat = named if isinstance(named, str) else None
        at = action.get("at")
        return self.apply_told(seat, action, float(at) if isinstance(at, (int, float)) else 0.0)

    @abstractmethod
    def undo(self, seat: str) -> list[JSON]: ...

    @abstractmethod
    def can_undo(self, seat: str) -> bool: ...

    @abstractmethod
    def view(self, seat: str | None) -> JSON:
        """What ``seat`` may see; None for the table screen and spectators."""

    @abstractmethod
    def legal_actions(self, seat: str | None, now: float) -> list[JSON]: ...

    @abstractmethod
    def log_json(self) -> JSON:
        """Options, seed and every action: enough to rebuild the game exactly. The
        actions, in order, are under ``actions`` (the saves store them one per row and
        the rest as the game's header)."""

    def deadline(self) -> float | None:
        """Table time at which ``clock_action`` should be asked for, if the game is timed."""
        return None

    def clock_action(self, now: float) -> JSON | None:
        """An action the table must apply because time has run out, if any."""
        return None

    def resume_action(self, now: float) -> JSON | None:
        """An action the table applies when it takes up this saved game again after the
        companion was down (a timed game's clock does not run meanwhile), if any."""
        return None

    @abstractmethod
    def lamps(self) -> LampFrame: ...

    def preview(self, seat: str, action: JSON) -> LampFrame | None:
        """The frame if ``action`` were applied, for live placement previews; None if the
        action is not one that changes lamps or is not legal now."""
        return None

    def previews_shared(self) -> bool:
        """Whether a seat's preview (and hint) may be shown on every screen and the
        board. Not where it would show what only that seat may know, such as the shape
        of a card in a hidden hand: then it stays on the previewing phone."""
        return True

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        """The (seat, action) a press of a physical button means now, or None if nothing.
        Raises IllegalAction with the reason when the press must be refused."""
        return None

    def transmissions(self, events: list[JSON]) -> list[int]:
        """Lamp masks from which ``events`` (as returned by ``apply``) sent a signal, for
        the board's transmit animation; empty when nothing was sent."""
        return []

    def refusal(self, seat: str | None, action: JSON, now: float) -> IllegalAction | None:
        """Why ``action`` by ``seat`` at table time ``now`` would be refused (the error
        ``apply`` would raise), or None if it would be taken; nothing changes either
        way. A page asks it to say why a control it greys out is out of reach. This
        default tries the action on a deep copy; a game with a cheaper copy overrides it."""
        try:
            copy.deepcopy(self).apply(seat, action, now)
        except IllegalAction as exc:
            return exc
        return None

    def hint(self, seat: str, cancelled: Cancelled | None = None) -> JSON | None:
        """A suggested plan for ``seat``'s turn, as the game describes it (at least
        ``actions``: the actions in order, each as ``apply`` takes it), or None when the
        game has no hints, forbids them, or it is not the seat's turn (``no_hint_reason``
        says which). ``hopeless``, when true, says that no plan avoids losing and this
        one is the least bad. The search is bounded whatever the options; ``cancelled``
        returning True stops it sooner (SearchCancelled, engine.core.budget)."""
        return None

    def no_hint_reason(self, seat: str) -> str:
        """Why ``hint`` has nothing for ``seat`` now: ``HINT_NOT_YOUR_TURN``,
        ``HINT_NOTHING_TO_DO`` or ``HINT_FORBIDDEN``. This default tells only whether
        the seat is expected to act."""
        return HINT_NOTHING_TO_DO if seat in self.active_seats else HINT_NOT_YOUR_TURN

    def hint_lamps(self, seat: str, cancelled: Cancelled | None = None) -> LampFrame | None:
        """The board with the lamps the hint would flip as ``preview`` and where it
        leads as ``accent``, for showing the hint on the lamps; None without a hint."""
        return None

    def bot_levels(self) -> list[str]:
        """The bot levels that can take a seat in this game, weakest first."""
        return []

    def bot_action(
        self, seat: str, level: str, now: float, cancelled: Cancelled | None = None
    ) -> JSON | None:
        """The action a bot of ``level`` takes for ``seat`` now, seeing only that seat's
        view: in the seat's turn always one (to ``apply``), otherwise one or None (a card
        played out of turn). Raises ValueError for an unknown level. A bot's thinking
        is bounded whatever the options; a caller that stops waiting for it makes
        ``cancelled`` return True, and the bot stops (SearchCancelled)."""
        return None

    def describe_event(self, event: JSON) -> str:
        """An event in English words, for logs and terminals (pages use the catalogs)."""
        return str(event.get("kind", "event"))

    def tutorial_bots(self) -> dict[str, str]:
        """Seats this game gives to bots of its own, by level: a guided first game's
        opponent (engine.core.tutorial). Empty for an ordinary game, whose bots the
        table chooses; a game that has them is a lesson, whose seats nobody keeps once
        the learner's phone has gone."""
        return {}


class Outcome(Protocol):
    """A game's state as far as its end: whether it is over, and who won."""

    @property
    def over(self) -> bool: ...

    @property
    def winners(self) -> Sequence[str]: ...


Ended = TypeVar("Ended", bound=Outcome)


def game_result(state: Ended, details: Callable[[Ended], JSON]) -> JSON | None:
    """``Session.result`` for a game whose state knows its winners: None until it is
    over, then the winners and what the game tells of its end (``details``)."""
    if not state.over:
        return None
    return {"winners": list(state.winners), **details(state)}


class GameModule(Protocol):
    """How to start, replay and describe one kind of game."""

    name: str = ""
    title: str = ""

    def data_check(self) -> DataCheck | None:
        """The game's own data files and their checker (``clacks check-data``); None
        for a game that reads none of its own."""
        return None

    @abstractmethod
    def new(self, options: JSON, seed: int, now: float = 0.0) -> Session:
        """Start a game; raises IllegalAction (BadOptions) with a clear message."""

    @abstractmethod
    def replay(self, log: JSON) -> Session:
        """Rebuild a game from ``Session.log_json()``; raises SerializationError."""

    @abstractmethod
    def options_schema(self) -> JSON:
        """The lobby's choices: modes, variants, seat counts, with defaults."""

    def api_notes(self) -> dict[str, str]:
        """What the API's document says of this game, by where it says it: ``options``
        (the options worth naming, beyond the schema /api/games serves), ``actions`` (the
        kinds of action a seat takes) and ``hint`` (what a hint holds). A part left out
        says nothing of the game there."""
        return {}

    def reference(self) -> JSON:
        """Fixed facts a front end needs to draw and explain any game of this kind (board
        geometry, symbol tables), the same for every game in progress; public."""
        return {}

    def tutorial_start(self, mode: str | None = None) -> JSON | None:
        """How the guided first game that teaches this game's ``mode`` (one of
        ``options_schema()["modes"]``; None: the game's first) starts: ``{"game": name,
        "options": {...}}`` for the room's new game (a registered game and its options),
        or None where that mode has no lesson: the lobby and the stand offer Learn to
        play only where there is one."""
        return None

    def tutorial_starts(self) -> dict[str, JSON]:
        """Each mode's lesson (``tutorial_start``), by the mode's id, for the modes of
        ``options_schema()`` that have one."""
        starts: dict[str, JSON] = {}
        for mode in self.options_schema().get("modes") or []:
            start = self.tutorial_start(str(mode["id"]))
            if start is not None:
                starts[str(mode["id"])] = start
        return starts
