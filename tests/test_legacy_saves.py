"""Games saved before the HMAC_DRBG generator still load, replay and play on exactly.

Each file in ``data/legacy`` was recorded by the engine as it was before the change
(commit 9f36e53): a save in format 1, whose seed is a whole number dealt with SplitMix64,
the actions that were played after it, and every view once they had been. Loaded now,
the save must deal the same cards and dice, accept the same actions and show the same
views, and be saved again in its own format; read as a new save (format 2) it would be
another game altogether.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from web_client import call

from engine.core.interface import Session
from engine.core.rng import SplitMix64, seed_to_hex
from engine.games import game_module

LEGACY = sorted((Path(__file__).parent / "data" / "legacy").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    fixture: dict[str, Any] = json.loads(path.read_text())
    return fixture


def views(session: Session) -> dict[str, Any]:
    seen = {"table": session.view(None)}
    for info in session.seats:
        seen[info.id] = session.view(info.id)
    as_json: dict[str, Any] = json.loads(json.dumps(seen))  # as JSON holds them: tuples become lists
    return as_json


def within(recorded: Any, now: Any) -> bool:
    """Whether everything ``recorded`` holds is in ``now`` as it was: fields added to the
    views or the options since the recording are not the generator's concern."""
    if isinstance(recorded, dict):
        return isinstance(now, dict) and all(
            key in now and within(value, now[key]) for key, value in recorded.items()
        )
    if isinstance(recorded, list):
        return (
            isinstance(now, list)
            and len(recorded) == len(now)
            and all(within(a, b) for a, b in zip(recorded, now, strict=True))
        )
    return bool(recorded == now)


def test_within_compares_what_was_recorded() -> None:
    assert within({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}], "d": 4})
    assert not within({"a": [1, {"b": 2}]}, {"a": [1, {"b": 5}]})
    assert not within({"a": [1]}, {"a": [1, 2]})
    assert not within({"a": 1}, {})


def play_on(session: Session, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        seat = action.get("seat") if "seat" in action else session.active_seats[0]
        session.apply(seat, action, 0.0)


def generator_of(session: Session) -> object:
    inner = getattr(session, "clacks", None) or getattr(session, "klackers", None)
    inner = inner or session.trainer  # type: ignore[attr-defined]
    return inner.state.rng


def test_there_is_an_old_save_of_every_game() -> None:
    games = {load(path)["save"]["game"] for path in LEGACY}
    assert games == {"clacks", "clacks-trainer", "klackers"}
    modes = {load(path)["save"]["options"].get("mode") for path in LEGACY}
    assert {"competitive", "coop", "solitaire", "junior"} <= modes


@pytest.mark.parametrize("path", LEGACY, ids=[p.stem for p in LEGACY])
def test_an_old_save_replays_and_plays_on_exactly(path: Path) -> None:
    fixture = load(path)
    save = fixture["save"]
    assert save["format"] == 1 and isinstance(save["seed"], int) and save["seed"] < 2**32
    session = game_module(save["game"]).replay(json.loads(json.dumps(save)))
    assert isinstance(generator_of(session), SplitMix64)
    # saved again (the companion does, after every action), it keeps its format and seed
    assert within(save, session.log_json())
    play_on(session, fixture["then"])
    assert within(fixture["views"], views(session))
    assert session.over == fixture["over"]
    assert within({**save, "actions": save["actions"] + fixture["then"]}, session.log_json())


@pytest.mark.parametrize("path", LEGACY, ids=[p.stem for p in LEGACY])
def test_the_format_chooses_the_generator(path: Path) -> None:
    """The same seed and actions read as a save of today's format deal another game:
    without the format's marker an old save would not replay."""
    fixture = load(path)
    save = fixture["save"]
    today = {**save, "format": 2, "seed": seed_to_hex(save["seed"])}
    try:
        session = game_module(save["game"]).replay(today)
        play_on(session, fixture["then"])
    except (ValueError, KeyError):
        return  # its actions no longer fit the deal at all
    assert not within(fixture["views"], views(session))


def test_an_old_replay_file_is_imported_resumed_and_played_on_through_the_api(
    server: LiveServer,
) -> None:
    fixture = load(next(p for p in LEGACY if p.stem == "clacks-competitive-3"))
    base, code, pin = server.base, server.code, server.pin
    status, imported = call(base, "POST", f"/api/rooms/{code}/saves", fixture["save"], pin=pin)
    assert status == 201, imported
    status, body = call(base, "POST", f"/api/rooms/{code}/saves/{imported['id']}/resume", pin=pin)
    assert status == 200, body
    tokens = {}
    for seat in ("south", "west", "north"):
        status, claimed = call(base, "POST", f"/api/rooms/{code}/seats/{seat}", {"name": seat})
        assert status == 200, claimed
        tokens[seat] = claimed["token"]
    for action in fixture["then"]:
        seat = action["seat"]
        path = f"/api/rooms/{code}/seats/{seat}/actions"
        status, body = call(base, "POST", path, {"action": action}, token=tokens[seat])
        assert status == 200, (action, body)
    session = server.room.session
    assert session is not None and within(fixture["views"], views(session))
    status, exported = call(
        base, "GET", f"/api/rooms/{code}/saves/{server.game_id}/export", pin=pin
    )
    assert status == 200, exported
    assert exported["format"] == 1 and exported["seed"] == fixture["save"]["seed"]
    assert exported["actions"] == fixture["save"]["actions"] + fixture["then"]
