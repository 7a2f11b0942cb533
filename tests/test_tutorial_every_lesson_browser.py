"""Every lesson the box offers, walked by a stranger in a real browser in both languages,
started both ways a visitor starts one: from the table screen's New game dialog (the
game and mode picked by their visible names, then Learn to play) and from a convention
stand's menu on the phone. The lessons are those each game registers for each of its
modes, never a list written here.

The phone is read and tapped by visible text only: each step is one 360x740 screen, and
each control a step's words name is found by its words, and must be on that screen
(inside the viewport, at least 24 px each way) when it is tapped, and no control's
words may run out of it. The greyed-out
controls on the screen, and any disabled outright, are tapped too (each kind once in a
lesson; in the slow tier, every kind at every step): each time the phone must say why
not and name the step to take instead. At the end, the one tap into a real game is on
the first screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from browser_support import NO_ARM32_BUILD, PHONE_740, TV, Page, read_one, tool_or_skip
from live_server import LiveServer
from seed_tiers import first_of_each
from test_tutorial_browser import (
    BOX,
    MARK_CONTROL,
    SMALLEST,
    into_the_real_game,
    lesson_steps,
    lesson_table,
    one_screen,
)

from engine.core.tutorial import TutorialSession
from engine.games import DEFAULT_GAME, game_modules
from web.i18n import translate
from web.stand import StandSettings

pytestmark = pytest.mark.browser

# The greyed-out controls wholly on the phone's screen that a lesson's step does not
# name: with ``mark`` null, what tells each kind apart (its tag, what it stands for, its
# words); else the first of the kind ``mark`` is marked to tap. A control disabled
# outright counts too, since every control out of reach must say why when tapped.
GREYED = """
([names, mark]) => {
  document.querySelectorAll("[data-greyed]").forEach((e) => e.removeAttribute("data-greyed"));
  const kind = (e) => [e.tagName, e.dataset.tower, e.dataset.lamp, e.dataset.number, e.dataset.action,
                       e.dataset.slot, (e.textContent || "").trim()].join("|");
  const shown = [...document.querySelectorAll("#main [aria-disabled=true], #main button:disabled")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight
      && !names.includes((e.textContent || "").trim());
  });
  if (mark === null) return [...new Set(shown.map(kind))];
  const found = shown.find((e) => kind(e) === mark);
  if (!found) return false;
  found.setAttribute("data-greyed", "");
  return true;
}
"""


@dataclass(frozen=True)
class Lesson:
    """One lesson on offer: a game's mode and how its lesson starts."""

    game: str
    mode: str
    title_key: str  # the game's name in the catalogs
    multi_mode: bool  # whether the game has modes to pick from

    @property
    def id(self) -> str:
        return f"{self.game}:{self.mode}" if self.multi_mode else self.game


def every_lesson() -> list[Lesson]:
    found = []
    for name, module in game_modules().items():
        modes = module.options_schema().get("modes") or []
        for mode in module.tutorial_starts():
            found.append(Lesson(name, mode, f"game.{name}", len(modes) > 1))
    return found


LESSONS = every_lesson()

def lesson_params() -> list[Any]:
    return [pytest.param(lesson, id=lesson.id) for lesson in LESSONS]


def entry_title(language: str, lesson: Lesson) -> str:
    """The stand's name for the lesson's game and mode, as its menu shows it."""
    game = translate(language, lesson.title_key)
    return f"{game} — {translate(language, f'mode.{lesson.mode}')}" if lesson.multi_mode else game


def visible_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@contextmanager
def lesson_started(
    browser: Any, lesson: Lesson, language: str, way: str
) -> Iterator[tuple[LiveServer, Page, Page]]:
    """The lesson started ``way`` ("tv": the New game dialog; "stand": the stand's menu
    on the phone), the phone seated as its learner: the server, the table and the phone."""
    # the stand plays every game and mode on the box: its menu lists them all
    stand = StandSettings((), 600.0, 600.0) if way == "stand" else None
    phone_name = f"phone-{lesson.id}-{language}"
    with lesson_table(browser, phone_name, language, stand) as (server, tv, phone):
        page = phone.page
        if way == "tv":
            from_the_new_game_dialog(tv, lesson, language)
            page.goto(server.url(f"/join?lang={language}"))
            page.fill("#code", tv.page.inner_text("#room-code"))
            page.get_by_role("button", name=translate(language, "ui.join")).click()
            the_free_seat(phone, language).click()
        else:
            page.goto(server.url(f"/join/{server.code}?lang={language}"))
            page.get_by_role("button", name=entry_title(language, lesson), exact=True).click()
            page.get_by_role("button", name=translate(language, "stand.learn"), exact=True).click()
        page.wait_for_selector("body.seated #lesson .lesson")
        session = server.room.session
        assert isinstance(session, TutorialSession)
        start = game_modules()[lesson.game].tutorial_start(lesson.mode)
        assert start is not None
        assert session.view(None)["tutorial"]["name"] == start["options"]["tutorial"]
        yield server, tv, phone


