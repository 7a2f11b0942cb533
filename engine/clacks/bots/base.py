"""What every bot shares: the interface, and small readings of a seat's view.

A bot sees exactly what a person in its seat would: the seat's view (``ClacksGame.view``)
and the actions the rules allow that seat now. It never touches the game itself, so it
cannot peek at other hands, the bag or the decks.

A bot's caller may give it ``cancelled``: when that returns True a bot still thinking
stops (SearchCancelled, engine.core.budget) instead of finishing a decision nobody wants.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import Any

from engine.clacks.actions import Action
from engine.clacks.components import ComponentSet
from engine.clacks.geometry import Seat, read_pattern
from engine.core.budget import Cancelled
from engine.core.rng import Rng

View = dict[str, Any]


class Bot(ABC):
    """A player that chooses one action at a time from its seat's view."""

    level: str = ""

    def __init__(
        self, components: ComponentSet, seed: int = 0, cancelled: Cancelled | None = None
    ) -> None:
        self.components = components
        self.rng = Rng(seed)
        self.cancelled = cancelled

    @abstractmethod
    def choose(self, view: View, legal: list[Action]) -> Action | None:
        """The next action: always one of ``legal`` in the bot's own turn (when ``legal``
        is not empty); in another player's turn an action (a Fault Report) or None."""


def same_action(a: Action, b: Action) -> bool:
    """Equal apart from the time stamp."""
    return dataclasses.replace(a, at=None) == dataclasses.replace(b, at=None)


def pick_legal(wanted: Action, legal: list[Action]) -> Action | None:
    """The legal action that is ``wanted`` (carrying the table's time stamp), if any."""
    for action in legal:
        if same_action(action, wanted):
            return action
    return None


def my_seat(view: View) -> Seat:
    return Seat.parse(view["you"]["seat"])


def is_my_turn(view: View) -> bool:
    return view["you"] is not None and view["turn"]["seat"] == view["you"]["seat"]


def player(view: View, seat: Seat) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in view["players"] if p["seat"] == seat.label)
    return found


def wrong_lamps(
    components: ComponentSet, board: int, seat: Seat, tower_name: str, symbol: str
) -> int:
    """How many of the tower's lamps differ from ``symbol`` as ``seat`` reads it."""
    return (read_pattern(board, seat, tower_name) ^ components.pattern(symbol)).bit_count()


def symbol_to_send(view: View, seat: Seat) -> str | None:
    """The seat's next symbol: the team's in co-op and solitaire, its own otherwise."""
    message = view.get("message")
    if message is not None:
        symbol: str | None = message["next_symbol"]
        return symbol
    found: str | None = player(view, seat)["next_symbol"]
    return found
