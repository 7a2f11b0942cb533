"""A Clockman game's setup: who plays and which of the rulebook's four optional rules
(section 7) are in play.

Seats use the box's four sides. Play goes clockwise, like the pieces (ruling 4): seen
from above South, West, North, East, the order the seats are stored in whatever order
they were given in.

- ``transfer`` (Übertragungsregel): a digit taken is set aside until the player lands
  exactly on an orange transfer field; only then is it part of the date key.
- ``hamster`` (Hamsterregel): ``"off"``; ``"on"``, one digit more than the date key
  needs; ``"extended"`` (erweiterte Hamsterregel), any number more.
- ``robbery`` (Raubregel): a knock takes one of the victim's digits, unless the victim
  shows an event card that protects it.
- ``swap`` (Tauschregel): the player whose turn it is may offer digits for another
  player's digits; the trade is made when that player accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.clockman.errors import BadOptions
from engine.core import serial
from engine.core.seating import Seating

SEATS: tuple[str, ...] = ("south", "west", "north", "east")  # clockwise
DEFAULT_SEATS: dict[int, tuple[str, ...]] = {
    2: ("south", "north"),
    3: ("south", "west", "north"),
    4: SEATS,
}
HAMSTER = ("off", "on", "extended")
FLAGS = ("transfer", "robbery", "swap")
RULES = ("transfer", "hamster", "robbery", "swap")  # the four optional rules, in order
# how many digits beyond the date key a player may hold, by the Hamster setting
HAMSTER_ALLOWANCE = {"off": 0, "on": 1, "extended": 99}
SEATING = Seating(SEATS, DEFAULT_SEATS, 2, 4, BadOptions)


@dataclass(frozen=True)
class ClockmanOptions:
    seats: tuple[str, ...] = DEFAULT_SEATS[2]
    transfer: bool = False
    hamster: str = "off"
    robbery: bool = False
    swap: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", SEATING.check(self.seats, in_play_order=True))
        for name in FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise BadOptions(reason="not_boolean", option=name)
        if self.hamster not in HAMSTER:
            raise BadOptions(reason="hamster", choices=", ".join(HAMSTER))

    @property
    def allowance(self) -> int:
        """Digits a player may hold beyond a complete date key."""
        return HAMSTER_ALLOWANCE[self.hamster]

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)

    @classmethod
    def from_json(cls, data: object) -> ClockmanOptions:
        """Options from JSON; ``players`` (a count) may stand in for ``seats``, and
        ``hamster`` may be given as true or false (on or off)."""
        kwargs = SEATING.read_json(data, [f.name for f in fields(cls)])
        if isinstance(kwargs.get("hamster"), bool):
            kwargs["hamster"] = "on" if kwargs["hamster"] else "off"
        SEATING.seats_from_json(kwargs)
        return cls(**kwargs)
