"""Percentiles for the figures the simulations and benchmarks print."""

from __future__ import annotations

from typing import TypeVar

N = TypeVar("N", int, float)


def percentile(values: list[N], share: float) -> N:
    """The value at ``share`` of the way up ``values`` sorted (0.9: the 90th percentile)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
