"""Configuration, Pi detection and backend choice. The LED drivers themselves are in
test_firmware_drivers.py and, down to the SPI wire, test_firmware_spi_wire.py."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from engine.core.interface import LampFrame
from firmware.config import (
    DEFAULT_BUTTON_PINS,
    BoardConfig,
    ConfigError,
    LedConfig,
    config_path,
    load_config,
    parse_config,
    to_toml,
)
from firmware.detect import auto_led_backend, pi_model
from firmware.factory import create_board

# ------------------------------------------------------------------ configuration


def test_missing_file_gives_the_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.toml") == BoardConfig()


def test_config_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLACKS_CONFIG", "/srv/clacks.toml")
    assert config_path() == Path("/srv/clacks.toml")
    monkeypatch.delenv("CLACKS_CONFIG")
    assert config_path() == Path("/etc/clacks/config.toml")


def test_printed_settings_read_back_the_same(tmp_path: Path) -> None:
    config = BoardConfig(
        leds=dataclasses.replace(
            LedConfig(), backend="pwm", pin=21, rotation=270, serpentine=True, glow=0.25
        )
    )
    path = tmp_path / "config.toml"
    path.write_text(to_toml(config))
    loaded = load_config(path)
    assert dataclasses.replace(loaded, source="defaults") == config
    assert loaded.source == str(path)
    path.write_text(to_toml(BoardConfig()))
    assert dataclasses.replace(load_config(path), source="defaults") == BoardConfig()


def test_the_klackers_layout_setting_reads_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    inline = {
        "numbers": {"1": "d2", "9": "a2"},
        "dice": {"lamps": ["a1", "b1", "c1", "d1"]},
        "buttons": {"a2b2": "1", "b1b2": "roll"},
    }
    for layout in (inline, {}, str(tmp_path / "box layout.toml"), "layouts/box.toml"):
        config = BoardConfig(games={"klackers": {"layout": layout}})
        path.write_text(to_toml(config))
        assert dataclasses.replace(load_config(path), source="defaults") == config
    # a relative path is read next to the settings file
    assert load_config(path).folder == tmp_path and BoardConfig().folder is None
    assert '# layout = "klackers-layout.toml"' in to_toml(BoardConfig())


def test_a_partial_file_keeps_the_other_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[leds]\nbrightness = 0.3\n[buttons.pins]\na2b2 = 21\n")
    config = load_config(path)
    assert config.leds.brightness == 0.3
    assert config.leds.budget_ma == LedConfig().budget_ma
    assert config.buttons.pins == {"a2b2": 21}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[leds\n", "not valid TOML"),
        ("[leds]\ncolour = 1\n", "[leds]: unknown setting 'colour' (known: accent, backend,"),
        ("[leds]\nbrightnes = 1\n", "[leds]: unknown setting 'brightnes'; did you mean 'brightness'?"),
        ("[lamps]\n", "unknown setting 'lamps'"),
        (
            '[leds]\nbackend = "laser"\n',
            "leds.backend must be one of auto, spi, pwm, pi5, simulator",
        ),
        ('[leds]\nbrightness = "bright"\n', "leds.brightness must be a number from 0 to 1"),
        ("[leds]\nbrightness = 1.5\n", "leds.brightness must be a number from 0 to 1"),
        ("[leds]\nrotation = 45\n", "leds.rotation must be one of 0, 90, 180, 270"),
        ("[leds]\nserpentine = 1\n", "leds.serpentine must be true or false"),
        ("[leds]\nlit = [255, 0]\n", "leds.lit must be three numbers 0-255"),
        ("[leds]\nbudget_ma = 10\n", "must exceed the LEDs' idle draw"),
        ("[leds]\npin = 40\n", "leds.pin must be a GPIO number from 0 to 27"),
        ("[buttons.pins]\na2b2 = 10\n", "GPIO10 is SPI0 MOSI (LED data)"),
        ("[buttons.pins]\na2b2 = 18\n", "GPIO18 is PWM0"),
        ("[buttons.pins]\na2b2 = 5\nb2c2 = 5\n", "a2b2 and b2c2 both use GPIO5"),
        # a Raspberry Pi 5 sending its LED data on GPIO12 would fight the button c1c2
        (
            "[leds]\nbackend = \"pi5\"\npin = 12\n",
            "leds.pin = 12 and buttons.pins.c1c2 = 12: GPIO12 cannot be both the LED data "
            "line and the button c1c2",
        ),
        ("[leds]\npin = 21\n[buttons.pins]\na2b2 = 21\n", "leds.pin = 21 and buttons.pins.a2b2"),
        ("[leds]\npin = 3\n", "GPIO3 would be the LED data line, but it is I2C SCL"),
        ("[leds]\npin = 8\n", "GPIO8 would be the LED data line, but it is SPI0 CE0"),
        ("[leds]\npin = 14\n", "GPIO14 would be the LED data line, but it is UART TX"),
        ("[buttons]\ndebounce_ms = -1\n", "buttons.debounce_ms must be a number"),
        ("leds = 3\n", "[leds] must be a table"),
        ("[klackers]\nlayout = 5\n", "klackers.layout must be a layout file's path"),
        ('[klackers]\nlayout = ""\n', "klackers.layout must be a layout file's path"),
        ("[klackers]\nnumbers = {}\n", "[klackers]: unknown setting 'numbers' (known: layout)"),
    ],
)
def test_bad_settings_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_every_mistake_in_the_file_is_named_at_once(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[leds]\nbackend = "laser"\ngamma = 9\n[buttons]\nstuck_s = 0\n'
        "[buttons.pins]\na2b2 = 5\nb2c2 = 5\nc2d2 = 40\n[klackers]\nlayout = 5\n"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    for problem in (
        "leds.backend must be one of",
        "leds.gamma must be a number from 1 to 4, not 9",
        "buttons.stuck_s must be a number from 1 to 86400, not 0",
        "buttons.pins: a2b2 and b2c2 both use GPIO5",
        "buttons.pins.c2d2 must be a GPIO number from 0 to 27, not 40",
        "klackers.layout must be a layout file's path",
    ):
        assert problem in message


def test_a_free_led_data_pin_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    for pin in (10, 18, 21, 26):
        path.write_text(f"[leds]\npin = {pin}\n")
        assert load_config(path).leds.pin == pin
    # a button moved away frees its pin for the LEDs
    path.write_text("[leds]\npin = 12\n[buttons.pins]\nc1c2 = 26\n")
    assert load_config(path).leds.pin == 12


def test_unreadable_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe[leds]")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(tmp_path)  # a directory


def test_a_broken_file_leaves_the_board_running_on_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[leds]\nbrightness = 7\n")
    board = create_board(config_file=path, model=None)
    status = board.status()
    assert status["config"] == "defaults"
    assert any("brightness" in w and "default settings" in w for w in status["warnings"])
    assert parse_config({}) == BoardConfig()


# ------------------------------------------------------------------ detection and choice


def test_pi_model_is_read_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert pi_model([tmp_path / "absent", model]) == "Raspberry Pi 4 Model B Rev 1.5"
    model.write_bytes(b"Pine64 RockPro64\x00")
    assert pi_model([model]) is None
    assert pi_model([tmp_path / "absent"]) is None


def test_auto_backend_by_model() -> None:
    assert auto_led_backend(None) == "simulator"
    assert auto_led_backend("Raspberry Pi Zero 2 W Rev 1.0") == "spi"
    assert auto_led_backend("Raspberry Pi 4 Model B Rev 1.5") == "spi"
    assert auto_led_backend("Raspberry Pi 5 Model B Rev 1.0") == "pi5"
    assert auto_led_backend("Raspberry Pi 500 Rev 1.0") == "pi5"


def test_off_a_pi_the_board_is_simulated_without_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    board = create_board(BoardConfig(), model=None)
    board.start()
    try:
        board.show(LampFrame(lit=1))
        status = board.status()
        assert status["leds"]["backend"] == "simulator"
        assert status["buttons"]["backend"] == "none"
        assert status["warnings"] == []
    finally:
        board.stop()


def test_default_button_names_are_the_towers() -> None:
    assert len(DEFAULT_BUTTON_PINS) == 12
    text = to_toml(BoardConfig())
    assert all(f"{name} = {pin}" in text for name, pin in DEFAULT_BUTTON_PINS.items())
    assert textwrap.dedent(text).startswith("# Clacks Exchange hardware settings")
