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


def default_seats(players: object) -> tuple[str, ...]:
    if isinstance(players, bool) or not isinstance(players, int) or players not in DEFAULT_SEATS:
        raise BadOptions(f"Clockman is for 2 to 4 players, not {players!r}", players=str(players))
    return DEFAULT_SEATS[players]


@dataclass(frozen=True)
class ClockmanOptions:
    seats: tuple[str, ...] = DEFAULT_SEATS[2]
    transfer: bool = False
    hamster: str = "off"
    robbery: bool = False
    swap: bool = False

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
        if not 2 <= len(seats) <= 4:
            raise BadOptions(
                f"Clockman is for 2 to 4 players, not {len(seats)}", players=str(len(seats))
            )
        object.__setattr__(self, "seats", tuple(s for s in SEATS if s in seats))
        for name in FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise BadOptions(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.hamster not in HAMSTER:
            raise BadOptions(f"hamster must be one of {', '.join(HAMSTER)}, not {self.hamster!r}")

    @property
    def allowance(self) -> int:
        """Digits a player may hold beyond a complete date key."""
        return HAMSTER_ALLOWANCE[self.hamster]

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "transfer": self.transfer,
            "hamster": self.hamster,
            "robbery": self.robbery,
            "swap": self.swap,
        }

    @classmethod
    def from_json(cls, data: object) -> ClockmanOptions:
        """Options from JSON; ``players`` (a count) may stand in for ``seats``, and
        ``hamster`` may be given as true or false (on or off)."""
        if not isinstance(data, dict):
            raise BadOptions("options must be a JSON object")
        allowed = {f.name for f in fields(cls)} | {"players"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise BadOptions(f"unknown options: {', '.join(unknown)}")
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k != "players"}
        if isinstance(kwargs.get("hamster"), bool):
            kwargs["hamster"] = "on" if kwargs["hamster"] else "off"
        if "seats" in kwargs:
            if not isinstance(kwargs["seats"], list):
                raise BadOptions("seats must be a list of seat names")
            kwargs["seats"] = tuple(kwargs["seats"])
            if "players" in data and data["players"] != len(kwargs["seats"]):
                raise BadOptions("players and seats disagree")
        elif "players" in data:
            kwargs["seats"] = default_seats(data["players"])
        return cls(**kwargs)
