"""Shared by the browser tests: Debian's chromium through Playwright, a page that records
what it receives, and tapping a Jacquard into place on a phone."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer

from engine.games import game_module

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 360, "height": 760}, "is_mobile": True, "has_touch": True}
PHONE_740 = {**PHONE, "viewport": {"width": 360, "height": 740}}  # the phone a turn must fit
TV = {"viewport": {"width": 1920, "height": 1080}}  # a TV, the table screen's home
SCREENSHOTS = os.environ.get("CLACKS_SCREENSHOTS")  # a directory to save docs screenshots in

# Every pushed event is recorded in the page, so the test can read exactly what arrived;
# while window.__held is a list, pushes reach the page only when released (a slow network).
RECORD_EVENTS = """
(() => {
  const Original = window.EventSource;
  window.__pushed = [];
  window.__pushedAt = [];  // when each arrived (Date.now())
  window.__held = null;
  window.EventSource = function (url, options) {
    const source = new Original(url, options);
    source.addEventListener("state", (m) => {
      window.__pushed.push(m.data);
      window.__pushedAt.push(Date.now());
    });
    const listen = source.addEventListener.bind(source);
    source.addEventListener = (type, listener, ...rest) => listen(type, type !== "state" ? listener
      : (m) => (window.__held ? window.__held.push(() => listener(m)) : listener(m)), ...rest);
    return source;
  };
  window.EventSource.prototype = Original.prototype;
  window.EventSource.CLOSED = Original.CLOSED;
  window.EventSource.OPEN = Original.OPEN;
  window.EventSource.CONNECTING = Original.CONNECTING;
})();
"""

# Every run of text a page shows below ``root`` (not the board's drawing, a closed dialog,
# what is hidden or marked .skip), each with the box its words take: for the functions
# below that read text, whose bodies begin with it.
SHOWN_TEXT = """
  function shownText(root) {
    const found = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (!node.textContent.trim() || node.parentElement.closest("svg, dialog:not([open]), [hidden], .skip")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      found.push([node, range.getBoundingClientRect()]);
    }
    return found;
  }
"""

# The font size of every piece of text on the first screen (not the board's drawing).
TEXT_SIZES = (
    "() => {"
    + SHOWN_TEXT
    + """
  return shownText(document.body)
    .filter(([, box]) => box.width !== 0 && box.bottom > 0 && box.top < innerHeight)
    .map(([node]) => [parseFloat(getComputedStyle(node.parentElement).fontSize), node.textContent.trim().slice(0, 30)]);
}
"""
)
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


# Playwright's eval_on_selector and eval_on_selector_all find the elements, then hand them
# to the function in a second step: a page that redraws in between (a pushed state, a lamp
# frame) hands over detached elements, which measure 0x0 and have no computed style. These
# find and read in one step of the page's script, so what is read is what is shown.
def read_one(page: Any, css: str, function: str, arg: Any = None) -> Any:
    """``function`` (JavaScript) of the element ``css`` selects and ``arg``; an error when
    none is there."""
    return page.evaluate(
        f"""([css, arg]) => {{
          const found = document.querySelector(css);
          if (!found) throw new Error(`no element ${{css}}`);
          return ({function})(found, arg);
        }}""",
        [css, arg],
    )


def read_all(page: Any, css: str, function: str, arg: Any = None) -> Any:
    """``function`` (JavaScript) of the list of elements ``css`` selects and ``arg``."""
    return page.evaluate(
        f"([css, arg]) => ({function})([...document.querySelectorAll(css)], arg)", [css, arg]
    )


def tool_or_skip(module: str, why_missing: str) -> Any:
    """``module`` imported, or the test skipped saying why it is missing (on CI, failed:
    CI installs every test tool)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        message = f"{module} is not installed: {why_missing}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


NO_ARM32_BUILD = (
    "it has no build for 32-bit ARM, where ./run test installs the test tools that have "
    "(the test-core extra); these tests run on a PC or a 64-bit Raspberry Pi OS"
)


