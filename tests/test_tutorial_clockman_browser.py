"""A stranger learns to report Clockman from the phone and the table alone, in a real
browser: the table's new-game dialog offers Learn to play for Clockman, the phone joins
from the join page and then taps only what the lesson's words name (each control found
by its visible text), through the lesson's five turns, the other player's reports coming
from the script in between, and into a real game. A report the lesson does not take is
explained; the phone is one 360x740 screen at every step; the table's rule reads from a
sofa at 1920x1080.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import Page
from test_tutorial_browser import LessonWalk, into_the_real_game, lesson_walked, why_not_said

from engine.core.companion_lesson import CompanionLesson
from web.i18n import translate

pytestmark = pytest.mark.browser

TAUGHT = ["symbol", "knock", "event", "blockade", "digit", "lift"]


# the fast tier walks this lesson in English here and in Czech in
# test_tutorial_every_lesson_browser.py; the full tier here in both
@pytest.mark.parametrize("language", ["en", pytest.param("cs", marks=pytest.mark.slow)])
def test_a_stranger_learns_to_report_clockman_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    with lesson_walked(browser, language, WALK) as (server, phone):
        into_the_real_game(phone, server, language)


def a_wrong_report_is_explained(phone: Page, language: str) -> bool:
    """A report the lesson does not take (a plain field, which the rules would allow)
    says why not and what to do instead."""
    plain = translate(language, "clockman.report.plain")
    why_not_said(phone, language, plain, translate(language, "clockman.report.symbol"))
    return True


WALK = LessonWalk(
    "clockman",
    CompanionLesson,
    "tutorial.learn_about.clockman",
    TAUGHT,
    wrong_tap=("symbol", a_wrong_report_is_explained),
    shot_at=("blockade", 0),  # which Whytooki
    most=80,
    every_screen=True,
    between=("roll", "end_turn"),
)
