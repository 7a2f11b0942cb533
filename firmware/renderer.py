"""The one renderer thread: scene -> shades -> drive values -> pixel map -> sink.

Anything that changes the scene wakes the thread; between changes it sleeps until the
scene's next animation edge, or indefinitely when nothing moves. A frame reaches the sink
only when its drive values differ from the last one written. ``tick(now)`` is the whole
rendering step, so tests call it directly with their own clock instead of starting the
thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from firmware.light import RGB, Light
from firmware.pixelmap import PixelMap
from firmware.scene import LAMPS, Scene
from firmware.sinks import PixelSink, SimulatorSink

Clock = Callable[[], float]
log = logging.getLogger(__name__)
OFF_FRAME: list[RGB] = [(0, 0, 0)] * LAMPS


class Renderer:
    def __init__(
        self,
        scene: Scene,
        light: Light,
        pixel_map: PixelMap,
        sink: PixelSink,
        clock: Clock = time.monotonic,
        on_sink_failure: Callable[[str], None] | None = None,
    ) -> None:
        self.scene = scene
        self.light = light
        self.pixel_map = pixel_map
        self.sink = sink
        self.clock = clock
        self._on_sink_failure = on_sink_failure
        self._cond = threading.Condition()
        self._dirty = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.lamps: list[RGB] = list(OFF_FRAME)  # last written, lamp order a1..d4
        self.written = 0  # frames handed to the sink
        self.estimate_ma = 0.0
        self.limited = False
        self._has_written = False
        self._listeners: list[Callable[[], None]] = []

    def on_written(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every frame written to the sink."""
        self._listeners.append(callback)

    # ---------------------------------------------------------------- scene changes

    def change(self, mutate: Callable[[Scene, float], None]) -> None:
        """Apply ``mutate(scene, now)`` and wake the renderer."""
        with self._cond:
            mutate(self.scene, self.clock())
            self._dirty = True
            self._cond.notify()

    # ---------------------------------------------------------------- rendering

    def tick(self, now: float | None = None) -> bool:
        """Render the scene at ``now``; write it if it changed. True if written."""
        if now is None:
            now = self.clock()
        with self._cond:
            shades = self.scene.shades(now)
        pixels, limited = self.light.drive(shades)
        if self._has_written and pixels == self.lamps:
            return False
        self._write(pixels)
        self.limited = limited
        return True

    def _write(self, pixels: list[RGB]) -> None:
        strip = self.pixel_map.to_strip(pixels)
        try:
            self.sink.write(strip)
        except Exception as exc:
            reason = f"the {self.sink.name} LED driver stopped working ({exc}); showing the lamps on screen only"
            log.error("%s", reason)
            self.sink = SimulatorSink(self.pixel_map)
            self.sink.write(strip)
            if self._on_sink_failure:
                self._on_sink_failure(reason)
        self.lamps = pixels
        self.estimate_ma = self.light.model.estimate(pixels)
        self.written += 1
        self._has_written = True
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:  # a screen that cannot follow must not stop the lamps
                log.exception("a frame listener failed")

    # ---------------------------------------------------------------- the thread

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="lamp-renderer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread, turn the lamps off and release the sink."""
        thread = self._thread
        if thread is not None:
            with self._cond:
                self._stopping = True
                self._cond.notify()
            thread.join(timeout=5)
            self._thread = None
        try:
            self._write(list(OFF_FRAME))
            self.sink.close()
        except Exception as exc:  # the lamps may stay lit, but shutting down must go on
            log.error("could not turn the lamps off: %s", exc)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._stopping:
                    return
                self._dirty = False
            now = self.clock()
            try:
                self.tick(now)
            except Exception:  # a bug in one frame must not leave the lamps frozen for good
                log.exception("rendering a frame failed")
            with self._cond:
                wake = self.scene.next_change(now)
                while not self._dirty and not self._stopping:
                    timeout = None if wake is None else wake - self.clock()
                    if timeout is not None and timeout <= 0:
                        break
                    self._cond.wait(timeout)
