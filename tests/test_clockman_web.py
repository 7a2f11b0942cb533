"""Clockman through the companion: the JSON API over real HTTP (the lobby's options,
reports refused with their reasons, what each seat's stream carries), the box's buttons
through an attached board, and a finished game exported and imported as a replay file."""

from __future__ import annotations

import json
from typing import Any

from live_server import LiveServer
from test_web_board import game_on_the_box
from web_client import EventStream, ask_for_game, call, press

from engine.clockman.data import load_data
from engine.clockman.simulation import random_action
from engine.core.rng import Rng
from web.errors import ApiError


def start(server: LiveServer, options: dict[str, Any], seed: int) -> dict[str, str]:
    status, body = ask_for_game(server, {"game": "clockman", "options": options, "seed": seed})
    assert status == 201, body
    seats = [s.id for s in server.room.require_session().seats]
    return {
        seat: call(server.base, "POST", f"/api/rooms/{server.code}/seats/{seat}", {"name": seat})[
            1
        ]["token"]
        for seat in seats
    }


def act(
    server: LiveServer, tokens: dict[str, str], seat: str, action: dict[str, Any]
) -> tuple[int, Any]:
    path = f"/api/rooms/{server.code}/seats/{seat}/actions"
    return call(server.base, "POST", path, {"action": action}, tokens[seat])


def test_reports_over_the_api_refused_with_their_reasons(server: LiveServer) -> None:
    base, code = server.base, server.code
    status, games = call(base, "GET", "/api/games")
    clockman = next(g for g in games["games"] if g["name"] == "clockman")
    assert clockman["title"] == "Clockman" and clockman["bot_levels"] == []
    choices = clockman["options"]["modes"][0]["choices"]
    assert choices["hamster"]["choices"] == ["off", "on", "extended"]
    assert all(choices[r]["values"] == [False, True] for r in ("transfer", "robbery", "swap"))
    status, reference = call(base, "GET", "/api/games/clockman/reference")
    assert status == 200 and reference["house_files"] == ["board.toml", "poses.toml"]
    status, body = ask_for_game(server, {"game": "clockman", "options": {"hamster": 2}})
    assert status == 400 and body["error"] == "clockman_options"

    tokens = start(server, {"players": 2, "swap": True}, seed=8)
    session = server.room.require_session()
    seat = session.active_seats[0]
    other = "north" if seat == "south" else "south"
    mine = EventStream(base, f"/api/rooms/{code}/stream?seat={seat}&token={tokens[seat]}")
    theirs = EventStream(base, f"/api/rooms/{code}/stream?seat={other}&token={tokens[other]}")
    revision = server.room.revision
    status, body = act(server, tokens, other, {"type": "plain"})
    assert status == 422 and body["rule"] == "not_your_turn"
    status, body = act(server, tokens, seat, {"type": "digit", "digit": "0"})
    assert status == 422 and body["rule"] == "clockman_wrong_circle"
    assert body["params"]["reason"] == "digit_circle" and body["params"]["circle"] == 2
    status, body = act(server, tokens, seat, {"type": "digit", "digit": "7"})
    assert status == 400 and body["rule"] == "malformed_action"
    status, body = act(
        server, tokens, seat, {"type": "offer", "to": other, "give": ["0"], "get": ["1"]}
    )
    assert (
        status == 422
        and body["rule"] == "clockman_bad_trade"
        and body["params"]["reason"] == "short"
    )
    assert server.room.revision == revision  # nothing changed

    status, legal = call(base, "GET", f"/api/rooms/{code}/seats/{seat}/legal", token=tokens[seat])
    assert {"type": "symbol", "seat": seat} in legal["actions"]
    assert not any(a["type"] == "roll" for a in legal["actions"])
    assert act(server, tokens, seat, {"type": "symbol"})[0] == 200
    hand = session.view(seat)["you"]["hand"]
    assert sum(hand.values()) == 1
    assert act(server, tokens, seat, {"type": "end_turn"})[0] == 200
    assert act(server, tokens, other, {"type": "roll"})[0] == 200
    status, body = call(base, "GET", f"/api/rooms/{code}?seat={other}", token=tokens[other])
    assert body["view"]["turn"]["die"] in range(1, 7) and body["view"]["you"]["hand"] == {}
    # each stream carries its own seat's hand; the other's only that a card was drawn
    mine.catch_up(server.room.seq)
    theirs.catch_up(server.room.seq)
    assert mine.last is not None and mine.last["view"]["you"]["hand"] == hand
    assert theirs.last is not None and theirs.last["view"]["you"]["hand"] == {}
    drawer = next(p for p in theirs.last["view"]["players"] if p["seat"] == seat)
    assert drawer["symbols"] == 1 and "hand" not in drawer
    assert '"hand":{"' not in theirs.raw.decode()
    for stream in (mine, theirs):
        text = stream.raw.decode()
        for secret in ('"seed"', '"rng"', '"deck"', '"undo_floor"'):
            assert secret not in text
        stream.close()


def test_the_box_buttons_report_for_the_player_whose_turn_it_is() -> None:
    data = load_data()
    with game_on_the_box("clockman", {"players": 2}, seed=3) as (board, server, session):
        status, body = press(server, "a3b3")  # the digit button on circle 1
        assert status == 422 and body["rule"] == "clockman_wrong_circle" and board.refusals == 1
        assert press(server, "a2b2")[0] == 200  # a symbol field
        assert press(server, "b3b4")[0] == 200  # end the turn
        assert press(server, "b2c2")[0] == 200  # the next player rolls
        die_bar = sum(1 << lamp for lamp in data.die_lamps)
        assert board.transmissions == [die_bar]
        turn = session.view(None)["turn"]
        assert board.frames[-1].lit & die_bar == sum(
            1 << lamp for lamp in data.die_lamps[: turn["die"]]
        )
        assert press(server, "b3c3")[0] == 200  # a plain field
        assert press(server, "c3c4")[0] == 200  # undo it
        assert session.view(None)["turn"]["phase"] == "report"


def test_a_finished_game_exported_and_imported_as_a_replay_file(server: LiveServer) -> None:
    tokens = start(server, {"players": 3, "robbery": True, "transfer": True}, seed=5)
    room = server.room
    session = room.require_session()
    game = session.clockman  # type: ignore[attr-defined]
    rng = Rng(5)
    for _ in range(3000):
        if session.over:
            break
        action = random_action(game, rng)
        assert action is not None
        try:  # through the table, as the phones send them: every change is saved
            room.act(action.seat, tokens[action.seat], action.to_json())
        except ApiError:
            continue
    assert session.over
    moves = len(session.log_json()["actions"])
    record = room.record
    assert record is not None
    assert call(server.base, "DELETE", f"/api/rooms/{server.code}/game", pin=server.pin)[0] == 200
    path = f"/api/rooms/{server.code}/saves"
    status, exported = call(server.base, "GET", f"{path}/{record.id}/export", pin=server.pin)
    assert status == 200 and exported["game"] == "clockman" and len(exported["actions"]) == moves
    assert exported["names"] == {"south": "south", "west": "west", "north": "north"}
    status, body = call(server.base, "POST", path, exported, pin=server.pin)
    assert status == 201 and body["over"] and body["moves"] == moves
    broken = json.loads(json.dumps(exported))
    broken["actions"].insert(0, {"type": "straight", "seat": "south", "field": 3})
    status, body = call(server.base, "POST", path, broken, pin=server.pin)
    assert (
        status == 400 and body["error"] == "bad_replay" and "illegal on replay" in body["message"]
    )
