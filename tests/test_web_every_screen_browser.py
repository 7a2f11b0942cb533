"""Every game, mode and player count held to the screens, in English and Czech, with a
game under way: the table screen at 1920x1080 and 1280x720 (the sizes a TV's browser
reports) never scrolls, nor do its other views (the whole log, the alphabet and the
rules, every player's panel, what the players share), none of their text under 20 px at
1080; it shows everything the table must see, nothing of it out of sight in a box that
scrolls by itself (the board, the turn, the swap slots, the team's hands, the cards read
out), the player to move whole on the screen (the other players' panels a view of their
own), no word running out of its box, its text no
smaller than body text (the route map's place names too) and no word in its pictures under
20 px at 1080 (a lamp's name, a tower's number), the board not squeezed by a long
headline; a phone at 360x740 keeps the turn on one screen with a hint open (its "Do it"
and the hand still on it) or a report form open. A lesson begun on the table fits it too,
its rule beside the game.

One browser for the whole file, one page per screen size reused from table to table,
and one companion serving a table per game and mode, so the walk stays short. The fast
tier looks at each game at its most seats and at its first lesson, the full tier
at every mode, table and lesson.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser_support import (
    BOX,
    PHONE_740,
    SHOWN_TEXT,
    TEXT_SIZES,
    Page,
    read_all,
    read_one,
)
from game_tables import games, mode_tables, screen_tables, turn_line
from live_server import LiveServer, companion
from seed_tiers import fast_and_slow
from table_driver import BOARD, play, to_first_turn

from engine.core.tutorial import Step, TutorialSession, matches
from engine.games import DEFAULT_GAME, game_modules
from firmware.config import BoardConfig
from firmware.factory import create_board
from web.room import Room

pytestmark = pytest.mark.browser

# (name, game, options): every mode, from its fewest seats to the most it seats, and each
# game's variants worth a look (game_tables.py)
TABLES: list[tuple[str, str, dict[str, Any]]] = [
    (table.name, table.game, table.options) for table in screen_tables()
]
# the fast tier looks at each game at the most seats it has, the most a screen must hold;
# the full tier at every mode and table
FAST_TABLES = [
    (table.name, table.game, table.options)
    for table in (
        max(mode_tables(game), key=lambda table: table.options.get("players", 1))
        for game in games()
    )
]
SIZES = [(1920, 1080), (1280, 720)]
# the tables whose screens the docs show (README.md), taken when CLACKS_SCREENSHOTS is set
SHOWN = {"coop-2": "coop"}  # by the picture's name
LANGUAGES = ["en", "cs"]
STEPS = 12  # actions into the game: mid-game, past the first swaps and reports
# every lesson a game registers, by its game and the mode it teaches (engine/games.py)
LESSONS = [
    (game, mode) for game, module in game_modules().items() for mode in module.tutorial_starts()
]
# the fast tier begins the box's own game's first lesson on the table, the full tier
# every lesson
FAST_LESSONS = [next(lesson for lesson in LESSONS if lesson[0] == DEFAULT_GAME)]

BANNER = {game: f"{turn_line(game)}, .status .winner" for game in games()}

# Everything in the game's part of the screen that is shown (not folded, not hidden):
# where it ends, and which of it ends lowest; and what is out of sight inside a box that
# scrolls by itself (a column of the players): on screen is only what that box shows.
LOWEST = """
() => {
  let lowest = [0, ""];
  const scrolledAway = [];
  const named = (e) => (e.className.baseVal ?? e.className) + " " + e.tagName;
  for (const e of document.querySelectorAll("main #game *")) {
    if (e.closest("details:not([open]) > :not(summary), [hidden], dialog:not([open])")) continue;
    const box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    // a box that clips (a drawing) shows what fits in it; one that scrolls shows only
    // what lies within its visible area
    let bottom = box.bottom;
    let away = null;
    for (let up = e.parentElement; up && up !== document.body && !away; up = up.parentElement) {
      const overflow = getComputedStyle(up).overflowY;
      const shown = up.getBoundingClientRect();
      if (overflow === "hidden") bottom = Math.min(bottom, shown.bottom);
      if (["auto", "scroll"].includes(overflow)
          && (box.bottom > shown.bottom + 1 || box.top < shown.top - 1)) {
        away = [named(e), named(up), Math.round(box.top), Math.round(shown.bottom)];
      }
    }
    if (away) scrolledAway.push(away);
    else if (bottom > lowest[0]) lowest = [bottom, named(e)];
  }
  return [lowest, scrolledAway.length, scrolledAway.slice(0, 3)];
}
"""
# Text that runs out of its box: words reaching past the side of a box around them (the
# nearest that is not a run of text, and those around it up to one that scrolls), so
# cut off or drawn over its neighbour; text hidden for a screen reader aside.
OVERFLOWING = (
    "(root) => {"
    + SHOWN_TEXT
    + """
  const found = [];
  const start = document.querySelector(root || "body");
  if (!start) return found;
  for (const [node, words] of shownText(start)) {
    if (words.width === 0 || words.height === 0) continue;
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.display.startsWith("inline") || style.display === "contents") continue;
      const box = up.getBoundingClientRect();
      if (box.width <= 2) break;  // one pixel wide: words for a screen reader only
      if (words.left < box.left - 1 || words.right > box.right + 1) {
        found.push([node.textContent.trim().slice(0, 30), up.tagName, String(up.className).slice(0, 30),
                    Math.round(words.right - box.right), Math.round(box.left - words.left)]);
        break;
      }
      if (["auto", "scroll"].includes(style.overflowX)) break;
    }
  }
  return found;
}
"""
)
# The player to move (their seat, card or panel, marked active): where it is, and what
# of the screen shows it (the window, less what a box around it clips or scrolls away).
MOVERS = """
() => [...document.querySelectorAll("main #game .seat.active")].filter((e) => e.getClientRects().length).map((e) => {
  const box = e.getBoundingClientRect();
  let [top, bottom] = [0, innerHeight];
  for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
    if (getComputedStyle(up).overflowY === "visible") continue;
    const shown = up.getBoundingClientRect();
    [top, bottom] = [Math.max(top, shown.top), Math.min(bottom, shown.bottom)];
  }
  return [e.className, e.dataset.seat, box.top, box.bottom, top, bottom];
})
"""
# Every word drawn in a picture on the table screen (the board's lamp names and sides,
# the route map's towers and marks, a pawn's initial, a die's pips, the box's buttons):
# its size as drawn, the font's size in the picture times the picture's scale.
DRAWN_SIZES = """
() => [...document.querySelectorAll("main svg text")]
  .filter((e) => e.textContent.trim() && e.getBoundingClientRect().height > 0)
  .map((e) => {
    const scale = e.getScreenCTM();
    return [parseFloat(getComputedStyle(e).fontSize) * Math.hypot(scale.a, scale.b),
            String(e.className.baseVal), e.textContent.slice(0, 20)];
  })
