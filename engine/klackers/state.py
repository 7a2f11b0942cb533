"""A Klackers match's state: plain data, cheap to copy, convertible to and from JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import serial
from engine.core.errors import SerializationError
from engine.core.rng import Rng
from engine.core.saves import saved_with_seed, seed_from_json
from engine.klackers.numbers import ALL_STANDING
from engine.klackers.options import KlackersOptions

PHASES = ("roll", "pull")


@dataclass
class Player:
    seat: str
    chips: int = 0  # net chips: what the others have paid this player, less what it paid
    standing: int = ALL_STANDING  # this round's standing numbers
    score: int | None = None  # this round's score, once the player's turn is over
    rounds_won: int = 0
    klacks: int = 0


@dataclass
class Turn:
    seat: str
    phase: str = "roll"  # roll: the dice are the player's; pull: the roll must be pulled
    dice: tuple[int, ...] = ()  # the last roll's faces (one or two), () before the first
    rolls: int = 0
    pulls: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def roll_total(self) -> int:
        return sum(self.dice)


@dataclass
class Round:
    number: int
    value: int  # chips each other player pays the winner; one more for every push before
    order: tuple[str, ...]  # who plays, starter first, Klackwise
    played: int = 0  # turns finished
    klackers: list[str] = field(default_factory=list)
    chips: dict[str, int] = field(default_factory=dict)  # chip changes so far this round


@dataclass
class RoundResult:
    number: int
    value: int
    order: tuple[str, ...]
    scores: dict[str, int]  # the players who took their turn (a Klack tie cuts it short)
    outcome: str  # "won" or "push"
    reason: str  # low_score, klack, tie, klack_tie, no_point, no_klack
    winner: str | None
    next_starter: str
    chips: dict[str, int]  # everyone's chip change from this round, Klack bonuses included

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)


@dataclass
class KlackersState:
    options: KlackersOptions
    seed: int = field(metadata=serial.rule(load=seed_from_json))  # saved beside the rng's kind
    rng: Rng
    players: dict[str, Player] = field(metadata=serial.rule(keyed_by="seat"))
    round: Round
    turn: Turn | None  # None once the match is over
    # the roll-off for the start, and the rounds played: made once, never changed
    opening: list[dict[str, int]] = field(default_factory=list, metadata=serial.rule(copy="share"))
    results: list[RoundResult] = field(default_factory=list, metadata=serial.rule(copy="shallow"))
    winners: list[str] = field(default_factory=list)
    undo_floor: int = 0  # log length before which nothing may be undone

    @property
    def over(self) -> bool:
        return self.turn is None

    def player(self, seat: str) -> Player:
        return self.players[seat]

    def clone(self) -> KlackersState:
        """A deep copy (every pull a bot weighs makes one)."""
        return serial.clone(self)

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return saved_with_seed(self)

    @classmethod
    def from_json(cls, data: object) -> KlackersState:
        return serial.read_state(cls, data, "Klackers state", cls.check)

    def check(self) -> None:
        """Refuse a state that could not have come from play (a hand-edited save)."""
        problems = []
        if list(self.players) != list(self.options.seats):
            problems.append("the players are not the options' seats")
        if any(not 0 <= p.standing <= ALL_STANDING for p in self.players.values()):
            problems.append("a standing set is not nine numbers")
        if set(self.round.order) != set(self.options.seats):
            problems.append("the round's order is not the seats")
        turn = self.turn
        if turn is not None:
            if turn.seat not in self.players or turn.phase not in PHASES:
                problems.append("the turn names an unknown seat or phase")
            if any(not 1 <= d <= 6 for d in turn.dice) or len(turn.dice) > 2:
                problems.append("the dice are not one or two faces of 1 to 6")
        if problems:
            raise SerializationError("not a Klackers state: " + "; ".join(problems))