def the_free_seat(phone: Page, language: str) -> Any:
    """The one seat the join page offers to take, by its words: a lesson's other seat
    is the lesson's own."""
    before, after = translate(language, "ui.take_seat", seat="\ue000").split("\ue000")
    words = re.compile(f"^{re.escape(before)}.+{re.escape(after)}$")
    offered = phone.page.get_by_role("button", name=words)
    offered.first.wait_for()
    free = [button for button in offered.all() if button.is_enabled()]
    assert len(free) == 1, [button.inner_text() for button in offered.all()]
    return free[0]


def from_the_new_game_dialog(tv: Page, lesson: Lesson, language: str) -> None:
    """The table's New game dialog (open by itself on an empty table): the game and mode
    picked by their visible names, then Learn to play."""
    page = tv.page
    page.select_option("select[name=game]", label=translate(language, lesson.title_key))
    if lesson.multi_mode:
        page.select_option("select[name=mode]", label=translate(language, f"mode.{lesson.mode}"))
    page.get_by_role("button", name=translate(language, "tutorial.learn"), exact=True).click()
    page.wait_for_selector(".table-lesson")


def tap_on_screen(phone: Page, name: str, step: str) -> None:
    """Tap the control named ``name``, checked to lie on the 360x740 screen, at least
    24 px each way, as it is."""
    page = phone.page
    timeout = tool_or_skip("playwright.sync_api", NO_ARM32_BUILD).TimeoutError
    for _ in range(5):
        try:
            page.wait_for_function(MARK_CONTROL, arg=name, timeout=10_000)
        except timeout:
            shown = visible_text(page.inner_text("body"))
            pytest.fail(f"at {step}, nothing named {name!r} to tap on: {shown}")
        try:
            left, top, right, bottom = read_one(page, "[data-tapped]", BOX)
        except Exception:  # drawn again between marking and measuring
            continue
        if left == right == top == bottom == 0:
            continue  # taken out of the page's layout as it is drawn again: read it afresh
        where = (step, name, round(left, 1), round(top, 1), round(right, 1), round(bottom, 1))
        assert left >= 0 and top >= 0 and right <= 360 and bottom <= 740, where
        assert right - left >= SMALLEST and bottom - top >= SMALLEST, where
        try:
            page.click("[data-tapped]", timeout=2_000)
            return
        except timeout:
            continue
    pytest.fail(f"nothing named {name!r} could be tapped at {step}")


# The words of each control on the phone that run out of it: a button cut off at 360 px.
WORDS_CUT_OFF = """
() => [...document.querySelectorAll("button, [role=button], a")]
  .filter((e) => e.getClientRects().length && e.clientWidth && e.scrollWidth > e.clientWidth + 1)
  .map((e) => [(e.innerText || "").trim(), e.scrollWidth, e.clientWidth])
"""


# Where the phone's why-not note starts, and where its header and the lesson's step end.
NOTE_AND_ABOVE = """() => ["#why", "header.top", "#lesson .lesson"].map((part, i) => {
  const r = document.querySelector(part).getBoundingClientRect();
  return i ? r.bottom : r.top;
})"""


# The phone's explanation and the lesson's step, white space folded, the count taken off.
WHY_AND_STEP = """() => {
  const fold = (text) => text.replace(/\\s+/g, " ").trim();
  const doing = document.querySelector("#lesson .lesson-do");
  return [fold(document.querySelector("#why").innerText),
          fold(doing ? doing.innerText : "").replace(/^\\d+\\/\\d+\\s*/, "")];
}"""
# Whether the explanation names the step to take instead, in the catalogue's words.
NAMES_THE_STEP = f"""([before, after]) => {{
  const [said, doing] = ({WHY_AND_STEP})();
  const fold = (text) => text.replace(/\\s+/g, " ").trim();
  return said.includes(fold(before + doing + after));
}}"""


