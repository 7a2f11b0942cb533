"""Klackers through the companion: the JSON API over real HTTP, and the box's buttons and
lamps through a board attached to the table."""

from __future__ import annotations

import json

from live_server import LiveServer
from test_web_board import game_on_the_box
from web_client import EventStream, ask_for_game, call, press

from engine.klackers.bots import PlannerBot
from engine.klackers.layout import default_layout


def test_a_match_over_the_api(server: LiveServer) -> None:
    base, code = server.base, server.code
    status, games = call(base, "GET", "/api/games")
    klackers = next(g for g in games["games"] if g["name"] == "klackers")
    assert status == 200 and klackers["title"] == "Klackers"
    status, reference = call(base, "GET", "/api/games/klackers/reference")
    assert status == 200 and reference["layout"]["dice"] == ["a1", "b1", "c1", "d1"]

    status, body = ask_for_game(server, {"game": "klackers", "options": {"players": 7}})
    assert status == 400 and body["error"] == "klackers_options"
    status, _ = ask_for_game(
        server, {"game": "klackers", "options": {"players": 2, "rounds": 1}, "seed": 12}
    )
    assert status == 201
    tokens = {
        seat: call(base, "POST", f"/api/rooms/{code}/seats/{seat}", {"name": seat})[1]["token"]
        for seat in ("south", "north")
    }
    stream = EventStream(base, f"/api/rooms/{code}/stream")
    first = stream.next_state()
    assert first["view"]["game"] == "klackers" and first["lamps"]["accent"] == [0, 1, 2, 3]

    session = server.room.session
    assert session is not None
    seat = session.active_seats[0]
    other = "north" if seat == "south" else "south"
    path = f"/api/rooms/{code}/seats"
    # out of turn, before a roll, a bad action: each refused with its rule
    status, body = call(
        base, "POST", f"{path}/{other}/actions", {"action": {"type": "roll"}}, tokens[other]
    )
    assert status == 422 and body["rule"] == "not_your_turn"
    # the API's English is the catalogue's sentence, with the engine's values in it
    assert body["params"] == {"reason": "turn", "current": seat}
    assert body["message"] == f"It is not your turn: {seat.capitalize()} is playing."
    status, body = call(
        base,
        "POST",
        f"{path}/{seat}/actions",
        {"action": {"type": "pull", "numbers": [3]}},
        tokens[seat],
    )
    assert status == 422 and body["rule"] == "roll_first"
    assert body["message"] == "Roll the dice first, then pull forward numbers that add up to the roll."
    status, body = call(
        base,
        "POST",
        f"{path}/{seat}/actions",
        {"action": {"type": "roll", "dice": 5}},
        tokens[seat],
    )
    assert status == 400 and body["rule"] == "malformed_action"

    bot = PlannerBot()
    previewed = False
    while not session.over:
        seat = session.active_seats[0]
        status, view = call(base, "GET", f"/api/rooms/{code}?seat={seat}", token=tokens[seat])
        action = bot.choose(view["view"]).to_json()
        if action["type"] == "pull" and not previewed:
            status, legal = call(base, "GET", f"{path}/{seat}/legal", token=tokens[seat])
            assert action in legal["actions"]
            mine = next(p for p in view["view"]["players"] if p["seat"] == seat)
            wrong = mine["standing"][0]
            status, body = call(
                base,
                "POST",
                f"{path}/{seat}/preview",
                {"action": {"type": "pull", "numbers": [wrong]}},
                tokens[seat],
            )
            lamp = default_layout().numbers[wrong - 1]
            assert status == 200 and body["frame"]["preview"] == [lamp]
            previewed = True
        status, body = call(
            base, "POST", f"{path}/{seat}/actions", {"action": action}, tokens[seat]
        )
        assert status == 200, body
    assert previewed
    status, snapshot = call(base, "GET", f"/api/rooms/{code}")
    assert snapshot["over"] and snapshot["result"]["reason"] == "most_chips"
    assert snapshot["view"]["winners"] == snapshot["result"]["winners"]
    stream.catch_up(snapshot["seq"])
    pushed = stream.raw.decode()
    for secret in ('"seed"', '"rng"', '"undo_floor"'):
        assert secret not in pushed and secret not in json.dumps(snapshot)
    stream.close()


def test_the_box_buttons_play_klackers_and_the_dice_rattle() -> None:
    layout = default_layout()
    with game_on_the_box("klackers", {"players": 2}, seed=21) as (board, server, session):
        status, body = press(server, "c2c3")  # pull: nothing is marked
        assert status == 422 and body["rule"] == "nothing_marked" and board.refusals == 1
        assert press(server, "zz")[0] == 404

        # roll with the box until a roll can be pulled; every roll rattles the dice row
        rolls = 0
        while not session.view(None)["turn"]["combinations"]:
            assert press(server, "b1b2")[0] == 200
            rolls += 1
        assert board.transmissions == [layout.dice_mask] * rolls
        turn = session.view(None)["turn"]
        combination = turn["combinations"][-1]
        for number in combination:
            button = layout.button_for(str(number))
            assert button is not None and press(server, button)[0] == 200
        assert board.frames[-1].preview == layout.number_lamps(
            sum(1 << (n - 1) for n in combination)
        )
        status, body = call(server.base, "GET", f"/api/rooms/{server.code}")
        assert body["view"]["marked"] == combination
        seat = turn["seat"]
        status, _ = press(server, "c2c3")
        assert status == 200
        player = next(p for p in session.view(None)["players"] if p["seat"] == seat)
        assert set(combination) <= set(player["down"])
        assert board.frames[-1] == session.lamps() and not board.frames[-1].preview
