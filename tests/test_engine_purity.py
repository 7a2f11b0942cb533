"""The engine is the rules alone: no clock, no threads, no entropy of its own, no network
or database. A game's every draw comes from the generator in its state, so a log replays
exactly and no one at the table can reconstruct the randomness."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN = {
    "random": "draws from a global generator",
    "secrets": "reads the operating system's entropy",
    "time": "reads the clock",
    "datetime": "reads the clock",
    "threading": "starts threads",
    "multiprocessing": "starts processes",
    "subprocess": "starts processes",
    "asyncio": "runs an event loop",
    "socket": "opens the network",
    "sqlite3": "opens a database",
}


def imported_modules(source: str) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module.split(".")[0])
    return modules


def test_the_engine_imports_nothing_that_reaches_outside_the_rules() -> None:
    found = [
        f"{path.relative_to(ENGINE.parent)}: imports {module} ({FORBIDDEN[module]})"
        for path in sorted(ENGINE.rglob("*.py"))
        for module in sorted(imported_modules(path.read_text(encoding="utf-8")) & FORBIDDEN.keys())
    ]
    assert not found, "\n".join(found)


def test_the_check_sees_an_import_hidden_in_a_function() -> None:
    source = "def draw():\n    import random\n    from time import monotonic\n"
    assert imported_modules(source) & FORBIDDEN.keys() == {"random", "time"}
