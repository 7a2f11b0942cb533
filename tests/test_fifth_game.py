"""A fifth game needs its own modules and its registry line, and nothing else.

The stand-in (tests/stand_in_game/: Klackers' rules under a name of their own) is
registered as engine/games.py would register it, with its show module where the box finds
a game's, and its catalogue beside the project's. The shared tests then take it up by
themselves: the every-table, every-screen and first-table browser tests (table_driver),
the leak test, the option ranges, the lessons and the catalogue; the box's settings file
reads and writes its table; the API document says what the game says of itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from stand_in_game import show
from stand_in_game.module import NAME, StandInModule

import engine.games
from firmware import game_settings
from firmware.config import BoardConfig, ConfigError, load_config, parse_config, to_toml
from firmware.shows import board_options
from web.openapi import openapi_document

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
PLUGIN = ["-p", "stand_in_game.plugin"]
# each shared test file, and the tests in it that must take the stand-in up
SHARED = {
    "test_web_every_table_browser.py": ["test_every_table_screen_reads_from_a_sofa"],
    "test_web_first_table_browser.py": [
        "test_a_phone_turn_fits_one_screen_at_360_by_740_in_every_mode"
    ],
    "test_web_every_screen_browser.py": ["test_every_screen_of_every_game_and_mode"],
    "test_leaks_every_game.py": ["test_no_audience_receives_what_is_hidden_from_it"],
    "test_option_ranges.py": [
        "test_the_engine_refuses_a_value_outside_naming_the_range",
        "test_the_api_refuses_a_value_outside_with_a_400_naming_the_range",
    ],
    "test_tutorial.py": ["test_a_learner_who_leaves_mid_lesson_leaves_no_seat_held"],
}


def pytest_with_the_stand_in(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
    )
    command = [sys.executable, "-m", "pytest", *PLUGIN, "-p", "no:randomly"]
    command += ["-p", "no:cacheprovider", *args]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False
    )


@pytest.fixture
def fifth_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The stand-in registered for the duration of one test."""
    monkeypatch.setitem(engine.games._REGISTRY, NAME, StandInModule())
    monkeypatch.setitem(sys.modules, "firmware.stand_in_show", show)
    game_settings.show_module.cache_clear()
    openapi_document.cache_clear()
    yield
    game_settings.show_module.cache_clear()
    openapi_document.cache_clear()


def test_every_shared_test_takes_the_fifth_game_up() -> None:
    files = [f"tests/{name}" for name in SHARED]
    collected = pytest_with_the_stand_in("--collect-only", "-q", *files)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    ids = collected.stdout.splitlines()
    left_out = [
        f"{name}::{test}"
        for name, tests in SHARED.items()
        for test in tests
        if not any(i.startswith(f"tests/{name}::{test}[") and NAME in i for i in ids)
    ]
    assert left_out == [], "these leave the fifth game out"


@pytest.mark.slow
def test_the_fifth_game_passes_the_shared_tests_that_need_no_page_of_its_own() -> None:
    """Its own pages (web/static/games/<game>.js) are its to write: the browser tests are
    only collected above. Everything else runs: no leak, every option's range refused,
    its words in both catalogues."""
    run = pytest_with_the_stand_in(
        "-q",
        "-n",
        "0",
        "tests/test_leaks_every_game.py",
        "tests/test_option_ranges.py",
        "tests/test_catalog_complete.py",
        "-k",
        f"{NAME} or every_option or every_games_modes or every_lessons",
    )
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "deselected" in run.stdout


@pytest.mark.usefixtures("fifth_game")
def test_the_box_s_settings_file_takes_the_fifth_game_s_table(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'["{NAME}"]\nrounds = 7\n')
    config = load_config(path)
    assert config.games == {NAME: {"rounds": 7}}
    options, warnings = board_options(config)
    assert options[NAME] == {"rounds": 7} and warnings == []
    path.write_text(to_toml(config))  # printed and read back the same
    assert load_config(path).games == config.games
    assert '["stand-in"]\n# how many rounds a match lasts at this box\n# rounds = 3' in to_toml(
        BoardConfig()
    )
    with pytest.raises(ConfigError, match=r"stand-in\.rounds must be a whole number"):
        parse_config({NAME: {"rounds": 0}})
    with pytest.raises(ConfigError, match=r"\[stand-in\]: unknown setting 'round'"):
        parse_config({NAME: {"round": 3}})


def test_without_its_registry_line_the_fifth_game_s_table_is_an_unknown_setting() -> None:
    with pytest.raises(ConfigError, match="unknown setting 'stand-in'"):
        parse_config({NAME: {"rounds": 7}})


@pytest.mark.usefixtures("fifth_game")
def test_the_api_document_says_what_the_fifth_game_says_of_itself() -> None:
    document = json.dumps(openapi_document())
    assert "Stand-in: roll and pull, as in Klackers" in document
    assert "Stand-in: as in Klackers" in document
