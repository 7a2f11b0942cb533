"""From the colours a scene asks for to the bytes the LEDs get: gamma, brightness and the
current limiter.

Scenes speak in perceived brightness (0..1 per channel, as a screen shows colours). The
LEDs' light output is linear in the drive value, so each channel goes through a gamma
curve, then the master brightness. The limiter then estimates the current as WLED does,
per channel: every LED draws a small idle current, and each colour channel draws in
proportion to its drive value, ``ma_per_channel`` at 255. When the estimate exceeds the
budget every channel is scaled down by the same factor, so colours keep their hue.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

RGB = tuple[int, int, int]
Shade = tuple[float, float, float]  # perceived brightness per channel, 0..1


def gamma_table(gamma: float) -> tuple[int, ...]:
    """Drive value for each 8-bit perceived value."""
    return tuple(round(255 * (v / 255) ** gamma) for v in range(256))


@dataclass(frozen=True)
class CurrentModel:
    ma_per_channel: float
    idle_ma_per_led: float

    def estimate(self, pixels: Sequence[RGB]) -> float:
        """Estimated milliamps for a frame."""
        idle = self.idle_ma_per_led * len(pixels)
        return idle + self.ma_per_channel * sum(sum(p) for p in pixels) / 255

    def channel_allowance(self, budget_ma: float, leds: int) -> int:
        """The largest sum of all drive values whose estimate stays within the budget."""
        spare = budget_ma - self.idle_ma_per_led * leds
        return max(0, math.floor(spare * 255 / self.ma_per_channel + 1e-9))


def limit(pixels: Sequence[RGB], model: CurrentModel, budget_ma: float) -> tuple[list[RGB], bool]:
    """The frame scaled down, if need be, so its estimated current is within budget;
    and whether it had to be."""
    allowance = model.channel_allowance(budget_ma, len(pixels))
    total = sum(sum(p) for p in pixels)
    if total <= allowance:
        return list(pixels), False
    scale = allowance / total
    channels = [[math.floor(v * scale) for v in p] for p in pixels]
    excess = sum(map(sum, channels)) - allowance
    while excess > 0:  # float rounding can leave a unit or two over; take from the largest
        led, channel = max(
            ((i, c) for i in range(len(channels)) for c in range(3)),
            key=lambda ic: channels[ic[0]][ic[1]],
        )
        channels[led][channel] -= 1
        excess -= 1
    return [(c[0], c[1], c[2]) for c in channels], True


@dataclass(frozen=True)
class Light:
    gamma: float
    brightness: float
    model: CurrentModel
    budget_ma: float

    def drive(self, shades: Sequence[Shade]) -> tuple[list[RGB], bool]:
        """Drive values for perceived shades, within the current budget."""
        scale = 255 * self.brightness
        raw = [
            (
                round(_clip(r) ** self.gamma * scale),
                round(_clip(g) ** self.gamma * scale),
                round(_clip(b) ** self.gamma * scale),
            )
            for r, g, b in shades
        ]
        return limit(raw, self.model, self.budget_ma)

    def perceived(self, pixel: RGB) -> RGB:
        """A drive value turned back into a colour for a screen (inverse gamma, without
        the master brightness), so the table screen shows what the lamps look like."""
        scale = 255 * self.brightness
        if scale <= 0:
            return (0, 0, 0)
        out = [round(255 * min(1.0, v / scale) ** (1 / self.gamma)) for v in pixel]
        return (out[0], out[1], out[2])


def _clip(value: float) -> float:
    return 0.0 if value < 0 else 1.0 if value > 1 else value
