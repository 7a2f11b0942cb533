"""Build the exchange this machine can run: real LEDs and buttons on a Raspberry Pi, the
simulator elsewhere, and the simulator with a warning when a driver will not start."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from firmware.config import BoardConfig, ConfigError, load_config
from firmware.detect import auto_led_backend, pi_model
from firmware.diagnose import Machine
from firmware.drivers import DriverUnavailable, open_driver
from firmware.exchange import Exchange, pixel_map_for
from firmware.scene import AttractStep
from firmware.sinks import PixelSink, SimulatorSink

DETECT = "detect"


def create_board(
    config: BoardConfig | None = None,
    *,
    config_file: Path | None = None,
    model: str | None = DETECT,
    sink: PixelSink | None = None,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    attract_steps: Sequence[AttractStep] | None = None,
    attract_game: str | None = None,
    terminal: TextIO | None = None,
    machine: Machine | None = None,
) -> Exchange:
    """The exchange for this machine (not yet started).

    ``config`` defaults to the configuration file (``$CLACKS_CONFIG`` or
    /etc/clacks/config.toml); a broken file gives the defaults plus a warning in
    ``status()``. The games take their options for the box from it too (the Klackers
    layout: ``Exchange.game_options``), each with its own warning when it cannot be used. ``model`` is the Raspberry
    Pi model (detected unless given; None = not a Pi). ``sink`` and ``pin_factory``
    replace the LED driver and gpiozero's pin factory. The attract mode plays
    ``attract_steps``, or ``attract_game``'s programme (default: the box's own).
    ``machine`` is where a driver that cannot start looks for the cause (default: this
    machine's /dev, boot settings and user).
    """
    warnings: list[str] = []
    if config is None:
        try:
            config = load_config(config_file)
        except ConfigError as exc:
            warnings.append(f"{exc}; using the default settings")
            config = BoardConfig()
    from firmware.shows import ATTRACT_GAME, attract_programme, board_options

    game_options, game_warnings = board_options(config)
    warnings += game_warnings
    if model == DETECT:
        model = pi_model()
    requested = config.leds.backend
    backend = auto_led_backend(model) if requested == "auto" else requested
    if sink is None:
        if backend == "simulator":
            sink = SimulatorSink(pixel_map_for(config), terminal)
        else:
            try:
                sink = open_driver(backend, config.leds, machine, model)
            except DriverUnavailable as exc:
                warnings.append(
                    f"LED driver {backend!r} unavailable: {exc}. The lamps are shown on "
                    "screen only"
                )
                sink = SimulatorSink(pixel_map_for(config), terminal)
    buttons = config.buttons.backend
    if buttons == "auto":
        has_pins = model is not None or pin_factory is not None
        buttons = "gpio" if has_pins or os.environ.get("GPIOZERO_PIN_FACTORY") else "none"
    if attract_steps is None:
        game = attract_game or ATTRACT_GAME
        attract_steps = attract_programme(game, game_options.get(game))
    return Exchange(
        config,
        sink,
        clock=clock,
        attract_steps=attract_steps,
        buttons=buttons,
        pin_factory=pin_factory,
        machine=machine,
        requested_leds=backend,
        warnings=warnings,
        game_options=game_options,
    )