"""
# The route map's words (place names, the cities, the Post Office's track) as drawn.
MAP_WORDS = """
() => [...document.querySelectorAll("svg.route-map text.place, svg.route-map .track-label")]
  .filter((e) => e.getBoundingClientRect().height > 0)
  .map((e) => [e.getBoundingClientRect().height, e.textContent.slice(0, 30)])
"""


@contextmanager
def simulated_board(**settings: Any) -> Iterator[LiveServer]:
    """A companion as on a laptop: a simulated exchange, whose LEDs the table screen
    draws in its side column."""
    board = create_board(BoardConfig(), model=None)
    board.start()
    try:
        with companion(board=board, **settings) as live:
            yield live
    finally:
        board.stop()


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with simulated_board() as live:
        yield live


@pytest.fixture(scope="module")
def screens(browser: Any) -> Iterator[dict[Any, Page]]:
    """One table page per screen size and one phone, each reused for every table."""
    opened: dict[Any, Page] = {
        size: Page(
            browser, f"tv-{size[0]}", viewport=dict(zip(("width", "height"), size, strict=True))
        )
        for size in SIZES
    }
    opened["phone"] = Page(browser, "phone", **PHONE_740)
    try:
        yield opened
    finally:
        for page in opened.values():
            page.context.close()


class Table:
    """A table of the shared companion with its game under way, every seat held."""

    def __init__(
        self, server: LiveServer, game: str, options: dict[str, Any], name: str = ""
    ) -> None:
        self.server, self.name = server, name
        self.room: Room = server.hub.create_room()
        options = dict(options)
        bots = options.pop("bots", {})
        self.room.new_game(game, options, 5, bots=bots)
        self.room.previews.hints = True
        session = self.room.session
        assert session is not None
        self.tokens = {
            s.id: self.room.seats.claim(s.id, s.id.title(), None)["token"]
            for s in session.seats
            if s.id not in bots
        }
        # the shared driver moves on the main table; this one is driven the same way
        driver = _RoomServer(server, self.room)
        to_first_turn(driver, self.tokens)  # type: ignore[arg-type]
        play(driver, self.tokens, STEPS)  # type: ignore[arg-type]

    def close(self) -> None:
        self.server.hub.close_room(self.room.code)


class _RoomServer:
    """The companion seen through one of its tables, as the table driver expects it."""

    def __init__(self, server: LiveServer, room: Room) -> None:
        self.base, self.room, self.code = server.base, room, room.code


def opened(page: Page, url: str, revision: int) -> Any:
    page.page.goto(url)
    page.wait_revision(revision)
    page.page.wait_for_timeout(50)  # the drawing after the last push
    return page.page


def check_table(
    tv: Page, table: Table, game: str, width: int, height: int, lang: str, problems: list[Any]
) -> None:
    scale = width / 1920
    where = f"{table.name} {width}x{height} {lang}"
    page = opened(
        tv, table.server.url(f"/table/{table.room.code}?lang={lang}"), table.room.revision
    )
    check_one_screen(page, where, width, height, problems)
    for text in page.evaluate(OVERFLOWING):
        problems.append((where, "runs out of its box", text))
    for mover in page.evaluate(MOVERS):
        *_, top, bottom, shown_top, shown_bottom = mover
        if not (top >= shown_top - 1 and bottom <= shown_bottom + 1):
            problems.append((where, "the player to move out of sight", mover))
    lowest, away, first_away = page.evaluate(LOWEST)
    if not (lowest[0] <= height + 1):  # a board's last line of text may round over
        problems.append((where, "below the fold", lowest))
    if away:  # the other players' panels are a view of their own, not a column's scroll
        problems.append((where, f"{away} parts scrolled out of sight", first_away))
    if game == "clacks":
        # every seat's card whole: whose message is where, for each of up to four seats
        for seat_box in read_all(page, "main .seats > .seat", f"all => all.map({BOX})"):
            if not (seat_box[3] <= height + 1):
                problems.append((where, "a seat below the fold", seat_box))
    smallest = min(page.evaluate(TEXT_SIZES))
    if not (smallest[0] >= 28 * scale - 0.01):
        problems.append((where, smallest))
    check_drawn_words(page, where, scale, problems)
    banner = read_one(
        page,
        f"main {BANNER[game]}", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    if not (banner >= 48 * scale - 0.01):
        problems.append((where, banner))
    board = read_one(page, f"main {BOARD[game]}", BOX)
    if not (board[3] - board[1] >= 0.45 * height):
        problems.append((where, "board", board))
    if table.name in SHOWN and width == 1920:  # the docs' picture of this table
        tv.shot(f"table-tv-{SHOWN[table.name]}-1080{'' if lang == 'en' else '-cs'}")
    check_views(page, game, where, width, height, problems)
    if tv.errors != []:
        problems.append((where, tv.errors))


def check_drawn_words(page: Any, where: str, scale: float, problems: list[Any]) -> None:
    for words in page.evaluate(MAP_WORDS):
        # a letter's box is about 1.2 times its size
        if not (words[0] >= 1.15 * 28 * scale):
            problems.append((where, "route map", words))
    for drawn in page.evaluate(DRAWN_SIZES):  # no word in a picture under 20 px at 1080
        if not (drawn[0] >= 20 * scale - 0.01):
            problems.append((where, "a word drawn too small", drawn))


def check_one_screen(page: Any, where: str, width: int, height: int, problems: list[Any]) -> None:
    scroll_height, scroll_width = page.evaluate(
        "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
    )
    if not (scroll_height <= height and scroll_width <= width):
        problems.append((where, "scrolls", scroll_width, scroll_height))


def check_views(
    page: Any, game: str, where: str, width: int, height: int, problems: list[Any]
) -> None:
    """The whole log, the simulated board's LEDs, the alphabet and rules, every player's
    panel and what a game's players share (Guards! Guards!'s decks and challenges), each
    a view in the game's place: on the one screen too, no text on it under 20 px at 1080,
    with the game's view back after them."""
    views = [("log", "#log-list li"), ("leds", "#led-grid .led"), ("reference", "#rules p"),
             ("players", "#game [data-players-view] .seat:visible"),
             ("shared", "#game [data-shared-view]:visible")]
    for view, shown in views:
        if not page.locator(f"#views [data-view={view}]").is_visible():
            continue  # no simulated board, no players' column on this table: no such view
        page.click(f"#views [data-view={view}]")
        page.locator(shown).first.wait_for()  # visible: the view is drawn
        in_game = view in ("players", "shared")  # the game's own parts, in the game's place
        game_shown = page.locator(f"main {BOARD[game]}" if in_game else "main")
        if game_shown.is_visible():
            problems.append((where, view, "the game still shown beside it"))
        check_one_screen(page, f"{where} {view}", width, height, problems)
        if view == "players":  # every player's panel whole on the screen
            for seat_box in read_all(page, "#game [data-players-view] .seat", f"all => all.map({BOX})"):
                if not (seat_box[3] <= height + 1):
                    problems.append((where, view, "a player's panel below the fold", seat_box))
        if view == "shared":  # the players' panels are the players' view's, not this one's
            if page.locator("#game .seat:visible").count():
                problems.append((where, view, "a player's panel shown beside it"))
            for part in read_all(page, "#game [data-shared-view]", f"all => all.map({BOX})"):
                if not (part[3] <= height + 1):
                    problems.append((where, view, "below the fold", part))
        smallest = min(page.evaluate(TEXT_SIZES))
        if not (smallest[0] >= 20 * width / 1920 - 0.01):
            problems.append((where, view, "text too small", smallest))
        for text in page.evaluate(OVERFLOWING):
            problems.append((where, view, "runs out of its box", text))
    page.click("#views [data-view=game]")
    page.locator("main").wait_for()


