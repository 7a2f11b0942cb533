"""Klackers on the lamps: the dice rattle, the numbers just pulled, an attract programme;
and the settings file's [klackers] table, the layout it gives every new Klackers game.

Draws on the box's Klackers layout (which lamps are the numbers and the dice row: the
shipped one, or the settings file's, handed over as the game's ``layout`` option) and
hands the renderer plain lamp masks, like every game's show module (firmware/shows.py).
A layout that cannot be used is reported, naming the file and the entry, and Klackers
keeps the shipped layout: like an LED driver that will not start, it costs a warning on
the table screen, never the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core.errors import DataError
from engine.core.interface import JSON, LampFrame
from engine.core.validate import Problems
from engine.klackers.game import GAME
from engine.klackers.layout import BoardLayout, default_layout, load_layout
from engine.klackers.module import layout_option, layout_over_shipped
from engine.klackers.numbers import ALL_STANDING, NUMBERS, mask_of
from firmware.config import BoardConfig, toml_key, toml_value
from firmware.scene import AttractStep
from firmware.shows import Effect

ATTRACT_TITLE = "Klackers, the box shut number by number"
STEP_S = 0.45  # attract: one number goes down
HOLD_S = 1.5  # attract: the full box, and the Klack, stay this long
FALLBACK = "Klackers uses the shipped layout"


def check_settings(table: dict[str, Any], problems: Problems) -> None:
    """The [klackers] table holds ``layout``: a layout file's path or the file's tables.
    What the layout itself says is checked when the board is built (``board_options``),
    so a layout that cannot be used costs only itself."""
    problems.unknown_keys(table, ("layout",), "[klackers]", kind="setting")
    layout = table.get("layout")
    if layout is None or (isinstance(layout, str) and layout.strip()) or isinstance(layout, dict):
        return
    problems.add(
        None,
        None,
        "klackers.layout must be a layout file's path, or a [klackers.layout] table with "
        f"[numbers], [dice] and [buttons] sections, not {layout!r}",
    )


def settings_toml(table: dict[str, Any] | None) -> list[str]:
    """The [klackers] table as the settings file writes it, with what it may hold."""
    lines = [
        "[klackers]",
        "# where the nine numbers and the dice row light up, and what each button does:",
        "# a file like engine/data/klackers/layout.toml (a relative path is read next to",
        "# this file), or a [klackers.layout.numbers] table (all nine: number = lamp);",
        "# the sections left out ([numbers], [dice], [buttons]) keep the shipped layout",
    ]
    layout = (table or {}).get("layout")
    if layout is None:
        return [*lines, '# layout = "klackers-layout.toml"']
    if isinstance(layout, str):
        return [*lines, f"layout = {toml_value(layout)}"]
    if not layout:
        return [*lines, "layout = {}"]
    # plain values first: after a [klackers.layout.x] header they would land in x
    lines += [
        f"layout.{toml_key(k)} = {toml_value(v)}"
        for k, v in layout.items()
        if not isinstance(v, dict)
    ]
    for section, values in layout.items():
        if isinstance(values, dict):
            lines += ["", f"[klackers.layout.{toml_key(section)}]"]
            lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in values.items()]
    return lines


def board_options(config: BoardConfig) -> tuple[JSON, list[str]]:
    """The layout the settings ask for as the game's option (none: the shipped one), or
    none and why the settings' one cannot be used."""
    layout, warnings = settings_layout(config)
    return ({"layout": layout.to_data()} if layout != default_layout() else {}), warnings


def settings_layout(config: BoardConfig) -> tuple[BoardLayout, list[str]]:
    """The layout the settings ask for, or the shipped one and why it is not theirs."""
    wanted = config.games.get(GAME, {}).get("layout")
    if wanted is None:
        return default_layout(), []
    try:
        if isinstance(wanted, str):
            # a relative layout file sits next to the settings file, wherever it runs from
            path = config.folder / wanted if config.folder else Path(wanted)
            return load_layout(path, base=default_layout()), []
        return layout_over_shipped(wanted), []
    except DataError as exc:
        # a file's problems name it already
        where = f"{config.source}: [klackers.layout]: "
        where = "Klackers layout " if isinstance(wanted, str) else where
        return default_layout(), [f"{where}{'; '.join(exc.problems)}; {FALLBACK}"]


def _layout(options: JSON | None) -> BoardLayout:
    return layout_option((options or {}).get("layout"))


def _numbers(values: object, layout: BoardLayout) -> int:
    if not isinstance(values, list) or not all(v in NUMBERS for v in values):
        return 0
    return layout.number_lamps(mask_of(values))


def effects(event: JSON, options: JSON | None = None) -> list[Effect]:
    """A pull picks out the numbers that just went down. (A roll rattles the dice row
    through the game's own ``transmissions``.)"""
    lamps = _numbers(event.get("numbers"), _layout(options))
    return [("highlight", lamps)] if event.get("kind") == "pulled" and lamps else []


def button_lamps(button: str, options: JSON | None = None) -> int:
    """The lamps a button stands for: its number, or the dice row for the rolls."""
    layout = _layout(options)
    meaning = layout.meaning(button)
    if meaning is None or meaning == "pull":
        return 0
    if meaning in ("roll", "roll_one"):
        return layout.dice_mask
    return layout.number_lamps(mask_of([int(meaning)]))


def attract(options: JSON | None = None) -> list[AttractStep]:
    """A turn that shuts the box: the nine numbers go down, highest first, then the
    empty box glows."""
    layout = _layout(options)
    steps = [AttractStep(LampFrame(lit=layout.number_lamps(ALL_STANDING)), HOLD_S)]
    standing = ALL_STANDING
    for number in reversed(NUMBERS):
        standing &= ~mask_of([number])
        steps.append(AttractStep(LampFrame(lit=layout.number_lamps(standing)), STEP_S))
    steps.append(AttractStep(LampFrame(lit=0, accent=layout.number_lamps(ALL_STANDING)), HOLD_S))
    return steps
