"""A Klackers match's setup: who plays, the three optional rules, and how long it lasts.

Seats use the box's four sides. The dice pass "Klackwise", which the companion takes as
clockwise seen from above: South, West, North, East (the order the seats are stored in,
whatever order they were given in).

A match lasts ``rounds`` rounds, or until a player holds ``target`` chips, whichever
comes first; either may be left out (``None``) but not both. See docs/klackers.md.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.core.options import OptionRange
from engine.klackers.errors import BadOptions, OptionOutOfRange

SEATS: tuple[str, ...] = ("south", "west", "north", "east")  # Klackwise
DEFAULT_SEATS: dict[int, tuple[str, ...]] = {
    2: ("south", "north"),
    3: ("south", "west", "north"),
    4: SEATS,
}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_ROUNDS = 99
MAX_TARGET = 999
VARIANTS = ("hughie", "klack_to_win", "klack_worth_two")
# rounds and target, when given (None: none); as JSON and the schema give them, 0 is
# none too
RANGES: dict[str, OptionRange] = {
    "rounds": OptionRange(1, MAX_ROUNDS),
    "target": OptionRange(1, MAX_TARGET),
}
JSON_RANGES: dict[str, OptionRange] = {
    "rounds": OptionRange(0, MAX_ROUNDS),
    "target": OptionRange(0, MAX_TARGET),
}


def default_seats(players: object) -> tuple[str, ...]:
    if isinstance(players, bool) or not isinstance(players, int) or players not in DEFAULT_SEATS:
        raise BadOptions(
            f"Klackers is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}",
            players=str(players),
        )
    return DEFAULT_SEATS[players]


@dataclass(frozen=True)
class KlackersOptions:
    seats: tuple[str, ...] = DEFAULT_SEATS[2]
    hughie: bool = False  # scores of ten or more are "no point"
    klack_to_win: bool = False  # only a Klack wins a round
    klack_worth_two: bool = False  # every other player pays a Klacker one chip at once
    rounds: int | None = 3
    target: int | None = None

    def __post_init__(self) -> None:
        seats = self.seats
        if not isinstance(seats, tuple) or not all(isinstance(s, str) for s in seats):
            raise BadOptions("seats must be a list of seat names")
        unknown = [s for s in seats if s not in SEATS]
        if unknown:
            raise BadOptions(
                f"unknown seat {unknown[0]!r}; seats are {', '.join(SEATS)}", seat=unknown[0]
            )
        if len(set(seats)) != len(seats):
            raise BadOptions("a seat is listed twice")
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise BadOptions(
                f"Klackers is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}",
                players=str(len(seats)),
            )
        object.__setattr__(self, "seats", tuple(s for s in SEATS if s in seats))
        for name in VARIANTS:
            if not isinstance(getattr(self, name), bool):
                raise BadOptions(f"{name} must be true or false")
        for name, allowed in RANGES.items():
            value = getattr(self, name)
            if value is not None:
                allowed.check(name, value, OptionOutOfRange)
        if self.rounds is None and self.target is None:
            raise BadOptions("a match needs a number of rounds, a target of chips, or both")

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "hughie": self.hughie,
            "klack_to_win": self.klack_to_win,
            "klack_worth_two": self.klack_worth_two,
            "rounds": self.rounds,
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: object) -> KlackersOptions:
        """Options from JSON; ``players`` (a count) may stand in for ``seats``, and a
        ``rounds`` or ``target`` of 0 means none."""
        if not isinstance(data, dict):
            raise BadOptions("options must be a JSON object")
        allowed = {f.name for f in fields(cls)} | {"players"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise BadOptions(f"unknown options: {', '.join(unknown)}")
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k != "players"}
        for name, span in JSON_RANGES.items():
            # 0 is "none", as a number field in a form can say it
            given = kwargs.get(name)
            if given is not None and span.check(name, given, OptionOutOfRange) == 0:
                kwargs[name] = None
        if "seats" in kwargs:
            if not isinstance(kwargs["seats"], list):
                raise BadOptions("seats must be a list of seat names")
            kwargs["seats"] = tuple(kwargs["seats"])
            if "players" in data and data["players"] != len(kwargs["seats"]):
                raise BadOptions("players and seats disagree")
        elif "players" in data:
            kwargs["seats"] = default_seats(data["players"])
        return cls(**kwargs)
