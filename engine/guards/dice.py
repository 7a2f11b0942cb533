"""The eight-sided die and the tests made with it, with the exact chance of passing.

Every test is ``d8 + base >= target``; the kinds differ only in what a natural 1 or 8
does (the rulebook's sections, and the rulings of docs/guards.md):

- ``recruit`` (a Charm roll for a Volunteer): a natural 8 always recruits (and may win
  an extra recruit), a natural 1 always fails;
- ``plain`` (Magic, Guild, Loyalty and the Watch House's Charm 7, ruling 4): a natural 8
  counts 8, a first natural 1 fails;
- ``open`` (Wizards' Challenges, combat, dragon fights): a natural 8 is rolled again and
  added, again and again (ruling 3; the ``cap_eights`` option allows one re-roll), a
  first natural 1 fails, a 1 after an 8 counts 1 (the FAQ: 8 + 1 = 9).

Chances are exact fractions: an open roll's value has an infinite tail, but its
probabilities repeat every eight with a factor of 1/8, so every sum is a geometric series
summed in closed form.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from engine.core.rng import Rng

SIDES = 8
KINDS = ("recruit", "plain", "open")
ONE_EIGHTH = Fraction(1, SIDES)


@dataclass(frozen=True)
class Roll:
    """What the die showed for one test: every face rolled, in order."""

    faces: tuple[int, ...]

    @property
    def value(self) -> int:
        return sum(self.faces)

    @property
    def natural(self) -> int:
        return self.faces[0]


def roll_die(rng: Rng) -> int:
    return rng.below(SIDES) + 1


def roll(rng: Rng, kind: str, cap_eights: bool = False) -> Roll:
    """Roll for a test of ``kind``: one face, or for an open roll one more after every 8
    (after the first only, with ``cap_eights``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of test {kind!r}")
    faces = [roll_die(rng)]
    if kind == "open":
        while faces[-1] == SIDES and not (cap_eights and len(faces) > 1):
            faces.append(roll_die(rng))
    return Roll(tuple(faces))


def passes(kind: str, base: int, target: int, rolled: Roll) -> bool:
    first = rolled.natural
    if first == 1:
        return False
    if kind == "recruit" and first == SIDES:
        return True
    return base + rolled.value >= target


# --------------------------------------------------------------------- exact chances


def _open_at_least(m: int, cap_eights: bool) -> Fraction:
    """P(an open roll's value >= m), counting a first natural 1 as no value at all."""
    if cap_eights:
        # 2..7, or 8 + one more face (1..8)
        count = sum(1 for v in range(2, 8) if v >= m)
        more = sum(1 for v in range(1, 9) if 8 + v >= m)
        return Fraction(count, 8) + Fraction(more, 64)
    if m <= 2:
        return Fraction(7, 8)
    if m <= 8:
        return Fraction(9 - m, 8)
    # m = 8j + r with j >= 1, 1 <= r <= 8: the faces after j eights must reach r
    j, r = divmod(m - 1, 8)
    r += 1
    return Fraction(9 - r, 8 ** (j + 1))


@cache
def chance(kind: str, base: int, target: int, cap_eights: bool = False) -> Fraction:
    """The exact chance that ``d8 + base >= target`` passes a test of ``kind``."""
    need = target - base
    if kind == "open":
        return _open_at_least(need, cap_eights)
    faces = [f for f in range(2, SIDES + 1) if f + base >= target or (kind == "recruit" and f == SIDES)]
    return Fraction(len(faces), SIDES)


def chance_table(kind: str, base: int, cap_eights: bool = False, top: int = 40) -> list[str]:
    """The chance for every target from 0 to ``top``, as fractions in text ("7/8"), for
    a page to look up the target a player types in."""
    return list(_table(kind, base, cap_eights, top))


@cache
def _table(kind: str, base: int, cap_eights: bool, top: int) -> tuple[str, ...]:
    return tuple(str(chance(kind, base, t, cap_eights)) for t in range(top + 1))


def _open_distribution(cap_eights: bool) -> list[tuple[int, Fraction]]:
    """An open roll's values up to the point where the rest is one geometric tail:
    (value, probability) for the first natural 1 (value 0, a failure) and 2..15."""
    out: list[tuple[int, Fraction]] = [(0, ONE_EIGHTH)]
    out += [(v, ONE_EIGHTH) for v in range(2, 8)]
    if cap_eights:
        out += [(8 + v, Fraction(1, 64)) for v in range(1, 9)]
    return out


@cache
def attack_chance(attack: int, defence: int, cap_eights: bool = False) -> Fraction:
    """The exact chance that a Brawl roll ``d8 + attack`` hits a Toughness roll
    ``d8 + defence`` (both open rolls): the attack must not be a natural 1 and must beat
    the defence, unless the defence is a natural 1 (ruling 5)."""
    diff = attack - defence
    if cap_eights:
        total = Fraction(0)
        for a_value, a_p in _open_distribution(True):
            if a_value == 0:
                continue
            for d_value, d_p in _open_distribution(True):
                if d_value == 0 or diff + a_value > d_value:
                    total += a_p * d_p
        return total
    # P(hit) = sum over the attack's values x >= 2 of P(x) * (1 - P(defence >= diff + x)),
    # where "defence >= m" leaves out the defence's natural 1 (which loses).
    total = Fraction(0)
    for x in range(2, 8):
        total += ONE_EIGHTH * (1 - _open_at_least(diff + x, False))
    # x = 8k + s (k >= 1, 1 <= s <= 7) with probability 8^-(k+1); once diff + x >= 9
    # the defence's tail is (9 - r) * 8^-(j+1), so the rest is a geometric series in 1/64
    k = 1
    while diff + 8 * k + 1 < 9:
        for s in range(1, 8):
            total += Fraction(1, 8 ** (k + 1)) * (1 - _open_at_least(diff + 8 * k + s, False))
        k += 1
    # from k on: sum_s sum_{k'>=k} 8^-(k'+1) * (1 - (9 - r) 8^-(j+1))
    for s in range(1, 8):
        m0 = diff + 8 * k + s  # >= 9
        j0, r = divmod(m0 - 1, 8)
        r += 1
        # j = j0 + (k' - k); sum over k' >= k of 8^-(k'+1) is 8^-(k+1) * 8/7
        mass = Fraction(1, 8 ** (k + 1)) * Fraction(8, 7)
        # sum over t >= 0 of 8^-(k+t+1) * (9 - r) * 8^-(j0+t+1) = (9-r) 8^-(k+j0+2) * 64/63
        tail = Fraction(9 - r, 8 ** (k + j0 + 2)) * Fraction(64, 63)
        total += mass - tail
    return total


def percent(value: Fraction) -> float:
    return round(float(value) * 100, 1)
