"""The tables the shared tests set up, for every registered game (engine/games.py).

Each game gets one table per mode and seat count from its own options schema, and the
option edges from the ranges the schema states. What only the game knows, the variants
worth a look and how its table screen is drawn, comes from the ``tables.toml`` next to
its module (engine/<package>/tables.toml), under the game's name; a game without one
takes the defaults below. No shared test keeps a list of games of its own.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.games import game_module, game_modules

# where a game says nothing of its table screen
DEFAULT_BOARD = ".board-box svg"
DEFAULT_TURN = ".status .turn > .phase"
LEAK_STEPS = 60  # random actions in a leak test's game


@dataclass(frozen=True)
class Table:
    name: str  # the test's id: the mode and seat count, or the game's own name for it
    game: str
    options: dict[str, Any]


@dataclass(frozen=True)
class LeakTable:
    game: str
    options: dict[str, Any]
    steps: int = LEAK_STEPS


@dataclass(frozen=True)
class Edge:
    """An option's range, a value just below it and one just above."""

    game: str
    option: str
    below: float
    above: float
    base: dict[str, Any] = field(default_factory=dict)  # what a table needs besides it


def games() -> list[str]:
    return sorted(game_modules())


def own_tables(game: str) -> dict[str, Any]:
    """The game's part of the tables.toml beside its module; empty where it has none."""
    module = sys.modules[type(game_module(game)).__module__]
    assert module.__file__ is not None
    path = Path(module.__file__).parent / "tables.toml"
    if not path.exists():
        return {}
    own: dict[str, Any] = tomllib.loads(path.read_text("utf-8")).get(game, {})
    return own


def schema_options(game: str) -> dict[str, Any]:
    schema = game_module(game).options_schema()
    options: dict[str, Any] = schema.get("options") or schema["choices"]
    return options


def _modes(game: str) -> list[dict[str, Any]]:
    modes: list[dict[str, Any]] = game_module(game).options_schema().get("modes") or []
    return modes


def mode_tables(game: str) -> list[Table]:
    """One table per mode and seat count the game's schema offers (one table for a game
    without modes)."""
    modes = _modes(game)
    if not modes:
        return [Table(game, game, {})]
    tables = []
    for mode in modes:
        stem = mode["id"] if len(modes) > 1 else game
        for players in mode["players"]:
            options = {"players": players} | ({"mode": mode["id"]} if len(modes) > 1 else {})
            name = stem if len(mode["players"]) == 1 else f"{stem}-{players}"
            tables.append(Table(name, game, options))
    return tables


def first_tables() -> dict[str, Table]:
    """Each game's every mode at its fewest seats, by the mode's name: what a first table
    meets."""
    tables: dict[str, Table] = {}
    for game in games():
        modes = _modes(game)
        if not modes:
            tables[game] = Table(game, game, {})
        for mode in modes:
            name = mode["id"] if len(modes) > 1 else game
            options = {"players": min(mode["players"])}
            options |= {"mode": mode["id"]} if len(modes) > 1 else {}
            tables[name] = Table(name, game, options)
    return tables


def screen_tables() -> list[Table]:
    """Every game and mode from its fewest seats to its most, and each game's own
    variants worth a look."""
    tables = []
    for game in games():
        tables += mode_tables(game)
        tables += [
            Table(t["name"], game, t["options"]) for t in own_tables(game).get("screens", [])
        ]
    return tables


def leak_tables() -> list[LeakTable]:
    """The game's own leak tables, or one per mode at its most seats."""
    tables = []
    for game in games():
        own = own_tables(game).get("leaks")
        if own:
            tables += [LeakTable(game, t["options"], t.get("steps", LEAK_STEPS)) for t in own]
            continue
        for mode in _modes(game) or [{"players": [None]}]:
            options = {"players": max(mode["players"])} if mode["players"] != [None] else {}
            options |= {"mode": mode["id"]} if len(_modes(game)) > 1 else {}
            tables.append(LeakTable(game, options))
    return tables


def board(game: str) -> str:
    """The selector of the table screen's picture of the game's board."""
    return str(own_tables(game).get("board", DEFAULT_BOARD))


def turn_line(game: str) -> str:
    """The selector of the line that says whose turn it is (or the trainer's question)."""
    return str(own_tables(game).get("turn", DEFAULT_TURN))


def first_table_phones(game: str) -> bool:
    """Whether the first-table browser test walks the game's phones (not where the game's
    own browser tests do)."""
    return bool(own_tables(game).get("first_table_phones", True))


def accepts_null(game: str, option: str) -> bool:
    """Whether null is one of the option's values (no limit, say)."""
    return option in own_tables(game).get("accepts_null", [])


def option_edges() -> list[Edge]:
    """Every option of every game with a range (but the seat count, which each mode
    bounds), with values just outside it."""
    edges = []
    for game in games():
        needs = own_tables(game).get("needs", {})
        players = {"players": 2} if "players" in schema_options(game) else {}
        for option, spec in schema_options(game).items():
            if "min" not in spec or option == "players":
                continue
            step = 1 if spec["type"] == "integer" else 0.5
            base = players | needs.get(option, {})
            edges.append(Edge(game, option, spec["min"] - step, spec["max"] + 1, base))
    return edges


def settings_names(game: str) -> set[str] | None:
    """The options the game's settings object holds and the table's own it also takes,
    which its schema must offer; None where the game names no settings object."""
    own = own_tables(game)
    names = set(own.get("schema_also", []))
    if "options_class" not in own:
        return names or None
    module, _, name = own["options_class"].partition(":")
    settings = getattr(importlib.import_module(module), name)
    return names | {f.name for f in fields(settings)}


def games_without_bots() -> list[str]:
    """The games for two or more that have no bots: a stand opens a table for the
    players present instead of a game against a bot."""
    found = []
    for game in games():
        table = mode_tables(game)[0]  # its first mode at its fewest seats
        alone = table.options.get("players", 1) < 2
        if not alone and not game_module(game).new(table.options, 1).bot_levels():
            found.append(game)
    return found
