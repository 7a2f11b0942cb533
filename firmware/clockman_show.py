"""Clockman on the lamps: a digit's places in the date key light up as it is taken, the
whole box when someone reaches the Clockman field, and an attract programme that rolls
the die and puts 01.01.2000 together.

Reads the box map from Clockman's data (engine/data/clockman/box.toml) and hands the
renderer plain lamp masks, like every game's show module (firmware/shows.py).
"""

from __future__ import annotations

from engine.clockman.data import load_data
from engine.clockman.lamps import mask
from engine.core.interface import JSON, LampFrame
from firmware.scene import AttractStep
from firmware.shows import Effect

ATTRACT_TITLE = "Clockman, the die rolled and 01.01.2000 put together"
STEP_S = 0.4  # attract: one more pip on the die, one more digit in the key
HOLD_S = 1.5  # attract: the whole key stays this long
EVERY_LAMP = (1 << 16) - 1


def _places(digit: object) -> int:
    """The date-key lamps where ``digit`` goes (a joker: every place)."""
    data = load_data()
    key = data.date_key
    return mask([lamp for lamp, d in zip(data.date_lamps, key, strict=True) if digit in (d, "X")])


def effects(event: JSON, options: JSON | None = None) -> list[Effect]:
    """A digit taken, handed over or transferred picks out its places in the key; the
    Clockman field reached lights the whole box. (A roll rattles the die bar through the
    game's own ``transmissions``.)"""
    kind = event.get("kind")
    if kind in ("digit_taken", "digit_taken_from") and _places(event.get("digit")):
        return [("highlight", _places(event.get("digit")))]
    if kind == "transferred" and event.get("digits"):
        return [("highlight", mask(load_data().date_lamps))]
    if kind == "reached_centre":
        return [("highlight", EVERY_LAMP)]
    return []


def button_lamps(button: str, options: JSON | None = None) -> int:
    """The lamps a button stands for: the die bar for the roll, the date key for a digit."""
    data = load_data()
    meaning = data.meaning(button)
    if meaning == "roll":
        return mask(data.die_lamps)
    if meaning in ("digit", "transfer"):
        return mask(data.date_lamps)
    return 0


def attract(options: JSON | None = None) -> list[AttractStep]:
    """The die counts up from one to six, then the date key fills digit by digit and
    glows whole."""
    data = load_data()
    steps = [
        AttractStep(LampFrame(lit=mask(data.die_lamps[:pips])), STEP_S)
        for pips in range(1, len(data.die_lamps) + 1)
    ]
    key = 0
    for lamp in data.date_lamps:
        key |= 1 << lamp
        steps.append(AttractStep(LampFrame(lit=key), STEP_S))
    steps.append(AttractStep(LampFrame(lit=0, accent=key), HOLD_S))
    return steps
