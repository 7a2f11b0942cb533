"""A game's set-up: who plays (two to six, in the order they sit: play passes to the
left), how many Great Spells win, two optional readings of the dice, and the component
data the game is played with (kept with the options, so a save replays the same)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.core import serial
from engine.core.options import OptionRange
from engine.core.seating import Seating
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
SEATING = Seating(SEATS, DEFAULT_SEATS, MIN_PLAYERS, MAX_PLAYERS, BadOptions)


@dataclass(frozen=True)
class GuardsOptions:
    seats: tuple[str, ...] = DEFAULT_SEATS[2]
    spells: int = FULL_GAME_SPELLS  # Great Spells to return to win (a Short Game: fewer)
    cap_eights: bool = False  # an open roll's natural 8 is rolled again once only
    anti_magic_sum: bool = False  # Volunteers' bonuses against Magic add up
    # saved as the tables it was read from, which read back the same
    data: GuardsData = field(
        default_factory=shipped_data, compare=False, metadata=serial.rule(save=GuardsData.to_json)
    )

    def __post_init__(self) -> None:
        SEATING.check(self.seats)
        SPELLS_RANGE.check("spells", self.spells, OptionOutOfRange)
        for name in VARIANTS:
            if not isinstance(getattr(self, name), bool):
                raise BadOptions(reason="not_boolean", option=name)

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)

    def public_json(self) -> dict[str, Any]:
        """The options without the data tables (the views give what they need of those)."""
        return {k: v for k, v in self.to_json().items() if k != "data"}

    @classmethod
    def from_json(cls, data: object) -> GuardsOptions:
        """Options from JSON; ``players`` (a count) may stand in for ``seats``; without
        ``data`` the shipped house set is used."""
        kwargs = SEATING.read_json(data, ["seats", "spells", "cap_eights", "anti_magic_sum", "data"])
        SEATING.seats_from_json(kwargs)
        if "data" in kwargs:
            tables, problems = validate_tables(kwargs["data"])
            if tables is None:
                raise BadOptions(reason="data", problems="; ".join(problems[:3]))
            kwargs["data"] = tables
        return cls(**kwargs)

    @property
    def letter(self) -> bool:
        """Whether the game is refereed to the letter of the rulebook: every game but
        those saved by the first reading (FirstReadingOptions)."""
        return True


class FirstReadingOptions(GuardsOptions):
    """The options of a game saved in save format 1, played by the first reading of the
    rulebook (the Spell Run lock lifted by a return, the Final Spell's Guild roll
    skipped after a failed Magic roll, Fire Water, the steps of a combat and the Dragon
    card left to the players): it replays, and is saved again, as it was played. Not an
    option anyone chooses: the save's format says it (game.py)."""

    @property
    def letter(self) -> bool:
        return False

    @classmethod
    def of(cls, options: GuardsOptions) -> FirstReadingOptions:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})
