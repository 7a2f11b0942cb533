"""A person on a phone against a planner bot, in a real browser (Debian's chromium through
Playwright): the table screen's lobby gives North to the bot and its controls (PIN)
turn the hints on; the phone cannot take the bot's seat, asks for a hint once, sees the
plan in words and its flips on its own board and on the table screen, carries out the
first step with a tap, and plays a few turns while the bot answers each of them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial

import pytest
from browser_support import Page, lamps_shown, start_game
from live_server import LiveServer
from test_web_browser import play_on_phone

from engine.clacks.selfplay import choose_turn_action
from engine.core.rng import Rng
from engine.games import game_module
from web.room import Room

pytestmark = pytest.mark.browser
TURNS = 3  # the person's turns, each answered by the bot


def moved_past(room: Room, revision: int) -> bool:
    return room.revision > revision


def test_a_person_plays_a_planner_bot_and_takes_a_hint(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    table, south = pages["table"], pages["south"]
    room = server.room

    # the lobby: Ann at South, a planner bot at North
    table.page.goto(server.url("/"))
    table.page.select_option("select[name=bot-north]", "planner")
    start_game(table, 12, south="Ann")
    assert room.seats.bots == {"north": "planner"}
    assert "played by a bot (Planner)" in table.page.inner_text("[data-presence=north]")
    # the table's controls (its PIN, on its own screen), one tap away, turn the phones' hints on
    table.page.click("#open-controls")
    table.page.check("#hints-setting")
    # the setting is saved when the table's next snapshot says so
    table.page.wait_for_function(
        "() => (window.__pushed || []).some((data) => JSON.parse(data).room.hints)"
    )
    assert room.previews.hints
    table.page.click("#close-controls")

    # the phone cannot take the bot's seat
    south.page.goto(server.url(f"/join/{server.code}"))
    bot_seat = south.page.locator("button[data-seat=north]")
    assert bot_seat.is_disabled() and "Planner bot plays here" in bot_seat.inner_text()
    # the table named South: the phone takes it by that name and asks for none
    assert south.page.inner_text("button[data-seat=south]") == "I am Ann (South)"
    assert south.page.locator("#player-name").count() == 0
    south.page.click("button[data-seat=south]")
    south.wait_revision(1)

    # a hint: the plan in words, its flips on the phone and on the table screen
    session = room.session
    assert session is not None and session.active_seats == ["south"]
    with room.lock:
        plan = session.hint("south")
    assert plan is not None
    flips = {lamp for card in plan["flips"] for lamp in card}
    assert flips
    south.page.click("[data-action=hint]")
    south.page.wait_for_selector(".hint-box .hint-steps li")
    steps = south.page.locator(".hint-steps li").all_inner_texts()
    assert len(steps) == len(plan["actions"])
    assert steps[0] == f"Move to {plan['actions'][0]['tower']}"
    assert plan["tower"] in south.page.inner_text(".hint-summary")
    assert lamps_shown(south.page, ".board-box .lamp.flip") == flips
    assert south.page.locator(f".tower.hinted[data-tower='{plan['tower']}']").count() == 1
    table.page.wait_for_selector("#hint-note")
    assert "The hint for Ann" in table.page.inner_text("#hint-note")
    assert lamps_shown(table.page, ".clacks-table .lamp.flip") == flips
    tower_lamps = next(
        t["lamps"] for t in game_module("clacks").reference()["towers"] if t["id"] == plan["tower"]
    )
    assert set(tower_lamps) <= lamps_shown(table.page, ".clacks-table .lamp.accent")
    south.shot("phone-hint")
    table.shot("table-tv-hint")

    # its first step with one tap; the hint is gone from every screen with the change
    revision = room.revision
    south.page.click("[data-action=hint-do]")
    south.wait_revision(revision + 1)
    assert session.log_json()["actions"][-1] == {**plan["actions"][0], "seat": "south"}
    table.wait_revision(revision + 1)
    assert table.page.locator("#hint-note").count() == 0

    # a few turns against the bot: the person taps, the bot answers every turn
    clacks = session.clacks  # type: ignore[attr-defined]
    rng = Rng(3)
    turns = 0
    while turns < TURNS and not session.over:
        wait_for_south(room)
        with room.lock:  # Ann looks at the table while nothing moves
            revision = room.revision
            action = choose_turn_action(clacks, rng)
            hand = session.view("south")["you"]["hand"]
        south.wait_revision(revision)
        play_on_phone(south, "south", action, hand, None)
        wait_for(partial(moved_past, room, revision))
        turns += action.TYPE in ("end_turn", "transmit")
    wait_for_south(room)
    assert turns == TURNS or session.over
    assert [a for a in session.log_json()["actions"] if a["seat"] == "north"]
    table.wait_revision(room.revision)
    assert "Planner bot (North)" in table.page.inner_text("#log-list")
    for page in (table, south):
        assert page.errors == [], page.errors
        # the plan went only to the phone that asked, in the answer to its request
        assert all('"actions"' not in json.dumps(m) for m in page.pushed())


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def wait_for_south(room: Room) -> None:
    """Until the bot has played its turn and it is South's again (or the game is over)."""
    session = room.session
    assert session is not None
    wait_for(lambda: session.over or session.active_seats == ["south"])
