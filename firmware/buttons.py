"""The tower buttons: gpiozero for the pins, our own debounce on top.

gpiozero's ``bounce_time`` is ignored by its mock pins, and bounce handling is the part
most worth testing, so buttons are read with ``bounce_time=None`` and every edge goes
through ``Debouncer``, which takes its time from an injectable clock. Each edge is timed
by when it happened (the pin's ticks: with lgpio, the kernel's timestamp), not by when
the callback thread got round to it: lgpio delivers its edge reports from one thread, in
batches when it falls behind, and a late batch must not turn one bouncing press into two.

The debounce acts on the leading edge, so a press counts the instant the contact first
closes (no added latency), then:
- contact bounce while pressed is ignored (the button is already down);
- a closing edge within ``debounce_s`` of the last opening edge is the same press
  bouncing on release (or on press), not a new one;
- holding a button never repeats it; held buttons are listed by ``held()``;
- a button down longer than ``stuck_s`` is listed by ``stuck()`` so the table screen can
  warn about a jammed switch or a shorted wire; one already down at start-up never counts
  as a press until it has been released.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from firmware.diagnose import Machine, Unavailable, denied

Clock = Callable[[], float]


class ButtonsUnavailable(RuntimeError):
    """The GPIO buttons could not be set up; the message says why."""


@dataclass
class _State:
    down: bool = False
    down_since: float = 0.0
    last_release: float = float("-inf")


class Debouncer:
    def __init__(
        self,
        names: list[str],
        on_press: Callable[[str], None],
        debounce_s: float = 0.02,
        stuck_s: float = 30.0,
        clock: Clock = time.monotonic,
    ) -> None:
        self.debounce_s = debounce_s
        self.stuck_s = stuck_s
        self.clock = clock
        self._on_press = on_press
        self._states = {name: _State() for name in names}
        self._lock = threading.Lock()

    def start_down(self, name: str) -> None:
        """The button was already down when reading began: held, but no press."""
        with self._lock:
            state = self._states[name]
            state.down, state.down_since = True, self.clock()

    def edge(self, name: str, closed: bool, age: float = 0.0) -> bool:
        """A raw edge from the pin, which happened ``age`` seconds ago; True if it made a
        press."""
        now = self.clock() - age
        with self._lock:
            state = self._states[name]
            if not closed:
                if state.down:
                    state.down = False
                    state.last_release = now
                return False
            if state.down:
                return False
            state.down = True
            if now - state.last_release < self.debounce_s:
                return False  # bounce: the same press as before, still going on
            state.down_since = now
        self._on_press(name)
        return True

    def held(self) -> dict[str, float]:
        """Buttons down now, with how long they have been down (seconds)."""
        now = self.clock()
        with self._lock:
            return {n: now - s.down_since for n, s in self._states.items() if s.down}

    def stuck(self) -> list[str]:
        return [name for name, seconds in self.held().items() if seconds >= self.stuck_s]


def lgpio_work_dir(environ: MutableMapping[str, str] = os.environ) -> str:
    """Give lgpio a directory it can write, unless ``$LG_WD`` already names one.

    lgpio (gpiozero's pin library on Raspberry Pi OS) makes its notification pipe
    (``.lgd-nfy0``) as soon as it is imported, in ``$LG_WD`` or else the current
    directory, and moves the process there. Run as the service user from someone's home
    directory, that fails with LG_BAD_PATHNAME and the buttons are lost, so the companion
    picks the directory: systemd's runtime directory, the user's runtime directory, or a
    private temporary one (removed at exit).
    """
    chosen = environ.get("LG_WD")
    if chosen:
        return chosen
    for candidate in (
        environ.get("RUNTIME_DIRECTORY", "").split(":")[0],
        environ.get("XDG_RUNTIME_DIR", ""),
    ):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK | os.X_OK):
            chosen = candidate
            break
    else:
        chosen = tempfile.mkdtemp(prefix="clacks-lgpio-")
        atexit.register(shutil.rmtree, chosen, ignore_errors=True)
    environ["LG_WD"] = chosen
    return chosen


def lgpio_installed() -> bool:
    return importlib.util.find_spec("lgpio") is not None


def _diagnose(
    exc: Exception, machine: Machine, has_lgpio: Callable[[], bool] = lgpio_installed
) -> Unavailable:
    """Why real GPIO pins could not be set up: permissions before packages, since gpiozero
    reports an unreadable /dev/gpiochip0 as "no pin library" (lgpio fails to open it)."""
    chips = sorted(machine.dev.glob("gpiochip[0-9]*"))
    if chips and all(machine.device_state(chip) == "denied" for chip in chips):
        return denied("gpio-denied", chips[0], machine)
    # lgpio there but no chip to open (a container or chroot): gpiozero says BadPinFactory
    if not chips and has_lgpio():
        return Unavailable("gpio-no-chip", device=machine.dev / "gpiochip0")
    # Without lgpio gpiozero falls back to its sysfs pins, which Bookworm's kernels refuse
    # (EINVAL) on a Pi 3 or 4, or to BadPinFactory.
    if type(exc).__name__ == "BadPinFactory" or not has_lgpio():
        return Unavailable("gpio-no-library", error=f"{type(exc).__name__}: {exc}")
    return Unavailable("gpio-failed", error=f"{type(exc).__name__}: {exc}")


class _EdgeReader:
    """A pin's edges into the debouncer: the contact closes to ground, against the
    pull-up, so a low pin is a closed contact."""

    def __init__(self, debouncer: Debouncer, name: str, factory: Any) -> None:
        self.debouncer, self.name, self.factory = debouncer, name, factory

    def __call__(self, ticks: Any, state: Any) -> None:
        age = 0.0
        if ticks is not None:
            age = max(0.0, float(self.factory.ticks_diff(self.factory.ticks(), ticks)))
        self.debouncer.edge(self.name, not state, age)


class GpioButtons:
    """One gpiozero Button per pin (BCM numbering), closing to ground."""

    backend = "gpio"

    def __init__(
        self,
        pins: dict[str, int],
        debouncer: Debouncer,
        pin_factory: Any = None,
        machine: Machine | None = None,
    ) -> None:
        if pin_factory is None:  # the real pins: lgpio is about to be imported
            lgpio_work_dir()
        try:
            from gpiozero import Button
        except ImportError as exc:
            raise ButtonsUnavailable(f"gpiozero is not installed ({exc})") from exc
        self._buttons: list[Any] = []
        self._readers: list[_EdgeReader] = []
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._buttons.append(button)
                reader = _EdgeReader(debouncer, name, button.pin_factory)
                self._readers.append(reader)  # the pin keeps only a weak reference
                button.pin.when_changed = reader
                if button.is_pressed:
                    debouncer.start_down(name)
        except Exception as exc:
            self.close()
            if pin_factory is None:
                problem = _diagnose(exc, machine or Machine())
            else:
                problem = Unavailable("gpio-failed", error=f"{type(exc).__name__}: {exc}")
            raise ButtonsUnavailable(str(problem)) from exc
        factory = pin_factory or (self._buttons[0].pin_factory if self._buttons else None)
        self.factory_name = type(factory).__name__ if factory is not None else "none"

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
