"""A hint's flips on the phone and the table screen are the lamps its plan changes: in a
co-op turn whose plan flips b3 with two cards, b3 is left unmarked on both screens, and
every lamp the plan does change is marked."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import TV, Page, lamps_shown
from live_server import companion
from table_driver import seat_everyone
from test_web_first_table_browser import seated_phone

pytestmark = pytest.mark.browser


def test_a_lamp_the_plan_flips_twice_is_not_marked_on_any_screen(browser: Any) -> None:
    with companion() as server:
        room = server.room
        room.new_game("clacks", {"mode": "coop", "players": 2}, 3)
        room.previews.set_hints(True)
        tokens = seat_everyone(server)
        session = room.session
        assert session is not None
        for _ in range(2):  # two turns as the hints play them
            seat = session.active_seats[0]
            with room.lock:
                plan = session.hint(seat)
            assert plan is not None
            for action in plan["actions"]:
                room.act(seat, tokens[seat], action)
        seat = session.active_seats[0]
        with room.lock:
            plan = session.hint(seat)
        assert plan is not None
        counts: dict[str, int] = {}
        for card in plan["flips"]:
            for lamp in card:
                counts[lamp] = counts.get(lamp, 0) + 1
        assert counts["b3"] == 2
        changed = {lamp for lamp, n in counts.items() if n % 2}
        table = Page(browser, "table", **TV)
        phone = seated_phone(browser, server, seat, tokens[seat])
        try:
            table.page.goto(server.url(f"/table/{server.code}"))
            page = phone.page
            page.click("[data-action=hint]")
            page.wait_for_selector(".hint-box .hint-steps li")
            assert lamps_shown(page, ".board-box .lamp.flip") == changed
            table.page.wait_for_selector("#hint-note")
            table.page.wait_for_selector(".board-box .lamp.flip")
            assert lamps_shown(table.page, ".board-box .lamp.flip") == changed
            phone.shot("phone-hint-flipped-twice")
            assert phone.errors == [] and table.errors == []
        finally:
            phone.context.close()
            table.context.close()
