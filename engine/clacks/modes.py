"""One rules class per mode: the game looks its rules up here by ``Options.mode``."""

from __future__ import annotations

from collections.abc import Callable

from engine.clacks.base_rules import BaseRules
from engine.clacks.components import ComponentSet
from engine.clacks.coop import CoopRules, SolitaireRules
from engine.clacks.junior import JuniorRules
from engine.clacks.rules import CompetitiveRules

# each mode's rules registers its own handlers, so is made from the components alone
RULES: dict[str, Callable[[ComponentSet], BaseRules]] = {
    "competitive": CompetitiveRules,
    "coop": CoopRules,
    "solitaire": SolitaireRules,
    "junior": JuniorRules,
}


def rules_for(mode: str, components: ComponentSet) -> BaseRules:
    return RULES[mode](components)
