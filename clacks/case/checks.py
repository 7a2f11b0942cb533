"""The built solids proved against the layout: each part one closed, valid solid that
fits the bed, every button hole and window centred where the layout puts it, and every
pixel of the chain under its window. Positions are measured on the solids themselves:
each part is sliced at the height in question and every hole in the slice is found
with its centre, size and shape."""

from __future__ import annotations

import itertools
import math
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import build123d as bd
from OCP.BRep import BRep_Tool

from clacks.case.features import PartPlan, Shape, inner_half, stack
from clacks.case.model import Part
from engine.clacks.geometry import Colour
from firmware.layout import Layout

Point = tuple[float, float]
TOLERANCE = 0.1  # how far off centre a hole or a pixel may be, mm


def inside(solid: bd.Solid, x: float, y: float, z: float) -> bool:
    return bool(solid.is_inside(bd.Vector(x, y, z), tolerance=1e-6))


@dataclass(frozen=True)
class Opening:
    """A hole through a slice of a solid, as measured on the slice."""

    centre: Point
    size: Point
    round: bool  # bounded by circles only


def _measured(wire: bd.Wire) -> Opening:
    box = wire.bounding_box()
    round_ = all(e.geom_type == bd.GeomType.CIRCLE for e in wire.edges())
    return Opening((box.center().X, box.center().Y), (box.size.X, box.size.Y), round_)


def _slice(solid: bd.Solid, z: float) -> list[bd.Face]:
    """The faces of the solid's section at height ``z`` (the tops of a thin slab)."""
    slab = bd.Pos(0, 0, z) * bd.Box(10_000, 10_000, 0.01)
    piece = solid & slab
    if piece is None:  # nothing of the solid at that height
        return []
    return [face for face in piece.faces() if face.normal_at().Z >= 0.9]


def openings(solid: bd.Solid, z: float) -> list[Opening]:
    """Every hole in the solid at height ``z``: the inner outlines of a thin slice."""
    return [_measured(wire) for face in _slice(solid, z) for wire in face.inner_wires()]


def islands(solid: bd.Solid, z: float) -> list[tuple[Opening, list[Opening]]]:
    """Each separate piece of the solid's section at height ``z`` (a stand-off standing
    on the floor, say): its outline and the holes in it."""
    return [
        (_measured(face.outer_wire()), [_measured(wire) for wire in face.inner_wires()])
        for face in _slice(solid, z)
    ]


def thinnest_wall(solid: bd.Solid, z: float, under: float) -> float | None:
    """The thinnest wall in the solid's slice at height ``z`` (between two holes, or a
    hole and the outside), when it is thinner than ``under``; None otherwise."""
    slab = bd.Pos(0, 0, z) * bd.Box(10_000, 10_000, 0.01)
    piece = solid & slab
    if piece is None:
        return None
    thinnest: float | None = None
    for face in piece.faces():
        if face.normal_at().Z < 0.9:
            continue
        # two outlines of one face have solid between them: a wall (two faces' outlines
        # have air between them, which is no wall)
        outlines = face.wires()
        boxes = [wire.bounding_box() for wire in outlines]
        for i, j in itertools.combinations(range(len(outlines)), 2):
            a, b = boxes[i], boxes[j]
            apart = max(b.min.X - a.max.X, a.min.X - b.max.X, b.min.Y - a.max.Y, a.min.Y - b.max.Y)
            if apart >= under:
                continue  # their boxes alone are far enough apart
            gap = outlines[i].distance_to(outlines[j])
            if gap < under and (thinnest is None or gap < thinnest):
                thinnest = gap
    return thinnest


def nearest(found: list[Opening], point: Point) -> Opening:
    return min(found, key=lambda o: math.dist(o.centre, point))


def solid_problems(layout: Layout, parts: dict[str, Part]) -> list[str]:
    problems: list[str] = []
    for part in parts.values():
        problems += _sound(part)
        problems += _on_bed(part, layout)
    problems += _buttons(layout, parts["panel"].solid)
    windows, window_problems = _windows(layout, parts["panel"].solid)
    problems += window_problems
    problems += _pixels(layout, parts["carrier"].solid, windows)
    problems += _stacking(layout, parts)
    problems += _walls(layout, parts)
    for part in parts.values():
        problems += holes_apart(part, layout)
    problems += _standoffs(layout, parts["base"].solid)
    return problems


def _levels(plan: PartPlan, layout: Layout) -> list[float]:
    """One height in each slab of the part between two heights where a feature starts
    or ends: within a slab every section is the same."""
    bottom, top = plan.outline.z
    edges = {bottom, top} | {z for shape in plan.cuts + plan.adds for z in shape.z}
    if plan.labels:
        edges.add(top - layout.panel.engrave_depth)
    inside = sorted(z for z in edges if bottom <= z <= top)
    return [(low + high) / 2 for low, high in itertools.pairwise(inside) if high - low > 0.05]


