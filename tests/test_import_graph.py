"""The house's floors: engine < firmware < web < clacks, imports going down only, and no
module reaching itself again through its imports.

Every import is read from the source (the AST), wherever it stands: at the top, inside a
function, under ``if TYPE_CHECKING:``. ``from a.b import c`` counts as an import of the
module ``a.b.c`` when there is one, else of ``a.b``; like import-linter's graph, it is not
also counted as an import of the package ``a`` above it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engine", "firmware", "web", "clacks")  # each may import only those before it


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer} (line {self.line}) imports {self.imported}"


def modules(root: Path, packages: tuple[str, ...] = LAYERS) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _owner(name: str, known: dict[str, Path]) -> str | None:
    """The project module ``name`` is or lies in (``a.b.C`` -> ``a.b``), if any."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _named(node: ast.Import | ast.ImportFrom, module: str, path: Path) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        parts = package.split(".")
        anchor = ".".join(parts[: len(parts) - node.level + 1])
        base = ".".join(part for part in (anchor, base) if part)
    for alias in node.names:
        yield f"{base}.{alias.name}"


def imports(known: dict[str, Path]) -> list[Import]:
    """Every import from one project module of another, wherever it stands."""
    found = []
    for module, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _named(node, module, path):
                target = _owner(name, known)
                if target is not None and target != module:
                    found.append(Import(module, target, node.lineno))
    return found


def upward(found: list[Import], layers: tuple[str, ...] = LAYERS) -> list[Import]:
    """The imports of a module from a floor above its own."""
    floor = {package: n for n, package in enumerate(layers)}
    return [
        i for i in found
        if floor[i.imported.split(".")[0]] > floor[i.importer.split(".")[0]]
    ]


def circles(found: list[Import]) -> list[list[str]]:
    """Each set of modules that reach one another through imports (Tarjan's strongly
    connected components), as one path round it."""
    graph: dict[str, set[str]] = {}
    for i in found:
        graph.setdefault(i.importer, set()).add(i.imported)
        graph.setdefault(i.imported, set())
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    knots: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            knot = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                knot.append(member)
                if member == node:
                    break
            if len(knot) > 1:
                knots.append(_round(graph, set(knot)))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return knots


def _round(graph: dict[str, set[str]], knot: set[str]) -> list[str]:
    """One shortest path from the knot's first module back to itself, to name it."""
    start = min(knot)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & knot):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{sorted(knot)} is not a circle")


@pytest.fixture(scope="module")
def project() -> tuple[dict[str, Path], list[Import]]:
    """The project's modules and their imports, read once for the checks below."""
    known = modules(ROOT)
    return known, imports(known)


def test_nothing_imports_a_floor_up(project: tuple[dict[str, Path], list[Import]]) -> None:
    found = upward(project[1])
    assert not found, "imports up a floor (" + " < ".join(LAYERS) + "):\n" + "\n".join(map(str, found))


def test_no_module_imports_itself_again_through_others(
    project: tuple[dict[str, Path], list[Import]],
) -> None:
    found = circles(project[1])
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_every_import_is_seen_wherever_it_stands(project: tuple[dict[str, Path], list[Import]]) -> None:
    """The project's own graph holds what the checks look for."""
    known, found = project
    assert {"engine.core.interface", "engine.games", "web.room", "clacks.cli"} <= set(known)
    assert Import("web.room", "web.seats", _line(known["web.room"], "from web.seats import")) in found


def test_the_game_seam_knows_no_game(project: tuple[dict[str, Path], list[Import]]) -> None:
    """engine/core (the seam and what every game shares) imports only itself: the games
    are registered in engine/games.py, which it never imports."""
    outside = [
        str(i) for i in project[1]
        if i.importer.startswith("engine.core") and not i.imported.startswith("engine.core")
    ]
    assert not outside, "engine/core reaches outside itself:\n" + "\n".join(outside)


def _line(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(text))


def _tree(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return modules(root, ("low", "high"))


@pytest.mark.parametrize(
    "where",
    [
        "from high.b import thing\n",
        "def late():\n    from high import b\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from high.b import Thing\n",
        "import high.b\n",
    ],
    ids=["top", "in_function", "type_checking", "plain_import"],
)
def test_an_import_up_is_found_wherever_it_stands(tmp_path: Path, where: str) -> None:
    known = _tree(tmp_path, {
        "low/__init__.py": "",
        "low/a.py": where,
        "high/__init__.py": "",
        "high/b.py": "from low.a import late\n",
    })
    found = imports(known)
    assert [str(i) for i in upward(found, ("low", "high"))] == [
        f"low.a (line {where.count(chr(10))}) imports high.b"
    ]
    assert circles(found) == [["high.b", "low.a", "high.b"]]


def test_a_circle_inside_one_floor_is_named_in_order(tmp_path: Path) -> None:
    known = _tree(tmp_path, {
        "low/__init__.py": "",
        "low/a.py": "from low.b import x\n",
        "low/b.py": "from low import c\n",
        "low/c.py": "def f():\n    from .a import y\n",
        "low/d.py": "from low.a import x\n",
        "high/__init__.py": "from low.d import x\n",
    })
    found = imports(known)
    assert upward(found, ("low", "high")) == []
    assert circles(found) == [["low.a", "low.b", "low.c", "low.a"]]


def test_names_from_a_package_count_as_the_package_unless_they_are_modules(tmp_path: Path) -> None:
    known = _tree(tmp_path, {
        "low/__init__.py": "from low.a import Thing\n",
        "low/a.py": "Thing = 1\n",
        "high/__init__.py": "",
        "high/b.py": "from low import Thing, a\n",
    })
    assert sorted((i.importer, i.imported) for i in imports(known)) == [
        ("high.b", "low"), ("high.b", "low.a"), ("low", "low.a"),
    ]
