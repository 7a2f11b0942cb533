"""The real NeoPixel drivers, each imported only when its backend is asked for.

- ``spi``: WS2812B data on GPIO10 (SPI0 MOSI) through adafruit-circuitpython-neopixel-spi;
  needs SPI enabled and membership of the ``spi`` group, not root.
- ``pwm``: data on GPIO18 through adafruit-circuitpython-neopixel (rpi_ws281x); needs root.
- ``pi5``: the Raspberry Pi 5's PIO through adafruit-blinka-raspberry-pi5-neopixel.

Opening a driver that cannot start raises DriverUnavailable with what to do about it;
the board then carries on with the simulator (see factory.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from firmware.config import LedConfig
from firmware.light import RGB
from firmware.pixelmap import SIDE
from firmware.sinks import PixelSink

LED_COUNT = SIDE * SIDE
PI_EXTRA_HINT = (
    "install the Pi drivers with systemd/install.sh (or pip install 'clacks-exchange[pi]')"
)


class DriverUnavailable(RuntimeError):
    """A LED driver could not start; the message says why and what to do."""


def _import(module: str, package: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise DriverUnavailable(
            f"the Python module {module!r} ({package}) is not installed: {PI_EXTRA_HINT}"
        ) from exc
    except Exception as exc:  # Blinka refuses to load on boards it does not know
        raise DriverUnavailable(
            f"{package} cannot run on this machine ({type(exc).__name__}: {exc})"
        ) from exc


def _board_pin(board: ModuleType, gpio: int) -> Any:
    try:
        return getattr(board, f"D{gpio}")
    except AttributeError:
        raise DriverUnavailable(f"this board has no GPIO{gpio} for the LED data line") from None


def order_bytes(pixels: Sequence[RGB], order: str) -> bytearray:
    """Drive values as the bytes a WS2812-type chain expects, e.g. G, R, B."""
    index = {"R": 0, "G": 1, "B": 2}
    picks = [index[c] for c in order]
    out = bytearray()
    for pixel in pixels:
        out.extend(pixel[i] for i in picks)
    return out


class NeoPixelSpiSink:
    name = "spi"

    def __init__(self, leds: LedConfig) -> None:
        board = _import("board", "adafruit-blinka")
        neopixel_spi = _import("neopixel_spi", "adafruit-circuitpython-neopixel-spi")
        try:
            spi = board.SPI()
        except Exception as exc:
            raise DriverUnavailable(
                f"SPI could not be opened ({exc}); enable it with "
                "'sudo raspi-config nonint do_spi 0', reboot, and make sure the service "
                "user is in the spi group"
            ) from exc
        self._pixels = neopixel_spi.NeoPixel_SPI(
            spi, LED_COUNT, pixel_order=leds.order, auto_write=False, brightness=1.0
        )

    def write(self, pixels: Sequence[RGB]) -> None:
        for i, pixel in enumerate(pixels):
            self._pixels[i] = pixel
        self._pixels.show()

    def close(self) -> None:
        self._pixels.fill((0, 0, 0))
        self._pixels.show()
        self._pixels.deinit()


class NeoPixelPwmSink:
    name = "pwm"

    def __init__(self, leds: LedConfig) -> None:
        board = _import("board", "adafruit-blinka")
        neopixel = _import("neopixel", "adafruit-circuitpython-neopixel")
        pin = _board_pin(board, leds.data_pin("pwm"))
        try:
            self._pixels = neopixel.NeoPixel(
                pin, LED_COUNT, auto_write=False, brightness=1.0, pixel_order=leds.order
            )
            self._pixels.show()  # rpi_ws281x only touches the hardware on the first show
        except Exception as exc:
            raise DriverUnavailable(
                f"the PWM NeoPixel driver failed ({exc}); it needs root and the onboard "
                "audio off (systemd/install.sh --led pwm sets up both), so prefer the spi "
                'backend (leds.backend = "spi")'
            ) from exc

    def write(self, pixels: Sequence[RGB]) -> None:
        for i, pixel in enumerate(pixels):
            self._pixels[i] = pixel
        self._pixels.show()

    def close(self) -> None:
        self._pixels.fill((0, 0, 0))
        self._pixels.show()
        self._pixels.deinit()


class Pi5NeoPixelSink:
    name = "pi5"

    def __init__(self, leds: LedConfig) -> None:
        board = _import("board", "adafruit-blinka")
        driver = _import(
            "adafruit_raspberry_pi5_neopixel_write", "adafruit-blinka-raspberry-pi5-neopixel"
        )
        self._pin = _board_pin(board, leds.data_pin("pi5"))
        self._write = driver.neopixel_write
        self._free = getattr(driver, "free_pio", None)
        self._order = leds.order
        try:
            self._write(self._pin, order_bytes([(0, 0, 0)] * LED_COUNT, self._order))
        except Exception as exc:
            raise DriverUnavailable(
                f"the Raspberry Pi 5 PIO could not be used ({exc}); the service user needs "
                "access to /dev/pio0 (the gpio group on Raspberry Pi OS)"
            ) from exc

    def write(self, pixels: Sequence[RGB]) -> None:
        self._write(self._pin, order_bytes(pixels, self._order))

    def close(self) -> None:
        self._write(self._pin, order_bytes([(0, 0, 0)] * LED_COUNT, self._order))
        if self._free is not None:
            self._free()


DRIVERS: dict[str, type[NeoPixelSpiSink] | type[NeoPixelPwmSink] | type[Pi5NeoPixelSink]] = {
    "spi": NeoPixelSpiSink,
    "pwm": NeoPixelPwmSink,
    "pi5": Pi5NeoPixelSink,
}


def open_driver(backend: str, leds: LedConfig) -> PixelSink:
    """Start the named LED driver or raise DriverUnavailable."""
    try:
        driver = DRIVERS[backend]
    except KeyError:
        raise DriverUnavailable(
            f"unknown LED backend {backend!r}; backends are {', '.join(DRIVERS)}"
        ) from None
    try:
        return driver(leds)
    except DriverUnavailable:
        raise
    except Exception as exc:
        raise DriverUnavailable(f"the {backend} LED driver failed to start ({exc})") from exc