def expected_openings(plan: PartPlan, z: float) -> dict[str, Opening]:
    """The holes the plan leaves in the part's section at height ``z``, each by the name
    of its cut: a cut inside another is no hole of its own, and cuts on one centre (a
    light bore opening into its pixel's pocket) make one stepped hole."""
    at = [c for c in plan.cuts if not c.through and c.z[0] < z < c.z[1]]
    alone = [
        c for c in at if not any(o is not c and o.contains(c) and o.centre != c.centre for o in at)
    ]
    groups: dict[Point, list[Shape]] = {}
    for cut in alone:
        groups.setdefault(cut.centre, []).append(cut)
    expected = {}
    for centre, cuts in groups.items():
        bounds = [c.bounds() for c in cuts]
        size = (
            max(b[2] for b in bounds) - min(b[0] for b in bounds),
            max(b[3] for b in bounds) - min(b[1] for b in bounds),
        )
        round_ = all(c.kind == "circle" for c in cuts)
        expected[" and ".join(c.name for c in cuts)] = Opening(centre, size, round_)
    return expected


def holes_apart(part: Part, layout: Layout) -> list[str]:
    """Measured on the solid, at every height: each hole the plan cuts is a hole of its
    own, of its planned size and shape where the plan puts it, so that none runs into
    another (two holes that meet are found as one, at neither's centre)."""
    problems = []
    for z in _levels(part.plan, layout):
        expected = expected_openings(part.plan, z)
        if not expected:
            continue
        found = openings(part.solid, z)
        for name, hole in expected.items():
            if not any(_same(hole, o) for o in found):
                problems.append(
                    f"{part.name}: {name} is not a hole of its own at {z:.2f} mm: "
                    "it runs into another hole or out of the part"
                )
    return problems


def _same(planned: Opening, found: Opening) -> bool:
    return (
        math.dist(planned.centre, found.centre) <= TOLERANCE
        and all(abs(a - b) <= 0.02 for a, b in zip(planned.size, found.size, strict=True))
        and planned.round is found.round
    )


def standoffs(layout: Layout, base: bd.Solid) -> list[Opening]:
    """The stand-offs as they stand on the base's floor, measured halfway up: each one
    piece of its own, with its pilot hole."""
    z = layout.base.floor + layout.base.standoff_height / 2
    return [outline for outline, holes in islands(base, z) if len(holes) == 1 and holes[0].round]


def _standoffs(layout: Layout, base: bd.Solid) -> list[str]:
    """Each Pi's stand-offs stand whole where its holes are, untouched by any hole or
    other feature (one cut into would no longer be a round piece of its own)."""
    base_ = layout.base
    stood = standoffs(layout, base)
    problems = []
    for pi in layout.pis:
        for centre in pi.hole_centres():
            whole = Opening(centre, (base_.standoff, base_.standoff), True)
            if not any(_same(whole, o) for o in stood):
                problems.append(
                    f"base: the stand-off of {pi.models[0]} at {centre} is not whole "
                    "(a hole or another feature runs into it)"
                )
    return problems


def _walls(layout: Layout, parts: dict[str, Part]) -> list[str]:
    """Measured on the solids, at the heights where the holes are closest: no wall
    thinner than the layout's minimum."""
    z, wall = stack(layout), layout.exchange.min_wall
    heights = {
        "panel": [z.rim + layout.panel.diffuser_depth / 2, z.rim + layout.panel.thickness / 2],
        "carrier": [z.plate_bottom + layout.pixel.board / 2, z.plate_top - 0.5, z.plate_top + 1.0],
        "base": [layout.base.floor + 1.0, layout.base.height / 2, z.plate_bottom - 0.5],
    }
    problems = []
    for name, levels in heights.items():
        for level in levels:
            thinnest = thinnest_wall(parts[name].solid, level, wall - 1e-6)
            if thinnest is not None:
                problems.append(
                    f"{name}: a wall {thinnest:.2f} mm thick at {level:.1f} mm, under {wall:g}"
                )
    return problems


def _sound(part: Part) -> list[str]:
    solid = part.solid
    problems = []
    if not solid.is_valid:
        problems.append(f"{part.name}: the solid is not valid")
    if not solid.is_manifold:
        problems.append(f"{part.name}: the solid is not manifold")
    for shell in solid.shells():
        if not BRep_Tool.IsClosed_s(shell.wrapped):
            problems.append(f"{part.name}: a shell of the solid is open")
    if solid.volume <= 0:
        problems.append(f"{part.name}: the solid has no volume")
    return problems


def _on_bed(part: Part, layout: Layout) -> list[str]:
    box = part.printed.bounding_box()
    bed, height = layout.exchange.bed, layout.exchange.bed_height
    size = (box.size.X, box.size.Y)
    fits = (size[0] <= bed[0] and size[1] <= bed[1]) or (size[0] <= bed[1] and size[1] <= bed[0])
    problems = []
    if not fits or height < box.size.Z:
        problems.append(
            f"{part.name}: {size[0]:.1f} x {size[1]:.1f} x {box.size.Z:.1f} mm "
            f"does not fit the {bed[0]:g} x {bed[1]:g} x {height:g} mm bed"
        )
    if abs(box.min.Z) > 1e-6:
        problems.append(f"{part.name}: does not lie on the bed (lowest point {box.min.Z:.3f})")
    return problems