def tap_greyed(control: Any, tries: int = 5) -> None:
    """Taps a greyed-out control (a Playwright locator), which answers a tap with why
    not. A push arriving between finding the control and tapping it draws the page
    again: the control found is then gone (a timeout) or, tapped with force, not
    visible, so it is found again and tapped, up to ``tries`` times."""
    error = tool_or_skip("playwright.sync_api", NO_ARM32_BUILD).Error
    for attempt in range(tries):
        try:
            control.click(force=True, timeout=2_000)
            return
        except error:
            if attempt == tries - 1:
                raise


def sync_playwright() -> Any:
    return tool_or_skip("playwright.sync_api", NO_ARM32_BUILD).sync_playwright()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver, started once per worker: every browser of the run comes from
    it (two drivers at once in one process are not allowed)."""
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        message = f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as driver:
        yield driver


def launched_chromium(playwright: Any, args: list[str]) -> Iterator[Any]:
    """Debian's chromium started headless with ``args`` by ``playwright``, closed when
    done."""
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def chromium(playwright: Any) -> Iterator[Any]:
    """One chromium per worker, shared by the tests: each test opens its own contexts
    (``Page``), which keep nothing from one test to the next."""
    yield from launched_chromium(playwright, ARGS)


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Iterator[Any]:
    """The worker's chromium for a module's tests; the contexts they leave open are
    closed when the module ends, so their pages stop asking servers that are gone."""
    before = set(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()


class Page:
    """A browser context with one page, recording every API response it receives."""

    def __init__(self, browser: Any, name: str, **context: Any) -> None:
        self.name = name
        self.context = browser.new_context(**context)
        self.context.set_default_timeout(10_000)
        self.context.add_init_script(RECORD_EVENTS)
        self.page = self.context.new_page()
        self.responses: list[str] = []
        self.errors: list[str] = []
        self.page.on("response", self._record)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        # anything the pages' Content-Security-Policy refused, and a message key with no
        # text in the page's catalog (common.js says so), are errors of the page too
        self.page.on("console", self._console_error)

    def _console_error(self, message: Any) -> None:
        refused = "Content Security Policy" in message.text
        missing = message.type == "warning" and message.text.startswith("missing message:")
        if refused or missing:
            self.errors.append(message.text)

    def _record(self, response: Any) -> None:
        if "/api/" in response.url and "/stream" not in response.url:
            # a response the page navigated away from has no body left to read
            with contextlib.suppress(Exception):
                self.responses.append(response.text())

    def pushed(self) -> list[dict[str, Any]]:
        return [json.loads(text) for text in self.page.evaluate("window.__pushed || []")]

    def hold_pushes(self) -> None:
        """Keep what the server pushes from the page until ``release_pushes``."""
        self.page.evaluate("window.__held = []")

    def release_pushes(self) -> None:
        self.page.evaluate(
            "const held = window.__held || []; window.__held = null; held.forEach(f => f())"
        )

    def wait_revision(self, revision: int) -> None:
        self.page.wait_for_function(
            "r => Number(document.body.dataset.revision || -1) >= r", arg=revision
        )

    def shot(self, name: str) -> None:
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(
                path=f"{SCREENSHOTS}/{name}.png", full_page=name.startswith("phone")
            )


@contextlib.contextmanager
def opened_pages(
    browser: Any,
    seats: Iterable[str] = ("south", "north"),
    table: dict[str, Any] = TV,
    phone: dict[str, Any] = PHONE,
) -> Iterator[dict[str, Page]]:
    """The table screen and a phone for each seat, each in its own browser context."""
    opened = {"table": Page(browser, "table", **table)}
    opened.update((seat, Page(browser, seat, **phone)) for seat in seats)
    try:
        yield opened
    finally:
        for page in opened.values():
            page.context.close()


def lobby_for(server: LiveServer, table: Page, game: str) -> Any:
    """The table screen opened, ``game`` chosen in its new-game dialog: the dialog."""
    table.page.goto(server.url("/"))
    lobby = table.page.locator("dialog#lobby")
    lobby.locator("select[name=game]").select_option(game)
    return lobby


def start_game(table: Page, seed: int, **names: str) -> None:
    """On the table screen's new-game dialog: each seat's player named (``south="Ann"``),
    the deal's seed given, the game started and its first snapshot shown."""
    for seat, name in names.items():
        table.page.fill(f"input[name=name-{seat}]", name)
    table.page.fill("input[name=seed]", str(seed))
    table.page.click("dialog button[type=submit]")
    table.wait_revision(1)


