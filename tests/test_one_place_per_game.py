"""A game lives in its own modules: no branch on a game's name and no table keyed by one
anywhere else.

Outside ``engine/<game>/`` and the modules named after a game (firmware/klackers_show.py,
clacks/simulate_clockman.py...), a registered game's name may not be compared with, be a
dict key, be one of a list, tuple or set, index a subscript or be a ``case``: the lamp
shows, board settings, attract titles, simulations and data checks come from the game
through the registry instead. The few names that mean something else are listed below,
each with why.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from engine.games import game_module, game_modules

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "firmware", "web", "clacks")
REGISTRY = Path("engine/games.py")  # the one place every game is named

# (file, name): why that name there is not a game's branch or table
ALLOWED = {
    ("firmware/diagnose.py", "clacks"): "the system user the companion runs as",
    ("clacks/hotspot_cli.py", "clacks"): "the command's own name, as the owner types it again",
    ("clacks/bench.py", "klackers"): "a benchmark section's name (`clacks bench --only`)",
}


def game_names() -> set[str]:
    return set(game_modules())


def game_packages() -> set[str]:
    """The engine packages the registered games live in (engine/<package>/)."""
    return {type(module).__module__.split(".")[1] for module in game_modules().values()}


def belongs_to_a_game(path: Path) -> bool:
    parts = path.parts
    if parts[0] == "engine" and len(parts) > 2 and parts[1] in game_packages():
        return True
    stem_parts = path.stem.split("_")
    return any(name.replace("-", "_") in (path.stem, *stem_parts) for name in game_names())


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _uses(node: ast.AST) -> list[tuple[ast.AST | None, str]]:
    """The parts of ``node`` that would be a branch on, or table of, what they hold."""
    if isinstance(node, ast.Compare):
        return [(operand, "compared") for operand in (node.left, *node.comparators)]
    if isinstance(node, ast.Dict):
        return [(key, "a dict key") for key in node.keys]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [(element, "one of a collection") for element in node.elts]
    if isinstance(node, ast.Subscript):
        return [(node.slice, "an index")]
    if isinstance(node, ast.MatchValue):
        return [(node.value, "a case")]
    return []


def game_name_uses(source: str) -> list[tuple[int, str, str]]:
    """(line, name, how) for every branch on, or table of, a game's name in ``source``."""
    names = game_names()
    found: dict[tuple[int, str], str] = {}
    for node in ast.walk(ast.parse(source)):
        for part, how in _uses(node):
            name = _text(part)
            if name in names and isinstance(part, ast.expr | ast.stmt):
                found.setdefault((part.lineno, name), how)
    return sorted((line, name, how) for (line, name), how in found.items())