def seated(phone: Page, table: Table, seat: str, lang: str) -> Any:
    url = table.server.url(
        f"/join/{table.room.code}?lang={lang}#seat={seat}&token={table.tokens[seat]}"
    )
    page = phone.page
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("body.seated")
    phone.wait_revision(table.room.revision)
    page.wait_for_selector("[data-loading]", state="detached")
    page.wait_for_timeout(50)
    return page


def one_screen(page: Any, where: str, problems: list[Any]) -> None:
    height, width = page.evaluate(
        "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
    )
    if not (height <= 740 and width <= 360):
        problems.append((where, height, width))


def on_screen(page: Any, css: str, where: str, problems: list[Any]) -> None:
    left, top, right, bottom = read_one(page, css, BOX)
    if not (top >= 0 and bottom <= 740 and left >= 0 and right <= 360):
        problems.append((where, css, bottom))


def check_phone(phone: Page, table: Table, game: str, lang: str, problems: list[Any]) -> None:
    session = table.room.session
    assert session is not None
    if session.over:
        return
    seat = (session.active_seats or list(table.tokens))[0]
    if game == "guards":
        turn = session.guards.state.turn  # type: ignore[attr-defined]
        seat = turn.seat if turn is not None else seat
    where = f"{table.name} phone {seat} {lang}"
    page = seated(phone, table, seat, lang)
    one_screen(page, where, problems)
    if game == "clacks" and page.locator("[data-action=hint]").count():
        # a hint open: the plan, "Do it" and the hand all on the one screen
        page.click("[data-action=hint]")
        # a plan, or the reason there is none
        page.wait_for_selector(
            ".hint-box [data-action=hint-do], #why:not([hidden]), #error:not([hidden])",
            timeout=30_000,
        )
        one_screen(page, f"{where} hint", problems)
        if page.locator("[data-action=hint-do]").count():
            on_screen(page, "[data-action=hint-do]", f"{where} hint", problems)
        on_screen(page, ".hand", f"{where} hint", problems)
        board = read_one(page, ".board-box svg.exchange", BOX)
        if not (board[3] - board[1] >= 120):
            problems.append((where, "board with a hint", board))
        if table.name in SHOWN:
            phone.shot(f"phone-{SHOWN[table.name]}-hint{'' if lang == 'en' else '-cs'}")
        if page.locator("[data-action=hint-close]").count():
            page.click("[data-action=hint-close]")
    if game == "klackers" and page.locator("[data-action=hint]").count():
        check_klackers_hint(page, where, lang, problems)
    report = page.locator(
        "button[data-form]:not([data-form=end_turn]):not([disabled]):visible, "
        "button[data-report]:not([disabled]):visible"
    )
    if report.count():
        report.first.click()
        page.wait_for_timeout(100)
        one_screen(page, f"{where} report", problems)
    if phone.errors != []:
        problems.append((where, phone.errors))


