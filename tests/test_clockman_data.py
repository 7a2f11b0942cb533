"""Clockman's data files: the shipped set loads, house values are flagged, and every kind
of damage to a file is reported, naming the file and the entry, all problems at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.clockman.data import (
    FILES,
    default_data_path,
    load_data,
    read_texts,
    validate_texts,
)
from engine.core.errors import DataError

SHIPPED = read_texts(default_data_path())


def problems_after(file: str, old: str, new: str) -> list[str]:
    texts = dict(SHIPPED)
    assert old in texts[file], old
    texts[file] = texts[file].replace(old, new)
    data, problems = validate_texts(texts)
    assert data is None and problems
    return problems


def test_the_shipped_set_and_its_house_values() -> None:
    data = load_data()
    assert data.need == {"0": 5, "1": 2, "2": 1}  # ruling 1: two 1s
    assert data.digits == {"0": 20, "1": 8, "2": 4, "X": 2, "L": 6}
    assert data.pose_ids == ("A", "B", "C", "D", "E")
    assert [r.passages for r in data.rings] == [6, 5, 5]
    assert data.house_files == ("board.toml", "poses.toml")
    assert data.circle_digit(2) == "0" and data.circle_digit(1) is None
    assert data.meaning("b2c2") == "roll" and data.button_for("undo") == "c3c4"
    assert len(data.die_lamps) == 6 and len(data.date_lamps) == 8


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        (
            "components.toml",
            "die_faces = 6",
            "die_faces = 7",
            "components.toml: die_faces: must be a whole number from 2 to 6, not 7",
        ),
        (
            "components.toml",
            'date_key = "01012000"',
            'date_key = "01.01.2000"',
            "components.toml: date_key: must be the date's digits",
        ),
        (
            "components.toml",
            '"0" = 20',
            '"0" = 19',
            "components.toml: digits.0: 19 cards cannot complete 4 date keys of 5 each",
        ),
        (
            "components.toml",
            '"L" = 6',
            "",
            "components.toml: digits: must count each of 0, 1, 2, X, L",
        ),
        (
            "components.toml",
            '"1" = 3',
            '"1" = 2',
            "components.toml: circles: two digits lie on the same circle",
        ),
        (
            "components.toml",
            "players = [2, 4]",
            "players = [1, 5]",
            "components.toml: players: must be [fewest, most] within 2 to 4",
        ),
        (
            "components.toml",
            "house = false",
            'house = "no"',
            "components.toml: house: must be true (house values) or false",
        ),
        (
            "components.toml",
            "whytookis = 20",
            "whytookis = 20\nwhytooki = 3",
            "components.toml: unknown key 'whytooki'; did you mean 'whytookis'?",
        ),
        (
            "board.toml",
            "between = [2, 3]",
            "between = [2, 4]",
            "board.toml: ring 2: between must be [2, 3], not [2, 4]",
        ),
        (
            "board.toml",
            "passages = 6",
            "passages = 0",
            "board.toml: ring 1: passages must be a whole number from 1 to 30, not 0",
        ),
        (
            "board.toml",
            "passages = 6",
            "passages = 5",
            "board.toml: ring: 15 passages and 4 straights place 19 Whytookis; the box has 20",
        ),
        (
            "poses.toml",
            'id = "B"',
            'id = "b"',
            "poses.toml: pose 2: id must be one capital letter, not 'b'",
        ),
        (
            "poses.toml",
            'name = "Leaping"',
            'name = ""',
            "poses.toml: pose 5: name must be 1 to 30 characters",
        ),
        (
            "poses.toml",
            "figures_per_pose = 4",
            "figures_per_pose = 3",
            "poses.toml: figures_per_pose: 5 poses of 3 figures make 15 Whytookis; the box has 20",
        ),
        ("box.toml", '"a2", "b2"]', '"a2"]', "box.toml: lamps.die: must list 6 lamps"),
        ("box.toml", '"c4", "d4"]', '"c4", "e9"]', "box.toml: lamps.date: unknown lamp 'e9'"),
        ("box.toml", '"a4", "b4"', '"a4", "a1"', "box.toml: lamps: a lamp is used twice"),
        ("box.toml", 'b2c2 = "roll"', 'b2d2 = "roll"', "box.toml: buttons.b2d2: no such button"),
        (
            "box.toml",
            'b3c3 = "plain"',
            'b3c3 = "roll"',
            "box.toml: buttons: two buttons both mean 'roll'",
        ),
        ("box.toml", 'b3b4 = "end_turn"', "", "box.toml: buttons: no button means 'end_turn'"),
        ("box.toml", "[lamps]", "[lamp]", "box.toml: unknown key 'lamp'; did you mean 'lamps'?"),
    ],
)
def test_every_kind_of_damage_is_named(file: str, old: str, new: str, expected: str) -> None:
    problems = problems_after(file, old, new)
    assert any(p.startswith(expected) for p in problems), problems


def test_files_missing_or_not_toml_and_all_problems_at_once(tmp_path: Path) -> None:
    texts = dict(SHIPPED)
    del texts["poses.toml"]
    texts["board.toml"] = "ring = ["
    data, problems = validate_texts(texts)
    assert data is None
    assert "poses.toml: file is missing" in problems
    assert any(p.startswith("board.toml: not valid TOML") for p in problems)
    for name in FILES:
        if name in texts and name != "board.toml":
            (tmp_path / name).write_text(texts[name])
    with pytest.raises(DataError) as caught:
        load_data(tmp_path)
    assert "poses.toml: file is missing" in caught.value.problems
