"""hardware/: the documents agree with the code they describe."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from engine.clacks.geometry import TOWERS
from firmware.config import DEFAULT_BUTTON_PINS, BoardConfig, LedConfig
from firmware.power import led_figures, power_budget_markdown

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
README = (HARDWARE / "README.md").read_text()
SVG = HARDWARE / "wiring.svg"
# BCM GPIO -> physical pin on the 40-pin header (the same on Zero 2 W, 4 and 5)
HEADER_PIN = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip


def test_power_budget_in_the_readme_is_the_one_the_code_computes() -> None:
    block = re.search(r"<!-- power-budget:start -->\n(.*?)<!-- power-budget:end -->", README, re.S)
    assert block is not None
    assert block.group(1) == power_budget_markdown()
    figures = led_figures()
    assert figures.budget_ma == LedConfig().budget_ma == 400
    assert f"**{figures.budget_ma:,.0f} mA**" in block.group(1)
    assert figures.all_lit_ma <= figures.budget_ma < figures.full_white_ma


def test_power_budget_follows_the_settings() -> None:
    from dataclasses import replace

    config = BoardConfig(leds=replace(LedConfig(), budget_ma=250))
    assert "**250 mA**" in power_budget_markdown(config)


def test_pin_map_table_matches_the_default_pins() -> None:
    rows = re.findall(r"^\| (\w{4}) \| (red|green) \| (\d+) \| (\d+) \|$", README, re.M)
    table = {name: (colour, int(gpio), int(pin)) for name, colour, gpio, pin in rows}
    assert set(table) == set(DEFAULT_BUTTON_PINS)
    for name, (colour, gpio, pin) in table.items():
        assert gpio == DEFAULT_BUTTON_PINS[name]
        assert pin == HEADER_PIN[gpio]
        assert colour == TOWERS[name].colour.value


def test_wiring_diagram_is_valid_svg_showing_every_connection() -> None:
    root = ET.parse(SVG).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    joined = "\n".join(texts)
    for name, gpio in DEFAULT_BUTTON_PINS.items():
        assert name in texts
        assert f"GPIO{gpio} (pin {HEADER_PIN[gpio]})" in texts
    assert "GPIO10 (pin 19)" in texts
    for part in ("74AHCT125", "330 Ω", "1000 µF", "4x4 WS2812B matrix", "5 V (pin 2)"):
        assert part in joined
    for pin in range(1, 41):  # the whole header is drawn and numbered
        assert str(pin) in texts


def test_parts_list_names_every_part() -> None:
    parts = README.split("## Parts", 1)[1].split("## Wiring", 1)[0]
    for part in (
        "Zero 2 W",
        "4 Model B",
        "5",
        "4x4 WS2812B",
        "74AHCT125",
        "12 momentary push buttons",
        "1000 µF",
        "330 Ω",
        "5 V power supply",
    ):
        assert part in parts


def test_every_mode_has_a_documented_press() -> None:
    presses = README.split("## What a button press means", 1)[1].split("## Settings", 1)[0]
    for mode in ("Competitive game", "Co-op game", "Junior Race"):
        assert f"**{mode}**" in presses
    assert "refused" in presses
