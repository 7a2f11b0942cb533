"""A stranger learns to report Guards! Guards! from the phone and the table alone, in a
real browser: the table's new-game dialog offers Learn to play for Guards! Guards!, the
phone joins from the join page and then taps only what the lesson's words name (each
control found by its visible text), through the lesson's two turns, the other player's
report coming from the script in between, and into a real game. A report the lesson does
not take is explained; the phone is one 360x740 screen at every step; the table's rule
reads from a sofa at 1920x1080.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import Page
from test_tutorial_browser import LessonWalk, into_the_real_game, lesson_walked, why_not_said
from test_tutorial_guards import TAUGHT

from engine.guards.tutorial import LEARNER, GuardsLesson
from web.i18n import translate

pytestmark = pytest.mark.browser


# the fast tier walks this lesson in English here and in Czech in
# test_tutorial_every_lesson_browser.py; the full tier here in both
@pytest.mark.parametrize("language", ["en", pytest.param("cs", marks=pytest.mark.slow)])
def test_a_stranger_learns_to_report_guards_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    with lesson_walked(browser, language, WALK) as (server, phone):
        into_the_real_game(phone, server, language)


def a_wrong_report_is_explained(phone: Page, language: str) -> bool:
    """Ending the turn before the stop is reported (the rules would take it, the lesson
    does not): the greyed button says why not and what to do instead."""
    end = translate(language, "guards.form.end_turn")
    said = why_not_said(phone, language, end, translate(language, "guards.form.recruit"))
    assert translate(language, "tutorial.not_this_step") in said, said
    return True


WALK = LessonWalk(
    "guards",
    GuardsLesson,
    "tutorial.learn_about.guards",
    TAUGHT,
    wrong_tap=("recruit", a_wrong_report_is_explained),
    shot_at=("spell_run", 2),  # the runners' way
    seat=LEARNER,
)
