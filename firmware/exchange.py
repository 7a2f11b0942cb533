"""The exchange: renderer, pixel sink and buttons behind the ExchangeBoard interface."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.interface import JSON, LampFrame
from firmware.board import ButtonCallback, FrameCallback
from firmware.buttons import ButtonsUnavailable, Debouncer, GpioButtons
from firmware.config import BoardConfig
from firmware.diagnose import Machine
from firmware.light import RGB, CurrentModel, Light
from firmware.pixelmap import PixelMap
from firmware.renderer import Renderer
from firmware.scene import AttractStep, Palette, Scene
from firmware.sinks import PixelSink

log = logging.getLogger(__name__)


def light_for(config: BoardConfig) -> Light:
    leds = config.leds
    return Light(
        gamma=leds.gamma,
        brightness=leds.brightness,
        model=CurrentModel(leds.ma_per_channel, leds.idle_ma_per_led),
        budget_ma=leds.budget_ma,
    )


def pixel_map_for(config: BoardConfig) -> PixelMap:
    leds = config.leds
    return PixelMap(serpentine=leds.serpentine, rotation=leds.rotation, mirrored=leds.mirrored)


class Exchange:
    """An ExchangeBoard. Build one with ``firmware.create_board``; tests may build one
    directly with a recording sink, mock pins and their own clock."""

    def __init__(
        self,
        config: BoardConfig,
        sink: PixelSink,
        *,
        clock: Callable[[], float] = time.monotonic,
        attract_steps: Sequence[AttractStep] = (),
        buttons: str = "none",
        pin_factory: Any = None,
        machine: Machine | None = None,
        requested_leds: str | None = None,
        warnings: Sequence[str] = (),
        game_options: dict[str, JSON] | None = None,
    ) -> None:
        self.config = config
        self._game_options = dict(game_options or {})
        self.clock = clock
        self.light = light_for(config)
        self.pixel_map = pixel_map_for(config)
        self.renderer = Renderer(
            Scene(Palette.from_config(config.leds), attract_steps),
            self.light,
            self.pixel_map,
            sink,
            clock=clock,
            on_sink_failure=self._warn,
        )
        self.button_names = list(config.buttons.pins)
        self.debouncer = Debouncer(
            self.button_names,
            self._dispatch,
            debounce_s=config.buttons.debounce_ms / 1000,
            stuck_s=config.buttons.stuck_s,
            clock=clock,
        )
        self._buttons_backend = buttons
        self._pin_factory = pin_factory
        self._machine = machine
        self._gpio: GpioButtons | None = None
        self._requested_leds = requested_leds or sink.name
        self._warnings: list[str] = list(warnings)
        self._callbacks: list[ButtonCallback] = []
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- lifecycle

    def start(self) -> None:
        self.start_buttons()
        self.renderer.start()

    def start_buttons(self) -> None:
        """Start reading the buttons only; frames are then rendered by calling
        ``renderer.tick()`` (tests and benches that step time themselves)."""
        if self._buttons_backend == "gpio" and self._gpio is None:
            try:
                self._gpio = GpioButtons(
                    self.config.buttons.pins,
                    self.debouncer,
                    pin_factory=self._pin_factory,
                    machine=self._machine,
                )
            except ButtonsUnavailable as exc:
                self._warn(f"{exc}. The on-screen buttons still work")
                self._buttons_backend = "none"

    def stop(self) -> None:
        if self._gpio is not None:
            self._gpio.close()
            self._gpio = None
        self.renderer.stop()

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        with self._lock:
            if message not in self._warnings:
                self._warnings.append(message)

    # ---------------------------------------------------------------- lamps

    def show(self, frame: LampFrame) -> None:
        self.renderer.change(lambda scene, now: scene.show(frame, now))

    def transmitted(self, lamps: int) -> None:
        self.renderer.change(lambda scene, now: scene.transmitted(lamps, now))

    def highlight(self, lamps: int) -> None:
        self.renderer.change(lambda scene, now: scene.highlighted(lamps, now))

    def refused(self) -> None:
        self.renderer.change(lambda scene, now: scene.refused(now))

    def attract(self, enabled: bool) -> None:
        if not enabled and self.renderer.scene.attract_since is None:
            return  # already off: the companion says so after every move, so skip the wake-up
        self.renderer.change(lambda scene, now: scene.attract(enabled, now))

    def pixels(self) -> list[RGB]:
        return list(self.renderer.lamps)

    def on_frame(self, callback: FrameCallback) -> None:
        self.renderer.on_written(callback)

    def screen_pixels(self) -> list[RGB]:
        """The lamps as a screen should draw them (drive values turned back through the
        gamma curve, so a lit lamp looks amber rather than dark orange)."""
        return [self.light.perceived(p) for p in self.renderer.lamps]

    # ---------------------------------------------------------------- buttons

    def on_press(self, callback: ButtonCallback) -> None:
        with self._lock:
            self._callbacks.append(callback)

    def press(self, button: str) -> None:
        """A press and release from the simulator (the table screen's tower buttons),
        through the same debounce as a GPIO contact: a second press within the debounce
        time of the first is the same press."""
        if button not in self.button_names:
            raise ValueError(
                f"unknown button {button!r}; buttons are {', '.join(self.button_names)}"
            )
        held = button in self.debouncer.held()  # the real button is down: leave it so
        self.debouncer.edge(button, True)
        if not held:
            self.debouncer.edge(button, False)

    def _dispatch(self, button: str) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(button)
            except Exception:  # a failing handler must not kill the GPIO callback thread
                log.exception("handling a press of %s failed", button)

    def game_options(self, game: str) -> JSON:
        """The options this box's settings give every new game of ``game`` (the Klackers
        layout), under the lobby's own."""
        return dict(self._game_options.get(game, {}))

    # ---------------------------------------------------------------- status

    def status(self) -> dict[str, Any]:
        held = self.debouncer.held()
        stuck = self.debouncer.stuck()
        with self._lock:
            warnings = list(self._warnings)
        warnings += [
            f"button {name} has been held down for {held[name]:.0f} s: is it stuck?"
            for name in stuck
        ]
        renderer = self.renderer
        return {
            "leds": {
                "backend": renderer.sink.name,
                "requested": self._requested_leds,
                "running": renderer.running,
                "frames": renderer.written,
                "estimated_ma": round(renderer.estimate_ma, 1),
                "budget_ma": self.config.leds.budget_ma,
                "limited": renderer.limited,
            },
            "buttons": {
                "backend": self._buttons_backend,
                "pin_factory": self._gpio.factory_name if self._gpio else None,
                "names": list(self.button_names),
                "held": sorted(held),
                "stuck": stuck,
            },
            "config": self.config.source,
            "warnings": warnings,
        }
