"""What the sixteen lamps should look like at a given moment.

A scene holds the game's last frame and the short animations laid over it (a transmit,
a highlight, a refused flash, attract mode), each stamped with the time it began. It never
reads a clock: ``shades(now)`` and ``next_change(now)`` take the time, so tests can step
through an animation exactly. Colours here are perceived brightness (see light.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.interface import LampFrame
from firmware.config import LedConfig
from firmware.light import Shade

LAMPS = 16
BLINK_S = 0.5  # a preview lamp spends half of this as it would become, half as it is
HIGHLIGHT_S = 0.6  # lamps picked out after a press
PULSE_S = 0.2  # transmit: the tower's lit lamps open and close like shutters
PULSES = 3
TRANSMIT_S = PULSE_S * 2 * PULSES
FLASH_S = 0.12  # refused: red, normal, red
REFUSED_S = FLASH_S * 3
DIM = 0.35  # the rest of the board while a tower transmits
ACCENT_DARK = 0.6  # a dark lamp picked out glows at this fraction of the accent colour
OFF: Shade = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class AttractStep:
    """One picture of an attract-mode programme, held for ``seconds``."""

    frame: LampFrame
    seconds: float


@dataclass(frozen=True)
class Palette:
    lit: Shade
    accent: Shade
    signal: Shade
    refused: Shade
    glow: float

    @classmethod
    def from_config(cls, leds: LedConfig) -> Palette:
        def shade(rgb: tuple[int, int, int]) -> Shade:
            return (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)

        return cls(
            shade(leds.lit), shade(leds.accent), shade(leds.signal), shade(leds.refused), leds.glow
        )


def _scaled(shade: Shade, factor: float) -> Shade:
    return (shade[0] * factor, shade[1] * factor, shade[2] * factor)


def _phase(now: float, since: float, step: float) -> int:
    return math.floor((now - since) / step + 1e-9)


def _next_edge(now: float, since: float, step: float, end: float | None = None) -> float | None:
    edge = since + (_phase(now, since, step) + 1) * step
    if end is not None and edge > end + 1e-9:
        return None
    return edge


class Scene:
    def __init__(self, palette: Palette, attract_steps: Sequence[AttractStep] = ()) -> None:
        self.palette = palette
        self.attract_steps = tuple(s for s in attract_steps if s.seconds > 0)
        self.frame = LampFrame(lit=0)
        self.frame_since = 0.0
        self.transmit: tuple[int, float] | None = None
        self.highlight: tuple[int, float] | None = None
        self.refused_since: float | None = None
        self.attract_since: float | None = None

    # ---------------------------------------------------------------- changes

    def show(self, frame: LampFrame, now: float) -> None:
        if frame.preview != self.frame.preview:
            self.frame_since = now  # a new preview starts its blink with the flipped state
        self.frame = frame

    def transmitted(self, lamps: int, now: float) -> None:
        self.transmit = (lamps, now)

    def highlighted(self, lamps: int, now: float) -> None:
        self.highlight = (lamps, now)

    def refused(self, now: float) -> None:
        self.refused_since = now

    def attract(self, enabled: bool, now: float) -> None:
        if not enabled:
            self.attract_since = None
        elif self.attract_since is None and self.attract_steps:
            self.attract_since = now

    # ---------------------------------------------------------------- looks

    def _attract_frame(self, now: float) -> tuple[LampFrame, float] | None:
        """The attract programme's picture now, and when it next changes."""
        if self.attract_since is None:
            return None
        total = sum(s.seconds for s in self.attract_steps)
        cycle_start = self.attract_since + math.floor((now - self.attract_since) / total) * total
        t = cycle_start
        for step in self.attract_steps:
            if now < t + step.seconds:
                return step.frame, t + step.seconds
            t += step.seconds
        return self.attract_steps[0].frame, t + self.attract_steps[0].seconds

    def base_frame(self, now: float) -> LampFrame:
        attract = self._attract_frame(now)
        return attract[0] if attract else self.frame

    def shades(self, now: float) -> list[Shade]:
        frame = self.base_frame(now)
        palette = self.palette
        lit = frame.lit
        if frame.preview and _phase(now, self.frame_since, BLINK_S / 2) % 2 == 0:
            lit ^= frame.preview
        glow = _scaled(palette.lit, palette.glow)
        accent_dark = _scaled(palette.accent, ACCENT_DARK)
        shades: list[Shade] = []
        for lamp in range(LAMPS):
            bit = 1 << lamp
            if lit & bit:
                shades.append(palette.lit)
            elif frame.accent & bit:
                shades.append(accent_dark)
            else:
                shades.append(glow)
        if self.transmit and now - self.transmit[1] < TRANSMIT_S:
            lamps, since = self.transmit
            open_ = _phase(now, since, PULSE_S) % 2 == 0
            for lamp in range(LAMPS):
                if lamps >> lamp & 1:
                    shades[lamp] = palette.signal if open_ and lit >> lamp & 1 else OFF
                else:
                    shades[lamp] = _scaled(shades[lamp], DIM)
        # drawn over a transmit still shuttering: a press is answered at once, whatever
        # is still animating (the next player often presses before the shutters settle)
        if self.highlight and now - self.highlight[1] < HIGHLIGHT_S:
            lamps = self.highlight[0]
            for lamp in range(LAMPS):
                if lamps >> lamp & 1:
                    shades[lamp] = palette.signal if lit >> lamp & 1 else accent_dark
        refusing = self.refused_since is not None and now - self.refused_since < REFUSED_S
        if refusing and _phase(now, self.refused_since or 0.0, FLASH_S) % 2 == 0:
            shades = [palette.refused] * LAMPS
        return shades

    def next_change(self, now: float) -> float | None:
        """The next moment ``shades`` may differ without any new call; None if never."""
        edges: list[float | None] = []
        attract = self._attract_frame(now)
        frame = attract[0] if attract else self.frame
        if attract:
            edges.append(attract[1])
        if frame.preview:
            edges.append(_next_edge(now, self.frame_since, BLINK_S / 2))
        if self.highlight and now - self.highlight[1] < HIGHLIGHT_S:
            edges.append(self.highlight[1] + HIGHLIGHT_S)
        if self.transmit and now - self.transmit[1] < TRANSMIT_S:
            since = self.transmit[1]
            edges.append(_next_edge(now, since, PULSE_S, since + TRANSMIT_S))
        if self.refused_since is not None and now - self.refused_since < REFUSED_S:
            since = self.refused_since
            edges.append(_next_edge(now, since, FLASH_S, since + REFUSED_S))
        found = [e for e in edges if e is not None]
        return min(found) if found else None
