"""A Klackers match's state: plain data, cheap to copy, convertible to and from JSON."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.errors import IllegalAction, SerializationError
from engine.core.rng import Rng
from engine.core.saves import seed_from_json, seed_json
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
        return {
            "number": self.number,
            "value": self.value,
            "order": list(self.order),
            "scores": dict(self.scores),
            "outcome": self.outcome,
            "reason": self.reason,
            "winner": self.winner,
            "next_starter": self.next_starter,
            "chips": dict(self.chips),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            number=int(data["number"]),
            value=int(data["value"]),
            order=tuple(data["order"]),
            scores={str(k): int(v) for k, v in data["scores"].items()},
            outcome=str(data["outcome"]),
            reason=str(data["reason"]),
            winner=data["winner"],
            next_starter=str(data["next_starter"]),
            chips={str(k): int(v) for k, v in data["chips"].items()},
        )


@dataclass
class KlackersState:
    options: KlackersOptions
    seed: int
    rng: Rng
    players: dict[str, Player]
    round: Round
    turn: Turn | None  # None once the match is over
    opening: list[dict[str, int]] = field(default_factory=list)  # the roll-off for the start
    results: list[RoundResult] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    undo_floor: int = 0  # log length before which nothing may be undone

    @property
    def over(self) -> bool:
        return self.turn is None

    def player(self, seat: str) -> Player:
        return self.players[seat]

    def clone(self) -> KlackersState:
        """A deep copy, field by field (several times faster than copy.deepcopy); round
        results are never changed once made, so they are shared."""
        rnd = self.round
        turn = self.turn
        return KlackersState(
            options=self.options,
            seed=self.seed,
            rng=self.rng.copy(),
            players={seat: replace(p) for seat, p in self.players.items()},
            round=replace(rnd, klackers=list(rnd.klackers), chips=dict(rnd.chips)),
            turn=None if turn is None else replace(turn, pulls=list(turn.pulls)),
            opening=self.opening,
            results=list(self.results),
            winners=list(self.winners),
            undo_floor=self.undo_floor,
        )

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        turn = self.turn
        return {
            "options": self.options.to_json(),
            "seed": seed_json(self.seed, self.rng.legacy),
            "rng": self.rng.to_json(),
            "players": [
                {
                    "seat": p.seat,
                    "chips": p.chips,
                    "standing": p.standing,
                    "score": p.score,
                    "rounds_won": p.rounds_won,
                    "klacks": p.klacks,
                }
                for p in self.players.values()
            ],
            "round": {
                "number": self.round.number,
                "value": self.round.value,
                "order": list(self.round.order),
                "played": self.round.played,
                "klackers": list(self.round.klackers),
                "chips": dict(self.round.chips),
            },
            "turn": None
            if turn is None
            else {
                "seat": turn.seat,
                "phase": turn.phase,
                "dice": list(turn.dice),
                "rolls": turn.rolls,
                "pulls": [list(p) for p in turn.pulls],
            },
            "opening": [dict(r) for r in self.opening],
            "results": [r.to_json() for r in self.results],
            "winners": list(self.winners),
            "undo_floor": self.undo_floor,
        }

    @classmethod
    def from_json(cls, data: object) -> KlackersState:
        if not isinstance(data, dict):
            raise SerializationError("a Klackers state must be a JSON object")
        try:
            options = KlackersOptions.from_json(data["options"])
            players = {
                str(p["seat"]): Player(
                    seat=str(p["seat"]),
                    chips=int(p["chips"]),
                    standing=int(p["standing"]),
                    score=None if p["score"] is None else int(p["score"]),
                    rounds_won=int(p["rounds_won"]),
                    klacks=int(p["klacks"]),
                )
                for p in data["players"]
            }
            r = data["round"]
            t = data["turn"]
            state = cls(
                options=options,
                seed=seed_from_json(data["seed"]),
                rng=Rng.from_json(data["rng"]),
                players=players,
                round=Round(
                    number=int(r["number"]),
                    value=int(r["value"]),
                    order=tuple(str(s) for s in r["order"]),
                    played=int(r["played"]),
                    klackers=[str(s) for s in r["klackers"]],
                    chips={str(k): int(v) for k, v in r["chips"].items()},
                ),
                turn=None
                if t is None
                else Turn(
                    seat=str(t["seat"]),
                    phase=str(t["phase"]),
                    dice=tuple(int(d) for d in t["dice"]),
                    rolls=int(t["rolls"]),
                    pulls=[tuple(int(n) for n in p) for p in t["pulls"]],
                ),
                opening=[{str(k): int(v) for k, v in r.items()} for r in data["opening"]],
                results=[RoundResult.from_json(x) for x in data["results"]],
                winners=[str(s) for s in data["winners"]],
                undo_floor=int(data["undo_floor"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError, IllegalAction) as exc:
            raise SerializationError(f"not a Klackers state: {exc!r}") from exc
        state.check()
        return state

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
