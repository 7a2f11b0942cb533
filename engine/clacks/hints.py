"""Hints: the exact solver's plan for the seat whose view this is.

A hint is computed from the seat's own view only, so it can never reveal anything the
seat could not see. ``advise`` says why there is none when there is none: the game's
options forbid hints (Long Distance), it is not the seat's turn, or the seat has
nothing to do; and it says when every plan loses the race (the Post Office reaches
Genua whatever the team does), in which case the plan is the least bad one.

A hint searches within ``HINT_STEPS`` of work (engine.core.budget), whatever the hand
and the options; the caller may cancel it sooner.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from engine.clacks.components import ComponentSet
from engine.clacks.geometry import Seat
from engine.clacks.mode_state import TEAM_MODES
from engine.clacks.puzzle import COMPETITIVE, UNLIMITED, puzzle_from_view
from engine.clacks.solver import SOLVE_STEPS, STRESS_FIRST, WRONG_FIRST, Plan, solve
from engine.core.budget import Cancelled, WorkBudget
from engine.core.interface import HINT_FORBIDDEN, HINT_NOT_YOUR_TURN, HINT_NOTHING_TO_DO

HINT_STEPS = 2 * SOLVE_STEPS  # a hint may solve twice: without, then with Fault Reports


@dataclass(frozen=True)
class Advice:
    """A hint, or why there is none (``reason``, one of the seam's ``HINT_*`` codes).
    ``hopeless``: no plan keeps the Post Office from Genua, and ``plan`` is the least
    bad (the cheapest, then the nearest to sending)."""

    plan: Plan | None
    reason: str | None = None
    hopeless: bool = False


def advise(
    view: dict[str, Any], components: ComponentSet, cancelled: Cancelled | None = None
) -> Advice:
    """The cheapest way to send the seat's next symbol (or to darken the tower under
    sabotage) this turn; when there is none, the plan that comes closest: fewest wrong
    lamps, or in co-op and solitaire the least stress, since every stress point moves
    the Post Office. In the competitive game Fault Reports that flip lamps are used
    only when the Jacquards alone cannot do it. ``cancelled`` returning True stops the
    search (SearchCancelled)."""
    if not view.get("hints_allowed", False):
        return Advice(None, HINT_FORBIDDEN)
    budget = WorkBudget(HINT_STEPS, cancelled)
    puzzle = puzzle_from_view(view, components, work=budget)
    if puzzle is None:
        return Advice(None, _why_no_puzzle(view))
    prefer = STRESS_FIRST if view["mode"] in TEAM_MODES else WRONG_FIRST
    solution = solve(puzzle, prefer=prefer, budget=budget)
    if solution.plan is None and puzzle.rules == COMPETITIVE:
        with_faults = puzzle_from_view(view, components, with_faults=True, work=budget)
        if with_faults is not None and with_faults.pieces != puzzle.pieces:
            found = solve(with_faults, partial=False, budget=budget).plan
            if found is not None:
                return Advice(found)
    if solution.best is not None:
        return Advice(solution.best)
    # Every legal turn moves the Post Office into Genua: say so, and still name the
    # least bad turn (the rules want a Jacquard played all the same): the cheapest,
    # within what is left of the same work budget.
    for limit in range(puzzle.budget + 1, UNLIMITED + 1):
        if budget.exhausted:
            break
        last = solve(dataclasses.replace(puzzle, budget=limit), prefer=STRESS_FIRST, budget=budget)
        if last.best is not None:
            return Advice(last.best, hopeless=True)
    return Advice(None, HINT_NOTHING_TO_DO)


def hint(
    view: dict[str, Any], components: ComponentSet, cancelled: Cancelled | None = None
) -> Plan | None:
    """The plan of ``advise``, or None."""
    return advise(view, components, cancelled).plan


def _why_no_puzzle(view: dict[str, Any]) -> str:
    you = view.get("you")
    turn = view.get("turn") or {}
    if you is None or view.get("end_reason") is not None:
        return HINT_NOTHING_TO_DO
    if turn.get("seat") is None or Seat.parse(turn["seat"]) is not Seat.parse(you["seat"]):
        return HINT_NOT_YOUR_TURN
    return HINT_NOTHING_TO_DO
