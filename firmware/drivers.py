"""The real NeoPixel drivers, each imported only when its backend is asked for.

- ``spi``: WS2812B data on GPIO10 (SPI0 MOSI) through adafruit-circuitpython-neopixel-spi
  on Adafruit Blinka; needs SPI enabled and membership of the ``spi`` group, not root.
- ``pwm``: data on GPIO18 through adafruit-circuitpython-neopixel (rpi_ws281x); needs root.
- ``pi5``: the Raspberry Pi 5's PIO through adafruit-blinka-raspberry-pi5-neopixel, which
  needs no Blinka: it reads only the GPIO number of the pin it is given.

Opening a driver that cannot start raises DriverUnavailable naming the cause and its fix
(firmware/diagnose.py); the board then carries on with the simulator (see factory.py).
"""

from __future__ import annotations

import errno
import importlib
import os
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from firmware.config import LedConfig
from firmware.detect import RP1_MODELS
from firmware.diagnose import Machine, Unavailable, denied, missing_module
from firmware.light import RGB
from firmware.pixelmap import SIDE
from firmware.sinks import PixelSink

LED_COUNT = SIDE * SIDE
DriverUnavailable = Unavailable

# The distribution each module comes from, for the warning when it is missing.
PACKAGES = {
    "board": "adafruit-blinka",
    "busio": "adafruit-blinka",
    "digitalio": "adafruit-blinka",
    "neopixel_write": "adafruit-blinka",
    "neopixel_spi": "adafruit-circuitpython-neopixel-spi",
    "adafruit_pixelbuf": "adafruit-circuitpython-pixelbuf",
    "adafruit_bus_device": "adafruit-circuitpython-busdevice",
    "neopixel": "adafruit-circuitpython-neopixel",
    "_rpi_ws281x": "rpi_ws281x",
    "adafruit_raspberry_pi5_neopixel_write": "adafruit-blinka-raspberry-pi5-neopixel",
}


# The modules Raspberry Pi OS ships and the companion's venv sees from the system
# (--system-site-packages), with the Debian package that brings each.
SYSTEM_PACKAGES = {
    "gpiod": "python3-libgpiod",
    "spidev": "python3-spidev",
    "lgpio": "python3-lgpio",
    "sysv_ipc": "python3-sysv-ipc",
}


def blinka_environment() -> None:
    """What Blinka reads before it starts. Blinka 10 checks its platform libraries when
    `board` is imported and, in a terminal, stops to ask whether to pip-install the
    missing ones; the companion installs what it needs itself (systemd/install.sh), so
    that question must never block the service or `clacks hardware`."""
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")


def _import(module: str, extra: str) -> ModuleType:
    blinka_environment()
    try:
        return importlib.import_module(module)
    except Exception as exc:  # Blinka raises RuntimeError and NotImplementedError too
        absent = missing_module(exc)
        if absent is not None and absent.split(".")[0] in SYSTEM_PACKAGES:
            raise Unavailable(
                "system-module-missing", module=absent, package=SYSTEM_PACKAGES[absent.split(".")[0]]
            ) from exc
        if absent is not None:
            package = PACKAGES.get(absent, absent.split(".")[0])
            raise Unavailable(
                "module-missing", module=absent, package=package, extra=extra
            ) from exc
        package = PACKAGES.get(module, module)
        error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        if isinstance(exc, NotImplementedError):
            raise Unavailable("not-a-pi", package=package, error=error) from exc
        raise Unavailable("library-failed", package=package, error=error) from exc


def _board_pin(board: ModuleType, gpio: int) -> Any:
    try:
        return getattr(board, f"D{gpio}")
    except AttributeError:
        raise Unavailable(
            "library-failed",
            package="adafruit-blinka",
            error=f"this board has no GPIO{gpio} for the LED data line",
        ) from None


def order_bytes(pixels: Sequence[RGB], order: str) -> bytearray:
    """Drive values as the bytes a WS2812-type chain expects, e.g. G, R, B."""
    index = {"R": 0, "G": 1, "B": 2}
    picks = [index[c] for c in order]
    out = bytearray()
    for pixel in pixels:
        out.extend(pixel[i] for i in picks)
    return out


class _NeoPixels:
    """Writes and closes through Adafruit's NeoPixel object (SPI and PWM drivers)."""

    _pixels: Any

    def write(self, pixels: Sequence[RGB]) -> None:
        for i, pixel in enumerate(pixels):
            self._pixels[i] = pixel
        self._pixels.show()

    def close(self) -> None:
        self._pixels.fill((0, 0, 0))
        self._pixels.show()
        self._pixels.deinit()


