"""The JSON API over real HTTP through waitress: seats and tokens, actions, refusals,
previews, buttons, and that no response carries a hand to anyone else."""

from __future__ import annotations

import json
import re
from typing import Any

from live_server import LiveServer
from web_client import ask_for_game, call

from engine.games import game_module


def start(server: LiveServer, seed: int = 12, **options: Any) -> None:
    status, body = ask_for_game(
        server, {"options": {"players": 2, **options}, "seed": seed, "names": {"south": "Ann"}}
    )
    assert status == 201, body
    assert server.room.session.active_seats == ["south"]  # type: ignore[union-attr]


def claim(server: LiveServer, seat: str, name: str = "") -> str:
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/seats/{seat}", {"name": name}
    )
    assert status == 200, body
    token: str = body["token"]
    return token


def act(
    server: LiveServer, seat: str, token: str | None, action: Any, **extra: Any
) -> tuple[int, Any]:
    headers = extra.pop("headers", None)
    return call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/seats/{seat}/actions",
        {"action": action, **extra},
        token=token,
        headers=headers,
    )


def hand_ids(server: LiveServer, seat: str) -> list[str]:
    view = server.room.session.view(seat)  # type: ignore[union-attr]
    return [card["id"] for card in view["you"]["hand"]] + [c["id"] for c in view["you"]["faults"]]


def preview(server: LiveServer, token: str, action: dict[str, Any]) -> tuple[int, Any]:
    """South's phone asks what ``action`` would light, as it does before a confirm."""
    return call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/seats/south/preview",
        {"action": action},
        token=token,
    )


def test_a_seat_is_claimed_once_and_its_token_is_required(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south", "Ann")
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/seats/south", {"name": "Eve"}
    )
    assert status == 409 and body["error"] == "seat_taken" and body["params"]["name"] == "Ann"
    move = {"type": "move", "tower": "b2c2"}
    assert act(server, "south", None, move)[0] == 403
    assert act(server, "south", "not-the-token", move)[0] == 403
    assert act(server, "north", token, move)[0] == 403  # north is not claimed by this token
    status, body = act(server, "south", token, move)
    assert status == 200 and body["events"][0]["kind"] == "moved"
    # the same token may rename its seat, and keeps it after a reload
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/seats/south", {"name": "Anna"}, token=token
    )
    assert status == 200 and body["token"] == token and body["name"] == "Anna"


