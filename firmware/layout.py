"""The exchange as it is built, read from ``hardware/exchange.toml`` and checked.

One file holds the physical layout: the lamp pitch, the order the pixels are wired in,
the parts' sizes, the panel, the carrier, the base, the Raspberry Pi mountings and the
cable cut-outs. The lamp and button centres are not written there but drawn from the
engine's own names: lamp ``c2`` stands at column c, row 2 of a square grid of the pitch,
and each tower button midway between the two lamps it is named by. The case model
(clacks/case/), the wiring diagram and the default pixel map all come from here.

Coordinates are millimetres, x east, y north, the origin at the exchange's centre.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from typing import Any

from engine.clacks.geometry import COLUMNS, LAMP_NAMES, TOWERS, Colour
from engine.core.validate import Problems
from firmware.pixelmap import PixelMap

Point = tuple[float, float]
Coord = float  # a coordinate: may be negative, unlike every size
FILE = "exchange.toml"


class LayoutError(ValueError):
    """The layout file cannot be used; the message names every mistake in it."""


@dataclass(frozen=True)
class Exchange:
    pitch: float
    min_wall: float
    bed: Point
    bed_height: float


@dataclass(frozen=True)
class Pixel:
    length: float
    width: float
    board: float
    solder: float
    clearance: float


@dataclass(frozen=True)
class Switch:
    body: float
    body_height: float
    legs: Point
    leg_hole: float
    square_cap: float
    round_cap: float
    cap_top: float
    proud: float
    hole_clearance: float


@dataclass(frozen=True)
class Panel:
    size: Point
    thickness: float
    corner_radius: float
    window: float
    diffuser: float
    diffuser_depth: float
    engrave_depth: float
    lamp_text: float
    tower_text: float
    seat_text: float
    lip: float
    lip_wall: float
    screw_hole: float


@dataclass(frozen=True)
class Carrier:
    plate: float
    tube_wall: float
    switch_frame: float
    switch_frame_height: float
    switch_floor: float
    clearance: float


@dataclass(frozen=True)
class Base:
    height: float
    wall: float
    floor: float
    corner_radius: float
    corner_post: float
    screw_pilot: float
    ledge: float
    standoff: float
    standoff_height: float
    standoff_pilot: float
    strain_relief: tuple[float, float, float]
    tie_slot: Point


@dataclass(frozen=True)
class PiMount:
    name: str
    models: tuple[str, ...]
    board: Point
    holes: tuple[Point, ...]  # from the board's corner on its port edge
    hole: float
    at: Point  # where that corner sits; the board lies south of it

    def hole_centres(self) -> tuple[Point, ...]:
        """The mounting holes' centres in the exchange's coordinates."""
        return tuple((self.at[0] + x, self.at[1] - y) for x, y in self.holes)

    def outline(self) -> tuple[Point, Point]:
        """The board's south-west and north-east corners."""
        return (self.at[0], self.at[1] - self.board[1]), (self.at[0] + self.board[0], self.at[1])


@dataclass(frozen=True)
class Cutout:
    name: str
    cable: str
    x: Coord
    size: Point
    z: float


@dataclass(frozen=True)
class Button:
    name: str
    centre: Point
    colour: Colour
    lamps: tuple[str, str]

    @property
    def along_row(self) -> bool:
        """A red button sits between two lamps of a row, a green one of a column."""
        return self.lamps[0][1] == self.lamps[1][1]


@dataclass(frozen=True)
class Layout:
    exchange: Exchange
    chain: tuple[str, ...]
    pixel: Pixel
    switch: Switch
    panel: Panel
    carrier: Carrier
    base: Base
    pis: tuple[PiMount, ...]
    cutouts: tuple[Cutout, ...]

    @property
    def lamps(self) -> dict[str, Point]:
        """Each lamp's centre, in the engine's lamp order a1, b1, ... d4."""
        pitch = self.exchange.pitch
        return {
            name: ((COLUMNS.index(name[0]) - 1.5) * pitch, (int(name[1]) - 2.5) * pitch)
            for name in LAMP_NAMES
        }

    @property
    def buttons(self) -> dict[str, Button]:
        """Each tower button, midway between the two lamps its name joins."""
        lamps = self.lamps
        buttons: dict[str, Button] = {}
        for name, tower in TOWERS.items():
            first, second = name[:2], name[2:]
            (x1, y1), (x2, y2) = lamps[first], lamps[second]
            centre = ((x1 + x2) / 2, (y1 + y2) / 2)
            buttons[name] = Button(name, centre, tower.colour, (first, second))
        return buttons

    def pixel_map(self) -> PixelMap:
        """The settings' pixel map for the chain as wired: LED ``i`` under lamp
        ``chain[i]``."""
        found = chain_pixel_map(self.chain)
        if found is None:
            raise LayoutError(f"the chain {self.chain} is not one the pixel map settings express")
        return found