def greyed_taps_name_the_step(
    phone: Page, language: str, taps: list[str], step: str, tapped: set[str] | None
) -> int:
    """Each greyed-out control on the screen is tapped, one of each kind (``tapped``: the
    kinds tapped already in this lesson, left out now and added to; None: every kind at
    every step): each time, the phone says why not and names the step to take. How many
    were tapped."""
    page = phone.page
    kinds = [k for k in page.evaluate(GREYED, [taps, None]) if tapped is None or k not in tapped]
    for kind in kinds:
        if not greyed_tap_names_the_step(phone, language, taps, step, kind):
            continue  # gone from the screen as the page was drawn again
        if tapped is not None:
            tapped.add(kind)
    return len(kinds)


def greyed_tap_names_the_step(
    phone: Page, language: str, taps: list[str], step: str, kind: str
) -> bool:
    """The greyed-out control of ``kind`` is tapped, if it is still on the screen: the
    phone says why not and names the step to take. Whether it was there to tap."""
    page = phone.page
    playwright = tool_or_skip("playwright.sync_api", NO_ARM32_BUILD)
    timeout = playwright.TimeoutError
    for _ in range(5):
        if not page.evaluate(GREYED, [taps, kind]):
            return False
        # the page may draw itself again (a push arriving) between finding and tapping:
        # the control found is then gone (a timeout) or, tapped with force, not visible
        try:
            page.click("[data-greyed]", force=True, timeout=2_000)
            break
        except playwright.Error:
            continue
    else:
        pytest.fail(f"the greyed-out {kind!r} did not stay to be tapped at {step}")
    try:
        page.wait_for_selector("#why:not([hidden])", timeout=10_000)
    except timeout:
        pytest.fail(f"at {step}, a tap on the greyed-out {kind!r} said nothing")
    # the note sits below the seat's header and the lesson's step, covering neither
    top, *bottoms = page.evaluate(NOTE_AND_ABOVE)
    assert all(top >= bottom for bottom in bottoms), (step, kind, top, bottoms)
    # the words on the step, as the lesson's panel says them when the phone explains:
    # read together, since the panel may be drawn again after the step was found
    before, after = translate(language, "tutorial.instead", step="\ue000").split("\ue000")
    try:
        page.wait_for_function(NAMES_THE_STEP, arg=[before, after], timeout=10_000)
    except timeout:
        said, doing = page.evaluate(WHY_AND_STEP)
        pytest.fail(f"at {step}, {kind!r} said {said!r} while the step was {doing!r}")
    page.click("#why")
    page.wait_for_selector("#why", state="hidden")
    return True


def walk(
    phone: Page,
    language: str,
    every_step: bool,
    pictured: tuple[str, Callable[[], None]] | None = None,
) -> tuple[list[str], int]:
    """Every step of the lesson to its end, tapping what each names: the learner's
    steps in order, and how many greyed-out taps were explained. Each kind of greyed-out
    control on the screen is tapped once in the lesson, or with ``every_step`` at every
    step it is there. ``pictured`` names a step and what pictures the screens as that
    step is shown."""
    seen: list[str] = []
    explained = 0
    tapped: set[str] | None = None if every_step else set()
    for now, taps in lesson_steps(phone, 120):
        if not taps:  # the other player's turn: the lesson plays it
            continue
        step = now[0]
        seen.append(step)
        one_screen(phone.page, step)
        assert phone.page.evaluate(WORDS_CUT_OFF) == [], step
        if pictured is not None and step == pictured[0]:
            pictured[1]()
        explained += greyed_taps_name_the_step(phone, language, taps, step, tapped)
        for name in taps:
            tap_on_screen(phone, name, step)
    return seen, explained


def pictures(
    lesson: Lesson, language: str, way: str, steps: list[str], tv: Page, phone: Page
) -> tuple[str, Callable[[], None]] | None:
    """The Race to Genua's lessons are pictured for the README at their third step (the
    swap, or the Junior Race's first letter), started from the table; the other lessons
    have their own pictures (test_tutorial_*browser.py)."""
    if lesson.game != "clacks" or lesson.mode == "competitive" or way != "tv":
        return None

    def take() -> None:
        phone.page.wait_for_selector("#lesson .lesson-rule")
        phone.shot(f"phone-tutorial-{lesson.mode}-{language}")
        tv.page.wait_for_selector(".table-lesson .lesson-rule")
        tv.shot(f"table-tv-tutorial-{lesson.mode}-{language}")

    return steps[2], take


