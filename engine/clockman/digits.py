"""Date-key arithmetic: what a player's digits make, and which digit they may take.

A player's digits are counts of the real digits "0", "1", "2" and of jokers "X" (a lift
is used at once, never kept). The date key 01.01.2000 needs five 0s, two 1s (ruling 1)
and one 2; a joker stands in for any missing digit.

Rulings (docs/clockman.md):

- A real digit may always be taken while the player holds fewer of it than the key
  needs, even if a joker was standing in for it: jokers float, and that joker becomes a
  spare (ruling 7).
- Otherwise a digit is a surplus: allowed only up to the Hamster rule's allowance (one
  with the Hamster rule, any number with its extended form, none without). A joker
  taken while nothing is missing is a surplus too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

REAL = ("0", "1", "2")
JOKER = "X"
KEPT = (*REAL, JOKER)  # what a player can hold

Digits = dict[str, int]


def empty() -> Digits:
    return {d: 0 for d in KEPT}


def counted(values: Iterable[str]) -> Digits:
    out = empty()
    for value in values:
        out[value] += 1
    return out


def listed(digits: Mapping[str, int]) -> list[str]:
    """The digits one by one, in the order 0, 1, 2, X."""
    return [d for d in KEPT for _ in range(digits[d])]


def shortage(held: Mapping[str, int], need: Mapping[str, int]) -> int:
    """Real digits missing from the key, before any joker stands in."""
    return sum(max(0, need[d] - held[d]) for d in REAL)


def missing(held: Mapping[str, int], need: Mapping[str, int]) -> int:
    """Digits still missing once the jokers stand in."""
    return max(0, shortage(held, need) - held[JOKER])


def complete(held: Mapping[str, int], need: Mapping[str, int]) -> bool:
    return missing(held, need) == 0


def surplus_real(held: Mapping[str, int], need: Mapping[str, int]) -> int:
    return sum(max(0, held[d] - need[d]) for d in REAL)


def spare_jokers(held: Mapping[str, int], need: Mapping[str, int]) -> int:
    return max(0, held[JOKER] - shortage(held, need))


def surplus(held: Mapping[str, int], need: Mapping[str, int]) -> int:
    """Digits held beyond a complete key (real ones and spare jokers)."""
    return surplus_real(held, need) + spare_jokers(held, need)


def spares(held: Mapping[str, int], need: Mapping[str, int]) -> list[str]:
    """The kinds of digit held beyond the key (what a Hamster may lose to a knock)."""
    kinds = [d for d in REAL if held[d] > need[d]]
    if spare_jokers(held, need):
        kinds.append(JOKER)
    return kinds


def fills_a_gap(held: Mapping[str, int], digit: str, need: Mapping[str, int]) -> bool:
    if digit == JOKER:
        return shortage(held, need) > held[JOKER]
    return held[digit] < need[digit]


def may_take(held: Mapping[str, int], digit: str, need: Mapping[str, int], allowance: int) -> bool:
    """Whether a player holding ``held`` may take one more ``digit``."""
    if fills_a_gap(held, digit, need):
        return True
    after = dict(held)
    after[digit] += 1
    return surplus(after, need) <= allowance


def may_swap(
    before: Mapping[str, int], after: Mapping[str, int], need: Mapping[str, int], allowance: int
) -> bool:
    """Whether a trade may turn ``before`` into ``after``: no real surplus beyond the
    allowance, and no more surplus than before unless the allowance covers it."""
    if surplus_real(after, need) > allowance:
        return False
    return surplus(after, need) <= max(allowance, surplus(before, need))


def slots(date: Mapping[str, int], pending: Mapping[str, int], key: str) -> list[str]:
    """What each position of the date key shows: ``held`` (a real digit in the key),
    ``pending`` (a real digit taken but not yet transferred), ``joker`` or
    ``joker_pending`` (a joker standing in), or ``missing``."""
    in_key = dict(date)
    aside = dict(pending)
    shown: list[str] = []
    for digit in key:
        if in_key[digit] > 0:
            in_key[digit] -= 1
            shown.append("held")
        elif aside[digit] > 0:
            aside[digit] -= 1
            shown.append("pending")
        else:
            shown.append("missing")
    jokers = ["joker"] * in_key[JOKER] + ["joker_pending"] * aside[JOKER]
    for index, state in enumerate(shown):
        if state == "missing" and jokers:
            shown[index] = jokers.pop(0)
    return shown
