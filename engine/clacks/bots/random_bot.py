"""The random bot: any legal action, picked by kind first so that the dozens of ways to
lay a Jacquard do not drown out moving, transmitting or ending the turn."""

from __future__ import annotations

from engine.clacks.actions import Action, PlayFault
from engine.clacks.bots.base import Bot, View, is_my_turn

OUT_OF_TURN_FAULT_CHANCE = 20  # one in this many chances to play a Fault out of turn


class RandomBot(Bot):
    level = "random"

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        if not is_my_turn(view):
            if self.rng.below(OUT_OF_TURN_FAULT_CHANCE) == 0:
                return legal[self.rng.below(len(legal))]
            return None
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.TYPE, []).append(action)
        kinds = sorted(by_kind)
        if len(kinds) > 1 and PlayFault.TYPE in by_kind and self.rng.below(4):
            kinds.remove(PlayFault.TYPE)  # Fault Reports are rarer than the rest
        choices = by_kind[kinds[self.rng.below(len(kinds))]]
        return choices[self.rng.below(len(choices))]
