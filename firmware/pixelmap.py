"""Where each lamp's LED sits on the strip: the matrix's wiring and how it is mounted.

A 4x4 matrix numbers its LEDs from its top-left corner (as printed on the board), row by
row; a serpentine matrix runs every other row right to left. Mounted unturned, the
matrix's top edge faces North, so LED 0 lies under lamp a4. ``rotation`` turns the
matrix clockwise as seen from above; ``mirrored`` means it is seen through its back.
Lamps are numbered as the engine numbers them: bit ``row * 4 + col``, a1 = 0, d4 = 15.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

SIDE = 4
T = TypeVar("T")


def led_index(x: int, y: int, serpentine: bool) -> int:
    """The strip position of the LED at matrix column ``x``, row ``y`` (0 = top)."""
    if serpentine and y % 2 == 1:
        x = SIDE - 1 - x
    return y * SIDE + x


def mounted_position(x: int, y: int, rotation: int, mirrored: bool) -> tuple[int, int]:
    """Where matrix cell (x, y) ends up in the picture seen from above with North at
    the top, as (column from the west, row from the top)."""
    if mirrored:
        x = SIDE - 1 - x
    for _ in range(rotation // 90 % 4):
        x, y = SIDE - 1 - y, x  # a quarter turn clockwise
    return x, y


@dataclass(frozen=True)
class PixelMap:
    serpentine: bool = False
    rotation: int = 0
    mirrored: bool = False

    def __post_init__(self) -> None:
        if self.rotation % 90 != 0:
            raise ValueError(f"rotation must be a multiple of 90 degrees, not {self.rotation}")
        leds: list[int] = [0] * (SIDE * SIDE)
        for y in range(SIDE):
            for x in range(SIDE):
                col, top_row = mounted_position(x, y, self.rotation, self.mirrored)
                lamp = (SIDE - 1 - top_row) * SIDE + col
                leds[lamp] = led_index(x, y, self.serpentine)
        lamps: list[int] = [0] * (SIDE * SIDE)
        for lamp, led in enumerate(leds):
            lamps[led] = lamp
        object.__setattr__(self, "_leds", tuple(leds))
        object.__setattr__(self, "_lamps", tuple(lamps))

    @property
    def leds(self) -> tuple[int, ...]:
        """Strip position of each lamp, in lamp order a1..d4."""
        leds: tuple[int, ...] = self.__dict__["_leds"]
        return leds

    def to_strip(self, lamps: Sequence[T]) -> list[T]:
        """Per-lamp values (a1..d4) rearranged into strip order."""
        lamp_at: tuple[int, ...] = self.__dict__["_lamps"]
        return [lamps[lamp] for lamp in lamp_at]

    def to_lamps(self, strip: Sequence[T]) -> list[T]:
        """Strip-ordered values back in lamp order a1..d4."""
        return [strip[led] for led in self.leds]
