"""The named effect vocabulary that card data is written in.

A card's data names one effect and gives its numbers; the rules interpret the name. New
cards need no code as long as they are built from these effects. Each spec says which
parameters the effect takes and what the player must choose when playing it.

Two vocabularies: ``COMPETITIVE_EFFECTS`` for Fault Reports played from the hand in the
competitive game (the player chooses a target), and ``CARD_EFFECTS`` for cards that are
read out and applied at once with nothing to choose: Incident Reports and Operator's
Logs in co-op, Fault Reports revealed on the Night Shift, and Fault Reports drawn on the
junior race's towers 3, 6 and 9. Each card effect lists the contexts it makes sense in,
and the data validator refuses it anywhere else.

Durations, the same for every card: "this turn" is the rest of the turn in which the
card is revealed; "a round" is the next turn of every player, starting with the turn
after the reveal (so every player, the revealer too, has exactly one turn under it).
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


class Lamps:
    """Parameter type: lamp names in one string, e.g. "b2 c2 b3 c3"."""


class CardNames:
    """Parameter type: a list of card design ids, e.g. ["overload", "nugganites"]."""


class Context(Enum):
    """Where a card effect is applied."""

    INCIDENT = "incident"  # an Incident Report lifted with its Jacquard (co-op)
    LOG = "log"  # an Operator's Log lifted with its Jacquard (co-op)
    NIGHT_SHIFT = "night_shift"  # a Fault Report revealed by a Fault stamp (co-op variant)
    JUNIOR = "junior"  # a Fault Report drawn on tower 3, 6 or 9 of a junior route

    @property
    def description(self) -> str:
        return {
            Context.INCIDENT: "an Incident Report",
            Context.LOG: "an Operator's Log",
            Context.NIGHT_SHIFT: "a Night Shift Fault Report",
            Context.JUNIOR: "a junior race Fault Report",
        }[self]


ALL_CONTEXTS = frozenset(Context)
MAP_CONTEXTS = frozenset({Context.INCIDENT, Context.LOG, Context.NIGHT_SHIFT})


@dataclass(frozen=True)
class EffectSpec:
    name: str
    target: Target
    params: dict[str, type] = field(default_factory=dict)  # name -> type
    describes: str = ""
    contexts: frozenset[Context] = frozenset()  # card effects: where the effect may be used


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

CARD_EFFECTS: dict[str, EffectSpec] = {
    spec.name: spec
    for spec in (
        EffectSpec("light_all", Target.NONE, {}, "turn on every lamp", ALL_CONTEXTS),
        EffectSpec("darken_all", Target.NONE, {}, "turn off every lamp", ALL_CONTEXTS),
        EffectSpec(
            "set_lamps",
            Target.NONE,
            {"lamps": Lamps, "lit": bool},
            "turn the named lamps on (lit = true) or off",
            ALL_CONTEXTS,
        ),
        EffectSpec(
            "flip_named_lamps", Target.NONE, {"lamps": Lamps}, "flip the named lamps", ALL_CONTEXTS
        ),
        EffectSpec(
            "post_office_advance",
            Target.NONE,
            {"steps": int},
            "the Post Office moves `steps` steps towards Genua",
            MAP_CONTEXTS,
        ),
        EffectSpec(
            "post_office_delay",
            Target.NONE,
            {"steps": int},
            "the Post Office goes back `steps` steps (never behind Ankh-Morpork)",
            MAP_CONTEXTS,
        ),
        EffectSpec(
            "post_office_cap",
            Target.NONE,
            {"steps": int},
            "this turn the Post Office moves at most `steps` steps in all",
            frozenset({Context.INCIDENT, Context.LOG}),
        ),
        EffectSpec(
            "limit_jacquards",
            Target.NONE,
            {"per_turn": int},
            "for a round each player may play only `per_turn` Jacquards per turn",
            ALL_CONTEXTS,
        ),
        EffectSpec(
            "stress_surcharge",
            Target.NONE,
            {"amount": int},
            "for a round every Jacquard played costs `amount` more stress points",
            MAP_CONTEXTS,
        ),
        EffectSpec(
            "cancel_next",
            Target.NONE,
            {"cards": CardNames},
            "cancels the next revealed card if it is one of the named cards",
            frozenset({Context.NIGHT_SHIFT}),
        ),
        EffectSpec(
            "reveal_faults",
            Target.NONE,
            {"count": int},
            "reveal and apply the next `count` Fault Reports; another of these among them does nothing",
            frozenset({Context.NIGHT_SHIFT}),
        ),
        EffectSpec("nothing", Target.NONE, {}, "no effect", ALL_CONTEXTS),
    )
}

# Night Shift Fault Reports with these effects do nothing on the junior race's towers.
NOT_IN_JUNIOR = frozenset({"cancel_next", "reveal_faults"})
CANCEL_NAMES = 3  # an Emergency Repair names three cards

TIMINGS = tuple(t.value for t in Timing)
