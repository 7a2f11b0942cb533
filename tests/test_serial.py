"""Every game's state is saved, read back and copied by one walk over its dataclasses'
fields (engine/core/serial.py): a save reads back to the same bytes, a copy shares
nothing the rules change in place, and a hand-edited save is refused naming the value
that does not fit."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.clacks import ClacksGame, Options
from engine.clacks.selfplay import play_heuristic_game
from engine.clacks.state import ClacksState
from engine.clockman.simulation import options_for
from engine.clockman.simulation import play_random_game as play_clockman
from engine.clockman.state import ClockmanState, HeldCard
from engine.core import serial, validate
from engine.core.errors import SerializationError
from engine.klackers import KlackersGame, KlackersOptions

MODES = {"competitive": 3, "coop": 3, "solitaire": 1, "junior": 2}


def clacks_state(seed: int, mode: str) -> ClacksState:
    game = ClacksGame.new(Options.for_players(MODES[mode], mode=mode), seed)
    if mode == "competitive":
        game = play_heuristic_game(game, seed)
    return game.state


def clockman_state(seed: int) -> ClockmanState:
    return play_clockman(options_for(seed), seed, max_steps=60, checks=False).game.state


def saved(state: Any) -> str:
    return json.dumps(state.to_json())


FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# each game (and each Clacks mode) with how to deal or play a state from a seed
STATES: dict[str, Callable[[int], Any]] = {
    **{f"clacks {mode}": partial(clacks_state, mode=mode) for mode in MODES},
    "clockman": clockman_state,
    "klackers": lambda seed: KlackersGame.new(KlackersOptions(), seed).state,
}


@FAST
@given(seed=st.integers(0, 2**32), game=st.sampled_from(sorted(STATES)))
def test_a_save_reads_back_to_the_same_bytes(seed: int, game: str) -> None:
    state = STATES[game](seed)
    text = saved(state)
    assert saved(type(state).from_json(json.loads(text))) == text
    assert saved(state.clone()) == text


def test_a_copy_shares_nothing_the_rules_change_in_place() -> None:
    state = clacks_state(3, "coop")
    before = saved(state)
    twin = state.clone()
    seat = state.order[0]
    twin.players[seat].hand.append("x")
    twin.turn.stress_spent += 1
    twin.bag.clear()
    assert twin.team is not None and state.team is not None
    twin.team.slots[0].card = None
    twin.team.ledger.revealed.append("x")
    twin.rng.below(48)
    assert saved(state) == before

    clockman = clockman_state(4)
    before = saved(clockman)
    copy = clockman.clone()
    player = next(iter(copy.players.values()))
    player.date["0"] += 1
    player.hand["Z"] = 9
    player.cards.append(HeldCard("e1", "open"))
    assert copy.turn is not None
    copy.turn.played["x"] = 1
    assert saved(clockman) == before

    klackers = KlackersGame.new(KlackersOptions(), 5).state
    before = saved(klackers)
    other = klackers.clone()
    other.round.chips["x"] = 1
    other.round.klackers.append("x")
    next(iter(other.players.values())).chips += 3
    assert saved(klackers) == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["players"][1].update(ring="3"), "players[1].ring: must be a whole number"),
        (lambda d: d["turn"].update(knocked=1), "turn.knocked: must be true or false, not 1"),
        (lambda d: d.update(deck="ABC"), "deck: must be a list, not 'ABC'"),
        (lambda d: d["players"][0]["hand"].update(A=None), "players[0].hand.A: must be a whole"),
        (lambda d: d.pop("supply"), "supply: is missing"),
        (lambda d: d.update(seed="not hex"), "seed:"),
    ],
)
def test_a_tampered_save_is_refused_naming_the_value(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    data = json.loads(saved(clockman_state(6)))
    change(data)
    with pytest.raises(SerializationError) as caught:
        ClockmanState.from_json(data)
    assert str(caught.value).startswith("not a Clockman state: ")
    assert message in str(caught.value)


def test_a_clacks_save_without_a_later_field_takes_its_default() -> None:
    """A save written before a field was added reads back with the field's default."""
    data = clacks_state(2, "competitive").to_json()
    del data["undo_floor"]
    for player in data["players"]:
        del player["last_turn_stress"]
    state = ClacksState.from_json(data)
    assert state.undo_floor == 0
    assert all(p.last_turn_stress == 0 for p in state.players.values())
    del data["board"]
    with pytest.raises(SerializationError, match="not a Clacks game state: board: is missing"):
        ClacksState.from_json(data)


@dataclass
class Inner:
    values: list[int]


@dataclass
class Outer:
    name: str
    inner: Inner
    shared: list[int] = field(default_factory=list, metadata=serial.rule(copy="share"))
    shallow: list[Inner] = field(default_factory=list, metadata=serial.rule(copy="shallow"))
    hidden: int = field(default=7, metadata=serial.rule(saved=False))
    later: Inner | None = field(default=None, metadata=serial.rule(omit_none=True))
    loud: str = field(default="a", metadata=serial.rule(save=str.upper, load=str.lower))
    extra: dict[str, Any] = field(default_factory=dict)


def test_the_rules_a_field_gives_are_kept() -> None:
    value = Outer("o", Inner([1]), [2], [Inner([3])], 8, None, "b", {"x": [1]})
    assert serial.to_json(value) == {
        "name": "o",
        "inner": {"values": [1]},
        "shared": [2],
        "shallow": [{"values": [3]}],
        "loud": "B",
        "extra": {"x": [1]},
    }
    back = serial.from_json(Outer, serial.to_json(value))
    assert back == Outer("o", Inner([1]), [2], [Inner([3])], 7, None, "b", {"x": [1]})
    twin = serial.clone(value)
    assert twin == value
    assert twin.inner is not value.inner and twin.inner.values is not value.inner.values
    assert twin.shared is value.shared
    assert twin.shallow is not value.shallow and twin.shallow[0] is value.shallow[0]
    assert twin.extra["x"] is not value.extra["x"]


def test_the_shared_validator_names_every_problem_with_its_place() -> None:
    problems = validate.Problems()
    tables = validate.parse_files(
        {"a.toml": "x = 1\nhouse = 2\n", "b.toml": "[[", "c.toml": "n = 3"},
        ("a.toml", "b.toml", "c.toml", "d.toml", "e.toml"),
        problems,
        optional=("e.toml",),
    )
    assert list(tables) == ["a.toml", "c.toml"]
    problems.unknown_keys(tables["a.toml"], ("house", "y"), "a.toml", "entry 1")
    validate.house_flag(tables["a.toml"], "a.toml", problems, required=True)
    assert validate.whole_in(tables["c.toml"]["n"], 1, 2, "c.toml", "n", problems) is None
    assert validate.whole_in(True, 0, 5, "c.toml", "flag", problems) is None
    assert validate.whole_in(2, 1, 2, "c.toml", "n", problems) == 2
    assert problems.items[0].startswith("b.toml: not valid TOML (")
    assert problems.items[1:] == [
        "d.toml: file is missing",
        "a.toml: entry 1: unknown key 'x' (known: house, y)",
        "a.toml: house: must be true (house values) or false, not 2",
        "c.toml: n: must be a whole number from 1 to 2, not 3",
        "c.toml: flag: must be a whole number from 0 to 5, not True",
    ]
