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
from dataclasses import dataclass, replace
from typing import Any

from engine.clacks.components import ComponentSet
from engine.clacks.geometry import Seat
from engine.clacks.mode_state import TEAM_MODES
from engine.clacks.own_faults import Variant, variants
from engine.clacks.puzzle import COMPETITIVE, DARKEN, UNLIMITED, puzzle_from_view
from engine.clacks.solver import SOLVE_STEPS, STRESS_FIRST, WRONG_FIRST, Plan, Solution, solve
from engine.core.budget import Cancelled, WorkBudget
from engine.core.interface import HINT_FORBIDDEN, HINT_NOT_YOUR_TURN, HINT_NOTHING_TO_DO

# A hint solves the Jacquards alone, then, when they cannot do it, once more for each
# way the seat's Fault Reports change the puzzle (a hand of the rules has a few dozen)
DISCARD = "discard"  # a plan's goal out of time in Clacks Express
HINT_STEPS = 40 * SOLVE_STEPS


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
    the Post Office. In the competitive game the seat's Fault Reports are used only when
    the Jacquards alone cannot do it, and then every one it may play now is weighed
    (see engine.clacks.own_faults): the plan uses as few as it can, and "cannot" and
    "closest" hold for the whole hand. Out of time in Clacks Express it names the
    Jacquard to discard. ``cancelled`` returning True stops the search
    (SearchCancelled)."""
    if not view.get("hints_allowed", False):
        return Advice(None, HINT_FORBIDDEN)
    budget = WorkBudget(HINT_STEPS, cancelled)
    if _discarding(view):
        return Advice(discard_plan(view, components, budget))
    puzzle = puzzle_from_view(view, components, work=budget)
    if puzzle is None:
        return Advice(None, _why_no_puzzle(view))
    prefer = STRESS_FIRST if view["mode"] in TEAM_MODES else WRONG_FIRST
    solution = solve(puzzle, prefer=prefer, budget=budget)
    if puzzle.rules == COMPETITIVE and solution.plan is None:
        return _whole_hand(view, components, solution, budget)
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


def _whole_hand(
    view: dict[str, Any], components: ComponentSet, jacquards: Solution, budget: WorkBudget
) -> Advice:
    """The competitive game when the Jacquards alone cannot do it: the cheapest complete
    plan using the fewest Fault Reports, else the one coming closest (fewest wrong lamps,
    then fewest Fault Reports, then least stress). A failed sabotage attempt gains
    nothing by coming close, so its plan stays giving up."""
    complete: list[Plan] = []
    partial: list[Plan] = [] if jacquards.partial is None else [jacquards.partial]
    with_flips = puzzle_from_view(view, components, with_faults=True, work=budget)
    found = [] if with_flips is None else [Variant((), (), with_flips)]
    found += variants(view, components, budget)
    for variant in found:
        if budget.exhausted:
            break
        solution = solve(variant.puzzle, budget=budget)
        if solution.plan is not None:
            complete.append(replace(solution.plan, setup=variant.setup, sets=variant.sets))
        if solution.partial is not None:
            partial.append(
                replace(
                    solution.partial,
                    setup=variant.setup,
                    sets=variant.sets,
                    closing=variant.closing,
                )
            )
    if complete:
        return Advice(min(complete, key=_cheapest))
    if jacquards.puzzle.goal == DARKEN or not partial:
        return Advice(jacquards.partial)
    return Advice(min(partial, key=_closest))


def _cheapest(plan: Plan) -> tuple[int, int, int, int]:
    return (plan.faults_used, plan.cost, len(plan.plays), plan.outside)


def _closest(plan: Plan) -> tuple[int, int, int, int, int]:
    return (plan.wrong, plan.faults_used, plan.cost, len(plan.plays), plan.outside)


def _discarding(view: dict[str, Any]) -> bool:
    you = view.get("you")
    turn = view.get("turn") or {}
    return (
        you is not None
        and view.get("end_reason") is None
        and turn.get("phase") == "timeout_discard"
        and turn.get("seat") == you["seat"]
        and bool(you["hand"])
    )


def discard_plan(view: dict[str, Any], components: ComponentSet, budget: WorkBudget) -> Plan:
    """Out of time in Clacks Express: the Jacquard to discard, the one whose loss leaves
    the best turn from here with the rest (sent, else fewest wrong lamps, then least
    stress; then the dearest goes). The plan's tower, ``complete`` and ``wrong`` say
    what the cards kept can do, which is why."""
    hand = view["you"]["hand"]
    scored = []
    for card in hand:
        rest = [c for c in hand if c["id"] != card["id"]]
        trial = {
            **view,
            "you": {**view["you"], "hand": rest},
            "turn": {**view["turn"], "phase": "play"},
        }
        puzzle = puzzle_from_view(trial, components, work=budget)
        kept = None if puzzle is None else solve(puzzle, budget=budget).best
        rank = (2, 6, 99) if kept is None else (0 if kept.complete else 1, kept.wrong, kept.cost)
        scored.append((rank, -int(card["cost"]), card["id"], kept))
    rank, _, jacquard, kept = min(scored, key=lambda s: s[:3])
    seat = Seat.parse(view["you"]["seat"])
    return Plan(
        seat,
        DISCARD,
        "" if kept is None else kept.tower,
        (),
        (),
        0,
        0,
        0,
        rank[1],
        kept is not None and kept.complete,
        discard=jacquard,
    )


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
