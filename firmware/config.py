"""The exchange's hardware settings, read from a TOML file.

The file is ``$CLACKS_CONFIG`` or ``/etc/clacks/config.toml``; every setting has a default,
so a missing file means a stock build. ``clacks hardware config --default`` prints a full
file to start from. Every mistake in the file is reported with the key it concerns.

Besides the LEDs, the buttons and the stand, the file holds the games' own settings for
the box, each in a table named after the game (Klackers: where the nine numbers and the
dice appear). Which games take settings, how their tables are checked here and written
by ``to_toml``, and what they mean is the game's own show module's business
(firmware/game_settings.py); what a setting names beyond the file (a layout file) is checked when
the exchange is built, so a bad one costs only itself.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from engine.core.validate import Problems, whole
from firmware.game_settings import check_game_settings, game_settings_toml, settings_games
from firmware.layout import built_layout

DEFAULT_PATH = Path("/etc/clacks/config.toml")
LED_BACKENDS = ("auto", "spi", "pwm", "pi5", "simulator")
BUTTON_BACKENDS = ("auto", "gpio", "none")
PIXEL_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")
ROTATIONS = (0, 90, 180, 270)
LAMP_COUNT = 16

# The twelve tower buttons are named by the pair of lamps they sit between. The default
# pins keep clear of SPI0 (GPIO 7-11, the LED data line is GPIO10), of GPIO18 (the PWM
# LED backend), of I2C (GPIO 2-3) and of the UART (GPIO 14-15); see hardware/README.md.
DEFAULT_BUTTON_PINS: dict[str, int] = {
    "a2b2": 4,
    "b2c2": 17,
    "c2d2": 27,
    "a3b3": 22,
    "b3c3": 5,
    "c3d3": 6,
    "b1b2": 23,
    "b2b3": 24,
    "b3b4": 25,
    "c1c2": 12,
    "c2c3": 16,
    "c3c4": 20,
}
RESERVED_PINS = {
    2: "I2C SDA",
    3: "I2C SCL",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI (LED data)",
    11: "SPI0 SCLK",
    14: "UART TX",
    15: "UART RX",
    18: "PWM0 (LED data for the pwm backend)",
}
# What the LED data line (leds.pin) must keep clear of besides the buttons: the buses a
# HAT or a display may need. GPIO10 and GPIO18 are the data lines' own defaults.
BUS_PINS = {pin: use for pin, use in RESERVED_PINS.items() if pin not in (10, 18)}

Colour = tuple[int, int, int]


class ConfigError(ValueError):
    """The configuration file cannot be used; the message names the file and key."""


@dataclass(frozen=True)
class LedConfig:
    backend: str = "auto"  # auto: pi5 on a Raspberry Pi 5, spi on other Pis, else simulator
    pin: int | None = None  # data GPIO for pwm (default 18) and pi5 (default 10)
    order: str = "GRB"  # WS2812B colour byte order
    brightness: float = 0.6  # master brightness applied after gamma, 0..1
    budget_ma: float = 400.0  # estimated LED current never exceeds this
    ma_per_channel: float = 20.0  # one colour channel at full drive (WS2812B: ~20 mA)
    idle_ma_per_led: float = 1.0  # a WS2812B's own draw with all channels off
    gamma: float = 2.8
    glow: float = 0.0  # perceived brightness of dark lamps, as a fraction of a lit lamp
    lit: Colour = (255, 176, 64)  # warm amber, as seen on a screen (before gamma)
    accent: Colour = (64, 112, 255)
    signal: Colour = (255, 236, 200)
    refused: Colour = (255, 0, 0)
    # how the pixels are wired, as the exchange's layout draws the chain (hardware/
    # exchange.toml): every other row wired right to left, and the matrix's quarter turns
    # (degrees, clockwise) as mounted
    serpentine: bool = field(default_factory=lambda: built_layout().pixel_map().serpentine)
    rotation: int = field(default_factory=lambda: built_layout().pixel_map().rotation)
    mirrored: bool = False  # matrix mounted face down (seen through its back)

    def data_pin(self, backend: str) -> int:
        if self.pin is not None:
            return self.pin
        return 18 if backend == "pwm" else 10


@dataclass(frozen=True)
class ButtonConfig:
    backend: str = "auto"  # auto: gpio on a Raspberry Pi (or with GPIOZERO_PIN_FACTORY set)
    debounce_ms: float = 20.0
    stuck_s: float = 30.0  # a button held this long is reported as stuck
    pins: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_BUTTON_PINS))


@dataclass(frozen=True)
class StandConfig:
    """The box run as a convention stand (``clacks serve --stand`` says the same)."""

    enabled: bool = False
    games: tuple[str, ...] = ()  # "game" or "game:mode"; none: every game on the box
    idle_seconds: float = 180.0  # a stand's game nobody plays for this long ends


@dataclass(frozen=True)
class BoardConfig:
    leds: LedConfig = field(default_factory=LedConfig)
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    stand: StandConfig = field(default_factory=StandConfig)
    # each game's own table of the file, by the game's name, as written (checked by the
    # game's show module); a game the file leaves out is absent
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = "defaults"  # where the settings came from, for status reports

    @property
    def folder(self) -> Path | None:
        """The settings file's folder, against which a relative path in it is read."""
        return None if self.source == "defaults" else Path(self.source).parent


