"""How each game's events look on the lamps, beyond the frame the game itself draws.

The renderer knows lamps, not games. A game that wants a transmit animation or a
highlight after a press provides a show module (firmware/<game>_show.py) with:

- ``effects(event) -> list[Effect]``: animations for one public event;
- ``button_lamps(button) -> int``: the lamps a physical button stands for;
- ``attract() -> list[AttractStep]``: the convention attract programme.

Modules are imported only when a game of theirs is played.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Literal

from engine.core.interface import JSON
from firmware.scene import AttractStep

Effect = tuple[Literal["transmit", "highlight"], int]

SHOW_MODULES: dict[str, str] = {
    "clacks": "firmware.clacks_show",
}
ATTRACT_GAME = "clacks"  # the box's convention attract mode


def _module(game: str) -> object | None:
    path = SHOW_MODULES.get(game)
    return importlib.import_module(path) if path else None


def effects(game: str, events: Iterable[JSON]) -> list[Effect]:
    module = _module(game)
    if module is None:
        return []
    found: list[Effect] = []
    for event in events:
        found.extend(getattr(module, "effects")(event))  # noqa: B009
    return found


def button_lamps(game: str, button: str) -> int:
    module = _module(game)
    return int(getattr(module, "button_lamps")(button)) if module else 0  # noqa: B009


def attract_programme(game: str = ATTRACT_GAME) -> list[AttractStep]:
    module = _module(game)
    return list(getattr(module, "attract")()) if module else []  # noqa: B009
