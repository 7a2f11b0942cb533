"""The power budget, worked out from the limiter's own defaults.

hardware/README.md carries the table this module prints (``clacks hardware power``); a
test checks that the two agree, so the document cannot drift from the code.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.config import LAMP_COUNT, BoardConfig
from firmware.exchange import light_for
from firmware.scene import Palette


@dataclass(frozen=True)
class PiBoard:
    name: str
    supply_ma: int  # the official Raspberry Pi power supply for the board
    allowance_ma: int  # what we allow the board itself: all cores busy, Wi-Fi hotspot up


PI_BOARDS = (
    PiBoard("Pi Zero 2 W", 2500, 600),
    PiBoard("Pi 3 Model B+", 2500, 1000),
    PiBoard("Pi 4 Model B", 3000, 1300),
    PiBoard("Pi 5", 5000, 2000),
)
# 74AHCT125 quiescent current is microamps; 12 pulled-up buttons held at once draw
# 12 x 3.3 V / ~50 kOhm = 0.8 mA from the 3.3 V rail. One milliamp covers both.
LOGIC_MA = 1


@dataclass(frozen=True)
class LedFigures:
    full_white_ma: float  # every LED full white, no limiter: the matrix's worst case
    all_lit_ma: float  # every lamp lit amber at the default brightness
    refused_ma: float  # the refused flash: every lamp red
    budget_ma: float  # the limiter's cap


def led_figures(config: BoardConfig | None = None) -> LedFigures:
    config = config or BoardConfig()
    light = light_for(config)
    palette = Palette.from_config(config.leds)
    model = light.model
    full_white = model.estimate([(255, 255, 255)] * LAMP_COUNT)
    all_lit, _ = light.drive([palette.lit] * LAMP_COUNT)
    refused, _ = light.drive([palette.refused] * LAMP_COUNT)
    return LedFigures(
        full_white_ma=full_white,
        all_lit_ma=model.estimate(all_lit),
        refused_ma=model.estimate(refused),
        budget_ma=config.leds.budget_ma,
    )


def _ma(value: float) -> str:
    return f"{value:,.0f} mA"


def power_budget_markdown(config: BoardConfig | None = None) -> str:
    config = config or BoardConfig()
    leds = config.leds
    figures = led_figures(config)
    lines = [
        f"LED current model (as WLED estimates it): {leds.idle_ma_per_led:g} mA idle per LED plus "
        f"{leds.ma_per_channel:g} mA per colour channel at full drive, in proportion to the drive value.",
        "",
        "| LED matrix, 16 x WS2812B | estimated current |",
        "|---|---:|",
        f"| every LED full white, if nothing limited it | {_ma(figures.full_white_ma)} |",
        f"| every lamp lit amber at brightness {leds.brightness:g} | {_ma(figures.all_lit_ma)} |",
        f"| the refused flash (every lamp red) | {_ma(figures.refused_ma)} |",
        f"| **limiter cap (`leds.budget_ma`), never exceeded** | **{_ma(figures.budget_ma)}** |",
        "",
        "| 5 V budget | " + " | ".join(b.name for b in PI_BOARDS) + " |",
        "|---|" + "---:|" * len(PI_BOARDS),
        "| the Pi, all cores busy, Wi-Fi hotspot up | "
        + " | ".join(_ma(b.allowance_ma) for b in PI_BOARDS)
        + " |",
        "| LED matrix at most (limiter cap) | "
        + " | ".join(_ma(figures.budget_ma) for _ in PI_BOARDS)
        + " |",
        "| level shifter and buttons | " + " | ".join(_ma(LOGIC_MA) for _ in PI_BOARDS) + " |",
        "| **total at most** | "
        + " | ".join(f"**{_ma(b.allowance_ma + figures.budget_ma + LOGIC_MA)}**" for b in PI_BOARDS)
        + " |",
        "| official Raspberry Pi supply | "
        + " | ".join(_ma(b.supply_ma) for b in PI_BOARDS)
        + " |",
        "| headroom | "
        + " | ".join(
            _ma(b.supply_ma - b.allowance_ma - figures.budget_ma - LOGIC_MA) for b in PI_BOARDS
        )
        + " |",
    ]
    return "\n".join(lines) + "\n"
