"""Is this a Raspberry Pi, and which one? Read from the device tree, as gpiozero does."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

# Boards whose GPIO sits behind the RP1 chip, where the PIO NeoPixel driver applies.
RP1_MODELS = re.compile(r"Raspberry Pi (5|500|Compute Module 5)\b")
MODEL_FILES = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))


def pi_model(files: Sequence[Path] = MODEL_FILES) -> str | None:
    """The Raspberry Pi's model string, e.g. "Raspberry Pi 4 Model B Rev 1.5"; None
    when this is not a Raspberry Pi."""
    for path in files:
        try:
            text = path.read_bytes().decode("ascii", "replace").strip("\x00 \n")
        except OSError:
            continue
        if text.startswith("Raspberry Pi"):
            return text
    return None


def auto_led_backend(model: str | None) -> str:
    if model is None:
        return "simulator"
    return "pi5" if RP1_MODELS.match(model) else "spi"
