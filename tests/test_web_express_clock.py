"""Clacks Express over the real server: the turn's clock waits until every seat is taken,
by a person or a bot, and then gives the first player their whole turn."""

from __future__ import annotations

import time

from live_server import LiveServer, companion
from test_web_api import claim, start
from test_web_bots import wait_for
from web_client import call


def _actions(server: LiveServer) -> list[str]:
    session = server.room.session
    assert session is not None
    return [a["type"] for a in session.log_json()["actions"]]


def test_the_express_clock_waits_for_every_seat() -> None:
    with companion() as server:
        start(server, express=True, turn_seconds=1)
        claim(server, "south", "Ann")  # North is still empty
        time.sleep(2.5)  # more than two whole turns
        assert "time_up" not in _actions(server)
        status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")
        assert status == 200 and snapshot["deadline"] is None  # no countdown shown
        seated = time.time()
        claim(server, "north", "Bob")
        wait_for(lambda: "time_up" in _actions(server))
        # the clock was taken up when North sat down, and South had the whole second
        assert _actions(server)[:2] == ["resume_clock", "time_up"]
        assert time.time() - seated >= 0.9


def test_a_bot_in_the_empty_seat_starts_the_clock() -> None:
    with companion() as server:
        start(server, express=True, turn_seconds=1)
        claim(server, "south", "Ann")
        time.sleep(1.5)
        assert "time_up" not in _actions(server)
        status, _ = call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/seats/north/bot",
            {"level": "random"},
            pin=server.pin,
        )
        assert status == 200
        wait_for(lambda: "time_up" in _actions(server))
