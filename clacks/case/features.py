"""Every feature of the case's three parts as plain shapes, in the exchange's coordinates.

A shape is a vertical cylinder (``circle``: size is its diameter twice) or a box
(``rect``), standing from ``z[0]`` to ``z[1]`` millimetres above the bottom of the base.
The model cuts and adds exactly these, and the checks measure the gaps between them, so
what is checked is what is printed. Nothing here needs the CAD library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

from clacks.case.font import text_size
from engine.clacks.geometry import Colour
from firmware.layout import Layout

Point = tuple[float, float]
Span = tuple[float, float]
SEAT_NAMES = {"SOUTH": (0, -1), "WEST": (-1, 0), "NORTH": (0, 1), "EAST": (1, 0)}


@dataclass(frozen=True)
class Shape:
    name: str
    kind: Literal["circle", "rect"]
    centre: Point
    size: Point
    z: Span
    through: bool = False  # meant to open the part's side (a cable cut-out)

    def bounds(self) -> tuple[float, float, float, float]:
        (x, y), (w, h) = self.centre, self.size
        return x - w / 2, y - h / 2, x + w / 2, y + h / 2

    def overlaps_in_z(self, other: Shape) -> bool:
        return min(self.z[1], other.z[1]) - max(self.z[0], other.z[0]) > 1e-9

    def gap(self, other: Shape) -> float:
        """The distance between the outlines seen from above; negative when they overlap."""
        if self.kind == other.kind == "circle":
            return math.dist(self.centre, other.centre) - (self.size[0] + other.size[0]) / 2
        if self.kind == other.kind == "rect":
            a, b = self.bounds(), other.bounds()
            dx = max(b[0] - a[2], a[0] - b[2])
            dy = max(b[1] - a[3], a[1] - b[3])
            return max(dx, dy) if dx < 0 or dy < 0 else math.hypot(dx, dy)
        circle, rect = (self, other) if self.kind == "circle" else (other, self)
        x0, y0, x1, y1 = rect.bounds()
        cx, cy = circle.centre
        dx, dy = max(x0 - cx, 0.0, cx - x1), max(y0 - cy, 0.0, cy - y1)
        inside = dx == dy == 0.0
        if inside:
            return -min(cx - x0, x1 - cx, cy - y0, y1 - cy) - circle.size[0] / 2
        return math.hypot(dx, dy) - circle.size[0] / 2

    def contains(self, other: Shape) -> bool:
        """``other`` lies wholly inside this shape, seen from above."""
        if self.kind == "rect":
            a, b = self.bounds(), other.bounds()
            return a[0] <= b[0] and a[1] <= b[1] and b[2] <= a[2] and b[3] <= a[3]
        radius = self.size[0] / 2
        if other.kind == "circle":
            return math.dist(self.centre, other.centre) + other.size[0] / 2 <= radius
        x0, y0, x1, y1 = other.bounds()
        corners = ((x0, y0), (x0, y1), (x1, y0), (x1, y1))
        return all(math.dist(self.centre, c) <= radius for c in corners)


@dataclass(frozen=True)
class Label:
    text: str
    centre: Point
    height: float
    turn: int  # degrees anticlockwise: each reads from the seat it faces


@dataclass
class PartPlan:
    name: str
    outline: Shape  # the part's footprint and height
    adds: list[Shape] = field(default_factory=list)
    cuts: list[Shape] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    walls: dict[str, float] = field(default_factory=dict)  # thicknesses set by the layout


@dataclass(frozen=True)
class Stack:
    """Heights above the bottom of the base where the parts meet."""

    rim: float  # base rim = panel underside = top of the light tubes
    top: float  # panel top
    plate_top: float  # carrier plate top = bottom of each switch's body
    plate_bottom: float  # = top of the ledge the carrier rests on


def stack(layout: Layout) -> Stack:
    rim = layout.base.height
    tube = layout.switch.cap_top - layout.switch.proud - layout.panel.thickness
    plate_top = rim - tube
    return Stack(rim, rim + layout.panel.thickness, plate_top, plate_top - layout.carrier.plate)


def inner_half(layout: Layout) -> Point:
    width, depth = layout.panel.size
    return width / 2 - layout.base.wall, depth / 2 - layout.base.wall


def post_centres(layout: Layout) -> list[Point]:
    hx, hy = inner_half(layout)
    inset = layout.base.corner_post / 2
    return [(sx * (hx - inset), sy * (hy - inset)) for sx in (-1, 1) for sy in (-1, 1)]


def circle(name: str, centre: Point, diameter: float, z: Span) -> Shape:
    return Shape(name, "circle", centre, (diameter, diameter), z)


def rect(name: str, centre: Point, size: Point, z: Span, through: bool = False) -> Shape:
    return Shape(name, "rect", centre, size, z, through)


def label_box(label: Label, depth: float, top: float) -> Shape:
    width, height = text_size(label.text, label.height)
    if label.turn % 180:
        width, height = height, width
    return rect(f"engraving {label.text}", label.centre, (width, height), (top - depth, top))


def panel_plan(layout: Layout) -> PartPlan:
    panel, switch, z = layout.panel, layout.switch, stack(layout)
    width, depth = panel.size
    plan = PartPlan("panel", rect("panel", (0.0, 0.0), (width, depth), (z.rim, z.top)))
    for name, centre in layout.lamps.items():
        plan.cuts.append(circle(f"window {name}", centre, panel.window, (z.rim, z.top)))
        recess = (z.rim, z.rim + panel.diffuser_depth)
        plan.cuts.append(circle(f"diffuser recess {name}", centre, panel.diffuser, recess))
    for name, button in layout.buttons.items():
        through = (z.rim, z.top)
        if button.colour is Colour.RED:
            side = switch.square_cap + 2 * switch.hole_clearance
            plan.cuts.append(rect(f"square hole {name}", button.centre, (side, side), through))
        else:
            diameter = switch.round_cap + 2 * switch.hole_clearance
            plan.cuts.append(circle(f"round hole {name}", button.centre, diameter, through))
    for index, centre in enumerate(post_centres(layout)):
        plan.cuts.append(
            circle(f"screw hole {index + 1}", centre, panel.screw_hole, (z.rim - panel.lip, z.top))
        )
    plan.labels = panel_labels(layout)
    plan.walls = {
        "panel above a diffuser recess": panel.thickness - panel.diffuser_depth,
        "panel under an engraving": panel.thickness - panel.engrave_depth,
        "locating lip": panel.lip_wall,
    }
    return plan


def panel_labels(layout: Layout) -> list[Label]:
    """Lamp names at each lamp's south-west, tower names beside their buttons (red ones
    north of the button, read from South; green ones east of it, read from West), and
    the seats' names along the edges, each read from its own seat."""
    panel, switch, pitch = layout.panel, layout.switch, layout.exchange.pitch
    labels: list[Label] = []
    corner = pitch * 0.34
    for name, (x, y) in layout.lamps.items():
        labels.append(Label(name, (x - corner, y - corner), panel.lamp_text, 0))
    hole = max(switch.square_cap, switch.round_cap) / 2 + switch.hole_clearance
    text = text_size("a1b1", panel.tower_text)[1]
    offset = hole + layout.exchange.min_wall + text / 2
    for name, button in layout.buttons.items():
        bx, by = button.centre
        if button.colour is Colour.RED:
            labels.append(Label(name, (bx, by + offset), panel.tower_text, 0))
        else:
            labels.append(Label(name, (bx + offset, by), panel.tower_text, -90))
    width, depth = panel.size
    margin = panel.corner_radius + panel.seat_text / 2
    for seat, (dx, dy) in SEAT_NAMES.items():
        centre = (dx * (width / 2 - margin), dy * (depth / 2 - margin))
        turn = {(0, -1): 0, (-1, 0): -90, (0, 1): 180, (1, 0): 90}[(dx, dy)]
        labels.append(Label(seat, centre, panel.seat_text, turn))
    return labels


