"""Hints and bots in the terminal: a plan in words, and parsing ``--bots`` seats."""

from __future__ import annotations

from engine.clacks.actions import Discard, Move, PlayFault, PlayJacquard, Swap, Transmit
from engine.clacks.components import ComponentSet
from engine.clacks.geometry import Seat, lamps_of
from engine.clacks.solver import Plan


def describe_plan(plan: Plan, components: ComponentSet) -> str:
    """A hint as one sentence per step, e.g. "Move to b2c2. Play the Hook on a2 a3 b3 c3."""
    steps = []
    for action in plan.actions():
        if isinstance(action, Move):
            steps.append(f"Move to {action.tower}.")
        elif isinstance(action, Swap):
            steps.append(f"Swap your {_name(components, action.jacquard)} for {action.slot}.")
        elif isinstance(action, PlayJacquard):
            lamps = " ".join(lamps_of(action.lamps))
            steps.append(f"Play the {_name(components, action.jacquard)} on {lamps}.")
        elif isinstance(action, PlayFault):
            name = components.faults[action.card].design.name
            target = " ".join(lamps_of(action.lamps)) or action.tower
            steps.append(f"Play the Fault Report {name}{f' on {target}' if target else ''}.")
        elif isinstance(action, Discard):
            steps.append(f"Discard the {_name(components, action.jacquard)}.")
        elif isinstance(action, Transmit):
            steps.append(f"Transmit from {plan.tower}.")
        else:
            steps.append("End your turn.")
    cost = f"{plan.cost} stress point{'s' if plan.cost != 1 else ''}"
    if plan.discard is not None:
        keep = (
            f"the rest can send it from {plan.tower}"
            if plan.complete
            else f"the rest come within {plan.wrong} lamp{'s' if plan.wrong != 1 else ''} of it"
        )
        summary = f"Time is up; for your next symbol {keep}:"
    elif plan.complete:
        summary = f"Hint ({cost}):" if plan.goal == "transmit" else f"Darken {plan.tower} ({cost}):"
    elif plan.goal == "darken":
        summary = f"{plan.tower} cannot be darkened this turn, whatever you play:"
    else:
        wrong = f"{plan.wrong} lamp{'s' if plan.wrong != 1 else ''} wrong"
        summary = f"No way to send it this turn; closest ({cost}, {wrong} at {plan.tower}):"
    return " ".join([summary, *steps])


def _name(components: ComponentSet, card_id: str) -> str:
    return components.jacquards[card_id].design.name


def parse_bots(text: str | None, levels: tuple[str, ...]) -> dict[Seat, str]:
    """``north=planner,east=greedy`` as seats and bot levels; raises ValueError."""
    bots: dict[Seat, str] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        seat, _, level = item.partition("=")
        level = level.strip() or "planner"
        if level not in levels:
            raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(levels)}")
        bots[Seat.parse(seat)] = level
    return bots
