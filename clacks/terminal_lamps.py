"""Lamps drawn as text: how every terminal screen (the game, its map, the trainer) shows a
lamp lit or dark and a tower's six-lamp pattern."""

from __future__ import annotations

ON, OFF = "●", "·"


def pattern_picture(pattern: int) -> list[str]:
    bits = [(pattern >> (5 - i)) & 1 for i in range(6)]
    return ["".join(ON if bits[r * 2 + c] else OFF for c in range(2)) for r in range(3)]