def check_klackers_hint(page: Any, where: str, lang: str, problems: list[Any]) -> None:
    """A Klackers hint open on the phone: the turn still on one screen, its words and
    buttons within their boxes, its numbers written as the language writes them (a
    decimal comma in Czech)."""
    page.click("[data-action=hint]")
    page.wait_for_selector(
        ".hint-box .hint-summary, #why:not([hidden]), #error:not([hidden])", timeout=30_000
    )
    one_screen(page, f"{where} hint", problems)
    for text in page.evaluate(OVERFLOWING, ".hint-box"):
        problems.append((where, "hint", "runs out of its box", text))
    if page.locator(".hint-summary").count():
        summary = page.inner_text(".hint-summary")
        if lang == "cs" and re.search(r"\d\.\d", summary):
            problems.append((where, "a decimal point in Czech", summary))
    if page.locator("[data-action=hint-close]").count():
        page.click("[data-action=hint-close]")


@pytest.mark.parametrize(
    ("name", "game", "options"), fast_and_slow(TABLES, FAST_TABLES, lambda table: table[0])
)
def test_every_screen_of_every_game_and_mode(
    server: LiveServer, screens: dict[Any, Page], name: str, game: str, options: dict[str, Any]
) -> None:
    table = Table(server, game, options, name)
    problems: list[Any] = []  # every screen is looked at before the test says what it found
    try:
        for lang in LANGUAGES:
            for width, height in SIZES:
                check_table(screens[(width, height)], table, game, width, height, lang, problems)
            check_phone(screens["phone"], table, game, lang, problems)
    finally:
        table.close()
    assert not problems, "\n".join(map(str, problems))