def config_path() -> Path:
    value = os.environ.get("CLACKS_CONFIG")
    return Path(value) if value else DEFAULT_PATH


def load_config(path: Path | None = None) -> BoardConfig:
    """Read the configuration; defaults when the file does not exist."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return BoardConfig()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
    try:
        config = parse_config(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    return replace(config, source=str(path))


def parse_config(data: dict[str, Any]) -> BoardConfig:
    """The settings in ``data``; ConfigError naming every mistake in it otherwise."""
    problems = Problems()
    games = settings_games()
    problems.unknown_keys(data, ("leds", "buttons", "stand", *games), None, kind="setting")
    leds = _parse_leds(_table(data, "leds", problems), problems)
    buttons = _parse_buttons(_table(data, "buttons", problems), problems)
    stand = _parse_stand(_table(data, "stand", problems), problems)
    # an empty table (the printed file's, its settings commented out) sets nothing
    own = {game: table for game in games if (table := _table(data, game, problems))}
    for game, table in own.items():
        check_game_settings(game, table, problems)
    if not problems:  # the checks across sections hold for settings that are sound
        _check_led_pin(leds, buttons, problems)
        idle = leds.idle_ma_per_led * LAMP_COUNT
        if leds.budget_ma <= idle:
            problems.add(
                None,
                None,
                f"leds.budget_ma ({leds.budget_ma:g}) must exceed the LEDs' idle draw "
                f"({LAMP_COUNT} x {leds.idle_ma_per_led:g} mA = {idle:g} mA)",
            )
    if problems:
        raise ConfigError("; ".join(problems.items))
    return BoardConfig(leds=leds, buttons=buttons, stand=stand, games=own)


def _check_led_pin(leds: LedConfig, buttons: ButtonConfig, problems: Problems) -> None:
    pin = leds.pin
    if pin is None:
        return
    for name, button in buttons.pins.items():
        if button == pin:
            problems.add(
                None,
                None,
                f"leds.pin = {pin} and buttons.pins.{name} = {pin}: GPIO{pin} cannot be both "
                f"the LED data line and the button {name}; give one of them another GPIO",
            )
    if pin in BUS_PINS:
        problems.add(
            None,
            None,
            f"leds.pin = {pin}: GPIO{pin} would be the LED data line, but it is "
            f"{BUS_PINS[pin]}; choose a GPIO that no bus and no button uses (e.g. 10 or 21)",
        )


def _table(data: dict[str, Any], name: str, problems: Problems) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        problems.add(None, None, f"[{name}] must be a table")
        return {}
    return value


# Each setting's check: (the setting's full name, its value, the problems) -> the value
# to keep, or None when it is refused (the problem added).
Check = Callable[[str, object, Problems], Any]


def _parse_leds(data: dict[str, Any], problems: Problems) -> LedConfig:
    problems.unknown_keys(data, [f.name for f in fields(LedConfig)], "[leds]", kind="setting")
    return replace(LedConfig(), **_checked("leds", data, LED_CHECKS, problems))


def _parse_buttons(data: dict[str, Any], problems: Problems) -> ButtonConfig:
    problems.unknown_keys(data, BUTTON_CHECKS, "[buttons]", kind="setting")
    return replace(ButtonConfig(), **_checked("buttons", data, BUTTON_CHECKS, problems))


def _checked(
    section: str, data: dict[str, Any], checks: dict[str, Check], problems: Problems
) -> dict[str, Any]:
    """The settings of ``section`` that pass their checks (unknown ones are reported by
    the caller)."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        check = checks.get(key)
        if check is not None and (kept := check(f"{section}.{key}", value, problems)) is not None:
            values[key] = kept
    return values


