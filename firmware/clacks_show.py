"""Clacks on the lamps: the highlight after a move and the attract programme (the
transmit animation comes from ``ClacksSession.transmissions``, like every game's).

This is the firmware's only Clacks-specific module; it reads the engine's geometry and
alphabet data and hands the renderer plain lamp masks.
"""

from __future__ import annotations

from engine.clacks.data import load_components, plain_letters
from engine.clacks.geometry import TOWERS, Colour, Seat, pattern_mask
from engine.core.interface import JSON, LampFrame
from firmware.scene import AttractStep
from firmware.shows import Effect

# "GNU": send the message on, do not log it, turn it around at the end of the line.
ATTRACT_MESSAGE = "GNU TERRY PRATCHETT"
ATTRACT_TITLE = ATTRACT_MESSAGE
SYMBOL_S = 0.9  # a symbol stays on its tower this long
GAP_S = 0.25  # then the shutters close before the next tower takes it up
PAUSE_S = 2.5  # after END, before the message starts round again

# The message travels round the exchange from tower to neighbouring tower, alternating
# red and green buttons, as it would along a line of clacks towers.
ROUTE = (
    "a2b2", "b1b2", "b2c2", "c1c2", "c2d2", "c2c3",
    "c3d3", "c3c4", "b3c3", "b3b4", "a3b3", "b2b3",
)  # fmt: skip
READERS = {Colour.RED: (Seat.SOUTH, Seat.NORTH), Colour.GREEN: (Seat.WEST, Seat.EAST)}


def tower_lamps(name: object) -> int:
    tower = TOWERS.get(name) if isinstance(name, str) else None
    return tower.mask if tower else 0


def effects(event: JSON, options: JSON | None = None) -> list[Effect]:
    """A move picks out the tower the pawn arrived at, so the player sees which button
    took."""
    if event.get("kind") == "moved" and tower_lamps(event.get("to")):
        return [("highlight", tower_lamps(event.get("to")))]
    return []


def button_lamps(button: str, options: JSON | None = None) -> int:
    return tower_lamps(button)


def symbols_of(text: str) -> list[str]:
    """A message as the symbols sent for it: letters, SPACE between words, END."""
    words = plain_letters(text).split()
    symbols: list[str] = []
    for word in words:
        if symbols:
            symbols.append("SPACE")
        symbols.extend(word)
    return [*symbols, "END"]


def attract(options: JSON | None = None) -> list[AttractStep]:
    """GNU TERRY PRATCHETT in the Clacks alphabet, each symbol on the next tower of the
    route, read from a seat of that tower's colour (the two readers take turns)."""
    alphabet = load_components().alphabet
    steps: list[AttractStep] = []
    for index, symbol in enumerate(symbols_of(ATTRACT_MESSAGE)):
        name = ROUTE[index % len(ROUTE)]
        tower = TOWERS[name]
        reader = READERS[tower.colour][index // 2 % 2]
        lit = pattern_mask(alphabet[symbol], reader, name)
        steps.append(AttractStep(LampFrame(lit=lit, accent=tower.mask), SYMBOL_S))
        steps.append(AttractStep(LampFrame(lit=0), GAP_S))
    steps.append(AttractStep(LampFrame(lit=0), PAUSE_S))
    return steps
