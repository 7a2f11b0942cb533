"""The box every game is played on: sixteen lamps in a 4x4 matrix and twelve buttons.

Lamps are named like chess squares seen from the South side (columns a..d left to
right, rows 1..4 near to far) and are bit ``row * 4 + col`` of a lamp mask, as in
``LampFrame``. Each button sits between two neighbouring lamps and is named by them
(``b2c2`` sits between b2 and c2); these are the names the firmware's button readers
report and ``Session.button_action`` receives.
"""

from __future__ import annotations

COLUMNS = "abcd"
LAMP_NAMES: tuple[str, ...] = tuple(f"{COLUMNS[i % 4]}{i // 4 + 1}" for i in range(16))
BUTTONS: tuple[str, ...] = (
    "a2b2", "b2c2", "c2d2", "a3b3", "b3c3", "c3d3",  # between two lamps of a row
    "b1b2", "b2b3", "b3b4", "c1c2", "c2c3", "c3c4",  # between two lamps of a column
)  # fmt: skip


def lamp_index(name: str) -> int:
    """The bit of a lamp named like ``c2``; ValueError for anything else."""
    if name not in LAMP_NAMES:
        raise ValueError(f"unknown lamp {name!r}; lamps are a1 to d4")
    return LAMP_NAMES.index(name)
