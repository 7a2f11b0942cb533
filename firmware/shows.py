"""How each game's events look on the lamps, beyond the frame the game itself draws.

The renderer knows lamps, not games. The transmit animation needs no show module: every
game names the lamps it sent from through ``Session.transmissions``. A game that wants
more (a highlight after a press, an attract programme) provides a show module
(firmware/<game>_show.py) with:

- ``effects(event) -> list[Effect]``: highlights for one public event;
- ``button_lamps(button) -> int``: the lamps a physical button stands for;
- ``attract() -> list[AttractStep]``: the convention attract programme.

Modules are imported only when a game of theirs is played.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Literal, Protocol, cast

from engine.core.interface import JSON
from firmware.scene import AttractStep

Effect = tuple[Literal["highlight"], int]

SHOW_MODULES: dict[str, str] = {
    "clacks": "firmware.clacks_show",
    "klackers": "firmware.klackers_show",
    "clockman": "firmware.clockman_show",
    "guards": "firmware.guards_show",
}
ATTRACT_GAME = "clacks"  # the box's convention attract mode


class GameShow(Protocol):
    def effects(self, event: JSON) -> list[Effect]: ...

    def button_lamps(self, button: str) -> int: ...

    def attract(self) -> list[AttractStep]: ...


def _show(game: str) -> GameShow | None:
    path = SHOW_MODULES.get(game)
    return cast(GameShow, importlib.import_module(path)) if path else None


def effects(game: str, events: Iterable[JSON]) -> list[Effect]:
    show = _show(game)
    return [effect for event in events for effect in show.effects(event)] if show else []


def button_lamps(game: str, button: str) -> int:
    show = _show(game)
    return show.button_lamps(button) if show else 0


def attract_programme(game: str = ATTRACT_GAME) -> list[AttractStep]:
    show = _show(game)
    return show.attract() if show else []
