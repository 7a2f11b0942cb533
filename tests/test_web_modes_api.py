"""The co-op, junior and trainer games over the JSON API and the event stream: Long
Distance hands reach no other seat, standard co-op hands are open to the team, a table
button transmits in the map games, and the trainer answers and scores."""

from __future__ import annotations

import json
from typing import Any

from live_server import LiveServer
from test_web_api import act, claim
from web_client import EventStream, call

from engine.clacks.selfplay import choose_map_action
from engine.core.rng import Rng


def new_game(server: LiveServer, game: str, options: dict[str, Any], seed: int = 4) -> None:
    status, body = call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/game",
        {"game": game, "options": options, "seed": seed},
        pin=server.pin,
    )
    assert status == 201, body


def hands(server: LiveServer) -> dict[str, set[str]]:
    session = server.room.session
    assert session is not None
    return {s.id: {c["id"] for c in session.view(s.id)["you"]["hand"]} for s in session.seats}


def test_long_distance_hands_reach_no_other_seat(server: LiveServer) -> None:
    new_game(server, "clacks", {"mode": "coop", "players": 3, "long_distance": True})
    tokens = {seat: claim(server, seat) for seat in ("south", "west", "north")}
    streams = {
        seat: EventStream(server.base, f"/api/rooms/{server.code}/stream?seat={seat}&token={token}")
        for seat, token in tokens.items()
    }
    session = server.room.session
    assert session is not None
    clacks = session.clacks  # type: ignore[attr-defined]
    rng = Rng(4)
    # a card a seat once held it knows (its own log may name it); no other card
    known = hands(server)
    try:
        for _ in range(12):
            seat = session.active_seats[0]
            status, body = act(server, seat, tokens[seat], choose_map_action(clacks, rng).to_json())
            assert status == 200, body
            held = hands(server)
            for viewer, cards in held.items():
                known[viewer] = known[viewer] | cards
            for viewer, stream in streams.items():
                stream.catch_up(server.room.seq)
                others = set().union(*(cards for s, cards in held.items() if s != viewer))
                others -= known[viewer]
                for text in (json.dumps(stream.last), *answers_for(server, viewer, tokens[viewer])):
                    for card in others:
                        assert f'"{card}"' not in text, (viewer, card)
            table = json.dumps(call(server.base, "GET", f"/api/rooms/{server.code}")[1])
            assert '"hand":' not in table
    finally:
        for stream in streams.values():
            stream.close()


def answers_for(server: LiveServer, seat: str, token: str) -> list[str]:
    """What the seat's phone asks for: its snapshot and its legal actions, as JSON text."""
    paths = (
        f"/api/rooms/{server.code}?seat={seat}",
        f"/api/rooms/{server.code}/seats/{seat}/legal",
    )
    return [json.dumps(call(server.base, "GET", path, token=token)[1]) for path in paths]


def test_standard_co_op_hands_are_open_to_the_team(server: LiveServer) -> None:
    new_game(server, "clacks", {"mode": "coop", "players": 2})
    token = claim(server, "north")
    status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}?seat=north", token=token)
    assert status == 200
    players = {p["seat"]: p for p in snapshot["view"]["players"]}
    assert {c["id"] for c in players["south"]["hand"]} == hands(server)["south"]
    assert snapshot["view"]["hints_allowed"] is True


def test_a_table_button_transmits_for_the_player_in_turn(server: LiveServer) -> None:
    new_game(server, "clacks", {"mode": "junior", "players": 2}, seed=5)
    session = server.room.session
    assert session is not None
    clacks = session.clacks  # type: ignore[attr-defined]
    rng = Rng(5)
    while True:
        seat = session.active_seats[0]
        sends = [a for a in session.legal_actions(seat, 0.0) if a["type"] == "transmit"]
        if sends:
            break
        clacks.apply(choose_map_action(clacks, rng))
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/buttons/{sends[0]['tower']}", pin=server.pin
    )
    assert status == 200, body
    assert body["events"][0]["kind"] == "transmitted"
    # now the other player is in turn: a button of the first player's colour is refused
    assert session.active_seats != [seat]
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/buttons/{sends[0]['tower']}", pin=server.pin
    )
    assert status == 422 and body["rule"] == "wrong_colour"
    assert server.room.presses.notice is not None


def test_the_trainer_through_the_api(server: LiveServer) -> None:
    new_game(server, "clacks-trainer", {"seat": "east", "kind": "read", "questions": 2})
    token = claim(server, "east")
    session = server.room.session
    assert session is not None
    status, body = call(
        server.base, "GET", f"/api/rooms/{server.code}/seats/east/legal", token=token
    )
    assert status == 200 and {a["type"] for a in body["actions"]} == {"answer", "skip"}
    table = call(server.base, "GET", f"/api/rooms/{server.code}")[1]
    assert "symbol" not in table["view"]["question"]  # the answer is not given away
    right = session.trainer.state.question.symbol  # type: ignore[attr-defined]
    status, body = act(server, "east", token, {"type": "answer", "symbol": right.lower()})
    assert status == 200 and body["events"][0]["correct"] is True
    status, body = act(server, "east", token, {"type": "answer", "symbol": "7"})
    assert status == 400 and "not a Clacks symbol" in body["message"]
    status, body = act(server, "east", token, {"type": "skip"})
    assert status == 200 and session.over
    assert session.result() == {
        "winners": ["east"],
        "reason": "finished",
        "score": 1,
        "asked": 2,
        "best_streak": 1,
    }
