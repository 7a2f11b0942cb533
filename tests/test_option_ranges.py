"""Every option of every game lies in a range its schema states, and anything outside is
refused naming the range: in the engine, through the API (400, from the lobby or any
client), in an imported replay file, and on the command line.

The ranges are also what keeps a game playable: a stress limit under the dearest
Jacquard's cost or a hand of none would leave nothing to play, and hands too large for
the bag would make the deal fail.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from game_tables import Edge, accepts_null, option_edges, schema_options, settings_names
from live_server import LiveServer
from web_client import call

from engine.clacks.data import load_components
from engine.clacks.errors import OptionOutOfRange
from engine.clacks.simulation import play_bot_game
from engine.clacks.state import RANGES, Options
from engine.core.errors import IllegalAction
from engine.games import game_module, game_modules
from engine.klackers.options import KlackersOptions
from web.refusals import in_english

# every option of every game with a range, and a value just below it and just above it
EDGES = option_edges()
# what a player trying to crash the box might send instead of a number
WILD = [10**9, -(10**9), 10**400, 1e308, 5.5, True, "5", None, [5]]


def in_range(spec: dict[str, Any], value: object) -> bool:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    whole = isinstance(value, int) or spec["type"] == "number"
    return number and whole and spec["min"] <= value <= spec["max"]


def test_every_option_of_every_game_has_its_range_or_choices_in_the_schema() -> None:
    for game in game_modules():
        options = schema_options(game)
        wanted = settings_names(game)
        assert wanted is None or set(options) == wanted, game
        for name, spec in options.items():
            stated = "choices" in spec or spec.get("type") in ("bool", "word lists", "data tables")
            stated = stated or ("min" in spec and "max" in spec)
            assert stated, (game, name, spec)
    for name, allowed in RANGES.items():
        spec = schema_options("clacks")[name]
        assert (spec["min"], spec["max"]) == (allowed.low, allowed.high)


def test_the_ranges_keep_every_game_playable() -> None:
    components = load_components()
    dearest = max(card.cost for card in components.jacquards.values())
    assert RANGES["stress_limit"].low >= dearest  # every card dealt can be played
    assert RANGES["hand_size"].low >= 1
    most_players = max(len(s) for s in (Options.for_players(4).seats,))
    assert RANGES["hand_size"].high * most_players <= len(components.jacquards) // 2


@pytest.mark.parametrize(
    ("stress", "hand", "players"), [(3, 6, 4), (10, 6, 4), (3, 1, 2), (10, 1, 3)]
)
def test_games_at_the_edges_of_the_ranges_deal_and_finish(
    stress: int, hand: int, players: int
) -> None:
    options = Options.for_players(players, stress_limit=stress, hand_size=hand)
    for seed in (1, 2):
        record = play_bot_game(options, seed, ["planner"] * players, max_rounds=60)
        assert record.end_reason is not None, (stress, hand, players, seed)


@pytest.mark.parametrize("edge", EDGES, ids=[f"{e.game}-{e.option}" for e in EDGES])
def test_the_engine_refuses_a_value_outside_naming_the_range(edge: Edge) -> None:
    game, name, base = edge.game, edge.option, edge.base
    spec = schema_options(game)[name]
    for value in (edge.below, edge.above, *WILD):
        if value is None and accepts_null(game, name):
            continue
        if in_range(spec, value):
            continue
        with pytest.raises(IllegalAction) as caught:
            game_module(game).new({**base, name: value}, 1)
        message = in_english(caught.value)
        assert name in message, message
        if not isinstance(value, (str, list)) and value is not None:
            assert caught.value.rule == "option_range", message
            assert f"from {spec['min']} to {spec['max']}" in message, message
    for value in (spec["min"], spec["max"]):
        game_module(game).new({**base, name: value}, 1)  # the edges themselves are fine


@pytest.mark.parametrize("edge", EDGES, ids=[f"{e.game}-{e.option}" for e in EDGES])
def test_the_api_refuses_a_value_outside_with_a_400_naming_the_range(
    server: LiveServer, edge: Edge
) -> None:
    game, name, base = edge.game, edge.option, edge.base
    spec = schema_options(game)[name]
    path = f"/api/rooms/{server.code}/game"
    for value in (edge.below, edge.above, 10**9, 1e308):
        if in_range(spec, value):
            continue
        body = {"game": game, "options": {**base, name: value}}
        status, answer = call(server.base, "POST", path, body, pin=server.pin)
        assert status == 400, answer
        assert answer["rule"] == "option_range" and answer["params"]["option"] == name
        assert (answer["params"]["min"], answer["params"]["max"]) == (spec["min"], spec["max"])
        assert f"from {spec['min']} to {spec['max']}" in answer["message"]
    assert server.room.session is None  # nothing started


def test_the_api_refuses_numbers_json_cannot_hold(server: LiveServer) -> None:
    path = f"/api/rooms/{server.code}/game"
    for raw in (
        b'{"options": {"players": 2, "stress_limit": Infinity}}',
        b'{"options": {"players": 2, "hand_size": NaN}}',
        b'{"options": {"players": 2, "hand_size": 1' + b"0" * 4000 + b"}}",
    ):
        status, answer = call(server.base, "POST", path, raw=raw, pin=server.pin)
        assert status == 400, answer


def test_an_imported_replay_file_with_an_option_out_of_range_is_refused(
    server: LiveServer,
) -> None:
    log = game_module("clacks").new({"players": 2}, 7).log_json()
    for name, value in (("stress_limit", 1_000_000_000), ("hand_size", 25), ("hand_size", -3)):
        forged = json.loads(json.dumps(log))
        forged["options"][name] = value
        path = f"/api/rooms/{server.code}/saves"
        status, answer = call(server.base, "POST", path, forged, pin=server.pin)
        assert status == 400 and answer["error"] == "bad_replay", answer
        assert name in answer["message"] and "from" in answer["message"]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clacks.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "--stress-limit", "1000000000"],
            "stress_limit must be a whole number from 3 to 10",
        ),
        (["play", "--hand-size", "0"], "hand_size must be a whole number from 1 to 6"),
        (
            ["play", "--express", "--turn-seconds", "0"],
            "turn_seconds must be a number from 1 to 86400",
        ),
        (
            ["play", "--mode", "trainer", "--questions", "500"],
            "questions must be a whole number from 1 to 100",
        ),
        (
            ["simulate", "--game", "klackers", "--rounds", "1000"],
            "rounds must be a whole number from 0 to 99",
        ),
        (
            ["simulate", "--hand-size", "25", "--players", "2"],
            "hand_size must be a whole number from 1 to 6",
        ),
    ],
)
def test_the_command_line_refuses_a_value_outside_naming_the_range(
    args: list[str], message: str
) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_the_module_refuses_options_out_of_range_with_its_own_kind_of_error() -> None:
    with pytest.raises(OptionOutOfRange):
        Options.for_players(2, stress_limit=1_000_000_000)
    with pytest.raises(IllegalAction) as caught:
        KlackersOptions(rounds=100)
    assert caught.value.rule == "option_range"
