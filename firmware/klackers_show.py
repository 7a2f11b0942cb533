"""Klackers on the lamps: the dice rattle, the numbers just pulled, an attract programme.

Reads the box's Klackers layout (which lamps are the numbers and the dice row: the
shipped one, or the settings file's) and hands the renderer plain lamp masks, like every
game's show module (firmware/shows.py).
"""

from __future__ import annotations

from engine.core.interface import JSON, LampFrame
from engine.klackers.layout import BoardLayout
from engine.klackers.numbers import ALL_STANDING, NUMBERS, mask_of
from firmware.game_settings import klackers_module
from firmware.scene import AttractStep
from firmware.shows import Effect

STEP_S = 0.45  # attract: one number goes down
HOLD_S = 1.5  # attract: the full box, and the Klack, stay this long


def _layout() -> BoardLayout:
    return klackers_module().layout


def _numbers(values: object) -> int:
    if not isinstance(values, list) or not all(v in NUMBERS for v in values):
        return 0
    return _layout().number_lamps(mask_of(values))


def effects(event: JSON) -> list[Effect]:
    """A pull picks out the numbers that just went down. (A roll rattles the dice row
    through the game's own ``transmissions``.)"""
    if event.get("kind") == "pulled" and _numbers(event.get("numbers")):
        return [("highlight", _numbers(event.get("numbers")))]
    return []


def button_lamps(button: str) -> int:
    """The lamps a button stands for: its number, or the dice row for the rolls."""
    layout = _layout()
    meaning = layout.meaning(button)
    if meaning is None or meaning == "pull":
        return 0
    if meaning in ("roll", "roll_one"):
        return layout.dice_mask
    return layout.number_lamps(mask_of([int(meaning)]))


def attract() -> list[AttractStep]:
    """A turn that shuts the box: the nine numbers go down, highest first, then the
    empty box glows."""
    layout = _layout()
    steps = [AttractStep(LampFrame(lit=layout.number_lamps(ALL_STANDING)), HOLD_S)]
    standing = ALL_STANDING
    for number in reversed(NUMBERS):
        standing &= ~mask_of([number])
        steps.append(AttractStep(LampFrame(lit=layout.number_lamps(standing)), STEP_S))
    steps.append(AttractStep(LampFrame(lit=0, accent=layout.number_lamps(ALL_STANDING)), HOLD_S))
    return steps
