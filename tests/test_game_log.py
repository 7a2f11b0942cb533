"""The game log people read, derived from the saved actions (web/game_log.py): in every
game and mode it tells exactly what was announced as the game was played, the same
again after a restart (rebuilt from the saves alone), redacted for each audience, and
paged back over a whole game through the API."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from test_web_api import act, claim, start
from web_client import EventStream, call

from engine.core.interface import JSON
from web.game_log import GameLog
from web.hub import Hub
from web.room import Room
from web.store import Store

CONFIGS: list[tuple[str, JSON]] = [
    ("clacks", {"players": 2}),
    ("clacks", {"players": 3, "express": True, "turn_seconds": 3600}),
    ("clacks", {"players": 4, "quick": True}),
    ("clacks", {"mode": "coop", "players": 3, "route": "hard", "night_shift": True}),
    ("clacks", {"mode": "coop", "players": 4, "long_distance": True}),
    ("clacks", {"mode": "solitaire", "players": 1}),
    ("clacks", {"mode": "junior", "players": 2}),
    ("clacks-trainer", {"kind": "mixed", "questions": 8}),
    ("klackers", {}),
]
ACTIONS = 60


def seat_all(room: Room) -> dict[str, str]:
    session = room.session
    assert session is not None
    return {s.id: room.seats.claim(s.id, s.id, None)["token"] for s in session.seats}


def play(
    room: Room, seed: int, actions: int, undo_every: int = 7, tokens: dict[str, str] | None = None
) -> list[tuple[int, list[JSON]]]:
    """Play ``actions`` random legal actions (and now and then an undo) through the
    table's change path; returns, per change that added a step, the step's number and
    the public events the change announced."""
    chooser = random.Random(seed)
    session = room.session
    assert session is not None
    tokens = tokens or seat_all(room)
    announced: list[tuple[int, list[JSON]]] = []
    for n in range(actions):
        if session.over:
            break
        seat = session.active_seats[0] if session.active_seats else None
        if seat is None:
            break
        if n % undo_every == undo_every - 1 and session.can_undo(seat):
            room.undo(seat, tokens[seat])
            assert room.game_log is not None and room.record is not None
            announced = [a for a in announced if a[0] <= len(room.record.actions)]
            continue
        legal = session.legal_actions(seat, room.clock())
        answer = room.act(seat, tokens[seat], chooser.choice(legal))
        assert room.record is not None
        announced.append((len(room.record.actions), answer["events"]))
    return announced


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=[f"{g}{json.dumps(o)}" for g, o in CONFIGS])
def test_the_log_is_what_was_announced_and_the_same_from_the_saves(
    tmp_path: Path, game: str, options: JSON
) -> None:
    hub = Hub(store=Store(tmp_path))
    room = hub.main
    room.new_game(game, options, seed=20260)
    announced = play(room, 5, ACTIONS)
    log = room.game_log
    assert log is not None and room.record is not None
    assert log.last == len(room.record.actions) and len(announced) > 10
    # each step is numbered by its place in the saves and tells what its change announced
    assert [s.number for s in log.steps] == list(range(log.last + 1))
    assert log.steps[0].events[0]["kind"] == "game_started"
    for number, events in announced:
        assert log.steps[number].seen_by(None)["events"] == events, number
    before = [(s.number, s.seat, s.events, s.private) for s in log.steps]
    hub.stop()

    # started again: the same steps, derived from the saves alone (then, in a timed
    # game, the table's own step giving the turn its time back)
    again = Hub(store=Store(tmp_path))
    restored = again.main.game_log
    assert restored is not None
    steps = [(s.number, s.seat, s.events, s.private) for s in restored.steps]
    assert steps[: len(before)] == before
    assert all(seat is None for _, seat, _, _ in steps[len(before) :])
    again.stop()


def test_a_seat_reads_its_own_draws_and_nobody_else_does() -> None:
    room = Room("LOGS")
    room.new_game("clacks", {"players": 3}, seed=31)
    play(room, 8, 90, undo_every=1000)
    log = room.game_log
    assert log is not None
    draws = 0
    for step in log.steps:
        public = step.seen_by(None)
        assert public["events"] == step.events
        assert '"own"' not in json.dumps(public)
        for seat in ("south", "west", "north"):
            seen = step.seen_by(seat)
            for index, event in enumerate(seen["events"]):
                if event.get("own"):
                    # only the seat's own draw, and as many cards as the public count says
                    assert event["seat"] == seat and index in step.private[seat]
                    told = event.get("jacquards") or event.get("faults")
                    assert len(told) == event["count"]
                    draws += 1
                else:
                    assert event == step.events[index]
    assert draws > 10


def test_a_taken_back_action_leaves_the_log_and_pages_are_told(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    watcher = EventStream(server.base, f"/api/rooms/{server.code}/stream")
    first = watcher.next_state()
    assert first["log_reset"] and first["log_last"] == 0
    assert [s["step"] for s in first["log_steps"]] == [0]
    assert act(server, "south", south, {"type": "move", "tower": "b2c2"})[0] == 200
    moved = watcher.next_state()
    assert not moved["log_reset"] and moved["log_last"] == 1
    assert [(s["step"], s["seat"]) for s in moved["log_steps"]] == [(1, "south")]
    assert moved["log_steps"][0]["events"][0]["kind"] == "moved"
    status, _ = call(
        server.base, "POST", f"/api/rooms/{server.code}/seats/south/undo", {}, token=south
    )
    assert status == 200
    undone = watcher.next_state()
    assert undone["log_last"] == 0 and undone["log_steps"] == []
    assert [e["kind"] for e in undone["events"]] == ["undone"]
    watcher.close()


def test_the_log_pages_back_over_a_whole_game(server: LiveServer) -> None:
    server.room.new_game("clacks", {"players": 2}, seed=12)
    play(server.room, 3, 150, undo_every=1000)
    log = server.room.game_log
    assert log is not None and log.last > 120
    path = f"/api/rooms/{server.code}/log"
    status, page = call(server.base, "GET", path)
    assert status == 200 and page["last"] == log.last and not page["replay"]
    assert [s["step"] for s in page["steps"]] == list(range(log.last - 49, log.last + 1))
    collected = page["steps"]
    while collected[0]["step"] > 0:
        status, page = call(server.base, "GET", f"{path}?before={collected[0]['step']}&limit=40")
        assert status == 200 and 0 < len(page["steps"]) <= 40
        collected = page["steps"] + collected
    assert [s["step"] for s in collected] == list(range(log.last + 1))
    assert collected == [s.seen_by(None) for s in log.steps]
    for bad in ("before=-1", "before=x", "limit=0", "limit=201", "limit=1.5"):
        status, body = call(server.base, "GET", f"{path}?{bad}")
        assert status == 400 and body["error"] == "bad_field", bad
    status, body = call(server.base, "GET", f"{path}?seat=south", token="not-the-token")
    assert status == 403 and body["error"] == "bad_token"


def test_a_phone_pages_its_own_details_and_the_table_does_not(server: LiveServer) -> None:
    start(server)
    tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
    session = server.room.session
    assert session is not None
    for _ in range(6):
        seat = session.active_seats[0]
        for action in play_and_end(server.room, seat):
            assert act(server, seat, tokens[seat], action)[0] == 200
    path = f"/api/rooms/{server.code}/log"
    _, table = call(server.base, "GET", path)
    _, south = call(server.base, "GET", f"{path}?seat=south", token=tokens["south"])
    own = [e for s in south["steps"] for e in s["events"] if e.get("own")]
    assert own and all(e["seat"] == "south" for e in own)
    assert {e["kind"] for e in own} <= {"drew_jacquards", "drew_faults"}
    assert not [e for s in table["steps"] for e in s["events"] if e.get("own")]
    public = [e for s in table["steps"] for e in s["events"] if e["kind"] == "drew_jacquards"]
    assert public and all("jacquards" not in e for e in public)


def test_a_fresh_phone_gets_every_step_since_its_own_last_action(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("web.table_log.LOG_SENT_ON_CONNECT", 3)  # a short tail, for a short game
    server.room.new_game("clacks", {"players": 3}, seed=12)
    session = server.room.session
    assert session is not None
    tokens = seat_all(server.room)
    first = session.active_seats[0]
    for action in play_and_end(server.room, first):
        server.room.act(first, tokens[first], action)
    # the others play a move each and end their turns
    while session.active_seats != [first]:
        seat = session.active_seats[0]
        for action in play_and_end(server.room, seat):
            server.room.act(seat, tokens[seat], action)
    query = f"?seat={first}&token={tokens[first]}"
    phone = EventStream(server.base, f"/api/rooms/{server.code}/stream{query}").next_state()
    assert phone["log_last"] == 6 and phone["log_reset"]
    assert [s["step"] for s in phone["log_steps"]] == [2, 3, 4, 5, 6]  # from its own last on
    table = EventStream(server.base, f"/api/rooms/{server.code}/stream").next_state()
    assert [s["step"] for s in table["log_steps"]] == [4, 5, 6]  # the latest only


def play_and_end(room: Room, seat: str) -> list[JSON]:
    """A Clacks turn: a Jacquard played (the first the rules allow), then the end."""
    assert room.session is not None
    legal = room.session.legal_actions(seat, room.clock())
    return [next(a for a in legal if a["type"] == "play_jacquard"), {"type": "end_turn"}]


def test_the_log_follows_the_saves_one_action_at_a_time() -> None:
    room = Room("FAST")
    room.new_game("clacks", {"players": 2}, seed=3)
    log = room.game_log
    assert log is not None
    replays: list[Any] = []
    real = log.module.replay

    def counted(saved: JSON) -> Any:
        replays.append(len(saved["actions"]))
        return real(saved)

    log.module.replay = counted  # type: ignore[method-assign,assignment]
    try:
        tokens = seat_all(room)
        play(room, 4, 40, undo_every=1000, tokens=tokens)
        assert replays == []  # every action derived by one step of the copy, none replayed
        session = room.session
        assert session is not None
        seat = session.active_seats[0]
        token = tokens[seat]
        legal = session.legal_actions(seat, room.clock())
        if not any(a["type"] in ("move", "play_jacquard") for a in legal):
            room.act(seat, token, {"type": "end_turn"})  # the next seat's turn begins
            seat = session.active_seats[0]
            token = tokens[seat]
            legal = session.legal_actions(seat, room.clock())
        room.act(seat, token, next(a for a in legal if a["type"] in ("move", "play_jacquard")))
        assert session.can_undo(seat)
        room.undo(seat, token)
        assert replays == [log.last]  # an undo rebuilds the copy once, from the saves
    finally:
        del log.module.replay


def test_a_game_log_reads_a_saved_game_exactly() -> None:
    room = Room("SAVE")
    room.new_game("klackers", {}, seed=8)
    play(room, 2, 50, undo_every=1000)
    assert room.record is not None and room.game_log is not None
    fresh = GameLog(room.record.game, room.record.header, room.record.actions)
    assert [s.seen_by(None) for s in fresh.steps] == [s.seen_by(None) for s in room.game_log.steps]
