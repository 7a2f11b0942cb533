"""The pictures in hardware/README.md: each part, and the exchange pulled apart."""

from __future__ import annotations

from pathlib import Path

import build123d as bd

from clacks.case.features import stack
from clacks.case.model import Part
from clacks.case.render import Piece, render
from engine.clacks.geometry import Colour
from firmware.layout import Layout

PANEL, CARRIER, BASE = (58, 64, 72), (236, 232, 222), (150, 156, 164)
RED, GREEN, SWITCH = (200, 40, 36), (40, 150, 60), (40, 40, 40)
BOARD, PIXEL = (30, 110, 60), (250, 250, 245)
EXPLODE = 30.0  # how far apart the parts are drawn, mm
_BOTTOM = (bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN)


def draw_all(layout: Layout, parts: dict[str, Part], outdir: Path) -> list[Path]:
    colours = {"panel": PANEL, "carrier": CARRIER, "base": BASE}
    written = []
    for name, part in parts.items():
        path = outdir / f"{name}.png"
        render([Piece(part.solid, colours[name])], path)
        written.append(path)
    path = outdir / "assembly.png"
    render(exploded(layout, parts), path, size=(900, 900), elevation=28.0)
    written.append(path)
    return written


def exploded(layout: Layout, parts: dict[str, Part]) -> list[Piece]:
    """The base with a Pi 4 on its stand-offs, the carrier with its pixels and switches
    lifted above it, and the panel above them."""
    lift_carrier, lift_panel = bd.Pos(0, 0, EXPLODE), bd.Pos(0, 0, 2 * EXPLODE)
    pieces = [Piece(parts["base"].solid, BASE)]
    pieces += [Piece(board, BOARD) for board in _boards(layout)]
    pieces.append(Piece(lift_carrier * parts["carrier"].solid, CARRIER))
    pieces += [Piece(lift_carrier * p, colour) for p, colour in _switches(layout)]
    pieces += [Piece(lift_carrier * p, PIXEL) for p in _pixels(layout)]
    pieces.append(Piece(lift_panel * parts["panel"].solid, PANEL))
    return pieces


def _boards(layout: Layout) -> list[bd.Solid]:
    top = layout.base.floor + layout.base.standoff_height
    solids = []
    for pi in layout.pis[:1]:
        (x0, y0), (x1, y1) = pi.outline()
        box = bd.Box(x1 - x0, y1 - y0, 1.6, align=_BOTTOM)
        solids.append(bd.Pos((x0 + x1) / 2, (y0 + y1) / 2, top) * box)
    return solids


def _switches(layout: Layout) -> list[tuple[bd.Solid, tuple[int, int, int]]]:
    switch, z = layout.switch, stack(layout)
    solids = []
    cap_height = switch.cap_top - switch.body_height
    for button in layout.buttons.values():
        x, y = button.centre
        body = bd.Box(switch.body, switch.body, switch.body_height, align=_BOTTOM)
        solids.append((bd.Pos(x, y, z.plate_top) * body, SWITCH))
        at = bd.Pos(x, y, z.plate_top + switch.body_height)
        if button.colour is Colour.RED:
            cap = bd.Box(switch.square_cap, switch.square_cap, cap_height, align=_BOTTOM)
            solids.append((at * cap, RED))
        else:
            cap = bd.Cylinder(switch.round_cap / 2, cap_height, align=_BOTTOM)
            solids.append((at * cap, GREEN))
    return solids


def _pixels(layout: Layout) -> list[bd.Solid]:
    """Each pixel's board in its pocket, flush with the plate's underside, its LED
    rising into the bore."""
    pixel, z = layout.pixel, stack(layout)
    solids = []
    for x, y in layout.lamps.values():
        board = bd.Box(pixel.length, pixel.width, pixel.board, align=_BOTTOM)
        led = bd.Box(5.0, 5.0, 1.6, align=_BOTTOM)
        bottom = z.plate_bottom
        solids.append(bd.Pos(x, y, bottom) * board)
        solids.append(bd.Pos(x, y, bottom + pixel.board) * led)
    return solids
