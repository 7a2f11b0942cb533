"""The Raspberry Pi side of the Clacks Exchange: the LED matrix, the tower buttons, a
simulator for machines without them, and the process that wires them to the games.

``create_board()`` builds the exchange this machine can run (see factory.py; real LED
drivers are imported only when chosen); the companion (companion.py) keeps it in step
with a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware.factory import create_board

__all__ = ["create_board"]


def __getattr__(name: str) -> Any:
    # the factory (and through it every game's board settings) loads on first use, so
    # that what needs only a small part of the Pi side (a fresh seed) starts quickly
    if name == "create_board":
        from firmware.factory import create_board

        return create_board
    raise AttributeError(f"module 'firmware' has no attribute {name!r}")
