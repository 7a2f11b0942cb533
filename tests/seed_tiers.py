"""Seeded runs split between the tiers: the first few seeds in the fast tier, the rest
in the full one, in batches the test runner's workers play side by side."""

from __future__ import annotations

import pytest


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
