"""The Klackers lesson's pull on a 360x740 phone: numbers that make the roll but are not
the ones the step names leave the pull button greyed, and a tap on it says why (the
lesson's step); with nothing chosen, the pull button points at the numbers to tap, never
at a list of combinations the lesson does not show."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import tap_greyed
from test_tutorial_browser import lesson_joined, lesson_steps, tap_named
from test_tutorial_other_games_browser import KLACKERS

from engine.core.tutorial import TutorialSession
from web.i18n import translate

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_pull_that_makes_the_roll_but_is_not_the_lessons_is_greyed_and_says_why(
    browser: Any, language: str
) -> None:
    name = f"phone-tutorial-klackers-pull-{language}"
    with lesson_joined(browser, name, language, KLACKERS) as (server, _, phone):
        page = phone.page
        for now, taps in lesson_steps(phone, 20):
            if now[0].endswith(".pull_two"):
                break
            for tap in taps:
                tap_named(phone, tap)
        else:
            pytest.fail("the lesson never came to its pull of two numbers")
        pull = page.locator("[data-action=pull]")
        # nothing chosen: the button says to tap numbers, and which the step names
        tap_greyed(pull)
        page.wait_for_selector("#why:not([hidden])")
        said = page.inner_text("#why")
        assert said.startswith(translate(language, "klackers.hint.choose_numbers", total=10)), said
        lessons = translate(language, "tutorial.instead", step="").strip()
        assert lessons in said and translate(language, "klackers.pull", numbers="1 + 9") in said
        page.click("#why")
        # 4 and 6 make the roll of 10, but the lesson pulls 1 and 9
        for number in ("4", "6"):
            page.click(f".k-pad [data-number='{number}']")
        page.wait_for_selector(".k-pad [data-number='6'].chosen")
        page.wait_for_selector("[data-action=pull][aria-disabled=true]")
        phone.shot(f"phone-tutorial-klackers-pull-{language}")
        tap_greyed(pull)
        page.wait_for_selector("#why:not([hidden])")
        said = page.inner_text("#why")
        instead = translate(language, "tutorial.instead", step="").strip()
        assert instead in said and translate(language, "klackers.pull", numbers="1 + 9") in said
        assert isinstance(server.room.session, TutorialSession)
        assert server.room.session.position() == 3  # nothing was pulled
