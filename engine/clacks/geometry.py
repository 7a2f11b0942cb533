"""The exchange's geometry: lamps, tower selector buttons, seats and reading frames.

Lamps are named like chess squares seen from the South seat: columns a..d left to right,
rows 1..4 near to far. The board is a 16-bit int, bit ``row * 4 + col`` (0-based).
A letter is a 2-wide by 3-tall block *as its reader sees it*; each seat reads a tower in
its own frame, so the same lamps spell different letters for different seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache

FULL_BOARD = (1 << 16) - 1
SEAT_LIST = "south, west, north, east"  # as a refusal names the seats
COLUMNS = "abcd"


class Seat(IntEnum):
    """Seats in turn order, clockwise seen from above."""

    SOUTH = 1
    WEST = 2
    NORTH = 3
    EAST = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    def to_json(self) -> str:
        return self.label

    @classmethod
    def from_json(cls, value: object) -> Seat:
        return cls.parse(value)

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Seat.SOUTH, Seat.NORTH) else Colour.GREEN

    @property
    def opposite(self) -> Seat:
        return Seat((self.value + 1) % 4 + 1)

    @classmethod
    def parse(cls, value: object) -> Seat:
        if isinstance(value, Seat):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 4:
            return cls(value)
        if isinstance(value, str):
            key = value.strip().upper()
            if key in cls.__members__:
                return cls[key]
            if key.isdigit() and 1 <= int(key) <= 4:
                return cls(int(key))
        raise ValueError(f"unknown seat {value!r}; seats are {SEAT_LIST}")


class Colour(Enum):
    RED = "red"  # square buttons, used by South and North
    GREEN = "green"  # circle buttons, used by West and East

    @property
    def shape(self) -> str:
        return "square" if self is Colour.RED else "circle"


def lamp_index(name: str) -> int:
    """Bit index of a lamp named like ``c2``."""
    if len(name) != 2 or name[0] not in COLUMNS or name[1] not in "1234":
        raise ValueError(f"unknown lamp {name!r}; lamps are a1 to d4")
    return (int(name[1]) - 1) * 4 + COLUMNS.index(name[0])


def lamp_name(index: int) -> str:
    if not 0 <= index < 16:
        raise ValueError(f"lamp index {index} is outside 0..15")
    return f"{COLUMNS[index % 4]}{index // 4 + 1}"


LAMP_NAMES: tuple[str, ...] = tuple(lamp_name(i) for i in range(16))


def mask_of(names: list[str] | tuple[str, ...]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << lamp_index(name)
    return mask


def lamps_of(mask: int) -> list[str]:
    """Lamp names set in ``mask``, in bit order (a1, b1, ... d4)."""
    return [LAMP_NAMES[i] for i in range(16) if mask >> i & 1]


@dataclass(frozen=True)
class Tower:
    """A tower selector button and the six lamps around it."""

    name: str
    colour: Colour
    grid: tuple[int, int]  # (x, y) in its colour's button grid, for movement distances
    columns: tuple[int, ...]  # 0-based columns of its lamps, west to east
    rows: tuple[int, ...]  # 0-based rows of its lamps, south to north

    @property
    def mask(self) -> int:
        return sum(1 << (r * 4 + c) for r in self.rows for c in self.columns)

    def distance(self, other: Tower) -> int:
        """Buttons moved onto or through going from here to ``other`` (no diagonals)."""
        return abs(self.grid[0] - other.grid[0]) + abs(self.grid[1] - other.grid[1])


def _build_towers() -> dict[str, Tower]:
    towers: dict[str, Tower] = {}
    for y, row in enumerate((2, 3)):  # red buttons sit between lamps of rows 2 and 3
        for x in range(3):
            name = f"{COLUMNS[x]}{row}{COLUMNS[x + 1]}{row}"
            towers[name] = Tower(name, Colour.RED, (x, y), (x, x + 1), (row - 2, row - 1, row))
    for x, col in enumerate((1, 2)):  # green buttons sit between lamps of columns b and c
        for y, row in enumerate((1, 2, 3)):
            name = f"{COLUMNS[col]}{row}{COLUMNS[col]}{row + 1}"
            towers[name] = Tower(
                name, Colour.GREEN, (x, y), (col - 1, col, col + 1), (row - 1, row)
            )
    return towers


TOWERS: dict[str, Tower] = _build_towers()
TOWER_NAMES: tuple[str, ...] = tuple(TOWERS)
TOWER_LIST = ", ".join(TOWER_NAMES)  # as a refusal names the towers
RED_TOWERS: tuple[str, ...] = tuple(n for n, t in TOWERS.items() if t.colour is Colour.RED)
GREEN_TOWERS: tuple[str, ...] = tuple(n for n, t in TOWERS.items() if t.colour is Colour.GREEN)


def tower(name: str) -> Tower:
    try:
        return TOWERS[name]
    except KeyError:
        raise ValueError(f"unknown tower {name!r}; towers are {', '.join(TOWER_NAMES)}") from None


def towers_of(colour: Colour) -> tuple[str, ...]:
    return RED_TOWERS if colour is Colour.RED else GREEN_TOWERS


@cache
def reading_frame(seat: Seat, tower_name: str) -> tuple[int, ...]:
    """The six lamp indices a seat reads at a tower, in pattern order:
    top-left, top-right, middle-left, middle-right, bottom-left, bottom-right."""
    t = tower(tower_name)
    if t.colour is not seat.colour:
        raise ValueError(f"{seat.label} reads {seat.colour.value} towers, not {tower_name}")
    west, east = t.columns[0], t.columns[-1]
    south, north = t.rows[0], t.rows[-1]
    cells: list[int] = []
    for r in range(3):  # letter row, top first
        for c in range(2):  # letter column, left first
            if seat is Seat.SOUTH:
                col, row = west + c, north - r
            elif seat is Seat.NORTH:
                col, row = east - c, south + r
            elif seat is Seat.WEST:
                col, row = east - r, north - c
            else:
                col, row = west + r, south + c
            cells.append(row * 4 + col)
    return tuple(cells)


def read_pattern(board: int, seat: Seat, tower_name: str) -> int:
    """The 6-bit pattern a seat sees at a tower (bit 5 = top-left ... bit 0 = bottom-right)."""
    value = 0
    for index in reading_frame(seat, tower_name):
        value = value << 1 | (board >> index & 1)
    return value


def pattern_mask(pattern: int, seat: Seat, tower_name: str) -> int:
    """Board mask of the lamps that must be lit for ``pattern`` to show at the tower."""
    mask = 0
    for position, index in enumerate(reading_frame(seat, tower_name)):
        if pattern >> (5 - position) & 1:
            mask |= 1 << index
    return mask


def seat_view_cell(seat: Seat, row: int, col: int) -> int:
    """Lamp index shown at (row, col) of a 4x4 picture drawn from ``seat``'s side:
    row 0 is the far side, col 0 the reader's left."""
    if seat is Seat.SOUTH:
        board_col, board_row = col, 3 - row
    elif seat is Seat.NORTH:
        board_col, board_row = 3 - col, row
    elif seat is Seat.WEST:
        board_col, board_row = 3 - row, 3 - col
    else:
        board_col, board_row = row, col
    return board_row * 4 + board_col


