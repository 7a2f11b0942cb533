"""How good a standing set is: exact and one-roll-ahead values for the bots.

A turn is a small Markov decision process. Its state is the set of standing numbers
(one of 2^9 masks) at the moment the dice are the player's; the player chooses two dice
or (at six or less) one, the dice fall, and the player chooses which combination to
pull. The turn's *cost* is a function of the final standing total: the score itself
("score": minimise the expected final score) or whether it is a Klack at all ("klack":
minimise the chance of not Klacking, which is what matters under Klack to Win).

``exact_values`` solves the process by dynamic programming: a pull only ever removes
numbers, so every successor of a mask is a smaller integer and one pass over the masks
in increasing order settles them all. ``one_roll_values`` looks a single roll ahead and
pretends the turn stops after it; it is the greedy bot's cheaper estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engine.klackers.numbers import (
    ALL_STANDING,
    FACES,
    TWO_DICE,
    combinations,
    one_die_allowed,
    total,
)

OBJECTIVES = ("score", "klack")


def terminal_cost(objective: str) -> Callable[[int], float]:
    if objective == "score":
        return float
    if objective == "klack":
        return lambda left: 0.0 if left == 0 else 1.0
    raise ValueError(f"unknown objective {objective!r}; objectives are {', '.join(OBJECTIVES)}")


def _one_die(standing: int, cost: Callable[[int], float]) -> float:
    """One die is final: it must show the whole remaining total (1 chance in 6)."""
    return (cost(0) + (FACES - 1) * cost(total(standing))) / FACES


def _two_dice(
    standing: int, successor: Callable[[int], float], cost: Callable[[int], float]
) -> float:
    """Expected cost of rolling two dice from ``standing`` and pulling the combination
    whose remaining set ``successor`` values lowest (the score stands if none fits)."""
    expected = 0.0
    for roll, chance in TWO_DICE:
        options = combinations(standing, roll)
        if options:
            expected += float(chance) * min(successor(standing & ~c) for c in options)
        else:
            expected += float(chance) * cost(total(standing))
    return expected


def _solve(
    objective: str, successor_of: Callable[[list[float]], Callable[[int], float]]
) -> tuple[float, ...]:
    cost = terminal_cost(objective)
    values = [0.0] * (ALL_STANDING + 1)
    values[0] = cost(0)
    successor = successor_of(values)
    for standing in range(1, ALL_STANDING + 1):
        best = _two_dice(standing, successor, cost)
        if one_die_allowed(standing):
            best = min(best, _one_die(standing, cost))
        values[standing] = best
    return tuple(values)


@cache
def exact_values(objective: str) -> tuple[float, ...]:
    """For every standing mask, the expected cost of the rest of the turn when played
    perfectly from the moment the dice are in hand."""
    return _solve(objective, lambda values: values.__getitem__)


@cache
def one_roll_values(objective: str) -> tuple[float, ...]:
    """For every standing mask, the expected cost if the turn ended after one more roll
    (the best single pull taken, then stop): a short-sighted estimate."""
    cost = terminal_cost(objective)
    return _solve(objective, lambda _values: lambda left: cost(total(left)))


def two_dice_value(standing: int, values: tuple[float, ...], objective: str) -> float:
    """Expected cost of rolling two dice now and then following ``values``."""
    return _two_dice(standing, values.__getitem__, terminal_cost(objective))


def best_roll(standing: int, values: tuple[float, ...], objective: str) -> int:
    """How many dice to roll (1 or 2) from ``standing`` by ``values``; two when equal."""
    if not one_die_allowed(standing):
        return 2
    one = _one_die(standing, terminal_cost(objective))
    return 1 if one < two_dice_value(standing, values, objective) - 1e-12 else 2


def best_pull(standing: int, roll: int, values: tuple[float, ...]) -> int:
    """The combination (a mask) for ``roll`` leaving the lowest value; among equals the
    first in ``combinations``' order (fewest numbers, highest numbers)."""
    options = combinations(standing, roll)
    if not options:
        raise ValueError(f"no combination of the standing numbers makes {roll}")
    return min(options, key=lambda c: values[standing & ~c])