def test_views_carry_only_the_asking_seats_hand(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    north = claim(server, "north")
    south_cards, north_cards = hand_ids(server, "south"), hand_ids(server, "north")

    status, table = call(server.base, "GET", f"/api/rooms/{server.code}")
    assert status == 200 and table["view"]["you"] is None
    status, mine = call(server.base, "GET", f"/api/rooms/{server.code}?seat=south", token=south)
    assert [c["id"] for c in mine["view"]["you"]["hand"]] == south_cards[:3]
    text_table, text_south = json.dumps(table), json.dumps(mine)
    text_north = json.dumps(
        call(server.base, "GET", f"/api/rooms/{server.code}?seat=north", token=north)[1]
    )
    for card in north_cards:
        assert f'"{card}"' not in text_table and f'"{card}"' not in text_south
    for card in south_cards:
        assert f'"{card}"' not in text_table and f'"{card}"' not in text_north
    # nothing of the deal's secrets in any of them
    for text in (text_table, text_south, text_north):
        assert '"seed"' not in text and '"bag"' not in text and '"fault_deck"' not in text
    # asking for another seat's view with your own token is refused
    assert call(server.base, "GET", f"/api/rooms/{server.code}?seat=north", token=south)[0] == 403


def test_bad_input_gets_a_clear_4xx_and_changes_nothing(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south")
    room = server.room
    before = (room.revision, json.dumps(room.session.log_json()))  # type: ignore[union-attr]
    path = f"/api/rooms/{server.code}/seats/south/actions"
    cases = [
        call(server.base, "POST", path, raw=b"{not json", token=token),
        call(server.base, "POST", path, raw=b"[1, 2]", token=token),
        call(server.base, "POST", path, raw=b"x" * 40000, token=token),
        act(server, "south", token, {"type": "fly"}),
        act(server, "south", token, "move"),
        act(server, "south", token, {"type": "move", "tower": 7}),
        act(server, "south", token, {"type": "move", "tower": "zz"}),
        act(server, "south", token, {"type": "move", "tower": "b2b3"}),
        act(server, "south", token, {"type": "transmit"}),
        act(server, "south", token, {"type": "move", "tower": "b2c2"}, revision="x"),
        act(server, "nobody", token, {"type": "end_turn"}),
        call(server.base, "POST", f"/api/rooms/{server.code}/seats/south/actions", {}, token=token),
        call(server.base, "GET", "/api/rooms/QQQQ"),
        call(server.base, "POST", f"/api/rooms/{server.code}/buttons/nowhere", pin=server.pin),
        ask_for_game(server, {"options": {"players": 9}}),
        ask_for_game(server, {"options": {"words": [["Ř€"]]}}),
        ask_for_game(server, {"options": {"express": True, "turn_seconds": 1e12}}),
        # nesting deep enough to break a recursive reader, on a seat's, a stranger's and
        # the table's requests
        call(server.base, "POST", path, raw=b"[" * 5000 + b"]" * 5000, token=token),
        call(server.base, "POST", path, {"action": {"type": "move", "tower": deep(40)}}, token),
        call(server.base, "POST", f"/api/rooms/{server.code}/seats/north", raw=b"{" * 3000),
        call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/saves",
            raw=b'{"game": "clacks", "actions": ' + b"[" * 5000 + b"]" * 5000 + b"}",
            pin=server.pin,
        ),
    ]
    for status, body in cases:
        assert 400 <= status < 500, (status, body)
        assert isinstance(body, dict) and body["message"], body
    statuses = [status for status, _ in cases]
    assert statuses[:4] == [400, 400, 413, 400]
    assert cases[7][1]["rule"] == "wrong_colour" and cases[7][0] == 422
    assert cases[8][1]["rule"] in ("not_on_tower", "jacquard_required")
    assert "from 1 to 86400" in cases[16][1]["message"]
    assert [body["message"] for _, body in cases[17:]] == [
        "The request body is nested too deeply",
        "The request body is nested too deeply",
        "The request body must be a JSON object",
        "This replay file is nested too deeply",
    ]
    assert (room.revision, json.dumps(room.session.log_json())) == before  # type: ignore[union-attr]


def deep(levels: int) -> Any:
    nested: Any = "b2c2"
    for _ in range(levels):
        nested = [nested]
    return nested


def test_stale_revision_and_repeated_requests_do_not_play_twice(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south")
    revision = server.room.revision
    move = {"type": "move", "tower": "b2c2"}
    key = {"Idempotency-Key": "tap-1"}
    first = act(server, "south", token, move, revision=revision, headers=key)
    again = act(server, "south", token, move, revision=revision, headers=key)
    assert first == again and first[0] == 200
    assert len(server.room.session.log_json()["actions"]) == 1  # type: ignore[union-attr]
    status, body = act(server, "south", token, {"type": "move", "tower": "a2b2"}, revision=revision)
    assert status == 409 and body["error"] == "stale" and body["params"]["revision"] == revision + 1


def test_undo_preview_and_a_refused_placement(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south")
    session = server.room.session
    assert session is not None
    assert act(server, "south", token, {"type": "move", "tower": "b2c2"})[0] == 200
    assert server.room.session.can_undo("south")  # type: ignore[union-attr]
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/seats/south/undo", {}, token=token
    )
    assert status == 200 and body["events"][0]["kind"] == "undone"
    assert session.view("south")["players"][0]["pawn"] is None
    legal = call(server.base, "GET", f"/api/rooms/{server.code}/seats/south/legal", token=token)[1]
    play = next(a for a in legal["actions"] if a["type"] == "play_jacquard")
    status, body = preview(server, token, play)
    lamp_index = {name: i for i, name in enumerate(game_module("clacks").reference()["lamps"])}
    assert status == 200 and body["frame"]["preview"] == sorted(
        lamp_index[x] for x in play["lamps"]
    )
    assert server.room.previews.current is not None and server.room.previews.current.seat == "south"
    wrong = dict(play, lamps=["a1", "b2", "c3", "d4", "a4", "d1"])
    status, body = act(server, "south", token, wrong)
    assert status == 422 and body["rule"] == "bad_placement" and "holes" in body["message"]
    status, body = preview(server, token, wrong)
    assert status == 200 and body["frame"] is None


def test_table_button_moves_the_current_player(server: LiveServer) -> None:
    start(server)
    claim(server, "south")
    current = server.room.session.active_seats[0]  # type: ignore[union-attr]
    target = "b2c2"  # red: south and north both use red buttons
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/buttons/{target}", pin=server.pin
    )
    assert status == 200 and body["events"][0] == {
        "kind": "moved",
        "seat": current,
        "to": target,
        "cost": 0,
        "from": None,
    }
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/buttons/b2b3", pin=server.pin
    )
    assert status == 422 and body["rule"] == "wrong_colour"
    assert server.room.presses.notice is not None


