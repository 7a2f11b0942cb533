"""Klackers bots at three levels, playing from their own seat's view only.

- random: any legal action, uniformly (from the bot's own generator, never the game's);
- greedy: rolls and pulls to minimise its expected final score looking one roll ahead
  (it pretends the turn stops after the next roll);
- planner: the exact optimum, from the dynamic programme over all 2^9 standing sets and
  the dice distributions (engine.klackers.strategy).

Greedy and planner minimise the expected final score; under Klack to Win, where only a
Klack wins, they minimise the chance of not Klacking instead.

A bot is handed the view its seat would get (``KlackersGame.view(seat)``), the same JSON
a phone receives, and answers with an action. It never sees the game object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.rng import Rng
from engine.klackers.actions import Action, Pull, Roll
from engine.klackers.numbers import combinations, mask_of, numbers_of, one_die_allowed
from engine.klackers.strategy import best_pull, best_roll, exact_values, one_roll_values

LEVELS = ("random", "greedy", "planner")


class NotMyTurn(ValueError):
    """The view handed to a bot is not one in which its seat has the dice."""


def _situation(view: Mapping[str, Any]) -> tuple[str, int, Mapping[str, Any]]:
    """(seat, standing mask, turn) from the bot's own view."""
    you = view.get("you")
    turn = view.get("turn")
    if not you or not turn or turn.get("seat") != you.get("seat"):
        raise NotMyTurn("a bot can act only in its own seat's view, in its own turn")
    seat = str(you["seat"])
    me = next(p for p in view["players"] if p["seat"] == seat)
    return seat, mask_of(me["standing"]), turn


def objective_for(view: Mapping[str, Any]) -> str:
    return "klack" if view.get("options", {}).get("klack_to_win") else "score"


class Bot:
    level = ""

    def choose(self, view: Mapping[str, Any]) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: Mapping[str, Any]) -> Action:
        seat, standing, turn = _situation(view)
        choices: list[Action]
        if turn["phase"] == "roll":
            choices = [
                Roll(seat, dice) for dice in (2, 1) if dice == 2 or one_die_allowed(standing)
            ]
        else:
            combos = combinations(standing, int(turn["total"]))
            choices = [Pull(seat, numbers_of(c)) for c in combos]
        return choices[self.rng.below(len(choices))]


class ValueBot(Bot):
    """Rolls and pulls by a table of values over the standing sets."""

    def values(self, objective: str) -> tuple[float, ...]:
        raise NotImplementedError

    def choose(self, view: Mapping[str, Any]) -> Action:
        seat, standing, turn = _situation(view)
        objective = objective_for(view)
        values = self.values(objective)
        if turn["phase"] == "roll":
            return Roll(seat, best_roll(standing, values, objective))
        return Pull(seat, numbers_of(best_pull(standing, int(turn["total"]), values)))


class GreedyBot(ValueBot):
    level = "greedy"

    def values(self, objective: str) -> tuple[float, ...]:
        return one_roll_values(objective)


class PlannerBot(ValueBot):
    level = "planner"

    def values(self, objective: str) -> tuple[float, ...]:
        return exact_values(objective)


def make_bot(level: str, seed: int = 0) -> Bot:
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot()
    if level == "planner":
        return PlannerBot()
    raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(LEVELS)}")
