"""Guards! Guards! through the companion: the JSON API over real HTTP, what each page
may see (a hand and a Saboteur's quadrant only on their owner's phone), refusals with
their rule, the box's buttons from the table screen, and every word in both languages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from guards_support import GUILD_CARDS, guards_of, rig, to_move, volunteer
from live_server import LiveServer
from refusals import assert_every_refusal_said, event_kinds
from web_client import EventStream, call

from engine.guards import errors
from web.i18n import LANGUAGES, catalog


def start(server: LiveServer, players: int = 2) -> dict[str, str]:
    base, code = server.base, server.code
    status, _ = call(base, "POST", f"/api/rooms/{code}/game",
                     {"game": "guards", "options": {"players": players, "spells": 3}, "seed": 21}, pin=server.pin)
    assert status == 201
    return {seat: call(base, "POST", f"/api/rooms/{code}/seats/{seat}", {"name": seat})[1]["token"]
            for seat in ("red", "blue", "green")[:players]}


def act(server: LiveServer, tokens: dict[str, str], seat: str, action: dict[str, object]) -> tuple[int, dict[str, Any]]:
    return call(server.base, "POST", f"/api/rooms/{server.code}/seats/{seat}/actions", {"action": action}, tokens[seat])


def test_the_game_over_the_api_keeps_each_hand_to_its_phone(server: LiveServer) -> None:
    base, code = server.base, server.code
    status, games = call(base, "GET", "/api/games")
    guards = next(g for g in games["games"] if g["name"] == "guards")
    assert guards["title"] == "Guards! Guards!" and guards["options"]["modes"][0]["players"] == [2, 3, 4, 5, 6]
    status, reference = call(base, "GET", "/api/games/guards/reference")
    assert status == 200 and reference["buttons"]["b2c2"] == "roll" and len(reference["blocks"]) == 4
    status, body = call(base, "POST", f"/api/rooms/{code}/game", {"game": "guards", "options": {"players": 7}},
                        pin=server.pin)
    assert status == 400 and body["error"] == "guards_options"

    tokens = start(server)
    stream = EventStream(base, f"/api/rooms/{code}/stream?seat=blue&token={tokens['blue']}")
    stream.next_state()
    status, legal = call(base, "GET", f"/api/rooms/{code}/seats/red/legal", token=tokens["red"])
    assert [f["type"] for f in legal["actions"]] == ["choose_guild"]
    for i, seat in enumerate(("red", "blue")):
        assert act(server, tokens, seat, {"type": "choose_guild", "card": GUILD_CARDS[i]})[0] == 200
        dealt_brother = volunteer(f"Secret Brother {seat}", brethren=True)
        assert act(server, tokens, seat, {"type": "dealt", "deck": "lords_ladies", "values": dealt_brother})[0] == 200
        assert act(server, tokens, seat, {"type": "dealt", "deck": "man_beast",
                                          "values": volunteer(f"{seat} beast", "man_beast")})[0] == 200
    # a report the rules forbid is refused with its rule, and nothing changes
    revision = server.room.revision
    status, body = act(server, tokens, "red", {"type": "end_turn"})
    assert status == 422 and body["rule"] == "guards_set_up_first"
    status, body = act(server, tokens, "red", {"type": "recruit", "deck": "wizards"})
    assert status == 400 and body["rule"] == "malformed_action"
    assert server.room.revision == revision
    # the box's roll button, pressed on the table screen
    status, _ = call(base, "POST", f"/api/rooms/{code}/buttons/b2c2", pin=server.pin)
    assert status == 200
    session = server.room.session
    state = guards_of(session).state
    seat = to_move(guards_of(session))
    planted = state.players[seat].hand[0]
    rig(guards_of(session), [7])
    status, body = act(server, tokens, seat, {"type": "plant", "card": planted, "quadrant": "assassins"})
    assert status == 200 and body["events"][-1]["kind"] == "planted"
    other = "blue" if seat == "red" else "red"
    status, mine = call(base, "GET", f"/api/rooms/{code}?seat={seat}", token=tokens[seat])
    status, theirs = call(base, "GET", f"/api/rooms/{code}?seat={other}", token=tokens[other])
    status, table = call(base, "GET", f"/api/rooms/{code}")
    assert mine["view"]["you"]["saboteurs"][0]["quadrant"] == "assassins"
    assert f"Secret Brother {seat}" in json.dumps(mine)
    for view in (theirs, table):
        text = json.dumps(view)
        assert f"Secret Brother {seat}" not in text and f'"{planted}"' not in text
        public = next(p for p in view["view"]["players"] if p["seat"] == seat)
        assert public["saboteurs"] == 1 and public["volunteers"] == 1
    stream.catch_up(server.room.seq)
    pushed = stream.raw.decode()
    assert f"Secret Brother {seat}" not in pushed and "assassins" not in pushed.split('"view"')[0]
    for secret in ('"seed"', '"rng"'):
        assert secret not in pushed and secret not in json.dumps(table)
    # undo takes back a report, never a roll
    status, body = act(server, tokens, seat, {"type": "adjust", "dollars": 2})
    status, body = call(base, "POST", f"/api/rooms/{code}/seats/{seat}/undo", {}, tokens[seat])
    assert status == 200 and guards_of(session).state.players[seat].dollars == 5
    status, body = call(base, "POST", f"/api/rooms/{code}/seats/{seat}/undo", {}, tokens[seat])
    assert status == 422 and body["rule"] == "nothing_to_undo"
    stream.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_guards_refusal_and_event_can_be_said(language: str) -> None:
    messages = catalog(language)
    assert_every_refusal_said(
        errors, messages, "guards_money", "guards_saboteurs_locked", "guards_dragon_there"
    )
    made_elsewhere = {"ability_worked", "ability_failed", "rolled", "panel_shown", "marked"}
    kinds = event_kinds("guards", "ev") | made_elsewhere
    assert {"recruited", "spell_returned", "dragons_win", "allegiance_changed"} <= kinds
    assert {f"guards.event.{kind}" for kind in kinds} <= set(messages)
    from engine.guards.actions import SCHEMAS
    from engine.guards.rolls import SPECS

    assert {f"guards.form.{kind}" for kind in SCHEMAS} <= set(messages)
    assert {f"guards.purpose.{p}" for p in SPECS} <= set(messages)
    fields = {name for schema in SCHEMAS.values() for name in schema}
    assert {f"guards.field.{name}" for name in fields} <= set(messages)
    for seat in ("red", "blue", "green", "yellow", "black", "white"):
        assert f"seat.{seat}" in messages
