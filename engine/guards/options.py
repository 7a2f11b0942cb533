"""A game's set-up: who plays (two to six, in the order they sit: play passes to the
left), how many Great Spells win, two optional readings of the dice, and the component
data the game is played with (kept with the options, so a save replays the same)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.options import OptionRange
from engine.guards.data import GuardsData, shipped_data, validate_tables
from engine.guards.errors import BadOptions, OptionOutOfRange

# The six playing pieces and Start Gates. Seats five and six have no side of the box:
# their players use their phones (and the box's buttons act for whoever must act).
SEATS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "white")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
FULL_GAME_SPELLS = 5
VARIANTS = ("cap_eights", "anti_magic_sum")
SPELLS_RANGE = OptionRange(1, FULL_GAME_SPELLS)  # fewer than five: the Short Game
DEFAULT_SEATS: dict[int, tuple[str, ...]] = {n: SEATS[:n] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def default_seats(players: object) -> tuple[str, ...]:
    if isinstance(players, bool) or not isinstance(players, int) or players not in DEFAULT_SEATS:
        raise BadOptions(
            f"Guards! Guards! is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}",
            players=str(players),
        )
    return DEFAULT_SEATS[players]


@dataclass(frozen=True)
class GuardsOptions:
    seats: tuple[str, ...] = DEFAULT_SEATS[2]
    spells: int = FULL_GAME_SPELLS  # Great Spells to return to win (a Short Game: fewer)
    cap_eights: bool = False  # an open roll's natural 8 is rolled again once only
    anti_magic_sum: bool = False  # Volunteers' bonuses against Magic add up
    data: GuardsData = field(default_factory=shipped_data, compare=False)

    def __post_init__(self) -> None:
        seats = self.seats
        if not isinstance(seats, tuple) or not all(isinstance(s, str) for s in seats):
            raise BadOptions("seats must be a list of seat names")
        unknown = [s for s in seats if s not in SEATS]
        if unknown:
            raise BadOptions(f"unknown seat {unknown[0]!r}; seats are {', '.join(SEATS)}", seat=unknown[0])
        if len(set(seats)) != len(seats):
            raise BadOptions("a seat is listed twice")
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise BadOptions(
                f"Guards! Guards! is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}",
                players=str(len(seats)),
            )
        SPELLS_RANGE.check("spells", self.spells, OptionOutOfRange)
        for name in VARIANTS:
            if not isinstance(getattr(self, name), bool):
                raise BadOptions(f"{name} must be true or false")

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "spells": self.spells,
            "cap_eights": self.cap_eights,
            "anti_magic_sum": self.anti_magic_sum,
            "data": self.data.to_json(),
        }

    def public_json(self) -> dict[str, Any]:
        """The options without the data tables (the views give what they need of those)."""
        return {k: v for k, v in self.to_json().items() if k != "data"}

    @classmethod
    def from_json(cls, data: object) -> GuardsOptions:
        """Options from JSON; ``players`` (a count) may stand in for ``seats``; without
        ``data`` the shipped house set is used."""
        if not isinstance(data, dict):
            raise BadOptions("options must be a JSON object")
        allowed = {"seats", "players", "spells", "cap_eights", "anti_magic_sum", "data"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise BadOptions(f"unknown options: {', '.join(unknown)}")
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k not in ("players", "seats", "data")}
        if "seats" in data:
            if not isinstance(data["seats"], list):
                raise BadOptions("seats must be a list of seat names")
            kwargs["seats"] = tuple(data["seats"])
            if "players" in data and data["players"] != len(kwargs["seats"]):
                raise BadOptions("players and seats disagree")
        elif "players" in data:
            kwargs["seats"] = default_seats(data["players"])
        if "data" in data:
            tables, problems = validate_tables(data["data"])
            if tables is None:
                raise BadOptions("the game's data is not valid: " + "; ".join(problems[:3]))
            kwargs["data"] = tables
        return cls(**kwargs)
