"""`clacks check-data` and the engine's data validator: one validator, every problem named."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.clacks.data import FILES, check_path, default_data_path, load_components
from engine.core.errors import DataError


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(default_data_path(), target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def test_shipped_data_is_valid() -> None:
    assert check_path() == []
    components = load_components()
    assert len(components.jacquards) == 48
    assert len(components.faults) == 12
    assert len(components.words) == 36
    assert {"COHEN", "QUIRM", "OMNIA", "GNOME", "DEATH", "TROLL", "SCONE"} <= set(components.words)
    assert all(1 <= j.cost <= 3 for j in components.jacquards.values())
    assert any(j.fault for j in components.jacquards.values())


CORRUPTIONS = [
    # (file, old text, new text, expected words in the problem)
    (
        "alphabet.toml",
        'B = "00 01 10"',
        'B = "00 10 01"',
        ["alphabet.toml: B", "duplicate letter pattern", "A"],
    ),
    (
        "jacquards.toml",
        'holes = ["XXXX"]',
        'holes = ["XXXXX"]',
        ["jacquards.toml: long", "does not fit the 4x4"],
    ),
    (
        "jacquards.toml",
        'id = "pin"\nname = "Pin"\nholes = ["X"]\ncost = 1',
        'id = "pin"\nname = "Pin"\nholes = ["X"]\ncost = 4',
        ["jacquards.toml: pin", "cost 4 is out of range 1-3"],
    ),
    (
        "faults.toml",
        'effect = "light_all"',
        'effect = "explode"',
        ["faults.toml: overload", "unknown effect name 'explode'"],
    ),
    ("jacquards.toml", "count = 6", "count = 5", ["jacquards.toml", "wrong count", "47", "48"]),
    (
        "faults.toml",
        'count = 1\neffect = "light_all"',
        'count = 2\neffect = "light_all"',
        ["faults.toml", "wrong count", "13", "12"],
    ),
    ("words.toml", '"COHEN", ', "", ["words.toml", "wrong count", "35", "36"]),
    ("words.toml", '"QUIRM"', '"QUIRM7"', ["words.toml: QUIRM7", "5 letters"]),
    ("layout.toml", '"X..X",\n  ".XX.",', '"X..X",', ["layout.toml", "4 rows"]),
    ("alphabet.toml", 'END = "11 00 11"\n', "", ["alphabet.toml", "wrong count", "END"]),
    ("jacquards.toml", 'id = "gap"', 'id = "bar"', ["jacquards.toml: bar", "duplicate id"]),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), CORRUPTIONS)
def test_each_corruption_is_reported_with_file_and_entry(
    data_dir: Path, file: str, old: str, new: str, expected: list[str]
) -> None:
    edit(data_dir / file, old, new)
    problems = check_path(data_dir)
    assert problems, "the corruption went unnoticed"
    joined = "\n".join(problems)
    for words in expected:
        assert words in joined
    with pytest.raises(DataError) as refused:
        load_components(data_dir)
    assert refused.value.problems == problems  # the engine refuses with the same messages


def test_every_problem_is_reported_not_only_the_first(data_dir: Path) -> None:
    edit(data_dir / "alphabet.toml", 'B = "00 01 10"', 'B = "00 10 01"')
    edit(data_dir / "faults.toml", 'effect = "light_all"', 'effect = "explode"')
    problems = check_path(data_dir)
    assert any(p.startswith("alphabet.toml: B") for p in problems)
    assert any(p.startswith("faults.toml: overload") for p in problems)


def test_missing_and_unparsable_files(data_dir: Path) -> None:
    (data_dir / "words.toml").unlink()
    (data_dir / "layout.toml").write_text("rows = [")
    problems = check_path(data_dir)
    assert "words.toml: file is missing" in problems
    assert any(p.startswith("layout.toml: not valid TOML") for p in problems)
    assert check_path(data_dir / "nowhere") == [
        f"{data_dir / 'nowhere'}: not a directory of Clacks data files"
    ]


def test_check_data_command_exits_non_zero_naming_the_problem(data_dir: Path) -> None:
    edit(data_dir / "jacquards.toml", 'holes = ["XXXX"]', 'holes = ["XXXXX"]')
    result = subprocess.run(
        [sys.executable, "-m", "clacks.cli", "check-data", str(data_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "jacquards.toml: long: pattern does not fit the 4x4 exchange" in result.stderr
    assert "1 problem in" in result.stderr


def test_all_files_are_listed() -> None:
    assert set(FILES) <= {p.name for p in default_data_path().iterdir()}
