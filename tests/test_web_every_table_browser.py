"""Every game and mode through a real browser, as a first table meets them: the table
screen reads from a sofa at 1920x1080 and still works at 1366x768, that size in the full
tier only (the turn's banner and what just happened in big letters, body text no smaller
than the body's, the parts side by side, the board the biggest thing on it); no log, the
table's or a phone's, shows an event's raw kind instead of words; a phone vibrates when
something is done to it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from browser_support import BOX, PHONE, TEXT_SIZES, Page, assert_parts_side_by_side, read_one
from game_tables import games, turn_line
from live_server import LiveServer
from table_driver import BOARD, GAMES, play, seat_everyone, to_first_turn
from test_web_first_table_browser import COUNT_VIBRATIONS

pytestmark = pytest.mark.browser

# the line that says whose turn it is (or the trainer's question), per game
BANNER = {game: turn_line(game) for game in games()}
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


SCREENS = [(1920, 1080), (1366, 768)]


@dataclass(frozen=True)
class FirstTurn:
    """The table screen at ``width`` x ``height``, showing ``game``'s first turn with every
    seat taken."""

    tv: Page
    game: str
    width: int
    height: int


# one first turn per table and size, read by each test of it: the tests only look at it
@pytest.fixture(
    scope="module",
    params=[
        # the fast tier at a TV's size, the full tier at the smaller one too
        pytest.param(
            (mode, width, height),
            id=f"{mode}-{width}x{height}",
            marks=[] if (width, height) == SCREENS[0] else [pytest.mark.slow],
        )
        for width, height in SCREENS
        for mode in GAMES
    ],
)
def first_turn(request: pytest.FixtureRequest, browser: Any) -> Iterator[FirstTurn]:
    mode, width, height = request.param
    game, options = GAMES[mode]
    server = LiveServer()
    tv = Page(browser, "tv", viewport={"width": width, "height": height})
    try:
        server.room.new_game(game, options, 5)
        to_first_turn(server, seat_everyone(server))
        tv.page.goto(server.url("/"))
        tv.wait_revision(server.room.revision)
        yield FirstTurn(tv, game, width, height)
    finally:
        tv.context.close()
        server.close()


def size(page: Any, css: str) -> float:
    return float(read_one(page, css, "e => parseFloat(getComputedStyle(e).fontSize)"))


def test_every_table_screen_reads_from_a_sofa(first_turn: FirstTurn) -> None:
    page = first_turn.tv.page
    scale = first_turn.width / 1920
    page.wait_for_selector("#latest:not([hidden])")
    assert size(page, f"main {BANNER[first_turn.game]}") >= 48 * scale - 0.01
    assert size(page, "#latest") >= 48 * scale - 0.01
    smallest = min(page.evaluate(TEXT_SIZES))
    assert smallest[0] >= 28 * scale - 0.01, smallest
    assert_parts_side_by_side(page, first_turn.width)
    assert first_turn.tv.errors == []


def test_every_table_board_takes_most_of_the_height(first_turn: FirstTurn) -> None:
    board = read_one(first_turn.tv.page, f"main {BOARD[first_turn.game]}", BOX)
    height = first_turn.height
    assert board[3] <= height, board  # all of it on the first screen
    assert board[3] - board[1] >= 0.5 * height, board


@pytest.mark.parametrize("mode", GAMES)
def test_no_log_shows_a_raw_event_kind(browser: Any, mode: str) -> None:
    game, options = GAMES[mode]
    server = LiveServer()
    tv = Page(browser, "tv", viewport={"width": 1366, "height": 768})
    phone = None
    try:
        server.room.new_game(game, options, 5)
        tokens = seat_everyone(server)
        play(server, tokens, 40)
        tv.page.goto(server.url("/"))
        tv.wait_revision(server.room.revision)
        tv.page.wait_for_selector("#log-list li[data-step='0']")
        shown = tv.page.inner_text("#log-list")
        assert len(tv.page.locator("#log-list li").all()) >= 2
        assert SNAKE.findall(shown) == [], shown
        seat = next(iter(tokens))
        phone = Page(tv.context.browser, "phone", **PHONE)
        phone.page.goto(server.url(f"/join/{server.code}#seat={seat}&token={tokens[seat]}"))
        phone.page.wait_for_selector("body.seated")
        phone.wait_revision(server.room.revision)
        text = phone.page.inner_text("body")
        assert SNAKE.findall(text) == [], text
        assert tv.errors == [] and phone.errors == []
    finally:
        tv.context.close()
        if phone is not None:
            phone.context.close()
        server.close()


def test_a_phone_vibrates_when_a_fault_report_is_played_against_it(browser: Any) -> None:
    from test_web_log_browser import fault_seed
    from web_client import call

    seed, holder, card = fault_seed()
    server = LiveServer()
    phones: dict[str, Page] = {}
    try:
        server.room.new_game("clacks", {"players": 2}, seed)
        session = server.room.session
        assert session is not None
        victim = session.active_seats[0]
        tokens = seat_everyone(server)
        for seat in (victim, holder):
            phone = phones[seat] = Page(browser, seat, **PHONE)
            phone.context.add_init_script(COUNT_VIBRATIONS)
            phone.page.goto(server.url(f"/join/{server.code}#seat={seat}&token={tokens[seat]}"))
            phone.page.wait_for_selector("body.seated")
            phone.wait_revision(server.room.revision)
        # the victim's turn was already under way when it looked: nothing to buzz for
        assert phones[victim].page.evaluate("window.__buzz") == []
        play = next(
            a
            for a in session.legal_actions(holder, 0.0)
            if a["type"] == "play_fault" and a["card"] == card
        )
        path = f"/api/rooms/{server.code}/seats/{holder}/actions"
        assert call(server.base, "POST", path, {"action": play}, token=tokens[holder])[0] == 200
        # the seat it was played against buzzes, once, with the pattern for "done to you"
        phones[victim].page.wait_for_function("() => window.__buzz.length === 1")
        assert phones[victim].page.evaluate("window.__buzz[0]") == [60, 40, 60, 40, 60]
        phones[holder].wait_revision(server.room.revision)
        phones[victim].wait_revision(server.room.revision)
        assert phones[holder].page.evaluate("window.__buzz") == []  # its own card: no buzz
        assert phones[victim].page.evaluate("window.__buzz.length") == 1
        assert all(p.errors == [] for p in phones.values())
    finally:
        for phone in phones.values():
            phone.context.close()
        server.close()
