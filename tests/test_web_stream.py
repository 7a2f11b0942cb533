"""The event stream through waitress: prompt delivery, per-seat payloads that never carry
another hand, the table clock, and streams that end when their page goes."""

from __future__ import annotations

import json
import time

import pytest
from live_server import LiveServer
from test_web_api import act, claim, start
from web_client import EventStream, call

from engine.games import game_module


def stream(server: LiveServer, seat: str | None = None, token: str | None = None) -> EventStream:
    query = f"?seat={seat}&token={token}" if seat else ""
    return EventStream(server.base, f"/api/rooms/{server.code}/stream{query}")


def test_an_action_reaches_every_stream_at_once(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    north = claim(server, "north")
    watchers = [stream(server), stream(server, "south", south), stream(server, "north", north)]
    for watcher in watchers:
        assert watcher.status == 200
        watcher.catch_up(server.room.seq)  # seats connecting are pushed too
    sent = time.perf_counter()
    status, body = act(server, "south", south, {"type": "move", "tower": "b2c2"})
    assert status == 200
    delays = []
    for watcher in watchers:
        state = watcher.next_state(timeout=5)
        while state["revision"] < body["revision"]:
            state = watcher.next_state(timeout=5)
        delays.append(time.perf_counter() - sent)
        assert [e["kind"] for e in state["events"]] == ["moved"]
    # a buffered stream would hold the event until the next heartbeat (15 s)
    assert max(delays) < 2.0, delays
    for watcher in watchers:
        watcher.close()


def _pending(watcher: EventStream) -> bool:
    watcher.sock.settimeout(0.2)
    try:
        chunk = watcher.sock.recv(65536)
    except TimeoutError:
        return False
    watcher.buffer += chunk
    watcher.raw += chunk
    return bool(chunk)


def test_streams_never_carry_another_seats_hand(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    north = claim(server, "north")
    spectator, south_stream, north_stream = (
        stream(server),
        stream(server, "south", south),
        stream(server, "north", north),
    )
    session = server.room.session
    assert session is not None
    # play a few turns with legal actions so cards are drawn and played
    for _ in range(8):
        seat = session.active_seats[0]
        token = south if seat == "south" else north
        legal = session.legal_actions(seat, time.time())
        plays = [a for a in legal if a["type"] == "play_jacquard"]
        assert act(server, seat, token, plays[0])[0] == 200
        assert act(server, seat, token, {"type": "end_turn"})[0] == 200
    time.sleep(0.3)
    final = {
        seat: [c["id"] for c in session.view(seat)["you"]["hand"]] for seat in ("south", "north")
    }
    for watcher, own, other in (
        (spectator, None, None),
        (south_stream, "south", "north"),
        (north_stream, "north", "south"),
    ):
        watcher.sock.settimeout(0.5)
        while _pending(watcher):
            pass
        text = watcher.raw.decode()
        messages = [json.loads(line[6:]) for line in text.split("\n") if line.startswith("data: ")]
        assert len(messages) >= 8
        for message in messages:
            view = message["view"]
            if own is None:
                assert view["you"] is None
            else:
                assert view["you"]["seat"] == own
            for secret in ('"seed"', '"bag"', '"fault_deck"', '"undo_floor"', '"rng"'):
                assert secret not in json.dumps(message)
        hidden = final["south"] + final["north"] if own is None else final[other]  # type: ignore[index]
        for card in hidden:
            assert f'"{card}"' not in text, (own, card)
        watcher.close()


def test_a_wrong_token_gets_no_stream_and_a_lost_seat_sees_the_public_view(
    server: LiveServer,
) -> None:
    start(server)
    south = claim(server, "south")
    refused = stream(server, "south", "guess")
    assert refused.status == 403
    refused.close()
    watcher = stream(server, "south", south)
    assert watcher.next_state()["seat"] == "south"
    status, _ = call(server.base, "DELETE", f"/api/rooms/{server.code}/seats/south", token=south)
    assert status == 200
    state = watcher.next_state()
    while state["seat"] is not None:
        state = watcher.next_state()
    assert state["view"]["you"] is None
    watcher.close()


def test_the_table_clock_ends_an_express_turn(server: LiveServer) -> None:
    status, _ = call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/game",
        {"options": {"players": 2, "express": True, "turn_seconds": 1}, "seed": 12},
        pin=server.pin,
    )
    assert status == 201
    watcher = stream(server)
    assert watcher.next_state()["deadline"] is None  # nobody sits at the table yet
    for seat in ("south", "north"):
        assert call(server.base, "POST", f"/api/rooms/{server.code}/seats/{seat}", {})[0] == 200
    kinds: list[str] = []
    deadline = time.time() + 5
    running = None
    while "time_up" not in kinds and time.time() < deadline:
        state = watcher.next_state(timeout=5)
        kinds += [e["kind"] for e in state["events"]]
        if running is None and state["deadline"] is not None:
            running = state
            # the whole turn from when the last seat was taken
            assert state["deadline"] == pytest.approx(state["server_time"] + 1, abs=0.3)
    assert running is not None
    assert "time_up" in kinds
    watcher.close()


def test_a_closed_page_releases_its_stream(server: LiveServer) -> None:
    start(server)
    watchers = [stream(server) for _ in range(3)]
    for watcher in watchers:
        watcher.next_state()
    assert server.room.fanout.spectators == 3
    for watcher in watchers:
        watcher.close()
    deadline = time.time() + 5
    while server.room.fanout.spectators and time.time() < deadline:
        claim_or_rename(server)  # any change makes each stream write, and find its page gone
        time.sleep(0.1)
    assert server.room.fanout.spectators == 0


def claim_or_rename(server: LiveServer) -> None:
    if "south" in server.room.seats.claims:
        call(server.base, "DELETE", f"/api/rooms/{server.code}/seats/south", pin=server.pin)
    call(server.base, "POST", f"/api/rooms/{server.code}/seats/south", {"name": "x"})


def test_reference_is_public_geometry_only(server: LiveServer) -> None:
    status, body = call(server.base, "GET", "/api/games/clacks/reference")
    assert status == 200 and body == json.loads(json.dumps(game_module("clacks").reference()))
    assert len(body["towers"]) == 12 and len(body["alphabet"]) == 28
