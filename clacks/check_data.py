"""`clacks check-data`: every game's data files checked by that game's own validator.

Without a directory it checks every game's shipped set; with one it checks the game the
files belong to (``--game`` says so where the names alone cannot). The games, their files
and their checkers come from the registry (``GameModule.data_check``)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.core.data_check import DataCheck
from engine.games import DEFAULT_GAME, game_modules


def data_checks() -> dict[str, DataCheck]:
    """Every game that reads data files of its own, in the registry's order."""
    checks = {name: module.data_check() for name, module in game_modules().items()}
    return {name: check for name, check in checks.items() if check is not None}


def _problems(count: int) -> str:
    return f"{count} problem" if count == 1 else f"{count} problems"


def check(game: DataCheck, path: Path | None) -> int:
    """Print each problem naming its file in the directory, or that the set is valid."""
    where = path or game.default_path()
    problems = game.check(where)
    if problems:
        for problem in problems:
            file, sep, rest = problem.partition(": ")
            print(f"{where / file}{sep}{rest}" if file in game.files else problem, file=sys.stderr)
        print(f"{_problems(len(problems))} in {where}", file=sys.stderr)
        return 1
    print(f"{where}: all {game.title} data files are valid{game.valid_note(where)}")
    return 0


def game_of(path: Path) -> str:
    """The game whose data file names the directory holds most of (the default game on a
    tie or none, so a Clacks directory with a missing file is still checked as one)."""
    present = {p.name for p in path.glob("*.toml")} if path.is_dir() else set()
    counts = {name: len(present & set(c.files)) for name, c in data_checks().items()}
    best = max(counts.values())
    return DEFAULT_GAME if counts.get(DEFAULT_GAME) == best else max(counts, key=counts.__getitem__)


def run(path: str | None, game: str | None) -> int:
    checks = data_checks()
    if path is None:
        wanted = [game] if game else list(checks)
        return max(check(checks[name], None) for name in wanted)
    directory = Path(path)
    return check(checks[game or game_of(directory)], directory)
