"""Actions: the two things a Klackers player ever does, as small immutable values.

- ``Roll``: roll the dice, two of them or (once the standing numbers total six or less)
  one. The engine rolls them from its own seeded generator; the action carries no faces.
- ``Pull``: pull forward standing numbers that add up to the roll.

Everything else (the end of a turn when no combination fits, a round's settlement, who
starts the next round) follows from these by the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.action_json import typed_action
from engine.core.errors import MalformedAction
from engine.klackers.numbers import NUMBERS
from engine.klackers.options import SEATS


@dataclass(frozen=True)
class Roll:
    TYPE: ClassVar[str] = "roll"
    seat: str
    dice: int = 2

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "dice": self.dice}


@dataclass(frozen=True)
class Pull:
    TYPE: ClassVar[str] = "pull"
    seat: str
    numbers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # one spelling per pull, so equal pulls compare equal and log the same
        object.__setattr__(self, "numbers", tuple(sorted(self.numbers)))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "numbers": list(self.numbers)}


Action = Roll | Pull
FIELDS: dict[str, set[str]] = {"roll": {"dice"}, "pull": {"numbers"}}


def action_from_json(data: object, seat: str | None = None) -> Action:
    """An action from JSON; ``seat`` fills in a missing ``"seat"`` (the URL's seat)."""
    data, kind = typed_action(data, FIELDS)
    who = data.get("seat", seat)
    if not isinstance(who, str) or who not in SEATS:
        raise MalformedAction(reason="unknown_seat", seat=str(who), seats=", ".join(SEATS))
    if kind == "roll":
        dice = data.get("dice", 2)
        if isinstance(dice, bool) or dice not in (1, 2):
            raise MalformedAction(reason="dice", dice=str(dice))
        return Roll(who, dice)
    numbers = data.get("numbers")
    if (
        not isinstance(numbers, list)
        or not numbers
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
    ):
        raise MalformedAction(reason="pull_numbers")
    outside = [n for n in numbers if n not in NUMBERS]
    if outside:
        raise MalformedAction(reason="number_range", number=outside[0])
    if len(set(numbers)) != len(numbers):
        raise MalformedAction(reason="number_twice")
    return Pull(who, tuple(numbers))