def _parse_stand(data: dict[str, Any], problems: Problems) -> StandConfig:
    problems.unknown_keys(data, ("enabled", "games", "idle_seconds"), "[stand]", kind="setting")
    values: dict[str, Any] = {}
    if "enabled" in data:
        values["enabled"] = _bool("stand.enabled", data["enabled"], problems)
    if "games" in data:
        games = data["games"]
        if not isinstance(games, list) or not all(isinstance(g, str) and g for g in games):
            problems.add(
                None,
                None,
                f'stand.games must be a list of game names (e.g. ["clacks", "klackers"]), '
                f"not {games!r}",
            )
        else:
            values["games"] = tuple(games)
    if "idle_seconds" in data:
        values["idle_seconds"] = _number(1.0, 86400.0)(
            "stand.idle_seconds", data["idle_seconds"], problems
        )
    return replace(StandConfig(), **{k: v for k, v in values.items() if v is not None})


def _pins(name: str, value: object, problems: Problems) -> dict[str, int] | None:
    if not isinstance(value, dict):
        problems.add(None, None, f"[{name}] must be a table of button name = GPIO number")
        return None
    pins: dict[str, int] = {}
    for button, pin in value.items():
        gpio = _gpio(f"{name}.{button}", pin, problems)
        if gpio is None:
            continue
        if gpio in RESERVED_PINS:
            problems.add(
                None,
                None,
                f"{name}.{button} = {pin}: GPIO{pin} is {RESERVED_PINS[gpio]}; choose a free GPIO",
            )
            continue
        pins[button] = gpio
    used: dict[int, str] = {}
    for button, pin in pins.items():
        if pin in used:
            problems.add(None, None, f"{name}: {used[pin]} and {button} both use GPIO{pin}")
        used[pin] = button
    return pins if len(pins) == len(value) and len(used) == len(pins) else None


def _choice(choices: tuple[Any, ...], upper: bool = False) -> Check:
    def check(name: str, value: object, problems: Problems) -> Any:
        if upper and isinstance(value, str):
            value = value.upper()
        if isinstance(value, bool) or value not in choices:
            shown = ", ".join(str(c) for c in choices)
            problems.add(None, None, f"{name} must be one of {shown}, not {value!r}")
            return None
        return value

    return check


def _bool(name: str, value: object, problems: Problems) -> bool | None:
    if not isinstance(value, bool):
        problems.add(None, None, f"{name} must be true or false, not {value!r}")
        return None
    return value


def _number(low: float, high: float) -> Check:
    def check(name: str, value: object, problems: Problems) -> float | None:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not low <= value <= high
        ):
            problems.add(
                None, None, f"{name} must be a number from {low:g} to {high:g}, not {value!r}"
            )
            return None
        return float(value)

    return check


def _gpio(name: str, value: object, problems: Problems) -> int | None:
    if not whole(value) or not 0 <= value <= 27:
        problems.add(None, None, f"{name} must be a GPIO number from 0 to 27, not {value!r}")
        return None
    return value


def _colour(name: str, value: object, problems: Problems) -> Colour | None:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(whole(v) and 0 <= v <= 255 for v in value)
    ):
        problems.add(
            None, None, f"{name} must be three numbers 0-255 like [255, 176, 64], not {value!r}"
        )
        return None
    return (value[0], value[1], value[2])


