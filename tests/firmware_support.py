"""Shared helpers for the firmware tests: a hand-wound clock and a board on mock pins."""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory

from firmware.config import BoardConfig
from firmware.exchange import Exchange
from firmware.factory import create_board
from firmware.light import RGB
from firmware.sinks import RecordingSink


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def mock_board(
    config: BoardConfig | None = None, **kwargs: Any
) -> tuple[Exchange, RecordingSink, FakeClock, MockFactory]:
    """An exchange reading MockFactory pins, without the renderer thread: frames are
    rendered when the test calls ``board.renderer.tick()``, at the fake clock's time."""
    clock = FakeClock()
    sink = RecordingSink()
    factory = MockFactory()
    board = create_board(
        config or BoardConfig(), model=None, sink=sink, pin_factory=factory, clock=clock, **kwargs
    )
    board.start_buttons()
    return board, sink, clock, factory


def estimate_ma(frame: list[RGB], ma_per_channel: float = 20.0, idle: float = 1.0) -> float:
    """The WLED-style estimate, written out again here rather than borrowed."""
    return sum(idle + ma_per_channel * (r + g + b) / 255 for r, g, b in frame)
