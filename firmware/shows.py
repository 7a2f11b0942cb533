"""How each game's events look on the lamps, beyond the frame the game itself draws, and
what the box's settings file gives the game.

The renderer knows lamps, not games. The transmit animation needs no show module: every
game names the lamps it sent from through ``Session.transmissions``. A game that wants
more (a highlight after a press, an attract programme, settings of its own in the
settings file) provides a show module, ``firmware/<game>_show.py`` for the game
registered as ``<game>`` in engine/games.py (a ``-`` in the name is ``_`` there), with:

- ``ATTRACT_TITLE``: what ``clacks hardware attract`` says its programme is;
- ``effects(event, options) -> list[Effect]``: highlights for one public event;
- ``button_lamps(button, options) -> int``: the lamps a physical button stands for;
- ``attract(options) -> list[AttractStep]``: the convention attract programme;
- optionally, for a game with settings of its own in the box's settings file (Klackers:
  its layout), under a table named after the game:
  - ``check_settings(table, problems)``: the problems of that table, found when the file
    is read with the rest of it (firmware/config.py);
  - ``settings_toml(table) -> list[str]``: the table as the file writes it, commented
    (``table`` None: the game's defaults, for ``clacks hardware config --default``);
  - ``board_options(config) -> (options, warnings)``: the options every new game of it
    takes from those settings (``config.games[game]``), with a warning for each setting
    that cannot be used. The ``options`` above are these (None: none).

Why found by name and not listed here: engine/games.py is the one list of games, and the
firmware sits above the engine, so the engine cannot name a game's firmware part. A table
of show modules here would be a second list to keep in step with it (and a third in the
command line's); finding ``firmware.<game>_show`` by the registered name, the way a web
framework finds each installed app's admin module, keeps a game's firmware in its own
module, added without editing anything else. A show module is imported the first time
its game is shown, or when the settings file is read (firmware/game_settings.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, Protocol, cast

from engine.core.interface import JSON
from engine.games import DEFAULT_GAME, game_modules
from firmware.game_settings import settings_games, show_module
from firmware.scene import AttractStep

if TYPE_CHECKING:
    from firmware.config import BoardConfig

Effect = tuple[Literal["highlight"], int]
ATTRACT_GAME = DEFAULT_GAME  # the box's convention attract mode


class GameShow(Protocol):
    ATTRACT_TITLE: str

    def effects(self, event: JSON, options: JSON | None = None, /) -> list[Effect]: ...

    def button_lamps(self, button: str, options: JSON | None = None, /) -> int: ...

    def attract(self, options: JSON | None = None, /) -> list[AttractStep]: ...


class BoardSettings(Protocol):
    def board_options(self, config: BoardConfig, /) -> tuple[JSON, list[str]]: ...



def show_games() -> list[str]:
    """The games with a show module, in the registry's order."""
    return [game for game in game_modules() if show_module(game) is not None]


def _show(game: str) -> GameShow | None:
    return cast(GameShow | None, show_module(game))


def effects(game: str, events: Iterable[JSON], options: JSON | None = None) -> list[Effect]:
    show = _show(game)
    return [effect for event in events for effect in show.effects(event, options)] if show else []


def button_lamps(game: str, button: str, options: JSON | None = None) -> int:
    show = _show(game)
    return show.button_lamps(button, options) if show else 0


def attract_programme(game: str = ATTRACT_GAME, options: JSON | None = None) -> list[AttractStep]:
    show = _show(game)
    return show.attract(options) if show else []


def attract_title(game: str) -> str:
    show = _show(game)
    return show.ATTRACT_TITLE if show else game


def board_options(config: BoardConfig) -> tuple[dict[str, JSON], list[str]]:
    """Every game's options from this box's settings (only games that take some), and
    a warning for each setting that cannot be used."""
    options: dict[str, JSON] = {}
    warnings: list[str] = []
    for game in settings_games():
        options[game], warned = cast(BoardSettings, show_module(game)).board_options(config)
        warnings += warned
    return options, warnings
