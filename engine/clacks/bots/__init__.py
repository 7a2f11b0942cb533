"""Bots that can take any seat: random, greedy and planner, weakest first.

Each sees only its own seat's view and the legal actions, chooses one action at a time,
is seeded and deterministic, and thinks within a fixed amount of work per decision
(counted in steps, engine.core.budget), which its caller may also cancel.
"""

from __future__ import annotations

from engine.clacks.bots.base import Bot
from engine.clacks.bots.greedy import GreedyBot
from engine.clacks.bots.planner import PlannerBot
from engine.clacks.bots.random_bot import RandomBot
from engine.clacks.components import ComponentSet
from engine.core.budget import Cancelled

BOTS: dict[str, type[Bot]] = {bot.level: bot for bot in (RandomBot, GreedyBot, PlannerBot)}
LEVELS: tuple[str, ...] = tuple(BOTS)


def make_bot(
    level: str, components: ComponentSet, seed: int = 0, cancelled: Cancelled | None = None
) -> Bot:
    """A bot of ``level``; raises ValueError naming the levels for an unknown one."""
    try:
        return BOTS[level](components, seed, cancelled)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(LEVELS)}") from None


__all__ = ["BOTS", "LEVELS", "Bot", "GreedyBot", "PlannerBot", "RandomBot", "make_bot"]
