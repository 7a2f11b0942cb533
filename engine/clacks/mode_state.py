"""State that only some modes have: the team's race to Genua and the junior race.

Plain data like the rest of the state, saved and copied field by field
(engine/core/serial.py) like the rest of it. Lasting card effects are stored with the turn numbers they cover,
so nothing has to count down and a replayed game cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.clacks.geometry import Seat

TEAM_MODES = ("coop", "solitaire")


@dataclass
class LastingEffect:
    """A revealed card's effect that holds for turns ``first_turn`` to ``last_turn``."""

    card: str
    effect: str
    params: dict[str, Any]
    first_turn: int
    last_turn: int

    def active(self, turn_number: int) -> bool:
        return self.first_turn <= turn_number <= self.last_turn


@dataclass
class CardLedger:
    """Cards revealed so far (Incident Reports, Operator's Logs, Fault Reports) and what
    they left behind: lasting effects and an Emergency Repair waiting for the next card."""

    revealed: list[str] = field(default_factory=list)
    lasting: list[LastingEffect] = field(default_factory=list)
    repair: str | None = None

    def active(self, effect: str, turn_number: int) -> list[LastingEffect]:
        return [e for e in self.lasting if e.effect == effect and e.active(turn_number)]

    def forget_expired(self, turn_number: int) -> None:
        self.lasting = [e for e in self.lasting if e.last_turn >= turn_number]


@dataclass
class Slot:
    """One of the four swap places beside the board: a card with a Jacquard on top.

    ``kind`` is "incident" (the Jacquard lies face up) or "log" (an Operator's Log with
    a Jacquard face down). Both are None once the slot has been taken: slots are never
    refilled."""

    id: str
    kind: str
    card: str | None
    jacquard: str | None

    @property
    def taken(self) -> bool:
        return self.card is None


@dataclass
class TeamState:
    """The co-operative race to Genua (and the solitaire game that uses its rules)."""

    route: str
    words: list[str]
    message: list[str]  # first word, SPACE, second word, END
    track: int  # Post Office steps from Ankh-Morpork to Genua
    slots: list[Slot]
    set_aside: list[str]  # Incident Reports and Operator's Logs not dealt: out of the game
    ledger: CardLedger = field(default_factory=CardLedger)
    progress: int = 0  # symbols sent = towers lit along the route
    post_office: int = 0  # steps the Post Office has travelled
    stress_total: int = 0  # stress points spent by the whole team
    result: str | None = None  # "won" or "lost" once the race is decided
    # this turn only:
    swapped: bool = False
    lifted: str | None = None  # a Jacquard taken from a slot that must still be played
    turn_steps: int = 0  # Post Office steps moved this turn
    turn_cap: int | None = None  # at most this many steps this turn (Gargoyle on Shift)

    @property
    def next_symbol(self) -> str | None:
        return self.message[self.progress] if self.progress < len(self.message) else None

    def slot(self, slot_id: str) -> Slot | None:
        return next((s for s in self.slots if s.id == slot_id), None)

    def new_turn(self) -> None:
        self.swapped = False
        self.lifted = None
        self.turn_steps = 0
        self.turn_cap = None


@dataclass
class RaceState:
    """The junior race: each child's pawn travels their own route, one tower per symbol."""

    routes: dict[Seat, str]
    ledger: CardLedger = field(default_factory=CardLedger)