def chain_pixel_map(chain: tuple[str, ...]) -> PixelMap | None:
    """The pixel map whose LED ``i`` lies under lamp ``chain[i]``, preferring one that is
    not mirrored (pixels face up); None when no setting of serpentine, rotation and
    mirrored wires the lamps in that order."""
    wanted = tuple(chain.index(name) for name in LAMP_NAMES) if len(chain) == 16 else ()
    for mirrored, serpentine, rotation in itertools.product(
        (False, True), (False, True), (0, 90, 180, 270)
    ):
        candidate = PixelMap(serpentine=serpentine, rotation=rotation, mirrored=mirrored)
        if candidate.leds == wanted:
            return candidate
    return None


SECTIONS: dict[str, type[Any]] = {
    "exchange": Exchange,
    "pixel": Pixel,
    "switch": Switch,
    "panel": Panel,
    "carrier": Carrier,
    "base": Base,
}


def parse_layout(data: dict[str, Any]) -> Layout:
    """The layout in ``data``; LayoutError naming every mistake otherwise."""
    problems = Problems()
    problems.unknown_keys(data, [*SECTIONS, "chain", "pi", "cutout"], FILE, kind="section")
    sections = {
        name: _record(cls, _table(data, name, problems), name, problems)
        for name, cls in SECTIONS.items()
    }
    chain = _chain(_table(data, "chain", problems).get("order"), problems)
    pis = tuple(
        _record(PiMount, table, f"pi {index + 1}", problems)
        for index, table in enumerate(_tables(data, "pi", problems))
    )
    cutouts = tuple(
        _record(Cutout, table, f"cutout {index + 1}", problems)
        for index, table in enumerate(_tables(data, "cutout", problems))
    )
    if problems:
        raise LayoutError("; ".join(problems.items))
    layout = Layout(chain=chain, pis=pis, cutouts=cutouts, **sections)
    _check_fits(layout, problems)
    if problems:
        raise LayoutError("; ".join(problems.items))
    return layout


def _table(data: dict[str, Any], name: str, problems: Problems) -> dict[str, Any]:
    value = data.get(name)
    if not isinstance(value, dict):
        problems.add(FILE, f"[{name}]", "is missing" if value is None else "must be a table")
        return {}
    return value


def _tables(data: dict[str, Any], name: str, problems: Problems) -> list[dict[str, Any]]:
    value = data.get(name)
    if not isinstance(value, list) or not value or not all(isinstance(t, dict) for t in value):
        problems.add(FILE, f"[[{name}]]", "must be one or more tables")
        return []
    return value


def _chain(value: object, problems: Problems) -> tuple[str, ...]:
    if not isinstance(value, list) or sorted(map(str, value)) != sorted(LAMP_NAMES):
        problems.add(
            FILE, "chain.order", f"must name each of the 16 lamps once (a1 ... d4), not {value!r}"
        )
        return ()
    chain = tuple(str(name) for name in value)
    if chain_pixel_map(chain) is None:
        problems.add(
            FILE,
            "chain.order",
            "must run row by row or column by column from a corner, straight or serpentine, "
            "as the pixel map settings (serpentine, rotation) can follow it",
        )
    return chain


def _record(cls: type[Any], table: dict[str, Any], entry: str, problems: Problems) -> Any:
    """A ``cls`` filled from ``table``: every field present and of its kind."""
    names = [f.name for f in fields(cls)]
    problems.unknown_keys(table, names, FILE, f"[{entry}]")
    values: dict[str, Any] = {}
    for item in fields(cls):
        value = _value(str(item.type), table.get(item.name))
        if value is None:
            problems.add(FILE, f"{entry}.{item.name}", _expected(str(item.type), table))
        values[item.name] = value
    return cls(**values)


