"""A stranger learns Klackers, Clockman and Guards! Guards! from the phone and the table
alone, in a real browser: the table's new-game dialog offers Learn to play for the game,
the phone joins from the join page and then taps only what the lesson's words name (each
number, button and report found by its visible text), through the learner's turns, the
other player's coming from the script or the bot in between, and into a real game. A tap
the lesson does not take is explained; the phone is one 360x740 screen at every step; the
table's rule reads from a sofa at 1920x1080 (Klackers' with the step's numbers picked out
on the drawn box). Clacks' own lesson is walked in test_tutorial_browser.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import Page
from live_server import LiveServer
from seed_tiers import fast_and_slow
from test_tutorial_browser import (
    LessonWalk,
    into_the_real_game,
    lesson_walked,
    tv_reads_from_a_sofa,
    why_not_said,
)
from test_tutorial_guards import TAUGHT as GUARDS_TAUGHT
from test_tutorial_klackers import TAUGHT as KLACKERS_TAUGHT

from engine.core.companion_lesson import CompanionLesson
from engine.guards.tutorial import LEARNER, GuardsLesson
from engine.klackers.tutorial import KlackersLesson
from web.i18n import translate

pytestmark = pytest.mark.browser

CLOCKMAN_TAUGHT = ["symbol", "knock", "event", "blockade", "digit", "lift"]


def a_number_already_down_is_explained(phone: Page, language: str) -> bool:
    """The 8, pulled in the first step, is tapped again: the phone says it is down (the
    rules' own reason) and what to do instead."""
    down = translate(language, "klackers.number_down", number=8)
    pull = translate(language, "klackers.pull", numbers="1 + 9")
    said = why_not_said(phone, language, down, pull)
    assert translate(language, "rule.not_standing", number=8).rstrip(".") in said, said
    return True


def the_klack_wins_the_match(server: LiveServer, phone: Page, language: str) -> None:
    session = server.room.session
    assert session is not None and session.result()["winners"] == ["south"]  # type: ignore[index]
    assert translate(language, "klackers.klack") in phone.page.inner_text("#lesson")


def a_plain_report_is_explained(phone: Page, language: str) -> bool:
    """A report the lesson does not take (a plain field, which the rules would allow)
    says why not and what to do instead."""
    plain = translate(language, "clockman.report.plain")
    why_not_said(phone, language, plain, translate(language, "clockman.report.symbol"))
    return True


def an_early_end_of_turn_is_explained(phone: Page, language: str) -> bool:
    """Ending the turn before the stop is reported (the rules would take it, the lesson
    does not): the greyed button says why not and what to do instead."""
    end = translate(language, "guards.form.end_turn")
    said = why_not_said(phone, language, end, translate(language, "guards.form.recruit"))
    assert translate(language, "tutorial.not_this_step") in said, said
    return True


KLACKERS = LessonWalk(
    "klackers",
    KlackersLesson,
    "tutorial.learn_about",
    KLACKERS_TAUGHT,
    wrong_tap=("pull_two", a_number_already_down_is_explained),
    shot_at=("pull_two", 0),  # one number chosen
    sofa=tv_reads_from_a_sofa,
    at_the_end=the_klack_wins_the_match,
)
CLOCKMAN = LessonWalk(
    "clockman",
    CompanionLesson,
    "tutorial.learn_about.clockman",
    CLOCKMAN_TAUGHT,
    wrong_tap=("symbol", a_plain_report_is_explained),
    shot_at=("blockade", 0),  # which Whytooki
    most=80,
    every_screen=True,
    between=("roll", "end_turn"),
)
GUARDS = LessonWalk(
    "guards",
    GuardsLesson,
    "tutorial.learn_about.guards",
    GUARDS_TAUGHT,
    wrong_tap=("recruit", an_early_end_of_turn_is_explained),
    shot_at=("spell_run", 2),  # the runners' way
    seat=LEARNER,
)

WALKS = [(walk, language) for walk in (KLACKERS, CLOCKMAN, GUARDS) for language in ("en", "cs")]
# the fast tier walks each lesson in one language here and in the other in
# test_tutorial_every_lesson_browser.py; the full tier here in both
FAST_WALKS = [(KLACKERS, "cs"), (CLOCKMAN, "en"), (GUARDS, "en")]


@pytest.mark.parametrize(
    ("walk", "language"), fast_and_slow(WALKS, FAST_WALKS, lambda case: f"{case[0].game}-{case[1]}")
)
def test_a_stranger_learns_each_game_from_what_the_phone_and_table_say(
    browser: Any, walk: LessonWalk, language: str
) -> None:
    with lesson_walked(browser, language, walk) as (server, phone):
        if walk.at_the_end is not None:
            walk.at_the_end(server, phone, language)
        into_the_real_game(phone, server, language)