def _buttons(layout: Layout, panel: bd.Solid) -> list[str]:
    """Each button's hole is centred on its tower position and is its cap's shape."""
    switch, z = layout.switch, stack(layout)
    found = openings(panel, z.rim + layout.panel.thickness / 2)
    problems = []
    for name, button in layout.buttons.items():
        red = button.colour is Colour.RED
        side = (switch.square_cap if red else switch.round_cap) + 2 * switch.hole_clearance
        hole = nearest(found, button.centre)
        off = math.dist(hole.centre, button.centre)
        if not off <= TOLERANCE:
            problems.append(f"panel: the hole of {name} is {off:.3f} mm off its tower position")
        elif not all(abs(s - side) <= 0.01 for s in hole.size):
            problems.append(f"panel: the hole of {name} measures {hole.size}, not {side:g}")
        elif hole.round is red:
            shape = "square" if red else "round"
            problems.append(f"panel: the hole of {name} ({button.colour.value}) is not {shape}")
    return problems


def _windows(layout: Layout, panel: bd.Solid) -> tuple[dict[str, Point], list[str]]:
    z, p = stack(layout), layout.panel
    # between the diffuser recess below and the engravings above
    found = openings(panel, z.rim + (p.diffuser_depth + p.thickness - p.engrave_depth) / 2)
    windows, problems = {}, []
    for name, lamp in layout.lamps.items():
        window = nearest(found, lamp)
        windows[name] = window.centre
        off = math.dist(window.centre, lamp)
        if not off <= TOLERANCE:
            problems.append(f"panel: the window of {name} is {off:.3f} mm off the lamp's centre")
        elif not window.round or not all(abs(s - p.window) <= 0.01 for s in window.size):
            problems.append(f"panel: the window of {name} is not {p.window:g} mm round")
    return windows, problems


def _pixels(layout: Layout, carrier: bd.Solid, windows: dict[str, Point]) -> list[str]:
    """Pixel ``i`` of the chain sits in the pocket under lamp ``chain[i]``'s window,
    with its light bore straight above it."""
    pixel, z = layout.pixel, stack(layout)
    pockets = openings(carrier, z.plate_bottom + pixel.board / 2)
    bores = openings(carrier, z.plate_top + 1.0)
    problems = []
    for led, lamp in enumerate(layout.chain):
        window = windows[lamp]
        pocket = nearest(pockets, window)
        off = math.dist(pocket.centre, window)
        if not off <= TOLERANCE:
            problems.append(f"carrier: pixel {led} ({lamp}) is {off:.3f} mm off its window")
        if pocket.size[0] < pixel.length or pocket.size[1] < pixel.width:
            problems.append(f"carrier: pixel {led}'s pocket {pocket.size} is smaller than a pixel")
        if not math.dist(nearest(bores, window).centre, window) <= TOLERANCE:
            problems.append(f"carrier: the light bore over pixel {led} ({lamp}) is off its window")
    return problems


def _stacking(layout: Layout, parts: dict[str, Part]) -> list[str]:
    """The parts meet where the layout says: the carrier on the ledge, its tubes at the
    panel's underside, the panel on the base's rim."""
    z = stack(layout)
    problems = []
    carrier = parts["carrier"].solid.bounding_box()
    if abs(carrier.min.Z - z.plate_bottom) > 1e-6 or abs(carrier.max.Z - z.rim) > 1e-6:
        problems.append("carrier: does not reach from the ledge to the panel's underside")
    base = parts["base"].solid
    hx, _ = inner_half(layout)
    on_ledge = hx - layout.base.ledge / 3
    if not inside(base, on_ledge, 0.0, z.plate_bottom - 0.2) or inside(
        base, on_ledge, 0.0, z.plate_bottom + 0.2
    ):
        problems.append("base: the ledge does not end where the carrier rests")
    if abs(base.bounding_box().max.Z - z.rim) > 1e-6:
        problems.append("base: its rim is not where the panel rests")
    if not inside(parts["panel"].solid, 0.0, -hx + 1.0, z.rim + 0.5):
        problems.append("panel: does not rest on the base's rim")
    return problems


def mesh_problems(path: Path) -> list[str]:
    """A binary STL is watertight and manifold: every edge of every triangle is shared
    with exactly one other triangle, which runs along it the other way."""
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * count or count == 0:
        return [f"{path.name}: not a binary STL of {count} triangles"]
    index: dict[tuple[float, float, float], int] = {}
    edges: Counter[tuple[int, int]] = Counter()
    for n in range(count):
        values = struct.unpack_from("<12f", data, 84 + 50 * n)
        corners = []
        for k in range(3):
            x, y, zz = values[3 + 3 * k : 6 + 3 * k]
            key = (round(x, 4), round(y, 4), round(zz, 4))
            corners.append(index.setdefault(key, len(index)))
        for a, b in ((0, 1), (1, 2), (2, 0)):
            edges[(corners[a], corners[b])] += 1
    bad = sum(1 for (a, b), n in edges.items() if n != 1 or edges.get((b, a)) != 1)
    return [f"{path.name}: {bad} edges are not shared by exactly two triangles"] if bad else []
