"""The kernel's side of /dev/spidev0.0, so that the real Adafruit code (Blinka, busio,
Adafruit_PureIO, adafruit_pixelbuf, neopixel_spi) can drive the companion's `spi` sink
off a Raspberry Pi, and the bytes it would clock out on MOSI can be checked.

Only the lowest level is faked: opening the device file (a plain file stands in for it)
and the ioctl calls on it, answered as Linux's spidev driver answers them
(include/uapi/linux/spi/spidev.h). Everything above runs as on a Pi.

Blinka decides its board when it is imported, from BLINKA_FORCEBOARD and
BLINKA_FORCECHIP, so this runs in a fresh process of its own:

    python tests/spidev_kernel.py '{"model": ..., "leds": {...}, "lit": 5}'

with the board forced in the environment. ``"hide": [module, ...]`` makes those modules
missing; ``"cpuinfo": text`` stands in for /proc/cpuinfo, which is how Blinka tells a
real Raspberry Pi (and only then checks its platform libraries); ``"bare": true`` only
imports `board` and `neopixel_spi`, as a person would at a Python prompt. It prints one JSON object: every SPI transfer
(bytes as hex, with the clock speed, word size and mode in force), the exchange's status,
and where the Adafruit modules that ran were loaded from.
"""

from __future__ import annotations

import array
import ctypes
import errno
import fcntl
import json
import os
import struct
import sys
import tempfile
from pathlib import Path
from typing import Any

DEVICE = "/dev/spidev0.0"

# include/uapi/asm-generic/ioctl.h and include/uapi/linux/spi/spidev.h
_IOC_WRITE, _IOC_READ = 1, 2
SPI_IOC_MAGIC = ord("k")
TRANSFER = struct.Struct("=QQIIHBBBBBB")  # struct spi_ioc_transfer, 32 bytes


def _ioc(direction: int, number: int, size: int) -> int:
    return (direction << 30) | (size << 16) | (SPI_IOC_MAGIC << 8) | number


SPI_IOC_MESSAGE_1 = _ioc(_IOC_WRITE, 0, TRANSFER.size)
SETTINGS = {  # request -> (setting, size, written)
    _ioc(_IOC_READ, 1, 1): ("mode", "B", False),
    _ioc(_IOC_WRITE, 1, 1): ("mode", "B", True),
    _ioc(_IOC_READ, 2, 1): ("lsb_first", "B", False),
    _ioc(_IOC_WRITE, 2, 1): ("lsb_first", "B", True),
    _ioc(_IOC_READ, 3, 1): ("bits_per_word", "B", False),
    _ioc(_IOC_WRITE, 3, 1): ("bits_per_word", "B", True),
    _ioc(_IOC_READ, 4, 4): ("max_speed_hz", "I", False),
    _ioc(_IOC_WRITE, 4, 4): ("max_speed_hz", "I", True),
    _ioc(_IOC_READ, 5, 4): ("mode", "I", False),
    _ioc(_IOC_WRITE, 5, 4): ("mode", "I", True),
}


class SpidevKernel:
    """The spidev driver for one device: its settings and every transfer made."""

    def __init__(self, backing: Path) -> None:
        self.backing = backing
        self.fds: set[int] = set()
        # the driver's defaults on a Raspberry Pi (the device tree's spi-max-frequency)
        self.settings = {"mode": 0, "lsb_first": 0, "bits_per_word": 8, "max_speed_hz": 125_000_000}
        self.transfers: list[dict[str, Any]] = []

    def install(self) -> None:
        real_open, real_exists, real_ioctl = os.open, os.path.exists, fcntl.ioctl

        def spi_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if os.fspath(path) == DEVICE:
                fd = real_open(self.backing, flags, *args, **kwargs)
                self.fds.add(fd)
                return fd
            return real_open(path, flags, *args, **kwargs)

        def spi_exists(path: Any) -> bool:
            return True if os.fspath(path) == DEVICE else real_exists(path)

        def spi_ioctl(fd: Any, request: int, arg: Any = 0, mutate: bool = True) -> Any:
            number = fd if isinstance(fd, int) else fd.fileno()
            if number not in self.fds:
                return real_ioctl(fd, request, arg, mutate)
            return self.ioctl(request, arg)

        os.open = spi_open
        os.path.exists = spi_exists
        fcntl.ioctl = spi_ioctl

    def ioctl(self, request: int, arg: Any) -> int:
        if request == SPI_IOC_MESSAGE_1:
            fields = TRANSFER.unpack(bytes(arg))
            tx_buf, _rx_buf, length, speed_hz, _delay, bits = fields[:6]
            data = ctypes.string_at(tx_buf, length) if tx_buf else bytes(length)
            self.transfers.append(
                {
                    "data": data.hex(),
                    "speed_hz": speed_hz or self.settings["max_speed_hz"],
                    "bits_per_word": bits or self.settings["bits_per_word"],
                    "mode": self.settings["mode"],
                    "lsb_first": self.settings["lsb_first"],
                }
            )
            return 0
        if request not in SETTINGS:
            raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))
        name, code, written = SETTINGS[request]
        if written:
            (self.settings[name],) = struct.unpack("=" + code, bytes(arg))
            return 0
        if isinstance(arg, array.array):
            arg[0] = self.settings[name]
            return 0
        return int(self.settings[name])


def pretend(request: dict[str, Any]) -> None:
    for module in request.get("hide", ()):
        sys.modules[module] = None  # type: ignore[assignment]  # import raises ModuleNotFoundError
    cpuinfo = request.get("cpuinfo")
    if cpuinfo is not None:
        import builtins
        import io

        real_open = builtins.open

        def open_cpuinfo(file: Any, *args: Any, **kwargs: Any) -> Any:
            if file == "/proc/cpuinfo":
                return io.StringIO(cpuinfo)
            return real_open(file, *args, **kwargs)

        builtins.open = open_cpuinfo


def main(request: dict[str, Any]) -> dict[str, Any]:
    pretend(request)
    if request.get("bare"):
        import board
        import neopixel_spi  # noqa: F401

        return {"imported": True}
    with tempfile.TemporaryDirectory() as dev:
        backing = Path(dev) / "spidev0.0"
        backing.write_bytes(b"")
        kernel = SpidevKernel(backing)
        kernel.install()  # before any Adafruit module binds fcntl.ioctl

        from dataclasses import replace

        from engine.core.interface import LampFrame
        from firmware.config import BoardConfig, ButtonConfig, LedConfig
        from firmware.diagnose import Machine
        from firmware.factory import create_board

        leds = replace(LedConfig(), backend="spi", **request.get("leds", {}))
        if "lit_colour" in request:
            leds = replace(leds, lit=tuple(request["lit_colour"]))
        config = BoardConfig(leds=leds, buttons=replace(ButtonConfig(), backend="none"))
        board = create_board(config, model=request["model"], machine=Machine(dev=Path(dev)))
        board.show(LampFrame(lit=request["lit"]))
        board.renderer.tick()
        meant = board.pixels()
        status = board.status()
        board.stop()

        loaded = ("neopixel_spi", "busio", "Adafruit_PureIO.spi", "adafruit_pixelbuf")
        return {
            "transfers": kernel.transfers,
            "status": status,
            "meant": meant,
            "board_id": getattr(sys.modules.get("adafruit_blinka.agnostic"), "board_id", None),
            "blinka_skip_dependency_check": os.environ.get("BLINKA_SKIP_DEPENDENCY_CHECK"),
            "modules": {
                name: getattr(sys.modules.get(name), "__file__", None) for name in loaded
            },
        }


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    print(json.dumps(main(json.loads(sys.argv[1]))))
