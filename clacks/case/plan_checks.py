"""The case's layout checked before anything is built: every wall at least the minimum,
no two holes closer than that, no hole or board on a stand-off, every part on the bed.

These measure the very shapes the model cuts and adds (``features``), so they need no
CAD library; ``checks`` then proves the built solids against the layout.
"""

from __future__ import annotations

import itertools

from clacks.case.features import PartPlan, Shape, boards, label_box, plans
from firmware.layout import Layout


def plan_problems(layout: Layout) -> list[str]:
    """Everything wrong with the case as laid out; empty when it can be printed."""
    wall = layout.exchange.min_wall
    problems: list[str] = []
    for plan in plans(layout).values():
        problems += _walls(plan, wall)
        problems += _hole_gaps(plan, layout, wall)
        problems += _edges(plan, wall)
        problems += _holes_off_bosses(plan, wall)
        problems += _bed(plan, layout)
    problems += _boards(layout, plans(layout)["base"])
    problems += _under_carrier(layout, plans(layout)["carrier"])
    return problems


def _under_carrier(layout: Layout, carrier: PartPlan) -> list[str]:
    """Each Pi, with what stands on its board (the ports, the header and the jumper
    wires' sockets on it), stays under the carrier that lies above it."""
    underside = carrier.outline.z[0]
    return [
        f"{board.name} and what stands on it reach {board.z[1]:g} mm, "
        f"above the carrier's underside at {underside:g} mm"
        for board in boards(layout)
        if board.z[1] > underside + 1e-9
    ]


def _walls(plan: PartPlan, wall: float) -> list[str]:
    return [
        f"{plan.name}: {what} is {thickness:.2f} mm, thinner than {wall:g} mm"
        for what, thickness in plan.walls.items()
        if thickness < wall - 1e-9
    ]


def _marks(plan: PartPlan, layout: Layout) -> list[Shape]:
    """The holes, and the engravings' boxes, that must keep a wall between them."""
    top = plan.outline.z[1]
    engraved = [label_box(label, layout.panel.engrave_depth, top) for label in plan.labels]
    return plan.cuts + engraved


def _hole_gaps(plan: PartPlan, layout: Layout, wall: float) -> list[str]:
    problems = []
    for a, b in itertools.combinations(_marks(plan, layout), 2):
        if not a.overlaps_in_z(b) or a.contains(b) or b.contains(a):
            continue  # one inside the other (a bore in its recess, a leg in its pocket)
        if a.centre == b.centre:
            continue  # one stepped opening (a light bore opening into its pixel's pocket)
        gap = a.gap(b)
        if gap < wall - 1e-9:
            what = "overlap" if gap < 0 else f"leave {gap:.2f} mm between them"
            problems.append(f"{plan.name}: {a.name} and {b.name} {what} (at least {wall:g})")
    return problems


def _edges(plan: PartPlan, wall: float) -> list[str]:
    x0, y0, x1, y1 = plan.outline.bounds()
    problems = []
    for cut in plan.cuts:
        if cut.through:
            continue
        a = cut.bounds()
        margin = min(a[0] - x0, a[1] - y0, x1 - a[2], y1 - a[3])
        if margin < wall - 1e-9:
            problems.append(f"{plan.name}: {cut.name} is {margin:.2f} mm from the part's edge")
    return problems


def _holes_off_bosses(plan: PartPlan, wall: float) -> list[str]:
    """A hole either lies inside a boss (a pilot in its stand-off) or keeps a wall's
    width from it."""
    problems = []
    for cut, boss in itertools.product(plan.cuts, plan.adds):
        if not cut.overlaps_in_z(boss) or boss.contains(cut):
            continue
        gap = cut.gap(boss)
        if gap < wall - 1e-9:
            problems.append(f"{plan.name}: {cut.name} runs into {boss.name} ({gap:.2f} mm)")
    return problems


def _boards(layout: Layout, base: PartPlan) -> list[str]:
    """Each Pi's board stands on its own stand-offs only, clear of every other boss."""
    problems = []
    for board in boards(layout):
        model = board.name.split()[-1]
        for boss in base.adds:
            own = boss.name == f"stand-off {model}"
            if own:
                if not board.contains(boss):
                    problems.append(f"{boss.name} is not under its board")
                continue
            if board.gap(boss) < 0 and board.z[0] < boss.z[1] + 1e-9 <= board.z[1] + 1e-9:
                problems.append(f"{board.name} would sit on {boss.name}")
            elif board.gap(boss) < 0 and boss.z[1] > board.z[0]:
                problems.append(f"{board.name} collides with {boss.name}")
    for a, b in itertools.combinations(boards(layout), 2):
        if a.gap(b) < 0:
            problems.append(f"{a.name} and {b.name} overlap")
    return problems


def _bed(plan: PartPlan, layout: Layout) -> list[str]:
    width, depth = plan.outline.size
    bed = layout.exchange.bed
    height = plan.outline.z[1] - plan.outline.z[0]
    fits = (width <= bed[0] and depth <= bed[1]) or (width <= bed[1] and depth <= bed[0])
    if fits and height <= layout.exchange.bed_height:
        return []
    return [f"{plan.name}: {width:g} x {depth:g} x {height:g} mm does not fit the bed {bed}"]
