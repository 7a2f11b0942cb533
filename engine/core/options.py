"""The ranges a game's numeric options must lie in: checked when a game starts or is
replayed, and stated in the game's ``options_schema`` from the same ``OptionRange``.

A value outside is refused with the error class the game gives (its ``BadOptions``
whose ``rule`` is ``option_range``), the message naming the option and the range; the
parameters (``option``, ``min``, ``max``) let a page say it in another language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.core.errors import IllegalAction


@dataclass(frozen=True)
class OptionRange:
    """From ``low`` to ``high`` inclusive: whole numbers, or with ``whole=False`` any
    finite number."""

    low: int | float
    high: int | float
    whole: bool = True

    def check(self, name: str, value: object, error: type[IllegalAction]) -> int | float:
        """``value`` when it is in range; raises ``error`` otherwise."""
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (isinstance(value, float) and (self.whole or not math.isfinite(value)))
        ):
            fits = False
        else:  # an int of any size compares with the bounds exactly
            fits = self.low <= value <= self.high
        if not fits:
            raise error(option=name, number="whole" if self.whole else "any", min=self.low, max=self.high)
        assert isinstance(value, (int, float))
        return value

    def schema(self, default: int | float | None) -> dict[str, Any]:
        """The range as a game's ``options_schema`` states it."""
        return {
            "type": "integer" if self.whole else "number",
            "min": self.low,
            "max": self.high,
            "default": default,
        }
