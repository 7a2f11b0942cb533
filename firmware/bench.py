"""Hardware figures for `clacks bench`: from a tower button press to the frame that shows it.

Each press goes the whole way a real one does: a gpiozero mock pin closes, the debounce
layer accepts it, the press handler asks a real Clacks session what it means and applies
the move, the companion shows the new frame and the move's highlight, and the renderer
thread hands the frame to the sink. The time runs from the pin edge to the moment the
sink receives the first frame that shows the moved-to tower picked out.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from typing import Any

from engine.clacks.selfplay import next_action
from engine.clacks.session import ClacksSession
from engine.core.interface import LampFrame
from engine.core.rng import Rng
from engine.games import game_module
from firmware.clacks_show import tower_lamps
from firmware.companion import Companion, SessionButtons
from firmware.config import BoardConfig
from firmware.exchange import Exchange
from firmware.factory import create_board
from firmware.light import RGB
from firmware.scene import Palette
from firmware.sinks import RecordingSink

TIMEOUT_S = 2.0


class _Stamps:
    """When each frame reached the sink."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, list[RGB]]] = []
        self.cond = threading.Condition()

    def record(self, frame: list[RGB]) -> None:
        with self.cond:
            self.frames.append((time.perf_counter(), frame))
            self.cond.notify_all()


def _new_session(seed: int) -> ClacksSession:
    session = game_module("clacks").new({"players": 2 + seed % 3}, seed)
    assert isinstance(session, ClacksSession)
    return session


def _highlights(board: Exchange, frame: list[RGB], lamps: int) -> bool:
    """Does this strip-ordered frame show ``lamps`` picked out (none plain lit or dark)?"""
    palette = Palette.from_config(board.config.leds)
    plain = {board.light.drive([palette.lit])[0][0], (0, 0, 0)}
    shown = board.pixel_map.to_lamps(frame)
    return all(shown[i] not in plain for i in range(16) if lamps >> i & 1)


def _first_showing(stamps: _Stamps, board: Exchange, seen: int, lamps: int) -> float | None:
    """When the first frame after the ``seen`` first ones that picks out ``lamps`` was
    written; None if none comes within the timeout."""

    def found() -> float | None:
        for at, frame in stamps.frames[seen:]:
            if _highlights(board, frame, lamps):
                return at
        return None

    with stamps.cond:
        stamps.cond.wait_for(lambda: found() is not None, TIMEOUT_S)
        return found()


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from gpiozero.pins.mock import MockFactory

    presses = 60 if getattr(args, "quick", False) else 300
    factory = MockFactory()
    stamps = _Stamps()
    config = BoardConfig()
    board = create_board(
        config, model=None, sink=RecordingSink(stamps.record), pin_factory=factory, attract_steps=()
    )
    companion = Companion(board)
    seed = 0
    session = _new_session(seed)
    rng = Rng(seed)
    companion.set_press_handler(
        SessionButtons(companion, lambda: session, lock=threading.RLock(), clock=lambda: 0.0)
    )
    board.start()
    debounce_s = config.buttons.debounce_ms / 1000
    released: dict[str, float] = {}
    latencies: list[float] = []
    missed = 0
    try:
        companion.game_changed(session, [])
        while len(latencies) + missed < presses:
            if session.over:
                seed += 1
                session, rng = _new_session(seed), Rng(seed)
                companion.game_changed(session, [])
            seat = session.active_seats[0]
            towers = [a["tower"] for a in session.legal_actions(seat, 0.0) if a["type"] == "move"]
            if not towers:
                game = session.clacks
                events = game.apply(next_action(game, rng))
                companion.game_changed(session, [e.to_json() for e in events])
                continue
            button = towers[rng.below(len(towers))]
            wait = released.get(button, -1.0) + debounce_s - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            moves_before = len(session.clacks.log)
            pin = factory.pin(config.buttons.pins[button])
            with stamps.cond:
                seen = len(stamps.frames)
            started = time.perf_counter()
            pin.drive_low()
            frame_at = _first_showing(stamps, board, seen, tower_lamps(button))
            pin.drive_high()
            released[button] = time.monotonic()
            if frame_at is not None and len(session.clacks.log) > moves_before:
                latencies.append((frame_at - started) * 1000)
            else:
                missed += 1
    finally:
        board.stop()
    latencies.sort()
    p99 = (
        latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
        if latencies
        else None
    )
    return {
        "button_to_frame_p50_ms": round(statistics.median(latencies), 3) if latencies else None,
        "button_to_frame_p99_ms": round(p99, 3) if p99 is not None else None,
        "button_to_frame_max_ms": round(latencies[-1], 3) if latencies else None,
        "button_presses_measured": len(latencies),
        "button_presses_missed": missed,
        "render_tick_us_median": _tick_cost(board),
    }


def _tick_cost(board: Exchange) -> float:
    """Median cost of one rendering step (scene, gamma, limiter, pixel map, write)."""
    renderer = board.renderer
    costs = []
    for i in range(400):
        renderer.scene.show(LampFrame(lit=i * 2654435761 % 65536, preview=i % 7), 0.0)
        start = time.perf_counter()
        renderer.tick(i * 0.01)
        costs.append(time.perf_counter() - start)
    return round(statistics.median(costs) * 1e6, 1)
