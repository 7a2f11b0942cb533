"""The `spi` LED backend down to the wire, with the real Adafruit code.

Blinka is forced to a Raspberry Pi 4 and a Pi Zero 2 W (BLINKA_FORCEBOARD,
BLINKA_FORCECHIP); only the kernel's spidev driver is faked (tests/spidev_kernel.py:
opening /dev/spidev0.0 and its ioctls). The companion's sink drives Blinka's busio,
Adafruit_PureIO, adafruit_pixelbuf and neopixel_spi for real; the bytes they would clock
out on MOSI are decoded here as a WS2812B decodes its data line (high-pulse widths at
the SPI clock in force, 24 bits per LED, a long low as the reset) and compared with what
the renderer meant: gamma, brightness, current limit, colour order, the matrix's wiring.
The expected frame is worked out here from the settings, not taken from the firmware.
"""

from __future__ import annotations

import json
import math
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from firmware.config import LedConfig

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "tests" / "spidev_kernel.py"
BOARDS = {
    "Raspberry Pi 4 Model B Rev 1.5": "RASPBERRY_PI_4B",
    "Raspberry Pi Zero 2 W Rev 1.0": "RASPBERRY_PI_ZERO_2_W",
}
RGB = tuple[int, int, int]

# WS2812B timing (Worldsemi datasheets, the original and V5 together): a 0 is a high
# pulse of 220-550 ns, a 1 one of 580-1000 ns, a bit lasts 1.25 us +- 600 ns, and the
# line held low for 50 us or more latches the frame.
T0H_NS = (220, 550)
T1H_NS = (580, 1000)
BIT_NS = (650, 1850)
RESET_NS = 50_000


# How long the kernel script may take before it is taken for hung: only a backstop, as
# each wait ends when the script ends (or prompts). Python and Blinka starting under
# qemu (the emulated Raspberry Pi OS stage) on a loaded two-core machine took over 60 s.
KERNEL_TIMEOUT_S = 600


def forced_env(board: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "BLINKA_SKIP_DEPENDENCY_CHECK"}
    env.update(BLINKA_FORCECHIP="BCM2XXX", BLINKA_FORCEBOARD=board, PYTHONPATH=str(ROOT))
    return env


def drive(model: str, request: dict[str, Any]) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, str(KERNEL), json.dumps({"model": model, **request})],
        capture_output=True,
        text=True,
        env=forced_env(BOARDS[model]),
        cwd=ROOT,
        timeout=KERNEL_TIMEOUT_S,
    )
    assert result.returncode == 0, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


# ------------------------------------------------------------------ the decoder


def mosi_runs(transfer: dict[str, Any]) -> list[tuple[int, float]]:
    """The MOSI line during a transfer as (level, nanoseconds) runs: SPI mode 0, each
    word sent most significant bit first, one bit per clock period."""
    assert transfer["mode"] == 0 and transfer["bits_per_word"] == 8
    assert not transfer["lsb_first"]
    bit_ns = 1e9 / transfer["speed_hz"]
    runs: list[tuple[int, float]] = []
    for byte in bytes.fromhex(transfer["data"]):
        for i in range(7, -1, -1):
            level = byte >> i & 1
            if runs and runs[-1][0] == level:
                runs[-1] = (level, runs[-1][1] + bit_ns)
            else:
                runs.append((level, bit_ns))
    return runs


def ws2812_frames(transfer: dict[str, Any]) -> list[list[RGB]]:
    """What a WS2812B chain latches from one transfer: a list of frames, each a list of
    (R, G, B) in chain order, read from the G, R, B bytes on the wire."""
    runs = mosi_runs(transfer)
    frames: list[list[RGB]] = []
    bits: list[int] = []
    i = 0
    while i < len(runs):
        level, ns = runs[i]
        if level == 0:
            if ns >= RESET_NS and bits:
                frames.append(_pixels(bits))
                bits = []
            i += 1
            continue
        low = runs[i + 1][1] if i + 1 < len(runs) else math.inf
        if T0H_NS[0] <= ns <= T0H_NS[1]:
            bits.append(0)
        elif T1H_NS[0] <= ns <= T1H_NS[1]:
            bits.append(1)
        else:
            raise AssertionError(f"a {ns:.0f} ns high pulse is neither a 0 nor a 1")
        if low < RESET_NS:
            assert BIT_NS[0] <= ns + low <= BIT_NS[1], f"a bit of {ns + low:.0f} ns"
        i += 1
    assert not bits, "data after the last reset is never latched"
    return frames


