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

from engine.core import serial
from engine.core.options import OptionRange
from engine.core.seating import Seating
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
VARIANTS = ("hughie", "klack_to_win", "klack_worth_two", "undo_pull")
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
SEATING = Seating(SEATS, DEFAULT_SEATS, MIN_PLAYERS, MAX_PLAYERS, BadOptions)


@dataclass(frozen=True)
class KlackersOptions:
    seats: tuple[str, ...] = DEFAULT_SEATS[2]
    hughie: bool = False  # scores of ten or more are "no point"
    klack_to_win: bool = False  # only a Klack wins a round
    klack_worth_two: bool = False  # every other player pays a Klacker one chip at once
    # House rule: a pull may be taken back until the next roll. The printed rule is
    # "Once they're down they stay down", so by default a pull stands at once.
    undo_pull: bool = False
    rounds: int | None = 3
    target: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", SEATING.check(self.seats, in_play_order=True))
        for name in VARIANTS:
            if not isinstance(getattr(self, name), bool):
                raise BadOptions(reason="not_boolean", option=name)
        for name, allowed in RANGES.items():
            value = getattr(self, name)
            if value is not None:
                allowed.check(name, value, OptionOutOfRange)
        if self.rounds is None and self.target is None:
            raise BadOptions(reason="no_end")

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)

    @classmethod
    def from_json(cls, data: object) -> KlackersOptions:
        """Options from JSON; ``players`` (a count) may stand in for ``seats``, and a
        ``rounds`` or ``target`` of 0 means none."""
        kwargs = SEATING.read_json(data, [f.name for f in fields(cls)])
        for name, span in JSON_RANGES.items():
            # 0 is "none", as a number field in a form can say it
            given = kwargs.get(name)
            if given is not None and span.check(name, given, OptionOutOfRange) == 0:
                kwargs[name] = None
        SEATING.seats_from_json(kwargs)
        return cls(**kwargs)