# The width the words of ``select``'s chosen option need, and the width it gives them
# (less its padding and its arrow).
CHOSEN_WORDS = """
(select) => {
  const style = getComputedStyle(select);
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = style.font;
  const words = measure.measureText(select.options[select.selectedIndex].text).width;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return [words, room];
}
"""
# The room before a log step's text, and what the number "999." needs there.
LOG_NUMBERS = """
(list) => {
  const style = getComputedStyle(list);
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = style.font;
  return [parseFloat(style.paddingLeft), measure.measureText("999.").width];
}
"""


def test_a_stands_idle_screen_fits_the_tv(screens: dict[Any, Page]) -> None:
    """The convention stand with no game on: "Scan to play" and its code on one screen."""
    from web.stand import StandSettings

    stand = StandSettings(("clacks:competitive", "klackers", "clockman"), 60.0, 1.0)
    problems: list[Any] = []
    with simulated_board(stand=stand) as served:
        for lang in LANGUAGES:
            for width, height in SIZES:
                tv = screens[(width, height)]
                tv.page.goto(served.url(f"/?lang={lang}"))
                tv.page.wait_for_selector("#stand-attract img")
                where = f"stand {width}x{height} {lang}"
                check_one_screen(tv.page, where, width, height, problems)
                smallest = min(tv.page.evaluate(TEXT_SIZES))
                if not (smallest[0] >= 28 * width / 1920 - 0.01):
                    problems.append((where, smallest))
                for text in tv.page.evaluate(OVERFLOWING):
                    problems.append((where, "runs out of its box", text))
                code = read_one(tv.page, "#stand-attract img", BOX)
                if not (code[3] <= height and code[2] - code[0] >= 0.2 * height):
                    problems.append((where, "the code to scan", code))
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize(
    ("game", "mode"), fast_and_slow(LESSONS, FAST_LESSONS, lambda lesson: "-".join(lesson))
)
def test_every_lesson_on_the_table_screen_fits_it(
    server: LiveServer, screens: dict[Any, Page], game: str, mode: str
) -> None:
    """A lesson begun on the table: its rule beside the game, all of it on the one screen
    and read from a sofa, at both sizes and in both languages; at its first step, at the
    first that names a tower, which the board then names too, and at its end, where the
    table says the tap into the real game."""
    start = game_modules()[game].tutorial_start(mode)
    assert start is not None
    room = server.hub.create_room()
    problems: list[Any] = []
    try:
        room.new_game(game, start["options"], 5)
        check_lesson_screens(server, room, "first step", screens, problems)
        session = room.session
        assert isinstance(session, TutorialSession)
        token = room.seats.claim(session.script.learner, "Ann", None)["token"]
        if any(step.tower for step in session.script.steps):
            played_to(server, room, token, lambda entry: entry.tower is not None)
            check_lesson_screens(server, room, "a tower named", screens, problems)
        played_to(server, room, token, lambda entry: False)
        check_lesson_screens(server, room, "the end", screens, problems, ".table-lesson .lesson-next")
    finally:
        server.hub.close_room(room.code)
    assert not problems, "\n".join(map(str, problems))


