"""Pixel sinks: where finished frames go. A sink takes sixteen drive values in strip
order and puts them on LEDs, on a screen or in a list. The real LED drivers are in
drivers.py; the two here need no hardware.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Protocol, TextIO

from firmware.light import RGB
from firmware.pixelmap import PixelMap


class PixelSink(Protocol):
    name: str

    def write(self, pixels: Sequence[RGB]) -> None:
        """Show these drive values, in strip order."""

    def close(self) -> None:
        """Turn the LEDs off and let the hardware go."""


class RecordingSink:
    """Keeps every frame written to it, for tests and benches."""

    name = "recording"

    def __init__(self, on_write: Callable[[list[RGB]], None] | None = None) -> None:
        self.frames: list[list[RGB]] = []
        self.closed = False
        self._on_write = on_write
        self._written = threading.Condition()

    def write(self, pixels: Sequence[RGB]) -> None:
        frame = list(pixels)
        with self._written:
            self.frames.append(frame)
            self._written.notify_all()
        if self._on_write:
            self._on_write(frame)

    def close(self) -> None:
        self.closed = True

    @property
    def last(self) -> list[RGB] | None:
        return self.frames[-1] if self.frames else None

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until at least ``count`` frames have been written."""
        with self._written:
            return self._written.wait_for(lambda: len(self.frames) >= count, timeout)


class SimulatorSink:
    """The board without LEDs: keeps the last frame (the table screen reads it through
    the board's ``pixels()``) and can draw it in a terminal with true-colour blocks."""

    name = "simulator"

    def __init__(self, pixel_map: PixelMap, terminal: TextIO | None = None) -> None:
        self.pixel_map = pixel_map
        self.terminal = terminal
        self.last: list[RGB] = [(0, 0, 0)] * 16

    def write(self, pixels: Sequence[RGB]) -> None:
        self.last = list(pixels)
        if self.terminal is not None:
            self.terminal.write(render_terminal(self.pixel_map.to_lamps(self.last)))
            self.terminal.flush()

    def close(self) -> None:
        self.last = [(0, 0, 0)] * 16


def render_terminal(lamps: Sequence[RGB]) -> str:
    """The lamps as a 4x4 block picture seen from the South seat (row 4 at the top),
    with lamp names along the edges. Drive values are brightened for a screen."""
    lines = ["     a   b   c   d"]
    for row in range(3, -1, -1):
        cells = []
        for col in range(4):
            r, g, b = (min(255, round(255 * (v / 255) ** (1 / 2.2))) for v in lamps[row * 4 + col])
            cells.append(f"\x1b[48;2;{r};{g};{b}m   \x1b[0m")
        lines.append(f"  {row + 1} " + " ".join(cells))
    return "\n".join(lines) + "\n\n"
