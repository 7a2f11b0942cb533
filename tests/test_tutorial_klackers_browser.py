"""A stranger learns Klackers from the phone and the table alone, in a real browser: the
table's new-game dialog offers Learn to play for Klackers, the phone joins from the join
page and then taps only what the lesson's words name (each number and button found by
its visible text), through the learner's whole turn to a Klack, the bot's turn playing
itself out between, and into a real match. A tap the lesson does not take is explained;
the phone is one 360x740 screen at every step; the table's rule reads from a sofa at
1920x1080, with the step's numbers picked out on the drawn box.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import Page
from test_tutorial_browser import (
    LessonWalk,
    into_the_real_game,
    lesson_walked,
    tv_reads_from_a_sofa,
    why_not_said,
)
from test_tutorial_klackers import TAUGHT

from engine.klackers.tutorial import KlackersLesson
from web.i18n import translate

pytestmark = pytest.mark.browser


# the fast tier walks this lesson in Czech here and in English in
# test_tutorial_every_lesson_browser.py; the full tier here in both
@pytest.mark.parametrize("language", ["cs", pytest.param("en", marks=pytest.mark.slow)])
def test_a_stranger_learns_klackers_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    with lesson_walked(browser, language, WALK) as (server, phone):
        session = server.room.session
        assert session is not None and session.result()["winners"] == ["south"]  # type: ignore[index]
        klack = translate(language, "klackers.klack")
        assert klack in phone.page.inner_text("#lesson")
        into_the_real_game(phone, server, language)


def a_number_already_down_is_explained(phone: Page, language: str) -> bool:
    """The 8, pulled in the first step, is tapped again: the phone says it is down (the
    rules' own reason) and what to do instead."""
    down = translate(language, "klackers.number_down", number=8)
    pull = translate(language, "klackers.pull", numbers="1 + 9")
    said = why_not_said(phone, language, down, pull)
    assert translate(language, "rule.not_standing", number=8).rstrip(".") in said, said
    return True


WALK = LessonWalk(
    "klackers",
    KlackersLesson,
    "tutorial.learn_about",
    TAUGHT,
    wrong_tap=("pull_two", a_number_already_down_is_explained),
    shot_at=("pull_two", 0),  # one number chosen
    sofa=tv_reads_from_a_sofa,
)
