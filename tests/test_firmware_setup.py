"""Configuration, Pi detection, backend choice and the real LED drivers.

The LED libraries exist only on a Pi, so the drivers are exercised against stand-in
modules with the libraries' API, written to a temporary directory on sys.path: the
lowest level there is (what would talk to /dev/spidev0.0 or the PIO).
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.interface import LampFrame
from firmware.config import (
    DEFAULT_BUTTON_PINS,
    BoardConfig,
    ConfigError,
    KlackersConfig,
    LedConfig,
    config_path,
    load_config,
    parse_config,
    to_toml,
)
from firmware.detect import auto_led_backend, pi_model
from firmware.drivers import order_bytes
from firmware.factory import create_board
from firmware.pixelmap import PixelMap

AMBER = (153, 54, 3)
ROOT = Path(__file__).resolve().parent.parent

FAKE_BOARD = """
class Pin:
    def __init__(self, id):
        self.id = id
for _n in range(28):
    globals()[f"D{_n}"] = Pin(_n)
SPI_FAILS = None
def SPI():
    if SPI_FAILS:
        raise OSError(SPI_FAILS)
    return "spi0"
"""
FAKE_PIXELS = """
shown = []
closed = []
class _Strip:
    def __init__(self, target, n, *, pixel_order, auto_write, brightness, **kw):
        assert not auto_write and brightness == 1.0
        self.target, self.order, self.values = target, pixel_order, [(0, 0, 0)] * n
    def __setitem__(self, i, v):
        self.values[i] = tuple(v)
    def fill(self, v):
        self.values = [tuple(v)] * len(self.values)
    def show(self):
        shown.append((self.target, self.order, list(self.values)))
    def deinit(self):
        closed.append(self.target)
"""
FAKE_PI5 = """
written = []
freed = []
def neopixel_write(pin, buf):
    written.append((pin.id, bytes(buf)))
def free_pio():
    freed.append(True)