def check_lesson_screens(
    server: LiveServer,
    room: Room,
    step: str,
    screens: dict[Any, Page],
    problems: list[Any],
    shown: str = ".table-lesson",
) -> None:
    for lang in LANGUAGES:
        for width, height in SIZES:
            tv = screens[(width, height)]
            page = opened(tv, server.url(f"/table/{room.code}?lang={lang}"), room.revision)
            page.wait_for_selector(shown)
            where = f"lesson {room.game_name} {step} {width}x{height} {lang}"
            check_one_screen(page, where, width, height, problems)
            rule = read_one(page, ".table-lesson", BOX)
            if not (rule[3] <= height):
                problems.append((where, "the lesson's rule below the fold", rule))
            smallest = min(page.evaluate(TEXT_SIZES))
            if not (smallest[0] >= 28 * width / 1920 - 0.01):
                problems.append((where, smallest))
            check_drawn_words(page, where, width / 1920, problems)
            for text in page.evaluate(OVERFLOWING):
                problems.append((where, "runs out of its box", text))
            if tv.errors != []:
                problems.append((where, tv.errors))


def played_to(server: LiveServer, room: Room, token: str, stop: Callable[[Step], bool]) -> None:
    """The lesson played by its learner over HTTP (its bot plays its own part) up to its
    first step ``stop`` picks, or to its end."""
    from web_client import call

    session = room.session
    assert isinstance(session, TutorialSession)
    learner = session.script.learner
    path = f"/api/rooms/{room.code}/seats/{learner}/actions"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        entry = session.entry()
        if entry is None:
            return
        if isinstance(entry, Step):
            if stop(entry):
                return
            legal = [
                a
                for a in session.legal_actions(learner, 0.0)
                if matches(entry.expect, a, entry.ordered) and "fields" not in a
            ]
            # where the phone fills in a form (Guards! Guards!), the step's own action
            action = legal[0] if legal else dict(entry.expect)
            status, answer = call(server.base, "POST", path, {"action": action}, token=token)
            assert status == 200, answer
        else:
            time.sleep(0.05)  # the lesson's bot is playing its part
    raise AssertionError(f"{room.game_name}'s lesson stopped at entry {session.position()}")


