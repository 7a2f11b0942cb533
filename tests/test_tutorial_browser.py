"""A stranger learns Clacks from the phone and the table alone, in a real browser: the
table's start screen offers Learn to play, the phone joins from the join page and then
taps only what the lesson's words name (each control found by its visible text, never
by a selector written for the step), through a whole first game against a bot, into a
real game. A tap the lesson does not take is explained; the phone's screen is one
360x740 screen at every step; the table screen's rule reads from a sofa at 1920x1080.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from browser_support import (
    NO_ARM32_BUILD,
    PHONE_740,
    TEXT_SIZES,
    TV,
    Page,
    read_one,
    tap_greyed,
    tool_or_skip,
)
from live_server import LiveServer
from test_tutorial import TAUGHT

from engine.core.tutorial import TutorialSession
from web.i18n import translate
from web.stand import StandSettings

pytestmark = pytest.mark.browser

# The innermost visible element whose whole text is the name, outside the lesson's own
# words, and the control it belongs to (a button, or a drawn lamp or tower).
MARK_CONTROL = """
name => {
  document.querySelectorAll("[data-tapped]").forEach((e) => e.removeAttribute("data-tapped"));
  const all = [...document.querySelectorAll("body *")].filter((e) =>
    e.textContent.trim() === name && !e.closest(".lesson-do") && e.getClientRects().length);
  const inner = all.filter((e) => !all.some((other) => other !== e && e.contains(other)));
  for (const found of inner) {
    const control = found.closest("button, [role=button], a");
    if (control && control.getAttribute("aria-disabled") !== "true" && !control.disabled) {
      control.setAttribute("data-tapped", "");
      return true;
    }
  }
  return false;
}
"""

LESSON_NOW = """
() => {
  const box = document.querySelector("#lesson .lesson");
  return box ? [box.dataset.step, box.querySelector("h2").textContent, document.body.dataset.revision] : null;
}
"""

# the lesson has moved on from ``now`` (another step, or the same words at another number)
STEP_CHANGED = """
now => {
  const box = document.querySelector("#lesson .lesson");
  return !box || box.dataset.step !== now[0] || box.querySelector("h2").textContent !== now[1];
}
"""


AFTER_LESSON = "#lesson [data-action=after-lesson]"

SMALLEST = 24.0  # px: the least a target may measure each way

BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"

# the step and the taps its words name, read at one moment: read one after the other, a
# push arriving between them could pair a step with the next one's taps
STEP_AND_TAPS = f"""
() => [({LESSON_NOW.strip()})(),
       [...document.querySelectorAll("#lesson .lesson-do .tap")].map((e) => e.innerText),
       Boolean(document.querySelector({AFTER_LESSON!r}))]
