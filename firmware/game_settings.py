"""The games' own settings in the box's settings file, and where a game's show module is.

A game with settings for the box (Klackers: its layout) keeps them in a table of the
settings file named after the game, and its show module (``firmware/<game>_show.py``,
firmware/shows.py) says how that table is checked (``check_settings``) and written
(``settings_toml``). The settings file's reader (firmware/config.py) asks here which games
have a table and hands each its own, so no game is named outside its own modules.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from types import ModuleType
from typing import Any, Protocol, cast

from engine.core.validate import Problems
from engine.games import game_modules


class SettingsTable(Protocol):
    def check_settings(self, table: dict[str, Any], problems: Problems, /) -> None: ...

    def settings_toml(self, table: dict[str, Any] | None, /) -> list[str]: ...


def module_name(game: str) -> str:
    """Where ``game``'s show module is, if it has one."""
    return f"firmware.{game.replace('-', '_')}_show"


@cache
def show_module(game: str) -> ModuleType | None:
    """The show module of ``game`` (a registered game), None where it has none; imported
    the first time it is asked for."""
    if game not in game_modules() or importlib.util.find_spec(module_name(game)) is None:
        return None
    return importlib.import_module(module_name(game))


def _settings(game: str) -> SettingsTable:
    module = show_module(game)
    assert module is not None and hasattr(module, "check_settings"), f"{game} has no settings"
    return cast(SettingsTable, module)


def settings_games() -> list[str]:
    """The games with settings of their own in the box's settings file, in the
    registry's order: each has a table there named after it."""
    return [game for game in game_modules() if hasattr(show_module(game), "check_settings")]


def check_game_settings(game: str, table: dict[str, Any], problems: Problems) -> None:
    """The problems of ``game``'s table in the settings file, added to ``problems``."""
    _settings(game).check_settings(table, problems)


def game_settings_toml(game: str, table: dict[str, Any] | None) -> list[str]:
    """``game``'s table as the settings file writes it (None: its defaults, commented)."""
    return _settings(game).settings_toml(table)
