"""One rules class per mode: the game looks its rules up here by ``Options.mode``."""

from __future__ import annotations

from engine.clacks.base_rules import BaseRules
from engine.clacks.components import ComponentSet
from engine.clacks.coop import CoopRules, SolitaireRules
from engine.clacks.junior import JuniorRules
from engine.clacks.rules import CompetitiveRules

RULES: dict[str, type[BaseRules]] = {
    "competitive": CompetitiveRules,
    "coop": CoopRules,
    "solitaire": SolitaireRules,
    "junior": JuniorRules,
}


def rules_for(mode: str, components: ComponentSet) -> BaseRules:
    return RULES[mode](components)
