"""`clacks check-data`: every game's data files checked by that game's own validator.

Without a directory it checks every game's shipped set; with one it checks the game the
files belong to (``--game`` says so where the names alone cannot)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

GAMES = ("clacks", "clockman", "guards")


def _problems(count: int) -> str:
    return f"{count} problem" if count == 1 else f"{count} problems"


def _report(path: Path, problems: list[str], files: tuple[str, ...], title: str) -> int:
    """Print each problem naming its file in ``path``, or that the set is valid."""
    if problems:
        for problem in problems:
            file, sep, rest = problem.partition(": ")
            print(f"{path / file}{sep}{rest}" if file in files else problem, file=sys.stderr)
        print(f"{_problems(len(problems))} in {path}", file=sys.stderr)
        return 1
    print(f"{path}: all {title} data files are valid")
    return 0


def check_clacks(path: Path | None) -> int:
    from engine.clacks.data import FILES, check_path, default_data_path

    where = path or default_data_path()
    return _report(where, check_path(where), FILES, "Clacks")


def check_clockman(path: Path | None) -> int:
    from engine.clockman.data import FILES, check_path, default_data_path, load_data

    where = path or default_data_path()
    problems = check_path(where)
    if problems:
        return _report(where, problems, FILES, "Clockman")
    house = ", ".join(load_data(where).house_files) or "none"
    print(f"{where}: all Clockman data files are valid (house values: {house})")
    return 0


def check_guards(path: Path | None) -> int:
    from engine.guards.data import FILES, check_path, default_data_path

    where = path or default_data_path()
    return _report(where, check_path(where), FILES, "Guards! Guards!")


CHECKS: dict[str, Callable[[Path | None], int]] = {
    "clacks": check_clacks,
    "clockman": check_clockman,
    "guards": check_guards,
}


def game_of(path: Path) -> str:
    """The game whose data file names the directory holds most of (Clacks on a tie or
    none, so a Clacks directory with a missing file is still checked as one)."""
    from engine.clacks.data import FILES as CLACKS_FILES
    from engine.clockman.data import FILES as CLOCKMAN_FILES
    from engine.guards.data import FILES as GUARDS_FILES

    present = {p.name for p in path.glob("*.toml")} if path.is_dir() else set()
    files = {"clacks": CLACKS_FILES, "clockman": CLOCKMAN_FILES, "guards": GUARDS_FILES}
    counts = {game: len(present & set(names)) for game, names in files.items()}
    best = max(counts.values())
    return "clacks" if counts["clacks"] == best else max(counts, key=lambda g: counts[g])


def run(path: str | None, game: str | None) -> int:
    if path is None:
        wanted = [game] if game else list(GAMES)
        return max(CHECKS[g](None) for g in wanted)
    directory = Path(path)
    return CHECKS[game or game_of(directory)](directory)
