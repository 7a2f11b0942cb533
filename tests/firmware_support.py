"""Shared helpers for the firmware tests: a hand-wound clock, a board on mock pins, and
a game's session on such a board with its buttons wired."""

from __future__ import annotations

import os
import threading
from typing import Any, Generic, Protocol, TypeVar

from gpiozero.pins.mock import MockFactory

from engine.core.interface import JSON, Session
from firmware.companion import Companion, SessionButtons
from firmware.config import DEFAULT_BUTTON_PINS, BoardConfig
from firmware.exchange import Exchange
from firmware.factory import create_board
from firmware.light import RGB
from firmware.sinks import RecordingSink

# a user who is neither root nor the one running the tests (who owns their files)
OTHER_USER = next(uid for uid in (1000, 1001) if uid != os.geteuid())


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


AMBER = (153, 54, 3)
S = TypeVar("S", bound=Session)


def lit_lamps(pixels: list[tuple[int, int, int]]) -> int:
    """The lamps lit full amber, as a bit mask."""
    return sum(1 << i for i, p in enumerate(pixels) if p == AMBER)


class ButtonMeanings(Protocol):
    """A game's box layout: which button means what."""

    def button_for(self, meaning: str) -> str | None: ...


class SessionBox(Generic[S]):
    """A session on a mock-pin exchange, its buttons wired as serve wires them; what the
    presses did is kept in ``applied`` (the events) and ``refused`` (the rule codes).
    ``meanings`` lets ``press`` name a button by what it means in the game."""

    def __init__(self, session: S, meanings: ButtonMeanings | None = None) -> None:
        self.session = session
        self.meanings = meanings
        self.board: Exchange
        self.clock: FakeClock
        self.factory: MockFactory
        self.board, _, self.clock, self.factory = mock_board()
        self.companion = Companion(self.board)
        self.applied: list[list[JSON]] = []
        self.refused: list[str] = []
        self.companion.set_press_handler(
            SessionButtons(
                self.companion,
                lambda: self.session,
                lock=threading.RLock(),
                clock=lambda: 0.0,
                applied=lambda s, events: self.applied.append(events),
                refused=lambda s, exc: self.refused.append(exc.rule),
            )
        )
        self.companion.game_changed(session)

    def press(self, meaning: str) -> None:
        assert self.meanings is not None
        button = self.meanings.button_for(meaning)
        assert button is not None
        self.press_button(button)

    def press_button(self, button: str) -> None:
        pin = self.factory.pin(DEFAULT_BUTTON_PINS[button])
        pin.drive_low()
        self.clock.advance(0.05)
        pin.drive_high()
        self.clock.advance(0.05)

    def pixels(self) -> list[tuple[int, int, int]]:
        self.board.renderer.tick()
        return self.board.pixels()

    def lit(self) -> int:
        return lit_lamps(self.pixels())


def estimate_ma(frame: list[RGB], ma_per_channel: float = 20.0, idle: float = 1.0) -> float:
    """The WLED-style estimate, written out again here rather than borrowed."""
    return sum(idle + ma_per_channel * (r + g + b) / 255 for r, g, b in frame)
