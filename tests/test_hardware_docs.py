"""hardware/: the documents agree with the code they describe."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from firmware_support import mock_board

from engine.clacks.geometry import TOWERS
from firmware.config import DEFAULT_BUTTON_PINS, DEFAULT_PATH, BoardConfig, ButtonConfig, LedConfig
from firmware.diagnose import PROBLEMS
from firmware.factory import create_board
from firmware.light import RGB
from firmware.power import led_figures, power_budget_markdown
from firmware.sinks import RecordingSink
from firmware.troubleshooting import OTHER_WARNINGS, troubleshooting_markdown

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
    for part in ("74AHCT125", "330 Ω", "1000 µF", "16 x WS2812B", "5 V (pin 2)"):
        assert part in joined
    for pin in range(1, 41):  # the whole header is drawn and numbered
        assert str(pin) in texts


def test_parts_list_names_every_part() -> None:
    parts = README.split("## Parts", 1)[1].split("## Wiring", 1)[0]
    for part in (
        "Zero 2 W",
        "4 Model B",
        "5",
        "WS2812B pixel",
        "74AHCT125",
        "12 x 12 mm tactile switch",
        "red square cap",
        "green round cap",
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


# ------------------------------------------------------------------ first boot, troubleshooting


def _block(name: str) -> str:
    block = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", README, re.S)
    assert block is not None, name
    return block.group(1)


def test_the_troubleshooting_table_is_the_one_the_code_gives() -> None:
    assert _block("troubleshooting") == troubleshooting_markdown()
    rows = _block("troubleshooting").splitlines()[2:]
    assert len(rows) == len(PROBLEMS) + len(OTHER_WARNINGS)
    for problem in PROBLEMS.values():  # each row: the warning's words, its cause, its fix
        assert any(
            f"… {problem.summary} …" in row
            and problem.fix.format(**dict(problem.example)) in row
            for row in rows
        )


def _warnings_the_code_gives(tmp_path: Path) -> list[str]:
    """One of each warning raised outside the drivers, from the real code paths."""
    config = tmp_path / "config.toml"
    config.write_text("[leds]\nbrightness = 7\n")
    broken: list[str] = create_board(config_file=config, model=None).status()["warnings"]
    config.write_text('[klackers]\nlayout = "absent-layout.toml"\n')
    layout: list[str] = create_board(config_file=config, model=None).status()["warnings"]

    class FailingSink(RecordingSink):
        name = "spi"

        def write(self, pixels: Sequence[RGB]) -> None:
            raise OSError("No such device")

    failing = create_board(BoardConfig(), model=None, sink=FailingSink())
    failing.renderer.tick()
    stuck_config = BoardConfig(buttons=replace(ButtonConfig(), stuck_s=1.0))
    board, _, clock, factory = mock_board(stuck_config)
    factory.pin(DEFAULT_BUTTON_PINS["a2b2"]).drive_low()
    clock.advance(2.0)
    warnings: list[str] = failing.status()["warnings"] + board.status()["warnings"]
    return broken + layout + warnings


def test_every_other_warning_in_the_table_is_one_the_code_gives(tmp_path: Path) -> None:
    given = _warnings_the_code_gives(tmp_path)
    assert len(given) == len(OTHER_WARNINGS)
    for (summary, _, _), warning in zip(OTHER_WARNINGS, given, strict=True):
        assert summary in warning


def test_the_status_shown_for_a_working_board_is_what_status_prints() -> None:
    shown = json.loads(_block("status-example").strip().removeprefix("```json").removesuffix("```"))
    board, _, _, _ = mock_board()
    board.renderer.tick()
    real = board.status()
    real["model"] = "Raspberry Pi 4 Model B Rev 1.5"  # as `clacks hardware status` adds it

    def shape(value: object) -> object:
        if isinstance(value, dict):
            return {key: shape(item) for key, item in value.items()}
        return type(value).__name__

    assert shape(shown) == shape(real)
    assert shown["warnings"] == real["warnings"] == []
    assert shown["buttons"]["names"] == list(DEFAULT_BUTTON_PINS)
    assert shown["leds"]["budget_ma"] == real["leds"]["budget_ma"]
    assert shown["leds"]["estimated_ma"] == real["leds"]["estimated_ma"]  # all dark: idle only
    assert shown["config"] == str(DEFAULT_PATH)


def test_the_first_boot_walk_through_goes_from_the_imager_to_a_lit_board() -> None:
    walk = README.split("## First boot", 1)[1].split("## Installing on the Pi", 1)[0]
    flowing = " ".join(walk.split())
    for setting in ("Raspberry Pi OS Lite (64-bit)", "hostname `clacks`", "username and password",
                    "**Wireless LAN country**", "**Enable SSH**"):  # fmt: skip
        assert setting in flowing, setting
    steps = [
        "ssh ann@clacks.local",
        "sudo apt update && sudo apt full-upgrade -y",
        "sudo systemd/install.sh",
        "sudo reboot",
        "sudo systemctl stop clacks",
        "clacks hardware status",
        "clacks hardware test",
        "sudo systemctl start clacks",
        "http://clacks.local/",
    ]
    places = [walk.index(step, walk.index(steps[i - 1]) if i else 0) for i, step in enumerate(steps)]
    assert places == sorted(places)
    hotspot = README.split("## Wi-Fi hotspot", 1)[1].split("## Checking", 1)[0]
    assert "sudo raspi-config nonint do_wifi_country" in hotspot
