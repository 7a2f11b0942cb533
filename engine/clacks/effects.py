"""The named effect vocabulary that card data is written in.

A card's data names one effect and gives its numbers; the rules interpret the name. New
cards need no code as long as they are built from these effects. Each spec says which
parameters the effect takes and what the player must choose when playing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Target(Enum):
    NONE = "none"  # nothing to choose
    LAMPS = "lamps"  # a set of lamps, as many as the card's `count`
    TOWER = "tower"  # any tower on the exchange
    OWN_TOWER = "own_tower"  # a free button of the player's own colour


class Timing(Enum):
    ANY = "any"
    OWN_TURN = "own_turn"
    OTHERS_TURN = "others_turn"


@dataclass(frozen=True)
class EffectSpec:
    name: str
    target: Target
    params: dict[str, type] = field(default_factory=dict)  # name -> type
    describes: str = ""


COMPETITIVE_EFFECTS: dict[str, EffectSpec] = {
    spec.name: spec
    for spec in (
        EffectSpec("light_all", Target.NONE, {}, "turn on every lamp"),
        EffectSpec("set_tower", Target.TOWER, {"lit": bool}, "set a tower's six lamps"),
        EffectSpec("flip_lamps", Target.LAMPS, {"count": int}, "flip chosen lamps"),
        EffectSpec("stress_bonus", Target.NONE, {"amount": int}, "more stress points"),
        EffectSpec("stress_penalty", Target.NONE, {"amount": int}, "fewer stress points"),
        EffectSpec("free_move", Target.OWN_TOWER, {}, "move your pawn for free"),
        EffectSpec("redraw_hand", Target.NONE, {}, "replace your Jacquards"),
    )
}

TIMINGS = tuple(t.value for t in Timing)
