"""A game's own data files as ``clacks check-data`` checks them (``GameModule.data_check``).

The command knows no game: it asks each registered game for its files and checker, finds
whose files a directory holds, and prints each problem naming its file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


def _nothing_more(path: Path) -> str:
    return ""


@dataclass(frozen=True)
class DataCheck:
    title: str  # the game as the report names it
    files: tuple[str, ...]  # the names of the files a data directory of the game holds
    default_path: Callable[[], Path]  # the shipped set
    check: Callable[[Path], list[str]]  # every problem, each starting "<file>: "
    # what a valid set's report adds after "valid" (Clockman: its house values)
    valid_note: Callable[[Path], str] = _nothing_more
