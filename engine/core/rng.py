"""A small seeded generator whose whole state is one integer.

The standard library's Mersenne Twister carries 625 words of state and its algorithms may
change between Python versions; a game must replay identically from its saved log on any
machine, so the engine uses SplitMix64 and its own unbiased bounded draws instead.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """SplitMix64: fast, well distributed, and trivially serialisable."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), by rejection so no value is favoured."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list[T], count: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:count]

    def copy(self) -> Rng:
        return Rng(self.state)

    def to_json(self) -> object:
        """The generator's whole state as JSON, for a game state's own serialisation."""
        return self.state

    @classmethod
    def from_json(cls, data: object) -> Rng:
        """The generator ``to_json`` described; ValueError for anything else."""
        if not isinstance(data, int) or isinstance(data, bool):
            raise ValueError(f"a generator state must be a whole number, not {data!r}")
        return cls(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"
