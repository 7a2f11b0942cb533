"""Many seeded games through the companion and the real renderer, on the recording sink:
every frame stays within the current budget, and the steady picture on the LEDs is the
engine's board as each seat sees it, however the matrix is wired and mounted.

The LED positions are worked out here independently of firmware/pixelmap.py: the matrix
is turned as a rigid body with complex numbers, and each seat's view is the board turned
to face that seat.
"""

from __future__ import annotations

import dataclasses
import os
from functools import cache

import pytest
from firmware_support import FakeClock, estimate_ma

from engine.clacks.actions import PlayJacquard
from engine.clacks.geometry import Seat, lamp_rows_for
from engine.clacks.selfplay import next_action
from engine.clacks.session import ClacksSession
from engine.core.rng import Rng
from engine.games import game_module
from firmware.companion import Companion
from firmware.config import BoardConfig, LedConfig
from firmware.factory import create_board
from firmware.light import RGB
from firmware.scene import BLINK_S
from firmware.sinks import RecordingSink

GAMES = int(os.environ.get("CLACKS_FIRMWARE_GAMES", "500"))
# the first chunk (every mounting, both brightnesses, every player count) is in the fast
# tier, the other seven in the full one
CHUNKS = 8
MOUNTINGS = [(s, r, m) for s in (False, True) for r in (0, 90, 180, 270) for m in (False, True)]
SEAT_TURN = {Seat.SOUTH: 1, Seat.WEST: 1j, Seat.NORTH: -1, Seat.EAST: -1j}  # far side -> up
SETTLE_S = 3.0  # longer than any animation


def led_cell(led: int, serpentine: bool, rotation: int, mirrored: bool) -> complex:
    """Where a strip LED sits over the board, centred, North = +i, East = +1."""
    y, x = divmod(led, 4)
    if serpentine and y % 2:
        x = 3 - x
    z = complex(x - 1.5, 1.5 - y)  # matrix as printed: LED 0 top left
    if mirrored:
        z = complex(-z.real, z.imag)
    return z * (-1j) ** (rotation // 90)  # clockwise quarter turns


@cache
def seat_cells(mounting: tuple[bool, int, bool], seat: Seat) -> tuple[tuple[int, int], ...]:
    """(row, column) in ``seat``'s view of each strip LED: far row first, left to right."""
    cells = []
    for led in range(16):
        z = led_cell(led, *mounting) * SEAT_TURN[seat]
        cells.append((round(1.5 - z.imag), round(z.real + 1.5)))
    return tuple(cells)


def seat_picture(strip: list[RGB], mounting: tuple[bool, int, bool], seat: Seat) -> list[list[RGB]]:
    """The LEDs as a player in ``seat`` sees them."""
    picture: list[list[RGB]] = [[(0, 0, 0)] * 4 for _ in range(4)]
    for pixel, (row, col) in zip(strip, seat_cells(mounting, seat), strict=True):
        picture[row][col] = pixel
    return picture


def looks_lit(pixel: RGB) -> bool:
    r, _, b = pixel
    return r > b  # amber; dark lamps are off, or blue where a tower is picked out


@pytest.mark.parametrize(
    "chunk", [pytest.param(c, marks=[pytest.mark.slow] if c else []) for c in range(CHUNKS)]
)
def test_every_frame_of_many_games_is_within_budget_and_mirrors_the_board(chunk: int) -> None:
    module = game_module("clacks")
    frames_checked = 0
    games = range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS)
    for index in games:
        mounting = MOUNTINGS[index % len(MOUNTINGS)]
        serpentine, rotation, mirrored = mounting
        bright = index % 2 == 1
        leds = dataclasses.replace(
            LedConfig(),
            serpentine=serpentine,
            rotation=rotation,
            mirrored=mirrored,
            brightness=1.0 if bright else 0.6,
            budget_ma=150.0 if bright else 400.0,
        )
        clock = FakeClock()
        sink = RecordingSink()
        board = create_board(BoardConfig(leds=leds), model=None, sink=sink, clock=clock)
        companion = Companion(board)
        session = module.new({"players": 2 + index % 3}, index)
        assert isinstance(session, ClacksSession)
        game, rng = session.clacks, Rng(index)
        companion.game_changed(session, [e.to_json() for e in game.opening_events()])
        while not game.over:
            action = next_action(game, rng)
            seat = action.seat.label if action.seat else None
            if isinstance(action, PlayJacquard) and index % 4 == 0 and seat is not None:
                _check_preview(board, companion, session, seat, action.to_json(), mounting, clock)
            events = session.apply(seat, action.to_json(), clock())
            companion.game_changed(session, events)
            board.renderer.tick()  # animations begin: the brightest frames
            clock.advance(SETTLE_S)
            board.renderer.tick()
            _check_mirrors(sink.frames[-1], session.lamps().lit, mounting)
        for frame in sink.frames:
            assert estimate_ma(frame) <= leds.budget_ma + 1e-9
        frames_checked += len(sink.frames)
    assert frames_checked > len(games) * 20


def _check_mirrors(strip: list[RGB], board: int, mounting: tuple[bool, int, bool]) -> None:
    for seat in Seat:
        seen = [[looks_lit(p) for p in row] for row in seat_picture(strip, mounting, seat)]
        assert seen == lamp_rows_for(seat, board), (seat, mounting)


def _check_preview(
    board: object,
    companion: Companion,
    session: ClacksSession,
    seat: str,
    action: dict[str, object],
    mounting: tuple[bool, int, bool],
    clock: FakeClock,
) -> None:
    frame = session.preview(seat, action)
    assert frame is not None and frame.preview
    companion.preview(session, seat, action)
    renderer = board.renderer  # type: ignore[attr-defined]
    renderer.tick()
    _check_mirrors(renderer.sink.frames[-1], frame.lit ^ frame.preview, mounting)
    clock.advance(BLINK_S / 2)
    renderer.tick()
    _check_mirrors(renderer.sink.frames[-1], frame.lit, mounting)
    companion.preview(session, seat, None)
