"""`clacks simulate --game klackers` and the Klackers section of `clacks bench`."""

from __future__ import annotations

import json

import pytest
from cli_support import simulated

from clacks.cli import main


def test_simulate_reports_the_figures_by_seat_and_by_bot_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--players", "3", "--games", "40", "--seed", "1", "--bots", "random,greedy,planner")
    figures = simulated(capsys, "--game", "klackers", *args)
    assert figures["games"] == 40 and figures["players"] == 3
    assert figures["bots"] == {"south": "random", "west": "greedy", "north": "planner"}
    by_seat = figures["win_rate_by_seat"]
    assert isinstance(by_seat, dict) and sum(by_seat.values()) == pytest.approx(1)
    by_bot = figures["win_rate_by_bot"]
    assert isinstance(by_bot, dict) and set(by_bot) == {"random", "greedy", "planner"}
    assert by_bot["random"] < by_bot["planner"]
    means = figures["mean_score_by_bot"]
    assert isinstance(means, dict) and means["planner"] < means["random"]
    median = figures["median_rounds"]
    assert isinstance(median, (int, float)) and median >= 3
    for key in ("p90_rounds", "mean_score", "klack_rate", "push_rate"):
        assert key in figures
    assert simulated(capsys, "--game", "klackers", *args) == figures  # the same seed, the same matches


def test_simulate_with_options_and_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    figures = simulated(capsys, "--game", "klackers", "--games", "10", "--target", "3", "--klack-to-win", "--hughie")
    assert figures["options"] == {
        "seats": ["south", "north"],
        "hughie": True,
        "klack_to_win": True,
        "klack_worth_two": False,
        "rounds": None,
        "target": 3,
        "undo_pull": False,
    }
    assert main(["simulate", "--game", "klackers", "--games", "5", "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "5 Klackers matches" in out and "greedy  wins" in out


def test_bench_has_a_klackers_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--only", "klackers", "--quick"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {
        "klackers_planner_solve_ms",
        "klackers_planner_decision_us_median",
        "klackers_matches_per_s",
        "klackers_actions_per_s",
    }
    assert all(value > 0 for value in figures.values())
