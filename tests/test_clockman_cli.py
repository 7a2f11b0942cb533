"""Clockman at the command line: `clacks check-data` over its house data files, and
`clacks simulate --game clockman` with random reports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_support import simulated

from clacks.cli import main
from engine.clockman.data import default_data_path


def test_check_data_covers_the_clockman_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-data"]) == 0
    out = capsys.readouterr().out
    assert "all Clockman data files are valid (house values: board.toml, poses.toml)" in out
    assert "all Clacks data files are valid" in out
    assert main(["check-data", "--game", "clockman"]) == 0
    assert main(["check-data", str(default_data_path())]) == 0


def test_check_data_names_every_problem_in_a_clockman_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for file in default_data_path().glob("*.toml"):
        shutil.copy(file, tmp_path / file.name)
    board = tmp_path / "board.toml"
    board.write_text(board.read_text().replace("passages = 6", "passages = 7"))
    poses = tmp_path / "poses.toml"
    poses.write_text(poses.read_text().replace('id = "E"', 'id = "A"'))
    box = tmp_path / "box.toml"
    box.write_text(box.read_text().replace('b3b4 = "end_turn"', 'b3b4 = "dance"'))
    assert main(["check-data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{board}: ring: 17 passages and 4 straights place 21 Whytookis; the box has 20" in err
    assert f"{poses}: pose A: is listed twice" in err
    assert f"{box}: buttons.b3b4: unknown meaning 'dance'" in err
    assert "4 problems in" in err


def test_simulate_clockman_plays_random_reports_with_every_optional_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--players", "3", "--games", "20", "--seed", "4", "--robbery", "--swap")
    figures = simulated(capsys, "--game", "clockman", *args, "--transfer", "--hamster", "extended")
    assert figures["games"] == 20 and figures["players"] == 3 and figures["problems"] == []
    assert figures["options"] == {
        "seats": ["south", "west", "north"],
        "transfer": True,
        "hamster": "extended",
        "robbery": True,
        "swap": True,
    }
    finished = figures["finished"]
    assert isinstance(finished, int) and finished >= 18
    by_seat = figures["win_rate_by_seat"]
    assert isinstance(by_seat, dict) and sum(by_seat.values()) == pytest.approx(finished / 20)
    per_game = figures["per_game"]
    assert isinstance(per_game, dict) and per_game["transferred"] > 0
    assert per_game["digit_taken_from"] > 0 and per_game["offer_accepted"] > 0
    again = simulated(capsys, "--game", "clockman", *args, "--transfer", "--hamster", "extended")
    figures.pop("seconds"), again.pop("seconds")
    assert again == figures  # the same seeds, the same games


def test_simulate_clockman_in_words_and_refusing_bad_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--game", "clockman", "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "5 Clockman games of random reports, 2 players" in out
    assert "invariant problems: 0" in out
    assert main(["simulate", "--game", "clockman", "--players", "1"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
