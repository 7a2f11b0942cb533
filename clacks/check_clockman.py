"""`clacks check-data` for Clockman's data files (engine/data/clockman/*.toml)."""

from __future__ import annotations

import sys
from pathlib import Path


def check(path: Path | None) -> int:
    """Validate a directory of Clockman data files (the shipped set when None); prints
    every problem, each naming its file, or that all are valid and which hold house
    values."""
    from engine.clockman.data import FILES, check_path, default_data_path, load_data

    where = path or default_data_path()
    problems = check_path(where)
    if problems:
        for problem in problems:
            file, sep, rest = problem.partition(": ")
            print(f"{where / file}{sep}{rest}" if file in FILES else problem, file=sys.stderr)
        print(f"{len(problems)} problem(s) in {where}", file=sys.stderr)
        return 1
    house = ", ".join(load_data(where).house_files) or "none"
    print(f"{where}: all Clockman data files are valid (house values: {house})")
    return 0
