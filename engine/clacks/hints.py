"""Hints: the exact solver's plan for the seat whose view this is.

A hint is computed from the seat's own view only, so it can never reveal anything the
seat could not see. There is none when the game's options forbid hints (Long Distance),
when it is not the seat's turn, or when the seat has nothing to do.

A hint searches within ``HINT_STEPS`` of work (engine.core.budget), whatever the hand
and the options; the caller may cancel it sooner.
"""

from __future__ import annotations

from typing import Any

from engine.clacks.components import ComponentSet
from engine.clacks.mode_state import TEAM_MODES
from engine.clacks.puzzle import COMPETITIVE, puzzle_from_view
from engine.clacks.solver import SOLVE_STEPS, STRESS_FIRST, WRONG_FIRST, Plan, solve
from engine.core.budget import Cancelled, WorkBudget

HINT_STEPS = 2 * SOLVE_STEPS  # a hint may solve twice: without, then with Fault Reports


def hint(
    view: dict[str, Any], components: ComponentSet, cancelled: Cancelled | None = None
) -> Plan | None:
    """The cheapest way to send the seat's next symbol (or to darken the tower under
    sabotage) this turn; when there is none, the plan that comes closest: fewest wrong
    lamps, or in co-op and solitaire the least stress, since every stress point moves
    the Post Office. In the competitive game Fault Reports that flip lamps are used
    only when the Jacquards alone cannot do it. ``cancelled`` returning True stops the
    search (SearchCancelled)."""
    if not view.get("hints_allowed", False):
        return None
    budget = WorkBudget(HINT_STEPS, cancelled)
    puzzle = puzzle_from_view(view, components, work=budget)
    if puzzle is None:
        return None
    prefer = STRESS_FIRST if view["mode"] in TEAM_MODES else WRONG_FIRST
    solution = solve(puzzle, prefer=prefer, budget=budget)
    if solution.plan is None and puzzle.rules == COMPETITIVE:
        with_faults = puzzle_from_view(view, components, with_faults=True, work=budget)
        if with_faults is not None and with_faults.pieces != puzzle.pieces:
            found = solve(with_faults, partial=False, budget=budget).plan
            if found is not None:
                return found
    return solution.best