class NeoPixelSpiSink(_NeoPixels):
    name = "spi"
    device = "spidev0.0"  # SPI0, chip select 0: Blinka's board.SPI() on every Pi

    def __init__(self, leds: LedConfig, machine: Machine) -> None:
        board = _import("board", "spi")
        neopixel_spi = _import("neopixel_spi", "spi")
        self._check(machine)
        try:
            spi = board.SPI()
            self._pixels = neopixel_spi.NeoPixel_SPI(
                spi, LED_COUNT, pixel_order=leds.order, auto_write=False, brightness=1.0
            )
            self._pixels.show()  # all off; the first transfer shows at once whether SPI works
        except PermissionError as exc:
            raise denied("spi-denied", machine.dev / self.device, machine) from exc
        except Exception as exc:
            absent = missing_module(exc)  # spidev, imported by board.SPI()
            if absent is not None and absent in SYSTEM_PACKAGES:
                raise Unavailable(
                    "system-module-missing", module=absent, package=SYSTEM_PACKAGES[absent]
                ) from exc
            raise Unavailable("spi-failed", error=exc) from exc

    def _check(self, machine: Machine) -> None:
        path = machine.dev / self.device
        access = machine.device_state(path)
        if access == "denied":
            raise denied("spi-denied", path, machine)
        if access == "absent":
            config = machine.boot_config()
            if config is not None and machine.dtparams().get("spi") == "on":
                raise Unavailable("spi-reboot", config=config, device=path)
            raise Unavailable(
                "spi-off", device=path, config=config or "/boot/firmware/config.txt"
            )

class NeoPixelPwmSink(_NeoPixels):
    name = "pwm"

    def __init__(self, leds: LedConfig, machine: Machine, model: str | None = None) -> None:
        if model is not None and RP1_MODELS.match(model):
            raise Unavailable("pwm-pi5")
        board = _import("board", "pwm")
        neopixel = _import("neopixel", "pwm")
        if not machine.root:
            raise Unavailable("pwm-root", user=machine.user())
        if machine.dtparams().get("audio") == "on":
            raise Unavailable("pwm-audio", config=machine.boot_config())
        pin = _board_pin(board, leds.data_pin("pwm"))
        try:
            self._pixels = neopixel.NeoPixel(
                pin, LED_COUNT, auto_write=False, brightness=1.0, pixel_order=leds.order
            )
            self._pixels.show()  # rpi_ws281x only touches the hardware on the first show
        except Exception as exc:
            raise Unavailable("pwm-failed", error=exc) from exc

class GpioNumber:
    """A data pin as the Pi 5 driver takes it: it reads only ``.id``, the GPIO number
    (``getattr(pin, "_pin", pin).id`` in its C++), so Blinka's pin objects are not needed."""

    def __init__(self, gpio: int) -> None:
        self.id = gpio

    def __repr__(self) -> str:
        return f"GPIO{self.id}"


class Pi5NeoPixelSink:
    name = "pi5"
    device = "pio0"

    def __init__(self, leds: LedConfig, machine: Machine, model: str | None = None) -> None:
        driver = _import("adafruit_raspberry_pi5_neopixel_write", "pi5")
        if model is not None and not RP1_MODELS.match(model):
            raise Unavailable("pi5-other-board", model=model)
        path = machine.dev / self.device
        access = machine.device_state(path)
        if access == "absent":
            raise Unavailable("pio-absent", device=path)
        if access == "denied":
            raise denied("pio-denied", path, machine)
        self._pin = GpioNumber(leds.data_pin("pi5"))
        self._write = driver.neopixel_write
        self._free = getattr(driver, "free_pio", None)
        self._order = leds.order
        try:
            self._write(self._pin, order_bytes([(0, 0, 0)] * LED_COUNT, self._order))
        except Exception as exc:
            if getattr(exc, "errno", None) == errno.EACCES or "error -13" in str(exc):
                raise denied("pio-denied", path, machine) from exc
            raise Unavailable("pio-failed", error=exc) from exc

    def write(self, pixels: Sequence[RGB]) -> None:
        self._write(self._pin, order_bytes(pixels, self._order))

    def close(self) -> None:
        self._write(self._pin, order_bytes([(0, 0, 0)] * LED_COUNT, self._order))
        if self._free is not None:
            self._free()


def open_driver(
    backend: str, leds: LedConfig, machine: Machine | None = None, model: str | None = None
) -> PixelSink:
    """Start the named LED driver or raise DriverUnavailable. ``model`` is the Raspberry
    Pi model when known (a driver for another board says so)."""
    machine = machine or Machine()
    try:
        if backend == "spi":
            return NeoPixelSpiSink(leds, machine)
        if backend == "pwm":
            return NeoPixelPwmSink(leds, machine, model)
        if backend == "pi5":
            return Pi5NeoPixelSink(leds, machine, model)
    except Unavailable:
        raise
    except Exception as exc:
        raise Unavailable("library-failed", package=f"the {backend} LED driver", error=exc) from exc
    raise ValueError(f"unknown LED backend {backend!r}; backends are spi, pwm, pi5")
