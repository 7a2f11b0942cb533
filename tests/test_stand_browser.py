"""A convention stand walked as its visitors walk it, in a real browser: the table screen's
attract programme, each visitor's choice on a 360x740 phone, a few moves, leaving, and
the table back at "Scan to play" each time, with no PIN typed anywhere."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import SCREENSHOTS, TEXT_SIZES, TV, Page, read_one
from fake_nmcli import install
from live_server import LiveServer
from test_hotspot import unescape_wifi
from test_hotspot_browser import PASSWORD, decode

from clacks.cli import main
from web.i18n import translate
from web.stand import StandSettings

STAND_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
IDLE = 8.0  # seconds a game may stand idle in these tests: long enough for a few taps
# A walk through several games holds no time window: on a loaded machine a few taps can
# take longer than IDLE, and the stand would end a game under the visitor's fingers. The
# idle ending has its own test (the idle time said as set, the phone told why).
WALK_IDLE = 600.0


@pytest.fixture
def stand() -> Iterator[LiveServer]:
    server = LiveServer(
        stand=StandSettings(("clacks:competitive", "klackers", "clockman"), WALK_IDLE, 1.0)
    )
    try:
        yield server
    finally:
        server.close()


def at_attract(tv: Page) -> None:
    tv.page.wait_for_selector("#stand-attract", timeout=IDLE * 1000 + 10_000)


def no_pin_anywhere(*pages: Page) -> None:
    for visited in pages:
        assert visited.page.locator("#pin-input, #table-pin *, #new-game").count() == 0
        assert visited.errors == []


def play_a_move(phone: Page, server: LiveServer) -> None:
    """The visitor asks for a hint and plays its first step, as a newcomer does."""
    phone.page.click("[data-action=hint]")
    revision = server.room.revision
    phone.page.click("[data-action=hint-do]")
    phone.page.wait_for_function(
        "r => Number(document.body.dataset.revision || -1) > r", arg=revision
    )


def choose(phone: Page, server: LiveServer, entry: str, choice: str, name: str) -> str:
    """The visitor opens the join link, picks ``entry`` and ``choice``; the seat they got."""
    phone.page.goto(server.url(f"/join/{server.code}"))
    phone.page.click(f"[data-entry='{entry}']")
    phone.page.fill("#stand-name", name)
    phone.page.click(f"[data-start={choice}]")
    phone.page.wait_for_selector("[data-action=leave]")
    claimed = [s for s, c in server.room.seats.claims.items() if c.name == name]
    assert len(claimed) == 1
    return claimed[0]


def test_three_visitors_in_turn_each_play_and_leave(browser: Any, stand: LiveServer) -> None:
    tv = Page(browser, "tv", **TV)
    visitors = [Page(browser, f"visitor{n}", **STAND_PHONE) for n in range(4)]
    try:
        tv.page.goto(stand.url("/"))
        at_attract(tv)
        assert "Scan to play" in tv.page.inner_text("#stand-attract")
        assert decode(tv.page, "#stand-attract img") == [f"{stand.base}/join/{stand.code}"]

        # the first plays Clacks against the box, makes a move and leaves
        ann = visitors[0]
        seat = choose(ann, stand, "clacks:competitive", "bots", "Ann")
        assert set(stand.room.seats.bots) == {"south", "north"} - {seat}
        tv.page.wait_for_selector("#stand-note")
        play_a_move(ann, stand)
        ann.page.click("[data-action=leave]")
        at_attract(tv)
        ann.page.wait_for_selector("[data-entry]")  # the phone offers the stand's choices again
        assert stand.room.session is None and not stand.room.seats.claims

        # the second plays Klackers; a friend takes over the bot's seat in the same game
        bea, cid = visitors[1], visitors[2]
        choose(bea, stand, "klackers", "bots", "Bea")
        cid.page.goto(stand.url(f"/join/{stand.code}"))
        bot_seat = cid.page.locator("button[data-seat]:not([disabled])")
        assert "from the bot" in bot_seat.inner_text()
        assert "null" not in cid.page.inner_text("main")
        bot_seat.click()
        cid.page.wait_for_selector("[data-action=leave]")
        assert not stand.room.seats.bots and len(stand.room.seats.claims) == 2
        bea.page.wait_for_selector("[data-action=hint]")
        play_a_move(bea, stand)
        for phone in (bea, cid):
            phone.page.click("[data-action=leave]")
        at_attract(tv)

        # the third, in Czech, opens a Clockman table, is told it waits for a second
        # player, and gives up
        dan = visitors[3]
        dan.page.goto(stand.url(f"/join/{stand.code}?lang=cs"))
        dan.page.click("[data-entry='clockman']")
        assert "Otevřít stůl pro 2 hráče" in dan.page.inner_text("[data-start=table]")
        dan.page.click("[data-start=table]")
        dan.page.wait_for_selector("[data-action=leave]")
        # the phone says what the game needs before it can begin
        assert "Čeká se na jednoho dalšího hráče" in dan.page.inner_text("#stand-waiting")
        assert stand.room.session is not None
        dan.page.click("[data-action=leave]")
        at_attract(tv)
        dan.page.wait_for_selector("[data-entry]")
        assert stand.room.session is None and not stand.room.seats.claims
        no_pin_anywhere(tv, *visitors)
    finally:
        for page in (tv, *visitors):
            page.context.close()


def test_the_attract_screen_and_the_visitors_choice_as_people_see_them(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path / "bin", monkeypatch)
    state = tmp_path / "state"
    arguments = ["on", "--ssid", "Clacks stand", "--password", PASSWORD]
    assert main(["hotspot", "--data-dir", str(state), *arguments]) == 0
    server = LiveServer(data_dir=state, stand=StandSettings(idle_seconds=IDLE))
    tv = Page(browser, "tv", **TV)
    phone = Page(browser, "phone", **STAND_PHONE)
    try:
        tv.page.goto(server.url("/"))
        at_attract(tv)
        # two scans: the box's Wi-Fi, then the stand
        codes = tv.page.locator("#stand-attract img")
        assert codes.count() == 2
        wifi = decode(tv.page, "#stand-attract figure:first-child img")
        assert unescape_wifi(wifi[0]) == {"T": "WPA", "S": "Clacks stand", "P": PASSWORD}
        port = server.base.rsplit(":", 1)[1]
        joined = decode(tv.page, "#stand-attract figure:last-child img")
        assert joined == [f"http://10.42.0.1:{port}/join/{server.code}"]
        # readable from a step or two away, all of it on the screen
        assert min(tv.page.evaluate(TEXT_SIZES))[0] >= 28 - 0.01
        box = read_one(tv.page, "#stand-attract", "e => e.getBoundingClientRect().bottom")
        assert box <= 1080
        if SCREENSHOTS:
            tv.page.screenshot(path=f"{SCREENSHOTS}/table-tv-stand.png")

        # the visitor's choice: every game the box plays, then how to play the one picked
        phone.page.goto(server.url(f"/join/{server.code}"))
        entries = phone.page.locator("[data-entry]")
        assert server.hub.stand is not None
        assert entries.count() == len(server.hub.stand.entries)
        phone.page.click("[data-entry='clacks:competitive']")
        phone.page.wait_for_selector("[data-start=bots]")
        # one screen: the choice, its players and the way back, nothing to scroll
        height = phone.page.evaluate("document.scrollingElement.scrollHeight")
        assert height <= 740
        if SCREENSHOTS:
            phone.page.screenshot(path=f"{SCREENSHOTS}/phone-stand.png")
        # Clacks teaches itself: Learn to play is offered beside the game against the box
        assert phone.page.locator("[data-start=learn]").count() == 1
        assert phone.page.locator("[data-start=learn]").is_visible()
        no_pin_anywhere(tv, phone)
    finally:
        tv.context.close()
        phone.context.close()
        server.close()


# slow: each visitor's stand waits out the time a closed page is given to come back; the
# fast tier has the stand's page-closing ending in test_stand.py, without a browser
@pytest.mark.slow
def test_each_of_three_visitors_closes_their_page_and_the_stand_starts_over_within_10_s(
    browser: Any,
) -> None:
    """Nobody presses Leave: each visitor simply closes the page (or walks off with the
    phone); the TV is back at Scan to play within 10 s each time, long before the idle
    time."""
    server = LiveServer(stand=StandSettings(("clacks:competitive", "klackers"), 600.0, 1.0))
    tv = Page(browser, "tv", **TV)
    try:
        tv.page.goto(server.url("/"))
        tv.page.wait_for_selector("#stand-attract")
        for n, (entry, name) in enumerate(
            [("klackers", "Ann"), ("clacks:competitive", "Bea"), ("klackers", "Cid")]
        ):
            visitor = Page(browser, f"visitor{n}", **STAND_PHONE)
            try:
                choose(visitor, server, entry, "bots", name)
                tv.page.wait_for_selector("#stand-note")
                if n == 1:
                    play_a_move(visitor, server)
                assert visitor.errors == []
            finally:
                visitor.context.close()  # the page closes; the phone never says goodbye
            closed = time.monotonic()
            tv.page.wait_for_selector("#stand-attract", timeout=10_000)
            assert time.monotonic() - closed <= 10.0
            assert "Scan to play" in tv.page.inner_text("#stand-attract")
        assert tv.errors == []
    finally:
        tv.context.close()
        server.close()


def test_the_idle_time_is_said_as_set_and_the_phone_is_told_why_its_game_ended(
    browser: Any,
) -> None:
    idle = 7.0
    server = LiveServer(stand=StandSettings(("klackers",), idle, 1.0))
    tv = Page(browser, "tv", **TV)
    phone = Page(browser, "phone", **STAND_PHONE)
    try:
        tv.page.goto(server.url("/"))
        phone.page.goto(server.url(f"/join/{server.code}?lang=cs"))
        phone.page.click("[data-start=bots]")
        phone.page.wait_for_selector("[data-action=leave]")
        # the TV says the idle time as it is set (the table speaks English here)
        said = translate("en", "stand.idle_end_seconds", seconds=7)
        assert said.startswith("After 7 seconds without a move")
        note = tv.page.locator("#stand-note")
        assert said in note.inner_text(timeout=10_000)
        assert "minute" not in note.inner_text()
        # nobody moves: the stand ends the game and the phone says why
        ended = phone.page.locator("#stand-ended")
        ended.wait_for(timeout=(idle + 10) * 1000)
        assert ended.inner_text() == translate("cs", "stand.ended_idle_seconds", seconds=7)
        assert "7 sekund nikdo netáhl" in ended.inner_text()
        assert phone.page.locator("[data-start=bots]").is_visible()
        assert phone.page.locator("#error").is_hidden()
        if SCREENSHOTS:
            phone.page.screenshot(path=f"{SCREENSHOTS}/phone-stand-ended.png")
        # starting again puts the note away
        phone.page.click("[data-start=bots]")
        phone.page.wait_for_selector("[data-action=leave]")
        assert phone.page.locator("#stand-ended").count() == 0
        for page in (tv, phone):
            assert page.errors == []
    finally:
        for page in (tv, phone):
            page.context.close()
        server.close()


def test_a_clockman_table_for_two_shows_nothing_rolled_until_both_sit(browser: Any) -> None:
    server = LiveServer(stand=StandSettings(("clockman",), 120.0, 1.0))
    tv = Page(browser, "tv", **TV)
    ann, bea = (Page(browser, name, **STAND_PHONE) for name in ("ann", "bea"))
    try:
        tv.page.goto(server.url("/"))
        ann.page.goto(server.url(f"/join/{server.code}"))
        ann.page.fill("#stand-name", "Ann")
        ann.page.click("[data-start=table]")
        ann.page.wait_for_selector("#stand-waiting")
        # the TV asks for the second player; nothing is dealt or rolled on any screen
        gathering = tv.page.locator("#stand-gathering")
        assert "Waiting for one more player" in gathering.inner_text(timeout=10_000)
        assert "every player has scanned the code" in gathering.inner_text()
        assert tv.page.locator("#stand-gathering img").count() == 1  # the join code
        for page in (tv, ann):
            assert "Start rolls" not in page.page.inner_text("body")
        assert ann.page.locator("[data-action=hint]").count() == 0
        if SCREENSHOTS:
            tv.page.screenshot(path=f"{SCREENSHOTS}/table-tv-stand-gathering.png")
        # the second player scans the code and takes the free seat
        bea.page.goto(server.url(f"/join/{server.code}?lang=cs"))
        # the seats, once the page has drawn the room: waited for, as they are read
        bea.page.wait_for_selector("button[data-seat]")
        seat = bea.page.locator("button[data-seat]:not([disabled])")
        assert seat.count() == 1
        assert "Start rolls" not in bea.page.inner_text("body")
        assert "Hody o začátek" not in bea.page.inner_text("body")
        bea.page.fill("#player-name", "Bea")
        seat.click()
        bea.page.wait_for_selector("[data-action=leave]")
        # now the game is dealt for both, and the TV shows it with its start rolls
        tv.page.wait_for_selector("#stand-note")
        assert tv.page.locator("#stand-gathering").count() == 0
        tv.page.wait_for_function("document.body.innerText.includes('Start rolls')")
        ann.page.wait_for_selector("#stand-waiting", state="detached")
        for page in (tv, ann, bea):
            assert page.errors == []
    finally:
        for page in (tv, ann, bea):
            page.context.close()
        server.close()


def test_a_phone_that_comes_back_after_its_game_ended_is_told_why(browser: Any) -> None:
    server = LiveServer(stand=StandSettings(("klackers", "clockman"), 600.0, 1.0))
    tv = Page(browser, "tv", **TV)
    phone = Page(browser, "phone", **STAND_PHONE)
    try:
        tv.page.goto(server.url("/"))
        choose(phone, server, "klackers", "bots", "Ann")
        tv.page.wait_for_selector("#stand-note")
        phone.page.goto("about:blank")  # the visitor wanders off to another page
        tv.page.wait_for_selector("#stand-attract", timeout=10_000)
        phone.page.goto(server.url(f"/join/{server.code}"))  # and opens the stand's page again
        ended = phone.page.locator("#stand-ended")
        assert ended.inner_text(timeout=15_000) == translate("en", "stand.ended_left")
        assert phone.page.locator("[data-entry='klackers']").is_visible()
        assert phone.page.locator("[data-action=leave]").count() == 0
        assert phone.errors == [] and tv.errors == []
    finally:
        tv.context.close()
        phone.context.close()
        server.close()