def test_the_simulated_boards_leds_are_a_view_of_their_own(
    server: LiveServer, screens: dict[Any, Page]
) -> None:
    """The companion's own table, whose simulated exchange the screen draws: its LEDs a
    view switched to like the log, the game's place on the one screen."""
    room = server.room
    room.new_game("clacks", {"players": 4}, 5)
    problems: list[Any] = []
    for lang in LANGUAGES:
        for width, height in SIZES:
            tv = screens[(width, height)]
            page = opened(tv, server.url(f"/?lang={lang}"), room.revision)
            page.locator("#views [data-view=leds]").wait_for()
            check_one_screen(page, f"main table {width}x{height} {lang}", width, height, problems)
            check_views(page, "clacks", f"main table {width}x{height} {lang}", width, height, problems)
            page.click("#views [data-view=leds]")
            if page.locator("#led-grid .led").count() != 16:
                problems.append((width, height, lang, "LEDs"))
            page.click("#views [data-view=game]")
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_lobby_the_log_and_the_guards_set_up_show_their_words_whole(
    server: LiveServer, screens: dict[Any, Page], width: int, height: int
) -> None:
    tv = screens[(width, height)]
    page = tv.page
    room = server.hub.create_room()  # nobody seated: the lobby offers every seat
    try:
        # Guards! Guards! at its set-up: the checklist whole on the first screen
        room.new_game("guards", {"players": 6}, 5)
        opened(tv, server.url(f"/table/{room.code}?lang=cs"), room.revision)
        setup = page.wait_for_selector("main .g-setup")
        assert setup.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
        assert setup.evaluate(BOX)[3] <= height
        # the log's step numbers have room for three digits
        room.new_game("clacks", {"players": 2}, 5)
        opened(tv, server.url(f"/table/{room.code}?lang=en"), room.revision)
        page.wait_for_selector("#log-list ol")
        room_for, needed = read_one(page, "#log-list ol", LOG_NUMBERS)
        assert room_for >= needed, (room_for, needed)
        # the lobby: a variant's box a box, and who plays a seat said whole
        page.click("#new-game")
        lobby = page.locator("#lobby")
        lobby.locator("select[name=game]").select_option("clacks")
        lobby.locator("select[name=mode]").select_option("competitive")
        box = lobby.locator("input[name=variant][value=balanced_start]").evaluate(BOX)
        assert box[2] - box[0] >= 27.5 and box[3] - box[1] >= 27.5, box
        played_by = lobby.locator("select[data-bot]")
        assert played_by.count() >= 1
        for i in range(played_by.count()):
            words, room_for = played_by.nth(i).evaluate(CHOSEN_WORDS)
            assert words <= room_for, (words, room_for)
        page.keyboard.press("Escape")
        assert tv.errors == []
    finally:
        server.hub.close_room(room.code)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_swap_names_the_card_read_out_on_the_swapping_phone_and_the_table(
    server: LiveServer, screens: dict[Any, Page], lang: str
) -> None:
    from web_client import call

    from web.i18n import catalog

    words = catalog(lang)
    room = server.hub.create_room()
    try:
        room.new_game("clacks", {"mode": "coop", "players": 2}, 5)
        session = room.session
        assert session is not None
        tokens = {s.id: room.seats.claim(s.id, s.id.title(), None)["token"] for s in session.seats}
        seat = session.active_seats[0]
        swap = next(
            a
            for a in session.legal_actions(seat, 0.0)
            if a["type"] == "swap" and a["slot"].startswith("incident")
        )
        path = f"/api/rooms/{room.code}/seats/{seat}/actions"
        assert call(server.base, "POST", path, {"action": swap}, token=tokens[seat])[0] == 200
        card = session.view(None)["revealed"][-1]
        name = words[f"card.{card['id'].rsplit('-', 1)[0]}.name"]
        slot = words[f"clacks.slot.{swap['slot']}"]
        tv = screens[SIZES[0]]
        opened(tv, server.url(f"/table/{room.code}?lang={lang}"), room.revision)
        banner = tv.page.inner_text("main .status .turn")
        assert name in banner and slot in banner, banner
        assert words["clacks.swapped_this_turn"] not in banner
        # a card lasting one turn says so, not "(turns 2 to 2)"
        turns = tv.page.locator("main .effects .turns").all_inner_texts()
        assert not [t for t in turns if re.search(r"(\d+)\D+\1\)", t)], turns
        phone = screens["phone"]
        phone.page.goto("about:blank")
        phone.page.goto(
            server.url(f"/join/{room.code}?lang={lang}#seat={seat}&token={tokens[seat]}")
        )
        phone.page.wait_for_selector("body.seated")
        phone.wait_revision(room.revision)
        status = phone.page.inner_text("main .status")
        assert name in status and slot in status, status
        assert tv.errors == [] and phone.errors == []
    finally:
        server.hub.close_room(room.code)