"""


@contextmanager
def lesson_table(
    browser: Any, phone_name: str, language: str, stand: StandSettings | None = None
) -> Iterator[tuple[LiveServer, Page, Page]]:
    """A companion (a convention stand with ``stand``) with its table screen open in
    ``language`` on a TV and a 360x740 phone beside it, not yet joined; neither page has
    a script error by the end."""
    server = LiveServer(stand=stand)
    tv = Page(browser, "table", **TV)
    phone = Page(browser, phone_name, **PHONE_740)
    try:
        tv.page.goto(server.url(f"/table/{server.code}?lang={language}"))
        yield server, tv, phone
        assert phone.errors == [] and tv.errors == []
    finally:
        phone.context.close()
        tv.context.close()
        server.close()


def lesson_steps(phone: Page, most: int) -> Iterator[tuple[list[str], list[str]]]:
    """Each step the phone shows until the lesson's end, as ``LESSON_NOW`` reads it, with
    the taps its words name; once the step has been dealt with, waits for the lesson to
    move on (an empty step is the other player's turn, which the lesson plays itself)."""
    page = phone.page
    for _ in range(most):
        # read with the step, in one go: the lesson may end between two reads
        now, taps, ended = page.evaluate(STEP_AND_TAPS)
        if ended:
            return
        yield now, [str(t) for t in taps]
        if page.locator(AFTER_LESSON).count():
            return
        page.wait_for_function(STEP_CHANGED, arg=now)
    pytest.fail(f"the lesson did not end within {most} steps")


def tap_named(phone: Page, name: str) -> None:
    """Tap the control whose visible text is ``name``, once it is there to tap."""
    page = phone.page
    timeout = tool_or_skip("playwright.sync_api", NO_ARM32_BUILD).TimeoutError
    for _ in range(5):
        page.wait_for_function(MARK_CONTROL, arg=name, timeout=10_000)
        try:  # the page may draw itself again (a push arriving) between finding and tapping
            page.click("[data-tapped]", timeout=2_000)
            return
        except timeout:
            continue
    pytest.fail(f"nothing named {name!r} could be tapped")


# each part of the page in its flow, as "tag#id.class height: its first words", to say
# what pushed a page past the screen when it did
PARTS_IN_FLOW = """() => [...document.querySelectorAll('body > *, #main > *, main > * > *')]
  .filter((e) => e.offsetParent !== null && getComputedStyle(e).position !== 'fixed')
  .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(e.offsetHeight)}: `
    + (e.innerText || '').replace(/\\s+/g, ' ').slice(0, 60))"""


def one_screen(page: Any, step: str = "") -> None:
    height, width = page.evaluate(
        "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
    )
    if height > 740 or width > 360:
        parts = "\n".join(page.evaluate(PARTS_IN_FLOW))
        pytest.fail(f"at {step!r} the phone measures {width}x{height}, its parts:\n{parts}")


def join_from_the_table(
    phone: Page, tv: Page, server: LiveServer, language: str, seat: str = "south"
) -> None:
    """The phone opens the join page, types the code the table shows and takes ``seat``,
    the one the lesson leaves free."""
    page = phone.page
    page.goto(server.url(f"/join?lang={language}"))
    page.fill("#code", tv.page.inner_text("#room-code"))
    page.get_by_role("button", name=translate(language, "ui.join")).click()
    named = translate(language, f"seat.{seat}")
    page.get_by_role("button", name=translate(language, "ui.take_seat", seat=named)).click()
    page.wait_for_selector("body.seated #lesson .lesson")


def start_the_lesson_from_the_table(
    tv: Page, server: LiveServer, language: str, game: str, about: str, lesson: type
) -> None:
    """The new-game dialog, open by itself: ``game`` chosen, its lesson is offered with
    the words ``about`` and started on the table."""
    tv.page.select_option("select[name=game]", game)
    assert translate(language, about) in tv.page.inner_text(".lesson-start")
    tv.page.get_by_role("button", name=translate(language, "tutorial.learn")).click()
    tv.page.wait_for_selector(".table-lesson")
    assert isinstance(server.room.session, lesson)


# the fast tier walks this lesson in Czech here and in English in
# test_tutorial_every_lesson_browser.py; the full tier here in both
@pytest.mark.parametrize("language", ["cs", pytest.param("en", marks=pytest.mark.slow)])
def test_a_stranger_learns_clacks_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    with lesson_table(browser, f"phone-tutorial-{language}", language) as (server, tv, phone):
        # the table's start screen: the new-game dialog opens by itself and offers the lesson
        tv.page.get_by_role("button", name=translate(language, "tutorial.learn")).click()
        tv.page.wait_for_selector(".table-lesson")
        assert isinstance(server.room.session, TutorialSession)
        # a tower pressed on the table out of step is explained there, with the step
        tv.page.click(".board-box [data-tower=b2c2]")
        tv.page.wait_for_selector("#notice:not([hidden])")
        notice = tv.page.inner_text("#notice")
        assert translate(language, "tutorial.instead", step="").strip() in notice, notice
        assert "a2b2" in notice and server.room.session.position() == 0
        join_from_the_table(phone, tv, server, language)

        page = phone.page
        seen_steps: list[str] = []
        explained = False
        for now, taps in lesson_steps(phone, 60):
            if not now[0]:  # the opponent's turn: the bot plays its part
                continue
            one_screen(page, now[0])
            seen_steps.append(now[0])
            if now[0].endswith(".fault") and not explained:
                explained = wrong_tap_is_explained(phone, taps, language)
            if now[0].endswith(".rotate"):
                tap_named(phone, taps[0])  # the card chosen: the phone mid-lesson
                phone.page.wait_for_selector("[data-action=rotate]")
                phone.shot(f"phone-tutorial-{language}")
                if language == "en":
                    tv.shot("table-tv-tutorial")
                    tv_reads_from_a_sofa(tv)
                taps = taps[1:]
            for i, name in enumerate(taps):
                tap_named(phone, name)
                if i < len(taps) - 1:  # after the last, the next step is checked
                    one_screen(page, f"{now[0]}, after {name}")
        assert [s.rsplit(".", 1)[1] for s in seen_steps] == TAUGHT
        assert explained
        session = server.room.session
        assert session is not None and session.over and session.result()["winners"] == ["south"]  # type: ignore[index]
        into_the_real_game(phone, server, language)


def into_the_real_game(
    phone: Page, server: LiveServer, language: str, tv: Page | None = None
) -> Any:
    """At a lesson's end: the phone says so, and its words name the one tap into a real
    game, a target of at least 24 px on the first screen (and the table screen, with
    ``tv``, names the same tap); tapping it starts the game the lesson's script names
    next (returned), the learner still in their seat, the only one a phone holds, and
    bots at the seats the script gives them."""
    lesson = server.room.session
    assert isinstance(lesson, TutorialSession)
    after = lesson.script.next_game
    page = phone.page
    page.wait_for_selector(AFTER_LESSON)
    assert translate(language, "tutorial.done_title") in page.inner_text("#lesson")
    label = page.inner_text(AFTER_LESSON).strip()
    assert label in page.inner_text("#lesson .lesson-do")  # the words name the button
    if tv is not None:
        tv.page.wait_for_selector("#table-lesson .lesson-next")
        said = tv.page.inner_text("#table-lesson")
        assert translate(language, "tutorial.done_title") in said, said
        assert translate(language, "tutorial.done_next", next=label) in said, said
    left, top, right, bottom = read_one(page, AFTER_LESSON, BOX)
    assert left >= 0 and top >= 0 and right <= 360 and bottom <= 740, (top, bottom)
    assert right - left >= SMALLEST and bottom - top >= SMALLEST
    page.get_by_role("button", name=label, exact=True).click()
    page.wait_for_function("() => !document.querySelector('#lesson .lesson')")
    real = server.room.session
    assert real is not None and not isinstance(real, TutorialSession)
    assert real.game == after["game"]
    assert list(server.room.seats.claims) == [lesson.script.learner]
    assert server.room.seats.bots == after.get("bots", {})
    return real


def wrong_tap_is_explained(phone: Page, taps: list[str], language: str) -> bool:
    """A card of the hand the step does not name is tapped: the phone says why not (the
    rules' stress limit) and what to do instead."""
    page = phone.page
    # a Jacquard of 3 stress points, more than the 2 the turn has left
    dear = translate(language, "clacks.cost", cost=3)
    cards = page.locator("#main .hand-strip .card-button", has_text=dear)
    other = next(c for c in cards.all() if c.locator(".card-name").inner_text() not in taps)
    tap_greyed(other)  # greyed out, and it answers a tap with why
    page.wait_for_selector("#why:not([hidden])")
    said = page.inner_text("#why")
    instead = translate(language, "tutorial.instead", step="").strip()
    assert instead in said and taps[0] in said, said
    left = {"en": "2 left", "cs": "zbývá vám 2"}[language]
    assert left in said, said
    page.click("#why")
    return True


def why_not_said(phone: Page, language: str, control: str, instead: str) -> str:
    """Taps the greyed control named ``control`` (it answers a tap with why not): what
    the phone says then, checked to say what to do instead, naming ``instead``; the
    words are closed after."""
    page = phone.page
    tap_greyed(page.get_by_role("button", name=control, exact=True))
    page.wait_for_selector("#why:not([hidden])")
    said = str(page.inner_text("#why"))
    words = translate(language, "tutorial.instead", step="").strip()
    assert words in said and instead in said, said
    page.click("#why")
    return said


def tv_reads_from_a_sofa(tv: Page) -> None:
    lesson_reads_from_a_sofa(tv)
    # the picture: the board drawn with the step's lamps picked out
    assert tv.page.locator(".board-box .lamp.accent").count() >= 1


def lesson_reads_from_a_sofa(tv: Page) -> None:
    """The rule being taught, and every other word on the table screen, at 28 px or more."""
    page = tv.page
    size = float(
        read_one(
            page,
            ".table-lesson .lesson-rule", "e => parseFloat(getComputedStyle(e).fontSize)"
        )
    )
    assert size >= 28
    smallest = min(page.evaluate(TEXT_SIZES))
    assert smallest[0] >= 28 - 0.01, smallest


@dataclass(frozen=True)
class LessonWalk:
    """How a game's lesson is walked on the phone: the new-game dialog offers ``lesson``
    for ``game`` with the words ``about``; the learner sits at ``seat``; the lesson ends
    within ``most`` steps; at the step ``wrong_tap[0]`` the tap the lesson does not take
    is tried first (``wrong_tap[1]`` checks it is explained); after tap number
    ``shot_at[1]`` of step ``shot_at[0]`` the phone and table are pictured, the table
    checked by ``sofa``. With ``every_screen`` the phone is checked on the other player's
    turns and after a step's last tap too, and a step without taps is the other player's.
    The learner's steps are ``taught``, in order, leaving out those starting with one of
    ``between``; ``at_the_end`` checks what the lesson's end shows before the tap into a
    real game."""

    game: str
    lesson: type
    about: str
    taught: list[str]
    wrong_tap: tuple[str, Callable[[Page, str], bool]]
    shot_at: tuple[str, int]
    most: int = 40
    seat: str = "south"
    sofa: Callable[[Page], None] = lesson_reads_from_a_sofa
    every_screen: bool = False
    between: tuple[str, ...] = ()
    at_the_end: Callable[[LiveServer, Page, str], None] | None = None


@contextmanager
def lesson_walked(
    browser: Any, language: str, walk: LessonWalk
) -> Iterator[tuple[LiveServer, Page]]:
    """The table as ``lesson_table`` opens it, its lesson walked to the end as
    ``walk_the_lesson`` walks it: the server and the learner's phone."""
    phone_name = f"phone-tutorial-{walk.game}-{language}"
    with lesson_joined(browser, phone_name, language, walk) as (server, tv, phone):
        seen = walk_the_lesson(tv, phone, language, walk)
        assert [s for s in seen if not s.startswith(walk.between)] == walk.taught
        yield server, phone


@contextmanager
def lesson_joined(
    browser: Any, phone_name: str, language: str, walk: LessonWalk
) -> Iterator[tuple[LiveServer, Page, Page]]:
    """The table as ``lesson_table`` opens it starts the lesson as ``walk`` says (the
    new-game dialog opens by itself) and the phone joins it in the learner's seat."""
    with lesson_table(browser, phone_name, language) as (server, tv, phone):
        start_the_lesson_from_the_table(tv, server, language, walk.game, walk.about, walk.lesson)
        join_from_the_table(phone, tv, server, language, walk.seat)
        yield server, tv, phone


def walk_the_lesson(tv: Page, phone: Page, language: str, walk: LessonWalk) -> list[str]:
    """The phone, joined as ``lesson_joined`` joins it, taps what each step's words name
    to the lesson's end, one screen at every step. Returns the learner's steps in order."""
    page = phone.page
    seen: list[str] = []
    explained = False
    for now, taps in lesson_steps(phone, walk.most):
        others_turn = not taps if walk.every_screen else not now[0]  # the script plays it
        if walk.every_screen or not others_turn:
            one_screen(page, now[0])
        if others_turn:
            continue
        step = now[0].rsplit(".", 1)[1]
        seen.append(step)
        if step == walk.wrong_tap[0] and not explained:
            explained = walk.wrong_tap[1](phone, language)
        for i, name in enumerate(taps):
            tap_named(phone, name)
            if walk.every_screen or i < len(taps) - 1:  # else the next step is checked
                one_screen(page, f"{step}, after {name}")
            if (step, i) == walk.shot_at:  # the phone mid-step
                phone.shot(f"phone-tutorial-{walk.game}-{language}")
                if language == "en":
                    tv.shot(f"table-tv-tutorial-{walk.game}")
                    walk.sofa(tv)
    assert explained
    return seen
