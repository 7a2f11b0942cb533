"""Value types for the physical components: Jacquards, Fault Reports, the whole set."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.clacks.effects import Timing
from engine.clacks.geometry import Placement, Shape, orientations, placements, shape_size

SYMBOL_NAMES: tuple[str, ...] = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "SPACE", "END")


@dataclass(frozen=True)
class JacquardDesign:
    id: str
    name: str
    shape: Shape
    cost: int
    count: int
    faults: int

    @property
    def placements(self) -> tuple[Placement, ...]:
        return placements(self.shape)

    @property
    def orientations(self) -> list[Shape]:
        return orientations(self.shape)

    def picture(self) -> list[str]:
        return list(self._picture)

    @cached_property
    def _picture(self) -> tuple[str, ...]:
        height, width = shape_size(self.shape)
        return tuple(
            "".join("X" if (r, c) in self.shape else "." for c in range(width))
            for r in range(height)
        )


@dataclass(frozen=True)
class Jacquard:
    """One physical card in the bag."""

    id: str
    design: JacquardDesign
    fault: bool

    @property
    def cost(self) -> int:
        return self.design.cost

    @property
    def masks(self) -> frozenset[int]:
        return _mask_set(self.design.shape)


_MASK_SETS: dict[Shape, frozenset[int]] = {}


def _mask_set(shape: Shape) -> frozenset[int]:
    found = _MASK_SETS.get(shape)
    if found is None:
        found = frozenset(p.mask for p in placements(shape))
        _MASK_SETS[shape] = found
    return found


@dataclass(frozen=True)
class CardDesign:
    """A Fault Report, Incident Report or Operator's Log design."""

    id: str
    name: str
    text: str
    count: int
    effect: str
    when: Timing
    params: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # mode-specific settings


@dataclass(frozen=True)
class Card:
    id: str
    design: CardDesign


@dataclass(frozen=True)
class ComponentSet:
    alphabet: dict[str, int]  # symbol -> 6-bit pattern, bit 5 = top-left
    layout: int  # starting board
    words: tuple[str, ...]
    jacquards: dict[str, Jacquard]
    faults: dict[str, Card]
    source: str  # where it was loaded from, for messages
    digest: str  # content hash, so a save can tell which set it was played with

    def pattern(self, symbol: str) -> int:
        return self.alphabet[symbol]

    def symbol_for(self, pattern: int) -> str | None:
        for name, value in self.alphabet.items():
            if value == pattern:
                return name
        return None