def carrier_plan(layout: Layout) -> PartPlan:
    carrier, pixel, z = layout.carrier, layout.pixel, stack(layout)
    hx, hy = inner_half(layout)
    size = (2 * (hx - carrier.clearance), 2 * (hy - carrier.clearance))
    plan = PartPlan("carrier", rect("carrier", (0.0, 0.0), size, (z.plate_bottom, z.plate_top)))
    tube = layout.panel.window + 2 * carrier.tube_wall
    pocket = (pixel.length + 2 * pixel.clearance, pixel.width + 2 * pixel.clearance)
    pocket_top = z.plate_bottom + pixel.board + pixel.solder
    for name, centre in layout.lamps.items():
        plan.adds.append(circle(f"light tube {name}", centre, tube, (z.plate_top, z.rim)))
        bore = (z.plate_bottom, z.rim)
        plan.cuts.append(circle(f"light bore {name}", centre, layout.panel.window, bore))
        plan.cuts.append(rect(f"pixel pocket {name}", centre, pocket, (z.plate_bottom, pocket_top)))
    for name, button in layout.buttons.items():
        plan.adds += switch_rails(layout, name, button.centre, button.along_row)
        plan.cuts += switch_seat(layout, name, button.centre, button.along_row)
    # a square notch at each corner, clear of the corner post by the clearance
    reach = layout.base.corner_post / 2 + carrier.clearance
    for index, (px, py) in enumerate(post_centres(layout)):
        corner = (math.copysign(size[0] / 2, px), math.copysign(size[1] / 2, py))
        side = 2 * (abs(corner[0] - px) + reach)
        notch = rect(f"post notch {index + 1}", corner, (side, side), (z.plate_bottom, z.rim))
        plan.cuts.append(replace(notch, through=True))
    plan.walls = {
        "roof over a pixel pocket": carrier.plate - pixel.board - pixel.solder,
        "floor under a switch": carrier.switch_floor,
        "light tube": carrier.tube_wall,
        "switch rail": carrier.switch_frame,
    }
    return plan