LED_CHECKS: dict[str, Check] = {
    "backend": _choice(LED_BACKENDS),
    "pin": _gpio,
    "order": _choice(PIXEL_ORDERS, upper=True),
    "brightness": _number(0.0, 1.0),
    "budget_ma": _number(1.0, 20000.0),
    "ma_per_channel": _number(1.0, 100.0),
    "idle_ma_per_led": _number(0.0, 10.0),
    "gamma": _number(1.0, 4.0),
    "glow": _number(0.0, 1.0),
    "lit": _colour,
    "accent": _colour,
    "signal": _colour,
    "refused": _colour,
    "serpentine": _bool,
    "rotation": _choice(ROTATIONS),
    "mirrored": _bool,
}
BUTTON_CHECKS: dict[str, Check] = {
    "backend": _choice(BUTTON_BACKENDS),
    "debounce_ms": _number(0.0, 500.0),
    "stuck_s": _number(1.0, 86400.0),
    "pins": _pins,
}


def to_toml(config: BoardConfig) -> str:
    """The configuration as a commented TOML file that ``load_config`` reads back."""
    leds = config.leds
    lines = [
        "# Clacks Exchange hardware settings (see hardware/README.md).",
        "",
        "[leds]",
        "# auto: pi5 on a Raspberry Pi 5, spi on other Raspberry Pis, simulator elsewhere",
        f"backend = {toml_value(leds.backend)}",
    ]
    if leds.pin is not None:
        lines.append(f"pin = {leds.pin}")
    else:
        lines.append(
            "# pin = 18  # data GPIO for the pwm (default 18) and pi5 (default 10) backends"
        )
    lines += [
        f"order = {toml_value(leds.order)}",
        f"brightness = {toml_value(leds.brightness)}",
        "# the limiter keeps the estimated LED current within this many milliamps",
        f"budget_ma = {toml_value(leds.budget_ma)}",
        f"ma_per_channel = {toml_value(leds.ma_per_channel)}",
        f"idle_ma_per_led = {toml_value(leds.idle_ma_per_led)}",
        f"gamma = {toml_value(leds.gamma)}",
        "# dark lamps: 0 = off, 0.2-0.3 = a faint glow",
        f"glow = {toml_value(leds.glow)}",
        f"lit = {toml_value(leds.lit)}",
        f"accent = {toml_value(leds.accent)}",
        f"signal = {toml_value(leds.signal)}",
        f"refused = {toml_value(leds.refused)}",
        "# how the pixels are wired and mounted (LED 0 at the matrix's top-left corner);",
        "# the defaults follow the chain drawn in hardware/wiring.svg",
        f"serpentine = {toml_value(leds.serpentine)}",
        f"rotation = {leds.rotation}",
        f"mirrored = {toml_value(leds.mirrored)}",
        "",
        "[buttons]",
        "# auto: gpio on a Raspberry Pi, none (on-screen buttons only) elsewhere",
        f"backend = {toml_value(config.buttons.backend)}",
        f"debounce_ms = {toml_value(config.buttons.debounce_ms)}",
        f"stuck_s = {toml_value(config.buttons.stuck_s)}",
        "",
        "[buttons.pins]",
        "# button (the two lamps it sits between) = BCM GPIO number; wire each to ground",
    ]
    lines += [f"{name} = {pin}" for name, pin in config.buttons.pins.items()]
    lines += _stand_toml(config.stand)
    for game in settings_games():
        lines += ["", *game_settings_toml(game, config.games.get(game))]
    return "\n".join(lines) + "\n"


def _stand_toml(stand: StandConfig) -> list[str]:
    return [
        "",
        "[stand]",
        "# a convention stand: visitors choose a game on their phones, idle games end",
        f"enabled = {toml_value(stand.enabled)}",
        '# the games offered ("game" or "game:mode"); an empty list offers every one',
        f"games = {toml_value(list(stand.games))}",
        f"idle_seconds = {toml_value(stand.idle_seconds)}",
    ]


def toml_key(key: str) -> str:
    """``key`` as a TOML file writes it: bare where it may be, quoted otherwise (a game's
    show module writes its own table with these)."""
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else toml_value(key)


def toml_value(value: object) -> str:
    """``value`` (a string, a number, a truth, a list or a table) as a TOML file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)