def _number(value: object) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value == value
    return float(value) if ok else None  # type: ignore[arg-type]


def _numbers(value: object, count: int | None) -> tuple[float, ...] | None:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        return None
    numbers = [_number(v) for v in value]
    return None if None in numbers else tuple(n for n in numbers if n is not None)


def _value(kind: str, value: object) -> Any:
    """``value`` as a field of ``kind`` (as the dataclass annotates it), or None."""
    if kind == "float":
        number = _number(value)
        return number if number is not None and number >= 0 else None
    if kind == "Coord":
        return _number(value)
    if kind in ("Point", "tuple[float, float, float]"):
        return _numbers(value, 2 if kind == "Point" else 3)
    if kind == "str":
        return value if isinstance(value, str) and value else None
    if kind == "tuple[str, ...]":
        ok = isinstance(value, list) and value and all(isinstance(v, str) for v in value)
        return tuple(value) if ok else None  # type: ignore[arg-type]
    if kind == "tuple[Point, ...]":
        if not isinstance(value, list) or not value:
            return None
        points = [_numbers(v, 2) for v in value]
        return None if None in points else tuple(points)
    raise AssertionError(kind)


def _expected(kind: str, table: dict[str, Any]) -> str:
    shown = {
        "float": "a number, 0 or more",
        "Coord": "a number",
        "Point": "two numbers, like [85.0, 56.0]",
        "tuple[float, float, float]": "three numbers",
        "str": "some text",
        "tuple[str, ...]": "a list of names",
        "tuple[Point, ...]": "a list of [x, y] pairs",
    }[kind]
    return f"must be {shown}" + ("" if table else " (the table is missing or empty)")


def _check_fits(layout: Layout, problems: Problems) -> None:
    """What no single value shows: the parts fit the pitch and the case fits the bed."""
    pitch, wall = layout.exchange.pitch, layout.exchange.min_wall
    hole = max(layout.switch.square_cap, layout.switch.round_cap) / 2
    hole += layout.switch.hole_clearance
    web = pitch / 2 - hole - layout.panel.diffuser / 2
    if web < wall:
        problems.add(
            FILE,
            "exchange.pitch",
            f"{pitch:g} mm leaves {web:.2f} mm between a button's hole and a lamp's diffuser "
            f"recess, less than min_wall ({wall:g} mm): widen the pitch or shrink the parts",
        )
    half = layout.pixel.length / 2 + layout.pixel.clearance
    if half + layout.exchange.min_wall > pitch / 2:
        problems.add(FILE, "pixel.length", f"a pixel's pocket does not fit the pitch ({pitch:g})")
    width, depth = layout.panel.size
    bed = layout.exchange.bed
    if max(width, depth) > max(bed) or min(width, depth) > min(bed):
        problems.add(FILE, "panel.size", f"{width:g} x {depth:g} mm does not fit the bed {bed}")
    extent = 1.5 * pitch + layout.panel.diffuser / 2 + layout.carrier.tube_wall
    inner = min(width, depth) / 2 - layout.base.wall - layout.carrier.clearance
    if extent > inner:
        problems.add(FILE, "panel.size", f"the lamps need {2 * extent:.1f} mm inside the base")
    models = [m for pi in layout.pis for m in pi.models]
    for model in ("pi4", "pi5", "zero2w"):
        if model not in models:
            problems.add(FILE, "[[pi]]", f"no mounting for {model}")


def lamp_chain_position(layout: Layout) -> dict[str, int]:
    """Each lamp's LED number in the chain."""
    return {name: index for index, name in enumerate(layout.chain)}


def load_text(text: str) -> Layout:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{FILE}: not valid TOML ({exc})") from exc
    return parse_layout(data)


@cache
def built_layout() -> Layout:
    """The shipped layout (hardware/exchange.toml)."""
    return load_text(resources.files("hardware").joinpath(FILE).read_text(encoding="utf-8"))