"""


FAKE_MODULES = ("board", "neopixel_spi", "neopixel", "adafruit_raspberry_pi5_neopixel_write")


@pytest.fixture
def fake_drivers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "board.py").write_text(FAKE_BOARD)
    (tmp_path / "neopixel_spi.py").write_text(FAKE_PIXELS + "NeoPixel_SPI = _Strip\n")
    (tmp_path / "neopixel.py").write_text(
        FAKE_PIXELS + "FAILS = None\n"
        "class NeoPixel(_Strip):\n"
        "    def __init__(self, *a, **k):\n"
        "        if FAILS:\n"
        "            raise RuntimeError(FAILS)\n"
        "        super().__init__(*a, **k)\n"
    )
    (tmp_path / "adafruit_raspberry_pi5_neopixel_write.py").write_text(FAKE_PI5)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in FAKE_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield tmp_path
    # the fakes imported by the test must not stay importable for later tests in this process
    for name in FAKE_MODULES:
        sys.modules.pop(name, None)


def config_with(**leds: object) -> BoardConfig:
    return BoardConfig(leds=dataclasses.replace(LedConfig(), **leds))  # type: ignore[arg-type]


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
    for layout in (inline, {}, str(tmp_path / "box layout.toml")):
        config = BoardConfig(klackers=KlackersConfig(layout))
        path.write_text(to_toml(config))
        assert dataclasses.replace(load_config(path), source="defaults") == config
    # a relative path is the layout file next to the settings file
    path.write_text('[klackers]\nlayout = "layouts/box.toml"\n')
    assert load_config(path).klackers.layout == str(tmp_path / "layouts" / "box.toml")
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
        ("[leds]\ncolour = 1\n", "unknown setting(s) colour"),
        ("[lamps]\n", "unknown setting(s) lamps"),
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
        ("[buttons]\ndebounce_ms = -1\n", "buttons.debounce_ms must be a number"),
        ("leds = 3\n", "[leds] must be a table"),
        ("[klackers]\nlayout = 5\n", "klackers.layout must be a layout file's path"),
        ('[klackers]\nlayout = ""\n', "klackers.layout must be a layout file's path"),
        ("[klackers]\nnumbers = {}\n", "[klackers] unknown setting(s) numbers"),
    ],
)
def test_bad_settings_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


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


def test_a_pi_without_the_driver_packages_warns_and_simulates() -> None:
    for name in ("board", "neopixel_spi"):
        assert name not in sys.modules
    board = create_board(BoardConfig(), model="Raspberry Pi 4 Model B Rev 1.5", sink=None)
    status = board.status()
    assert status["leds"] == status["leds"] | {"backend": "simulator", "requested": "spi"}
    (warning,) = status["warnings"]
    assert "LED driver 'spi' unavailable" in warning
    assert "not installed" in warning and "systemd/install.sh" in warning
    assert (ROOT / "systemd" / "install.sh").is_file()  # the script the warning names
    board.show(LampFrame(lit=0b1))  # the game goes on
    board.renderer.tick()
    assert board.pixels()[0] == AMBER


# ------------------------------------------------------------------ the drivers


def test_drivers_are_imported_only_when_chosen(fake_drivers: Path) -> None:
    create_board(BoardConfig(), model=None)
    assert "board" not in sys.modules and "neopixel_spi" not in sys.modules
    create_board(BoardConfig(), model="Raspberry Pi Zero 2 W Rev 1.0")
    assert "neopixel_spi" in sys.modules and "neopixel" not in sys.modules


def test_spi_driver_gets_the_mapped_frame_and_turns_off(fake_drivers: Path) -> None:
    config = config_with(serpentine=True, rotation=90)
    board = create_board(config, model="Raspberry Pi 4 Model B Rev 1.5")
    neopixel_spi = importlib.import_module("neopixel_spi")

    assert board.status()["leds"]["backend"] == "spi"
    board.show(LampFrame(lit=0b1))  # a1 only
    board.renderer.tick()
    target, order, values = neopixel_spi.shown[-1]
    assert (target, order) == ("spi0", "GRB")
    led = PixelMap(serpentine=True, rotation=90).leds[0]
    assert values[led] == AMBER
    assert sum(1 for v in values if v != (0, 0, 0)) == 1
    board.stop()
    assert neopixel_spi.shown[-1][2] == [(0, 0, 0)] * 16
    assert neopixel_spi.closed == ["spi0"]


def test_spi_that_cannot_open_says_how_to_enable_it(fake_drivers: Path) -> None:
    blinka_board = importlib.import_module("board")

    setattr(blinka_board, "SPI_FAILS", "No such file or directory: '/dev/spidev0.0'")  # noqa: B010
    exchange = create_board(BoardConfig(), model="Raspberry Pi 4 Model B Rev 1.5")
    (warning,) = exchange.status()["warnings"]
    assert "raspi-config nonint do_spi 0" in warning
    assert "/dev/spidev0.0" in warning
    assert exchange.status()["leds"]["backend"] == "simulator"


def test_pwm_driver_uses_gpio18_and_explains_root(fake_drivers: Path) -> None:
    board = create_board(config_with(backend="pwm"), model="Raspberry Pi 4 Model B Rev 1.5")
    neopixel = importlib.import_module("neopixel")

    board.show(LampFrame(lit=0))
    board.renderer.tick()
    assert neopixel.shown[-1][0].id == 18
    setattr(neopixel, "FAILS", "ws2811_init failed with code -5 (mmap() failed)")  # noqa: B010
    refused = create_board(config_with(backend="pwm"), model="Raspberry Pi 4 Model B Rev 1.5")
    (warning,) = refused.status()["warnings"]
    assert "mmap() failed" in warning and "needs root" in warning
    assert refused.status()["leds"]["backend"] == "simulator"


def test_pi5_driver_writes_grb_bytes_on_the_configured_pin(fake_drivers: Path) -> None:
    board = create_board(BoardConfig(), model="Raspberry Pi 5 Model B Rev 1.0")
    pi5 = importlib.import_module("adafruit_raspberry_pi5_neopixel_write")

    assert board.status()["leds"]["backend"] == "pi5"
    board.show(LampFrame(lit=1 << 15))  # d4, LED 3 on an unturned matrix
    board.renderer.tick()
    pin, data = pi5.written[-1]
    assert pin == 10 and len(data) == 48
    assert data[9:12] == bytes([54, 153, 3])  # G, R, B
    board.stop()
    assert pi5.freed == [True]


def test_order_bytes() -> None:
    assert order_bytes([(1, 2, 3)], "GRB") == bytearray([2, 1, 3])
    assert order_bytes([(1, 2, 3), (4, 5, 6)], "BGR") == bytearray([3, 2, 1, 6, 5, 4])


def test_default_button_names_are_the_towers() -> None:
    assert len(DEFAULT_BUTTON_PINS) == 12
    text = to_toml(BoardConfig())
    assert all(f"{name} = {pin}" in text for name, pin in DEFAULT_BUTTON_PINS.items())
    assert textwrap.dedent(text).startswith("# Clacks Exchange hardware settings")