# each language from the table screen and from the stand
WAYS = [("en", "tv"), ("cs", "stand"), ("cs", "tv"), ("en", "stand")]


def walk_params() -> list[Any]:
    """Every lesson in every way: the box's own game's first lesson once in the fast tier,
    tapping each kind of greyed-out control once; every other way of every lesson marked
    slow, tapping every kind at every step, each game's first lesson in the way the turn
    of that game gives it. (The fast tier walks the other games' lessons in
    test_tutorial_other_games_browser.py.)"""
    params = []
    firsts = [lesson.id for lesson in first_of_each(LESSONS, lambda lesson: lesson.game)]
    fast = next(lesson.id for lesson in LESSONS if lesson.game == DEFAULT_GAME)
    for param in lesson_params():
        for turn, (language, way) in enumerate(WAYS):
            first_way = param.id in firsts and turn == firsts.index(param.id) % len(WAYS)
            slow = not (first_way and param.id == fast)
            marks = [*param.marks, *([pytest.mark.slow] if slow else [])]
            name = f"{param.id}-{language}-{way}"
            params.append(pytest.param(*param.values, language, way, slow, id=name, marks=marks))
    return params


@pytest.mark.parametrize(("lesson", "language", "way", "every_step"), walk_params())
def test_every_lesson_walks_from_its_start_to_a_real_game(
    browser: Any, lesson: Lesson, language: str, way: str, every_step: bool
) -> None:
    with lesson_started(browser, lesson, language, way) as (server, tv, phone):
        session = server.room.session
        assert isinstance(session, TutorialSession)
        steps = [step.key for step in session.script.steps]
        shots = pictures(lesson, language, way, steps, tv, phone)
        seen, explained = walk(phone, language, every_step, shots)
        assert seen == steps
        assert explained >= 1
        into_the_real_game(phone, server, language, tv)


def test_learn_to_play_is_offered_only_for_a_mode_with_a_lesson(
    browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The New game dialog and the stand's menu offer Learn to play for a mode as its
    game registers a lesson for it: here the Junior Race is made to have none, and the
    alphabet trainer has none."""
    from engine.clacks.session import ClacksModule

    offered = ClacksModule.tutorial_start
    monkeypatch.setattr(
        ClacksModule,
        "tutorial_start",
        lambda self, mode=None: None if mode == "junior" else offered(self, mode),
    )
    language = "en"
    learn = translate(language, "tutorial.learn")
    server = LiveServer()
    tv = Page(browser, "table", **TV)
    try:
        page = tv.page
        page.goto(server.url(f"/table/{server.code}?lang={language}"))
        page.select_option("select[name=game]", label=translate(language, "game.clacks"))
        for mode, shown in (("coop", True), ("junior", False), ("solitaire", True)):
            page.select_option("select[name=mode]", label=translate(language, f"mode.{mode}"))
            button = page.get_by_role("button", name=learn, exact=True)
            assert button.is_visible() is shown, mode
            if shown:  # the words say what this mode's lesson is
                about = translate(language, f"tutorial.learn_about.{mode}")
                assert about in page.inner_text(".lesson-start")
        page.select_option("select[name=game]", label=translate(language, "game.clacks-trainer"))
        assert not page.get_by_role("button", name=learn, exact=True).is_visible()
        assert tv.errors == []
    finally:
        tv.context.close()
        server.close()
    stand = LiveServer(stand=StandSettings((), 600.0, 600.0))
    phone = Page(browser, "phone", **PHONE_740)
    try:
        page = phone.page
        for entry, shown in (("clacks:coop", True), ("clacks:junior", False)):
            page.goto(stand.url(f"/join/{stand.code}?lang={language}"))
            title = entry_title(
                language, Lesson("clacks", entry.split(":")[1], "game.clacks", True)
            )
            page.get_by_role("button", name=title, exact=True).click()
            page.get_by_role("button", name=translate(language, "stand.other_game")).wait_for()
            button = page.get_by_role("button", name=translate(language, "stand.learn"), exact=True)
            assert (button.count() == 1) is shown, entry
        assert phone.errors == []
    finally:
        phone.context.close()
        stand.close()