def _across(centre: Point, along_row: bool, along: float, across: float) -> Point:
    """A point ``along`` the line between the button's two lamps and ``across`` it."""
    x, y = centre
    return (x + along, y + across) if along_row else (x + across, y + along)


def _size(along_row: bool, along: float, across: float) -> Point:
    return (along, across) if along_row else (across, along)


def switch_seat(layout: Layout, name: str, centre: Point, along_row: bool) -> list[Shape]:
    """The switch's legs stand across the line between its two lamps, clear of the light
    tubes; they pass through the plate where it is thinned from below."""
    switch, carrier, z = layout.switch, layout.carrier, stack(layout)
    leg_across, leg_along = switch.legs[0] / 2, switch.legs[1] / 2
    recess = (z.plate_bottom, z.plate_top - carrier.switch_floor)
    margin = switch.leg_hole + 0.9
    shapes = [
        rect(
            f"switch recess {name}",
            centre,
            _size(along_row, 2 * (leg_along + margin), 2 * (leg_across + margin)),
            recess,
        )
    ]
    for along in (-leg_along, leg_along):
        for across in (-leg_across, leg_across):
            at = _across(centre, along_row, along, across)
            shapes.append(
                circle(f"leg hole {name}", at, switch.leg_hole, (z.plate_bottom, z.plate_top))
            )
    return shapes


def switch_rails(layout: Layout, name: str, centre: Point, along_row: bool) -> list[Shape]:
    """Two rails hold the switch's body on the sides without legs (towards the lamps)."""
    switch, carrier, z = layout.switch, layout.carrier, stack(layout)
    offset = switch.body / 2 + 0.2 + carrier.switch_frame / 2
    height = (z.plate_top, z.plate_top + carrier.switch_frame_height)
    size = _size(along_row, carrier.switch_frame, switch.body)
    return [
        rect(f"switch rail {name}", _across(centre, along_row, side * offset, 0.0), size, height)
        for side in (-1, 1)
    ]


def base_plan(layout: Layout) -> PartPlan:
    base, z = layout.base, stack(layout)
    width, depth = layout.panel.size
    hx, hy = inner_half(layout)
    plan = PartPlan("base", rect("base", (0.0, 0.0), (width, depth), (0.0, z.rim)))
    floor = base.floor
    for index, centre in enumerate(post_centres(layout)):
        plan.adds.append(
            circle(f"corner post {index + 1}", centre, base.corner_post, (floor, z.rim))
        )
        plan.cuts.append(
            circle(f"screw pilot {index + 1}", centre, base.screw_pilot, (z.rim - 12.0, z.rim))
        )
    top = floor + base.standoff_height
    for pi in layout.pis:
        for centre in pi.hole_centres():
            plan.adds.append(
                circle(f"stand-off {pi.models[0]}", centre, base.standoff, (floor, top))
            )
            plan.cuts.append(
                circle(f"stand-off pilot {pi.models[0]}", centre, base.standoff_pilot, (floor, top))
            )
    length, anchor_width, anchor_height = base.strain_relief
    tie_width, tie_height = base.tie_slot
    for cut in layout.cutouts:
        w, h = cut.size
        bottom = floor + cut.z
        plan.cuts.append(
            rect(
                f"cut-out {cut.name}",
                (cut.x, hy + base.wall / 2),
                (w, base.wall),
                (bottom, bottom + h),
                through=True,
            )
        )
        anchor_y = hy - 2.0 - anchor_width / 2
        plan.adds.append(
            rect(
                f"cable anchor {cut.name}",
                (cut.x, anchor_y),
                (length, anchor_width),
                (floor, floor + anchor_height),
            )
        )
        tunnel_bottom = floor + (anchor_height - tie_height) / 2
        plan.cuts.append(
            rect(
                f"tie tunnel {cut.name}",
                (cut.x, anchor_y),
                (length, tie_width),
                (tunnel_bottom, tunnel_bottom + tie_height),
                through=True,
            )
        )
    plan.walls = {
        "base wall": base.wall,
        "base floor": base.floor,
        "tie tunnel's sides": (anchor_width - tie_width) / 2,
        "tie tunnel's roof": (anchor_height - tie_height) / 2,
        "stand-off round its pilot": (base.standoff - base.standoff_pilot) / 2,
        "corner post round its pilot": (base.corner_post - base.screw_pilot) / 2,
    }
    del width, depth, hx
    return plan


def boards(layout: Layout) -> list[Shape]:
    """Each Pi's board and what stands on it, as a keep-out over its stand-offs."""
    top = layout.base.floor + layout.base.standoff_height
    shapes = []
    for pi in layout.pis:
        (x0, y0), (x1, y1) = pi.outline()
        shapes.append(
            rect(
                f"board {pi.models[0]}",
                ((x0 + x1) / 2, (y0 + y1) / 2),
                (x1 - x0, y1 - y0),
                (top, top + 20.0),
            )
        )
    return shapes


def plans(layout: Layout) -> dict[str, PartPlan]:
    return {
        "panel": panel_plan(layout),
        "carrier": carrier_plan(layout),
        "base": base_plan(layout),
    }
