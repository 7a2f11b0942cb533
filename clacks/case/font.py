"""A single-stroke font for the engravings: the few letters and figures the panel needs.

The case is generated on any machine, so it cannot depend on the fonts installed there:
the same layout must give the same solid (and the same pictures) everywhere. Each glyph
is a few polylines on a grid 4 units wide and 6 tall (lowercase letters are 4 tall), cut
into the panel as strokes of a fixed width.
"""

from __future__ import annotations

import itertools
import math

Point = tuple[float, float]
Stroke = tuple[Point, ...]

WIDTH, HEIGHT, GAP = 4.0, 6.0, 1.6
STROKE = 0.9  # stroke width, in grid units (0.45 mm on 3 mm text)

_BOWL_RIGHT: Stroke = ((4, 3), (3, 4), (1, 4), (0, 3), (0, 1), (1, 0), (3, 0), (4, 1))
_BOWL_LEFT: Stroke = ((0, 3), (1, 4), (3, 4), (4, 3), (4, 1), (3, 0), (1, 0), (0, 1))

GLYPHS: dict[str, tuple[Stroke, ...]] = {
    "a": (((4, 0), (4, 4)), _BOWL_RIGHT),
    "b": (((0, 0), (0, 6)), _BOWL_LEFT),
    "c": (((4, 3.4), (3, 4), (1, 4), (0, 3), (0, 1), (1, 0), (3, 0), (4, 0.6)),),
    "d": (((4, 0), (4, 6)), _BOWL_RIGHT),
    "1": (((1, 5), (2, 6), (2, 0)), ((1, 0), (3, 0))),
    "2": (((0, 5), (1, 6), (3, 6), (4, 5), (4, 4), (0, 0), (4, 0)),),
    "3": (
        ((0, 5), (1, 6), (3, 6), (4, 5), (4, 4), (3, 3), (1.5, 3)),
        ((3, 3), (4, 2), (4, 1), (3, 0), (1, 0), (0, 1)),
    ),
    "4": (((3, 0), (3, 6), (0, 2), (4, 2)),),
    "A": (((0, 0), (2, 6), (4, 0)), ((0.7, 2), (3.3, 2))),
    "E": (((4, 6), (0, 6), (0, 0), (4, 0)), ((0, 3), (3, 3))),
    "H": (((0, 0), (0, 6)), ((4, 0), (4, 6)), ((0, 3), (4, 3))),
    "N": (((0, 0), (0, 6), (4, 0), (4, 6)),),
    "O": (((1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6), (0, 5), (0, 1), (1, 0)),),
    "R": (((0, 0), (0, 6), (3, 6), (4, 5), (4, 4), (3, 3), (0, 3)), ((2, 3), (4, 0))),
    "S": (
        (
            (4, 5),
            (3, 6),
            (1, 6),
            (0, 5),
            (0, 4),
            (1, 3),
            (3, 3),
            (4, 2),
            (4, 1),
            (3, 0),
            (1, 0),
            (0, 1),
        ),
    ),
    "T": (((0, 6), (4, 6)), ((2, 6), (2, 0))),
    "U": (((0, 6), (0, 1), (1, 0), (3, 0), (4, 1), (4, 6)),),
    "W": (((0, 6), (1, 0), (2, 4), (3, 0), (4, 6)),),
}


def text_size(text: str, height: float) -> tuple[float, float]:
    """The width and height the engraved ``text`` covers, strokes included."""
    unit = height / HEIGHT
    width = len(text) * WIDTH + (len(text) - 1) * GAP
    return (width + STROKE) * unit, (HEIGHT + STROKE) * unit


def text_segments(
    text: str, height: float, centre: Point, turn: int = 0
) -> list[tuple[Point, Point]]:
    """The strokes' straight segments of ``text`` centred on ``centre``, turned ``turn``
    degrees anticlockwise (a multiple of 90), in millimetres; stroke width
    ``stroke_width(height)``."""
    unit = height / HEIGHT
    width = len(text) * WIDTH + (len(text) - 1) * GAP
    cos, sin = round(math.cos(math.radians(turn))), round(math.sin(math.radians(turn)))
    segments: list[tuple[Point, Point]] = []

    def place(x: float, y: float) -> Point:
        x, y = (x - width / 2) * unit, (y - HEIGHT / 2) * unit
        return (centre[0] + x * cos - y * sin, centre[1] + x * sin + y * cos)

    for index, char in enumerate(text):
        left = index * (WIDTH + GAP)
        for stroke in GLYPHS[char]:
            points = [place(left + x, y) for x, y in stroke]
            segments += list(itertools.pairwise(points))
    return segments


def stroke_width(height: float) -> float:
    return STROKE * height / HEIGHT
