"""Runs split between the tiers: the first few seeds in the fast tier, the rest in the
full one, in batches the test runner's workers play side by side; and sweeps over every
table or lesson, a few cases of them in the fast tier, the rest in the full one."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

import pytest

Case = TypeVar("Case")


def fast_then_slow_batches(total: int, fast: int, batches: int) -> list[object]:
    """``range(fast)`` as ``first``, then seeds ``fast`` to ``total`` in ``batches``
    ranges of nearly equal size, each marked slow."""
    rest = total - fast
    slow = [
        pytest.param(
            range(fast + b * rest // batches, fast + (b + 1) * rest // batches),
            id=f"batch{b}",
            marks=pytest.mark.slow,
        )
        for b in range(batches)
    ]
    return [pytest.param(range(fast), id="first"), *slow]


def first_of_each(cases: Iterable[Case], kind: Callable[[Case], Hashable]) -> list[Case]:
    """The first case of each ``kind``, in order."""
    seen: dict[Hashable, Case] = {}
    for case in cases:
        seen.setdefault(kind(case), case)
    return list(seen.values())


def fast_and_slow(
    cases: Sequence[Case], fast: Sequence[Case], ids: Callable[[Case], str]
) -> list[object]:
    """Every case as a test parameter named by ``ids``: those in ``fast`` in the fast
    tier, the others marked slow, so the full tier runs each of them once. A tuple is
    the values of several argument names."""
    missing = [ids(case) for case in fast if case not in cases]
    assert not missing, f"fast cases that are not cases: {missing}"
    return [
        pytest.param(
            *(case if isinstance(case, tuple) else (case,)),
            id=ids(case), marks=[] if case in fast else [pytest.mark.slow],
        )
        for case in cases
    ]
