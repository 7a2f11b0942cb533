"""The nine numbers and the two dice, as arithmetic.

A player's standing numbers are a 9-bit mask: bit ``n - 1`` is set while ``n`` stands.
Every question the rules and the bots ask (what does this set add up to, which of its
subsets make this total, how likely is each total) is answered here, once, from tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache

NUMBERS: tuple[int, ...] = tuple(range(1, 10))
ALL_STANDING = (1 << 9) - 1
FACES = 6
ONE_DIE_LIMIT = 6  # the one-die option opens once the standing numbers total this or less


def bit(number: int) -> int:
    return 1 << (number - 1)


def mask_of(numbers: Iterable[int]) -> int:
    mask = 0
    for number in numbers:
        mask |= bit(number)
    return mask


_NUMBERS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in NUMBERS if mask >> (n - 1) & 1) for mask in range(ALL_STANDING + 1)
)
MASK_TOTAL: tuple[int, ...] = tuple(sum(numbers) for numbers in _NUMBERS_OF)


def numbers_of(mask: int) -> tuple[int, ...]:
    """The numbers in ``mask`` (any bits above the ninth ignored), smallest first."""
    return _NUMBERS_OF[mask & ALL_STANDING]


def total(mask: int) -> int:
    return MASK_TOTAL[mask]


@cache
def combinations(standing: int, target: int) -> tuple[int, ...]:
    """Every set of standing numbers that adds up to ``target``, as masks: fewest
    numbers first, then highest numbers first (the order the phones list them in)."""
    found: list[int] = []
    subset = standing
    while subset:
        if MASK_TOTAL[subset] == target:
            found.append(subset)
        subset = (subset - 1) & standing
    return tuple(
        sorted(found, key=lambda m: (m.bit_count(), [-n for n in reversed(numbers_of(m))]))
    )


def fits(standing: int, target: int) -> bool:
    return bool(combinations(standing, target))


def one_die_allowed(standing: int) -> bool:
    return 0 < total(standing) <= ONE_DIE_LIMIT


def _two_dice() -> tuple[tuple[int, Fraction], ...]:
    ways: dict[int, int] = {}
    for a in range(1, FACES + 1):
        for b in range(1, FACES + 1):
            ways[a + b] = ways.get(a + b, 0) + 1
    return tuple((t, Fraction(n, FACES * FACES)) for t, n in sorted(ways.items()))


TWO_DICE: tuple[tuple[int, Fraction], ...] = _two_dice()  # (total, probability), 2..12
ONE_DIE: tuple[tuple[int, Fraction], ...] = tuple((f, Fraction(1, FACES)) for f in range(1, 7))
