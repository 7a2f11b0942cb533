"""The games' own settings for this box, from the settings file: today the Klackers
layout (which lamps show the nine numbers and the dice, what each button does).

A layout that cannot be used is reported, naming the file and the entry, and Klackers
keeps the shipped layout: like an LED driver that will not start, it costs a warning on
the table screen, never the game.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.core.errors import DataError
from engine.games import game_module
from engine.klackers.game import GAME as KLACKERS
from engine.klackers.layout import BoardLayout, default_layout, layout_from_data
from engine.klackers.module import KlackersModule
from firmware.config import BoardConfig

FALLBACK = "Klackers uses the shipped layout"


def apply_game_settings(config: BoardConfig) -> list[str]:
    """Give the games this box's settings; the warnings for those that cannot be used."""
    layout, warnings = klackers_layout(config)
    klackers_module().use_layout(layout)
    return warnings


def klackers_module() -> KlackersModule:
    module = game_module(KLACKERS)
    assert isinstance(module, KlackersModule)
    return module


def klackers_layout(config: BoardConfig) -> tuple[BoardLayout, list[str]]:
    """The layout the settings ask for, or the shipped one and why it is not theirs."""
    wanted = config.klackers.layout
    if wanted is None:
        return default_layout(), []
    if isinstance(wanted, str):
        where = f"Klackers layout {wanted}"
        data: Any
        try:
            data = tomllib.loads(Path(wanted).read_text(encoding="utf-8"))
        except OSError as exc:
            return default_layout(), [
                f"{where}: cannot be read ({exc.strerror or exc}); {FALLBACK}"
            ]
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            return default_layout(), [f"{where}: not valid TOML ({exc}); {FALLBACK}"]
    else:
        where = f"{config.source}: [klackers.layout]"
        data = wanted
    try:
        return layout_from_data(_with_shipped_sections(data)), []
    except DataError as exc:
        return default_layout(), [f"{where}: {'; '.join(exc.problems)}; {FALLBACK}"]


def _with_shipped_sections(data: object) -> object:
    """The sections a layout leaves out ([numbers], [dice], [buttons]) are the shipped
    ones, so moving the numbers takes only a [numbers] table."""
    if not isinstance(data, dict):
        return data
    return {**default_layout().to_data(), **data}
