"""The exchange's one geometry (hardware/exchange.toml): lamps where the engine names
them, buttons between the lamps they are named by, and the settings' pixel map following
the chain the layout draws."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.clacks.geometry import LAMP_NAMES, TOWERS, Colour, lamp_index
from firmware.config import BoardConfig, LedConfig, load_config, to_toml
from firmware.exchange import pixel_map_for
from firmware.layout import LayoutError, built_layout, chain_pixel_map, parse_layout

ROOT = Path(__file__).resolve().parent.parent
LAYOUT_FILE = ROOT / "hardware" / "exchange.toml"


def layout_data() -> dict[str, Any]:
    return tomllib.loads(LAYOUT_FILE.read_text(encoding="utf-8"))


def test_every_lamp_stands_on_the_grid_of_the_pitch_as_the_engine_names_it() -> None:
    layout = built_layout()
    pitch = layout.exchange.pitch
    assert list(layout.lamps) == list(LAMP_NAMES)
    a1 = layout.lamps["a1"]
    for name, (x, y) in layout.lamps.items():
        column, row = "abcd".index(name[0]), int(name[1]) - 1
        assert (x - a1[0], y - a1[1]) == pytest.approx((column * pitch, row * pitch))
    # the exchange is centred: d4 opposite a1
    assert layout.lamps["d4"] == pytest.approx((-a1[0], -a1[1]))


def test_every_button_is_midway_between_the_two_lamps_it_is_named_by() -> None:
    layout = built_layout()
    lamps = layout.lamps
    assert set(layout.buttons) == set(TOWERS)
    for name, button in layout.buttons.items():
        (x1, y1), (x2, y2) = lamps[name[:2]], lamps[name[2:]]
        assert button.centre == pytest.approx(((x1 + x2) / 2, (y1 + y2) / 2))
        assert math.dist((x1, y1), (x2, y2)) == pytest.approx(layout.exchange.pitch)
        assert button.colour is TOWERS[name].colour
        # red buttons sit between two lamps of a row, green ones of a column
        assert button.along_row is (button.colour is Colour.RED)


def test_the_default_pixel_map_puts_each_led_of_the_chain_under_its_lamp() -> None:
    """LED i of the wired chain lights lamp chain[i] with the settings' defaults."""
    layout = built_layout()
    leds = pixel_map_for(BoardConfig()).leds
    for led, lamp in enumerate(layout.chain):
        assert leds[lamp_index(lamp)] == led, f"LED {led} should be under {lamp}"
    defaults = LedConfig()
    assert (defaults.serpentine, defaults.rotation, defaults.mirrored) == (True, 0, False)


def test_the_printed_default_settings_carry_the_chains_pixel_map(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(to_toml(BoardConfig()), encoding="utf-8")
    read = load_config(path).leds
    assert (read.serpentine, read.rotation) == (LedConfig().serpentine, LedConfig().rotation)


@pytest.mark.parametrize(
    ("chain", "expected"),
    [
        # column by column from a1, straight: the matrix turned a quarter anticlockwise
        ([f"{c}{r}" for c in "abcd" for r in "1234"], (False, 270, False)),
        # from d1 westwards, serpentine: turned half round
        (
            [
                "d1",
                "c1",
                "b1",
                "a1",
                "a2",
                "b2",
                "c2",
                "d2",
                "d3",
                "c3",
                "b3",
                "a3",
                "a4",
                "b4",
                "c4",
                "d4",
            ],
            (True, 180, False),
        ),
    ],
)
def test_another_chain_gives_the_settings_that_follow_it(
    chain: list[str], expected: tuple[bool, int, bool]
) -> None:
    data = layout_data()
    data["chain"]["order"] = chain
    layout = parse_layout(data)
    found = layout.pixel_map()
    assert (found.serpentine, found.rotation, found.mirrored) == expected
    for led, lamp in enumerate(chain):
        assert found.leds[lamp_index(lamp)] == led


def test_a_chain_the_settings_cannot_follow_is_refused() -> None:
    data = layout_data()
    data["chain"]["order"] = [*LAMP_NAMES[:2][::-1], *LAMP_NAMES[2:]]
    assert chain_pixel_map(tuple(data["chain"]["order"])) is None
    with pytest.raises(LayoutError, match=r"chain\.order: must run row by row"):
        parse_layout(data)


def test_a_chain_missing_a_lamp_is_refused() -> None:
    data = layout_data()
    data["chain"]["order"] = data["chain"]["order"][:-1]
    with pytest.raises(LayoutError, match=r"must name each of the 16 lamps once"):
        parse_layout(data)


def test_a_pitch_too_tight_for_the_buttons_is_refused_with_the_room_left() -> None:
    data = layout_data()
    data["exchange"]["pitch"] = 28.0
    with pytest.raises(LayoutError, match=r"exchange.pitch: 28 mm leaves .* less than min_wall"):
        parse_layout(data)


def test_every_mistake_is_named_at_once() -> None:
    data = layout_data()
    data["panel"]["window"] = "wide"
    del data["base"]["wall"]
    data["pixel"]["colour"] = "white"
    data["pi"] = [p for p in data["pi"] if "zero2w" not in p["models"]]
    with pytest.raises(LayoutError) as caught:
        parse_layout(data)
    message = str(caught.value)
    assert "panel.window: must be a number" in message
    assert "base.wall: must be a number" in message
    assert "unknown key 'colour'" in message
    # the Pi check runs once the values are sound
    data = layout_data()
    data["pi"] = [p for p in data["pi"] if "zero2w" not in p["models"]]
    with pytest.raises(LayoutError, match="no mounting for zero2w"):
        parse_layout(data)


def test_pi_mountings_have_the_boards_real_hole_patterns() -> None:
    """58 x 49 mm on a Pi 4 and a Pi 5, 58 x 23 mm on a Zero 2 W, 3.5 mm in from the
    board's corners (the Raspberry Pi mechanical drawings)."""
    layout = built_layout()
    by_model = {model: pi for pi in layout.pis for model in pi.models}
    for model, (width, height) in {"pi4": (58, 49), "pi5": (58, 49), "zero2w": (58, 23)}.items():
        xs = sorted({x for x, _ in by_model[model].holes})
        ys = sorted({y for _, y in by_model[model].holes})
        assert (xs[-1] - xs[0], ys[-1] - ys[0]) == (width, height)
        assert (xs[0], ys[0]) == (3.5, 3.5)