def shared_modules() -> list[Path]:
    files = [p.relative_to(ROOT) for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    return sorted(p for p in files if p != REGISTRY and not belongs_to_a_game(p))


def test_no_branch_or_table_on_a_game_name_outside_the_game() -> None:
    offences = []
    allowed_seen = set()
    for path in shared_modules():
        for line, name, how in game_name_uses((ROOT / path).read_text(encoding="utf-8")):
            if (path.as_posix(), name) in ALLOWED:
                allowed_seen.add((path.as_posix(), name))
            else:
                offences.append(f"{path}:{line}: {name!r} is {how}")
    assert offences == [], "a game's part belongs in the game's own module:\n" + "\n".join(
        offences
    )
    assert allowed_seen == set(ALLOWED), f"no longer needed: {set(ALLOWED) - allowed_seen}"


def test_the_check_sees_each_kind_of_branch_and_table() -> None:
    source = '''
if game == "klackers": pass
if args.game in ("clockman", "guards"): pass
TITLES = {"clacks": "GNU"}
choices = ["guards"]
title = titles["clockman"]
match game:
    case "klackers": pass
'''
    assert [(line, name) for line, name, _ in game_name_uses(source)] == [
        (2, "klackers"),
        (3, "clockman"),
        (3, "guards"),
        (4, "clacks"),
        (5, "guards"),
        (6, "clockman"),
        (8, "klackers"),
    ]
    # a game's name passed on, or a word that is no game's, is neither
    assert game_name_uses('show = game_module("clacks")\nif mode == "trainer": pass\n') == []


def test_a_game_s_own_modules_are_told_apart_from_shared_ones() -> None:
    assert belongs_to_a_game(Path("firmware/klackers_show.py"))
    assert belongs_to_a_game(Path("clacks/simulate_clockman.py"))
    assert belongs_to_a_game(Path("engine/guards/rules.py"))
    assert not belongs_to_a_game(Path("engine/core/interface.py"))
    assert not belongs_to_a_game(Path("clacks/simulate.py"))
    assert not belongs_to_a_game(Path("firmware/shows.py"))


# (file, game package): why that shared module imports a game's engine package
IMPORTS_ALLOWED = {
    ("firmware/bench.py", "clacks"): "it measures a Clacks move from press to frame",
    ("firmware/cli.py", "clacks"): "the lamp test names the lamps a1 to d4 as the board does",
    ("firmware/layout.py", "clacks"): "the exchange is built to the Clacks board: its lamp "
    "and tower names place the windows, pixels and buttons every game shares",
}


def game_imports(source: str) -> set[str]:
    """The games' engine packages ``source`` imports from."""
    packages = game_packages()
    found = set()
    for node in ast.walk(ast.parse(source)):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.append(node.module)
        found |= {m.split(".")[1] for m in modules if m.startswith("engine.") and m.count(".")}
    return found & packages


def test_the_box_s_firmware_and_web_app_import_no_game_outside_its_own_modules() -> None:
    offences = []
    for path in shared_modules():
        if path.parts[0] not in ("firmware", "web"):
            continue  # clacks/ is the command line, whose play, bench and terminal are Clacks'
        for package in game_imports((ROOT / path).read_text(encoding="utf-8")):
            if (path.as_posix(), package) not in IMPORTS_ALLOWED:
                offences.append(f"{path} imports engine.{package}")
    assert offences == []
    assert game_imports("from engine.klackers.module import KlackersModule\n") == {"klackers"}


def test_the_readme_s_layout_has_a_row_for_every_game_s_package() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    layout = layout[: layout.index("\n\n", layout.index("| folder |"))]
    missing = [p for p in sorted(game_packages()) if f"`engine/{p}/`" not in layout]
    assert missing == [], f"README.md's layout names no folder for {missing}"


def mutation_scopes() -> dict[str, dict[str, object]]:
    """Each game package's mutation.toml, by the package's name."""
    scopes = {}
    for package in sorted(game_packages()):
        path = ROOT / "engine" / package / "mutation.toml"
        if path.exists():
            scopes[package] = tomllib.loads(path.read_text(encoding="utf-8"))
    return scopes


def test_every_game_s_mutation_scope_is_its_own_and_is_in_the_docs() -> None:
    scopes = mutation_scopes()
    assert set(scopes) == game_packages()  # every game's rules are mutated
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "clacks-mutation" not in project["tool"]  # a second place for a game's scope
    docs = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    for package, scope in scopes.items():
        mutated, tests = scope["mutate"], scope["tests"]
        assert isinstance(mutated, list) and isinstance(tests, list)
        assert all(m.startswith(f"engine/{package}/") for m in mutated), package
        assert all((ROOT / path).exists() for path in [*mutated, *tests]), package
        title = game_module(package).title
        assert f"\n### {title}" in docs and f"\n| {title} |" in docs, title


def test_the_readme_names_the_lesson_of_every_game_that_has_one() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    taught = {
        type(module).__module__.split(".")[1]
        for module in game_modules().values()
        if module.tutorial_start() is not None
    }
    missing = [p for p in sorted(taught) if f"`engine/{p}/tutorial.py`" not in readme]
    assert missing == [], f"README.md's Learn to play names no lesson of {missing}"
