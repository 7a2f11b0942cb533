"""Mutation testing of each game's rules: ./run mutate [GAME ...] [--again].

Each game runs in its own directory, .mutation/GAME/, so that mutmut (which reads its
settings from the pyproject.toml of the directory it runs in and keeps its mutants and
results there) mutates only that game's rules modules and runs only that game's fast rule
tests, one mutant at a time. The shared settings are pyproject.toml's [tool.mutmut]; each
game's scope is the mutation.toml in its own package, engine/GAME/ (mutate, tests, deselect,
and the equivalent mutants with the reason each changes nothing a player or a test can
observe), for every package of a game registered in engine/games.py.

Results are kept between runs: a second run tries only the mutants whose function changed.
--again re-runs the mutants that survived last time (after a test was added for them).
Prints, per game: mutants, killed, survived, equivalent, timed out, no tests, and the time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from engine.games import game_modules

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
# mutmut's own meaning of a worker's exit code (mutmut.stats.status_by_exit_code)
KILLED = {1, 3}
SURVIVED = {0}
TIMED_OUT = {36, -24, 24, 152, 255}
NO_TESTS = {5, 33}


@dataclass(frozen=True)
class GameScope:
    name: str
    mutate: list[str]
    tests: list[str]
    equivalent: dict[str, str]
    deselect: list[str]


def scope_files() -> dict[str, Path]:
    """Each registered game's package (engine/<package>/, by its name) that has a
    mutation.toml: one scope per package, shared by the games it holds."""
    files = {}
    for module in game_modules().values():
        package = Path(sys.modules[type(module).__module__].__file__ or "").parent
        if (package / "mutation.toml").exists():
            files[package.name] = package / "mutation.toml"
    return dict(sorted(files.items()))


def load_scopes() -> tuple[dict[str, object], dict[str, GameScope]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    shared = project["tool"]["mutmut"]
    scopes = {}
    for name, path in scope_files().items():
        table = tomllib.loads(path.read_text("utf-8"))
        scopes[name] = GameScope(
            name,
            table["mutate"],
            table["tests"],
            table.get("equivalent", {}),
            table.get("deselect", []),
        )
    return shared, scopes


def toml_value(value: object) -> str:
    # strings, booleans, numbers and lists of strings: JSON writes them as TOML reads them
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def prepare(scope: GameScope, shared: dict[str, object]) -> Path:
    """The game's directory: the tree it needs, linked, and mutmut's settings for it."""
    here = WORK / scope.name
    here.mkdir(parents=True, exist_ok=True)
    also_copy = shared.get("also_copy", [])
    assert isinstance(also_copy, list)
    for part in ("engine", "tests", *also_copy):
        link = here / part
        if not link.is_symlink():
            link.symlink_to(ROOT / part)
    settings = dict(shared)
    settings["only_mutate"] = scope.mutate
    settings["pytest_add_cli_args_test_selection"] = scope.tests + [
        arg for test in scope.deselect for arg in ("--deselect", test)
    ]
    lines = ["# written by tools/mutate.py from pyproject.toml and the game's mutation.toml"]
    lines.append("[tool.mutmut]")
    lines += [f"{key} = {toml_value(value)}" for key, value in settings.items()]
    (here / "pyproject.toml").write_text("\n".join(lines) + "\n", "utf-8")
    return here


def exit_codes(here: Path) -> dict[str, int | None]:
    codes: dict[str, int | None] = {}
    for meta in sorted((here / "mutants").rglob("*.py.meta")):
        codes.update(json.loads(meta.read_text("utf-8"))["exit_code_by_key"])
    return codes


def tally(scope: GameScope, codes: dict[str, int | None]) -> tuple[Counter[str], list[str]]:
    counts: Counter[str] = Counter()
    survivors = []
    for name, code in codes.items():
        counts["mutants"] += 1
        if code in KILLED:
            counts["killed"] += 1
        elif code in SURVIVED and name in scope.equivalent:
            counts["equivalent"] += 1
        elif code in SURVIVED:
            counts["survived"] += 1
            survivors.append(name)
        elif code in TIMED_OUT:
            counts["timed out"] += 1
        elif code in NO_TESTS:
            counts["no tests"] += 1
        elif code is None:
            counts["not run yet"] += 1
        else:
            counts["other"] += 1
    return counts, survivors


def stale_equivalents(scope: GameScope, codes: dict[str, int | None]) -> dict[str, str]:
    """The mutants mutation.toml calls equivalent that a test now kills, or that mutmut
    no longer makes (the code changed): each listing is wrong and must go or be renamed."""
    stale = {}
    for name in scope.equivalent:
        code = codes.get(name, "gone")
        if code == "gone":
            stale[name] = "mutmut makes no such mutant now"
        elif code in KILLED or code in TIMED_OUT:
            stale[name] = "a test kills it"
    return stale


def run_game(scope: GameScope, shared: dict[str, object], again: bool) -> int:
    here = prepare(scope, shared)
    names = []
    if again:
        names = [
            n for n, c in exit_codes(here).items() if c in SURVIVED and n not in scope.equivalent
        ]
        if not names:
            print(f"== {scope.name}: no survivors to run again ==")
    started = time.monotonic()
    if not again or names:
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", "1", *names]
        # the mutants import the mutated copy of engine/, never the project's own
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        finished = subprocess.run(command, cwd=here, env=env, check=False)
        if finished.returncode != 0:
            print(f"mutate: mutmut stopped for {scope.name} (exit {finished.returncode})")
            return finished.returncode
    minutes = (time.monotonic() - started) / 60
    counts, survivors = tally(scope, exit_codes(here))
    figures = ", ".join(
        f"{counts[key]} {key}"
        for key in (
            "mutants",
            "killed",
            "survived",
            "equivalent",
            "timed out",
            "no tests",
            "not run yet",
            "other",
        )
        if counts[key] or key in ("mutants", "killed", "survived", "timed out")
    )
    print(f"== {scope.name}: {figures} ({minutes:.1f} min) ==")
    for name in sorted(survivors):
        print(f"   survived: {name}")
    for name, why in sorted(stale_equivalents(scope, exit_codes(here)).items()):
        print(f"   listed as equivalent, but {why}: {name}")
    if survivors:
        print(
            f"   (each one's change: cd {here.relative_to(ROOT)} && ../../.venv/bin/mutmut show NAME)"
        )
    return 0


def main(argv: list[str]) -> int:
    shared, scopes = load_scopes()
    parser = argparse.ArgumentParser(prog="./run mutate", description=__doc__.splitlines()[0])
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help=f"one or more of {', '.join(scopes)} (default: every game, one at a time)",
    )
    parser.add_argument("--again", action="store_true", help="re-run last run's survivors only")
    args = parser.parse_args(argv)
    unknown = [game for game in args.games if game not in scopes]
    if unknown:
        parser.error(f"no game {', '.join(unknown)}; the games are {', '.join(scopes)}")
    status = 0
    for game in args.games or list(scopes):
        status = run_game(scopes[game], shared, args.again) or status
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