def take_seat(
    server: LiveServer, phone: Page, seat: str, shown: str, language: str | None = None
) -> None:
    """``phone`` opens the table's join page (in ``language`` if given), taps ``seat``'s
    button and waits for ``shown``: the game's own phone screen."""
    query = f"?lang={language}" if language else ""
    phone.page.goto(server.url(f"/join/{server.code}{query}"))
    phone.page.click(f"button[data-seat={seat}]")
    phone.page.wait_for_selector(shown)


@pytest.fixture
def pages(browser: Any) -> Iterator[dict[str, Page]]:
    with opened_pages(browser) as opened:
        yield opened


def phone_turns(
    server: LiveServer, session: Any, phones: dict[str, Page]
) -> Iterator[tuple[str, Page, int]]:
    """Each turn until the game ends: the seat whose turn it is, its phone (once it shows
    the table's revision) and that revision."""
    while not session.over:
        seat = session.active_seats[0]
        phone = phones[seat]
        revision = server.room.revision
        phone.wait_revision(revision)
        yield seat, phone, revision


def wait_for_change(server: LiveServer, revision: int, phone: Page) -> None:
    """Until the room has moved past ``revision``; if it does not, what ``phone`` shows
    as its error says why."""
    deadline = time.time() + 10
    while server.room.revision == revision and time.time() < deadline:
        time.sleep(0.02)
    assert server.room.revision > revision, phone.page.inner_text("#error")


def orientation_for(
    holes: list[str], cells: set[tuple[int, int]]
) -> tuple[int, bool, tuple[int, int]]:
    """How the phone must turn a card so its holes cover ``cells`` (row, col as drawn
    from the seat): (quarter turns, mirrored, the cell where its first hole goes)."""
    target = _normalise(cells)
    for mirror in (False, True):
        for rotation in range(4):
            shape = [(r, c) for r, row in enumerate(holes) for c, ch in enumerate(row) if ch == "X"]
            if mirror:
                shape = [(r, -c) for r, c in shape]
            for _ in range(rotation):
                shape = [(c, -r) for r, c in shape]
            if _normalise(set(shape)) == target:
                first = sorted(target)[0]
                top = min(r for r, _ in cells)
                left = min(c for _, c in cells)
                return rotation, mirror, (first[0] + top, first[1] + left)
    raise AssertionError(f"no orientation of {holes} covers {cells}")


def _normalise(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return {(r - top, c - left) for r, c in cells}


def lamps_shown(page: Any, css: str) -> set[str]:
    return set(read_all(page, css, "nodes => nodes.map(n => n.dataset.lamp)"))


def place_jacquard(phone: Page, seat: str, card: dict[str, Any], wanted: list[str]) -> None:
    """Choose ``card`` on the phone, turn and mirror it and tap where it goes, so that it
    covers exactly the lamps ``wanted`` (as ``seat`` sees the board in Clacks' reference);
    the phone must then preview exactly those."""
    page = phone.page
    seats = game_module("clacks").reference()["seats"]
    grid = next(s["grid"] for s in seats if s["id"] == seat)
    where = {lamp: (r, c) for r, row in enumerate(grid) for c, lamp in enumerate(row)}
    rotation, mirror, anchor = orientation_for(card["holes"], {where[x] for x in wanted})
    page.click(f".jacquard[data-card='{card['id']}'] .card-button")
    for _ in range(rotation):
        page.click("[data-action=rotate]")
    if mirror:
        page.click("[data-action=mirror]")
    page.click(f"[data-lamp={grid[anchor[0]][anchor[1]]}]")
    assert lamps_shown(page, ".lamp.flip") == set(wanted)


def assert_parts_side_by_side(page: Any, width: int) -> dict[str, list[float]]:
    """The table screen's parts (header, game, join box, log) each within ``width`` and
    none over another; their boxes, by selector."""
    boxes = {
        css: read_one(page, css, BOX)
        for css in ("header.top", "main", "aside.join", "section.log")
    }
    for css, (left, _top, right, _bottom) in boxes.items():
        assert left >= 0 and right <= width, css
    names = list(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = boxes[a], boxes[b]
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, f"{a} overlaps {b}"
    return boxes