def _pixels(bits: list[int]) -> list[RGB]:
    assert len(bits) % 24 == 0, f"{len(bits)} bits is not a whole number of LEDs"
    values = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]
    return [(values[i + 1], values[i], values[i + 2]) for i in range(0, len(values), 3)]


# ------------------------------------------------------------------ what was meant


def strip_position(lamp: int, serpentine: bool, rotation: int) -> int:
    """The LED under a lamp (a1 = 0 ... d4 = 15). Seen from above with North at the top,
    lamp a4 is the top-left corner; the matrix's LED 0 is its printed top-left corner,
    rows follow, a serpentine matrix runs every other row backwards, and ``rotation``
    turns the matrix clockwise."""
    col, top_row = lamp % 4, 3 - lamp // 4
    for y in range(4):
        for x in range(4):
            cx, cy = x, y
            for _ in range(rotation // 90):
                cx, cy = 3 - cy, cx  # a quarter turn clockwise
            if (cx, cy) == (col, top_row):
                return y * 4 + (3 - x if serpentine and y % 2 else x)
    raise AssertionError(lamp)


def test_the_wiring_map_of_this_test_matches_the_hardware_readme() -> None:
    assert strip_position(12, False, 0) == 0  # "LED 0 lies under lamp a4"
    assert strip_position(15, False, 0) == 3
    assert strip_position(15, False, 90) == 0  # the top-left corner turned to the top-right
    assert strip_position(11, True, 0) == 4  # serpentine: row two starts at the east end
    assert sorted(strip_position(lamp, True, 270) for lamp in range(16)) == list(range(16))


def meant(lit: int, settings: dict[str, Any]) -> list[RGB]:
    """The drive values the LEDs should get, in chain order: the lit colour through the
    gamma curve and the brightness, the whole frame scaled down to the current budget
    (WLED's estimate: idle current per LED plus current per channel), then mapped."""
    colour = settings.get("lit_colour", (255, 176, 64))
    leds = settings.get("leds", {})
    gamma, brightness = leds.get("gamma", 2.8), leds.get("brightness", 0.6)
    budget, per_channel, idle = leds.get("budget_ma", 400.0), 20.0, 1.0
    on = tuple(round((c / 255) ** gamma * 255 * brightness) for c in colour)
    lamps = [on if lit >> lamp & 1 else (0, 0, 0) for lamp in range(16)]
    allowance = math.floor((budget - 16 * idle) * 255 / per_channel)
    total = sum(map(sum, lamps))
    if total > allowance:
        lamps = [tuple(math.floor(v * allowance / total) for v in p) for p in lamps]
    strip: list[RGB] = [(0, 0, 0)] * 16
    for lamp, pixel in enumerate(lamps):
        strip[
            strip_position(
                lamp,
                leds.get("serpentine", LedConfig().serpentine),
                leds.get("rotation", LedConfig().rotation),
            )
        ] = (
            pixel[0],
            pixel[1],
            pixel[2],
        )
    return strip


def estimate_ma(strip: list[RGB]) -> float:
    return sum(1.0 + 20.0 * sum(pixel) / 255 for pixel in strip)


# ------------------------------------------------------------------ the tests

SCENES: dict[str, dict[str, Any]] = {
    # a1, b1, c2, a3, d4 on a serpentine matrix turned a quarter: every lamp of the
    # pattern sits somewhere else on the chain, and amber has R, G and B all different
    "pattern": {"lit": 0b1000_0001_0100_0011, "leds": {"serpentine": True, "rotation": 90}},
    # every lamp full white at full brightness: 976 mA if nothing limited it
    "limited": {
        "lit": 0xFFFF,
        "lit_colour": [255, 255, 255],
        "leds": {"brightness": 1.0, "rotation": 180},
    },
}


@pytest.mark.parametrize("scene", sorted(SCENES))
@pytest.mark.parametrize("model", sorted(BOARDS))
def test_the_bytes_on_mosi_are_the_frame_the_renderer_meant(model: str, scene: str) -> None:
    settings = SCENES[scene]
    answer = drive(model, settings)
    assert answer["board_id"] == BOARDS[model]
    assert answer["status"]["warnings"] == []
    assert answer["status"]["leds"]["backend"] == "spi"
    for module, path in answer["modules"].items():  # the libraries themselves ran
        assert path and "site-packages" in path, (module, path)
    transfers = answer["transfers"]
    assert {t["speed_hz"] for t in transfers} == {6_400_000}
    frames = [frame for transfer in transfers for frame in ws2812_frames(transfer)]
    dark = [(0, 0, 0)] * 16
    assert all(len(frame) == 16 for frame in frames)
    assert frames[0] == dark  # the driver starts with the LEDs off
    assert frames[-1] == dark  # and leaves them off
    lit = [frame for frame in frames if frame != dark]
    expected = meant(settings["lit"], settings)
    assert lit == [expected]
    budget = settings["leds"].get("budget_ma", 400.0)
    assert estimate_ma(lit[0]) <= budget
    if scene == "limited":
        assert answer["status"]["leds"]["limited"] is True
        assert estimate_ma(lit[0]) > budget - 16 * 3 * 20 / 255  # scaled to the budget
    # the renderer's own account of the frame agrees, in lamp order
    renderer_lamps = answer["meant"]
    for lamp in range(16):
        position = strip_position(lamp, **_map(settings))
        assert tuple(renderer_lamps[lamp]) == expected[position]


def _map(settings: dict[str, Any]) -> dict[str, Any]:
    leds = settings["leds"]
    return {"serpentine": leds.get("serpentine", False), "rotation": leds.get("rotation", 0)}


def test_a_missing_gpiod_is_named_with_its_fix() -> None:
    # Blinka 10 imports gpiod for every Pi: Raspberry Pi OS's python3-libgpiod, which the
    # companion's venv sees from the system
    answer = drive("Raspberry Pi 4 Model B Rev 1.5", {"lit": 1, "hide": ["gpiod"]})
    (warning,) = answer["status"]["warnings"]
    assert "'gpiod' is missing: it comes with Raspberry Pi OS as python3-libgpiod" in warning
    assert "sudo apt install python3-libgpiod, then run 'sudo systemd/install.sh' again" in warning
    assert answer["status"]["leds"]["backend"] == "simulator"
    assert answer["transfers"] == []


# A Raspberry Pi 4 as /proc/cpuinfo describes it: this is how Blinka knows a real Pi,
# and on a real Pi it checks its platform libraries when `board` is imported.
PI4_CPUINFO = "Hardware\t: BCM2835\nRevision\t: c03115\nModel\t: Raspberry Pi 4 Model B Rev 1.5\n"
PROMPT = "Install them into the current Python environment?"


def in_a_terminal(request: dict[str, Any], seconds: float = KERNEL_TIMEOUT_S) -> str:
    """Run the kernel script with a terminal for its input and output, as a person at a
    shell would, answering nothing; what it wrote."""
    main, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, str(KERNEL), json.dumps(request)],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=forced_env("RASPBERRY_PI_4B"),
        cwd=ROOT,
    )
    os.close(secondary)
    output = b""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:
                    break  # the program ended and closed the terminal
                if not chunk:
                    break
                output += chunk
                if PROMPT.encode() in output:
                    break  # it waits for an answer that never comes
            elif process.poll() is not None:
                break
    finally:
        process.kill()
        process.wait()
        os.close(main)
    return output.decode(errors="replace")


# A platform library Blinka checks for on a Pi 4, made missing wherever the `pi` extra
# has installed it, so that Blinka has something to ask about on every machine.
MISSING_PLATFORM_LIBRARY = "_rpi_ws281x"


def test_blinka_asks_to_install_in_a_terminal_on_a_real_pi() -> None:
    # the control: Blinka imported by hand on a Pi missing one of its platform libraries
    output = in_a_terminal(
        {"bare": True, "cpuinfo": PI4_CPUINFO, "hide": [MISSING_PLATFORM_LIBRARY]}
    )
    assert PROMPT in output


def test_the_companion_never_lets_blinka_ask() -> None:
    output = in_a_terminal(
        {
            "model": "Raspberry Pi 4 Model B Rev 1.5",
            "lit": 1,
            "cpuinfo": PI4_CPUINFO,
            "hide": [MISSING_PLATFORM_LIBRARY],
        }
    )
    assert PROMPT not in output
    assert "{" in output, f"the kernel script gave no answer; it wrote: {output!r}"
    answer = json.loads(output[output.index("{") :])
    assert answer["blinka_skip_dependency_check"] == "1"
    assert answer["status"]["leds"]["backend"] == "spi"
    assert answer["transfers"]
