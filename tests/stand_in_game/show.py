"""The stand-in's show module (firmware/shows.py): no lamps of its own, and one setting
for the box, how many rounds a match lasts there."""

from __future__ import annotations

from typing import Any

from engine.core.interface import JSON
from engine.core.validate import Problems, whole
from firmware.config import BoardConfig, toml_value
from firmware.scene import AttractStep
from firmware.shows import Effect
from stand_in_game.module import NAME

ATTRACT_TITLE = "Stand-in"


def effects(event: JSON, options: JSON | None = None) -> list[Effect]:
    return []


def button_lamps(button: str, options: JSON | None = None) -> int:
    return 0


def attract(options: JSON | None = None) -> list[AttractStep]:
    return []


def check_settings(table: dict[str, Any], problems: Problems) -> None:
    problems.unknown_keys(table, ("rounds",), f"[{NAME}]", kind="setting")
    rounds = table.get("rounds")
    if rounds is not None and not (whole(rounds) and 1 <= rounds <= 99):
        problems.add(None, None, f"{NAME}.rounds must be a whole number from 1 to 99")


def settings_toml(table: dict[str, Any] | None) -> list[str]:
    lines = [f'["{NAME}"]', "# how many rounds a match lasts at this box"]
    rounds = (table or {}).get("rounds")
    return [*lines, "# rounds = 3" if rounds is None else f"rounds = {toml_value(rounds)}"]


def board_options(config: BoardConfig) -> tuple[JSON, list[str]]:
    rounds = config.games.get(NAME, {}).get("rounds")
    return ({"rounds": rounds} if rounds is not None else {}), []