def test_a_new_game_keeps_holders_of_seats_it_still_has(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    ask_for_game(server, {"options": {"players": 3}})
    server.room.seats.authorize("south", south)
    ask_for_game(server, {"options": {"seats": ["west", "east"]}})
    assert "south" not in server.room.seats.claims
    status, _body = call(server.base, "GET", f"/api/rooms/{server.code}?seat=south", token=south)
    assert status == 404


def test_every_api_route_is_in_the_openapi_document(server: LiveServer) -> None:
    status, document = call(server.base, "GET", "/api/openapi.json")
    assert status == 200 and document["openapi"].startswith("3.")
    from web import create_app

    app = create_app()
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            served.add(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule))
    assert served == set(document["paths"])
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            assert operation["summary"] and operation["responses"], (path, method)


def test_a_seat_asks_why_an_action_is_out_of_reach_and_nothing_changes(
    server: LiveServer,
) -> None:
    start(server)
    south, north = claim(server, "south"), claim(server, "north")
    path = f"/api/rooms/{server.code}/seats/south/check"
    session = server.room.session
    assert session is not None
    move = next(a for a in session.legal_actions("south", 0.0) if a["type"] == "move")
    assert call(server.base, "POST", path, {"action": move}, token=south) == (
        200,
        {"revision": 1, "allowed": True, "error": None},
    )
    play = next(a for a in session.legal_actions("south", 0.0) if a["type"] == "play_jacquard")
    assert act(server, "south", south, play)[0] == 200
    status, answer = call(server.base, "POST", path, {"action": move}, token=south)
    assert status == 200 and answer["allowed"] is False and answer["revision"] == 2
    assert answer["error"]["rule"] == "move_not_allowed"
    assert answer["error"]["params"] == {"reason": "played", "played": 1}
    assert "Move before playing Jacquards" in answer["error"]["message"]
    assert server.room.revision == 2  # asking changed nothing
    # out of turn, the rules' own reason; another seat's token is refused as ever
    north_path = f"/api/rooms/{server.code}/seats/north/check"
    status, answer = call(
        server.base, "POST", north_path, {"action": {"type": "end_turn"}}, token=north
    )
    assert answer["error"]["rule"] == "not_your_turn"
    assert call(server.base, "POST", path, {"action": move}, token=north)[0] == 403
    assert call(server.base, "POST", path, {}, token=south)[0] == 400
    status, answer = call(server.base, "POST", path, {"action": "fly"}, token=south)
    assert status == 200 and answer["error"]["rule"] == "malformed_action"


def test_a_new_game_keeps_frees_or_hands_to_bots_the_seats_people_hold(
    server: LiveServer,
) -> None:
    start(server)
    south, north = claim(server, "south", "Ann"), claim(server, "north", "Bob")
    game = f"/api/rooms/{server.code}/game"
    body: dict[str, Any] = {"options": {"players": 2}, "seed": 3}
    # a person's seat cannot go to a bot unless the table lets the person go
    status, answer = call(
        server.base, "POST", game, {**body, "bots": {"north": "planner"}}, pin=server.pin
    )
    assert (status, answer["error"]) == (409, "seat_taken")
    assert call(server.base, "POST", game, {**body, "free": "north"}, pin=server.pin)[0] == 400
    status, _ = call(
        server.base,
        "POST",
        game,
        {**body, "bots": {"north": "planner"}, "free": ["north"]},
        pin=server.pin,
    )
    assert status == 201
    assert server.room.seats.bots == {"north": "planner"}
    assert set(server.room.seats.claims) == {"south"}  # Ann is kept, Bob let go
    assert act(server, "north", north, {"type": "end_turn"})[0] == 403
    # freed for someone else: the seat is free in the new game, the name goes too
    status, _ = call(
        server.base, "POST", game, {**body, "free": ["south"], "bots": {}}, pin=server.pin
    )
    assert status == 201 and server.room.seats.claims == {} and server.room.seats.bots == {}
    _status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")
    assert [s["claimed"] for s in snapshot["room"]["seats"]] == [False, False]
    assert call(server.base, "GET", f"/api/rooms/{server.code}?seat=south", token=south)[0] == 403