def lamp_rows_for(seat: Seat, board: int) -> list[list[bool]]:
    """The board as a seat sees it: four rows, far side first, each left to right."""
    return [[bool(board >> seat_view_cell(seat, r, c) & 1) for c in range(4)] for r in range(4)]


Shape = frozenset[tuple[int, int]]  # (row, col) cells, row 0 at the top of the card


def shape_from_rows(rows: list[str]) -> Shape:
    """Parse a punched-card picture such as ``["X.", "XX"]`` (X = hole)."""
    return frozenset(
        (r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch in "Xx#"
    )


def normalise(shape: Shape) -> Shape:
    min_r = min(r for r, _ in shape)
    min_c = min(c for _, c in shape)
    return frozenset((r - min_r, c - min_c) for r, c in shape)


def orientations(shape: Shape) -> list[Shape]:
    """The distinct rotations and mirror images of a shape, first the shape itself,
    then its quarter turns clockwise, then the mirror image and its turns."""
    result: list[Shape] = []
    current = normalise(shape)
    for mirrored in (False, True):
        cells = frozenset((r, -c) for r, c in current) if mirrored else current
        for _ in range(4):
            cells = normalise(cells)
            if cells not in result:
                result.append(cells)
            cells = frozenset((c, -r) for r, c in cells)  # quarter turn clockwise
    return result


def shape_size(shape: Shape) -> tuple[int, int]:
    return (max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1)


@dataclass(frozen=True)
class Placement:
    """One way to lay a Jacquard on the exchange: the lamps it flips."""

    mask: int
    orientation: int  # index into orientations(shape)
    top_left: int  # lamp index under the card's top-left corner, as seen from South


@cache
def placements(shape: Shape) -> tuple[Placement, ...]:
    """Every placement of a shape that fits the 4x4 grid, rotated or mirrored,
    with duplicate flip masks removed."""
    seen: set[int] = set()
    result: list[Placement] = []
    for o_index, cells in enumerate(orientations(shape)):
        height, width = shape_size(cells)
        for top in range(4 - height + 1):  # top = picture row seen from South (row 0 = rank 4)
            for left in range(4 - width + 1):
                mask = 0
                for r, c in cells:
                    mask |= 1 << ((3 - (top + r)) * 4 + left + c)
                if mask not in seen:
                    seen.add(mask)
                    result.append(Placement(mask, o_index, (3 - top) * 4 + left))
    return tuple(result)
