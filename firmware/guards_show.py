"""Guards! Guards! on the lamps: a passed test flashes its die, a Dragon's arrival picks
out its quadrant, and an attract programme of Dragons over Ankh-Morpork.

The quadrants' blocks are the shipped board's (engine/data/guards/board.toml), the same
the game itself lights; the renderer gets plain lamp masks, like every game's show
module (firmware/shows.py).
"""

from __future__ import annotations

from engine.core.interface import JSON, LampFrame
from engine.guards.data import shipped_data
from engine.guards.lamps import BAR, BUTTONS, DICE_ROWS, REROLL_BAR, bar, block_lamps
from firmware.scene import AttractStep
from firmware.shows import Effect

ATTRACT_TITLE = "Guards! Guards!, Dragons over Ankh-Morpork"
STEP_S = 0.5  # attract: one more Dragon
HOLD_S = 1.5  # attract: the die, and the city in flames, stay this long


def _quadrant(quadrant: object) -> int:
    blocks = shipped_data().blocks
    return block_lamps(blocks[quadrant]) if quadrant in blocks else 0


def effects(event: JSON, options: JSON | None = None) -> list[Effect]:
    """A passed test flashes the die's bar; a Dragon coming or going its quadrant. (A
    roll runs along the bar through the game's own ``transmissions``.)"""
    kind = event.get("kind")
    if kind == "rolled" and event.get("passed") is True:
        faces = event.get("faces") or [0]
        first = faces[0] if isinstance(faces[0], int) else 0
        return [("highlight", bar(first, BAR))]
    if kind in ("dragon_summoned", "dragon_wounded", "dragon_flew") and _quadrant(event.get("quadrant")):
        return [("highlight", _quadrant(event.get("quadrant")))]
    return []


def button_lamps(button: str, options: JSON | None = None) -> int:
    """The lamps a button stands for: its quadrant's block, or the die's bar."""
    meaning = BUTTONS.get(button)
    if meaning is None:
        return 0
    if meaning.startswith("block:"):
        return block_lamps(meaning[6:])
    if meaning == "roll":
        return DICE_ROWS
    return 0


def attract(options: JSON | None = None) -> list[AttractStep]:
    """The die rolls an 8 and again; then the Dragons come one by one, quadrant by
    quadrant clockwise, until the whole city is lit; then it is dark again."""
    clockwise = list(shipped_data().clockwise)
    steps = [AttractStep(LampFrame(lit=bar(8, BAR) | bar(3, REROLL_BAR), accent=bar(8, BAR)), HOLD_S)]
    lit = 0
    for quadrant in clockwise:
        lit |= _quadrant(quadrant)
        steps.append(AttractStep(LampFrame(lit=lit, accent=_quadrant(quadrant)), STEP_S))
    steps.append(AttractStep(LampFrame(lit=lit, accent=lit), HOLD_S))
    steps.append(AttractStep(LampFrame(lit=0), STEP_S))
    return steps
