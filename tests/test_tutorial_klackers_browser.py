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
    into_the_real_game,
    join_from_the_table,
    lesson_steps,
    lesson_table,
    one_screen,
    tap_named,
    tv_reads_from_a_sofa,
)
from test_tutorial_klackers import TAUGHT

from engine.klackers.tutorial import KlackersLesson
from web.i18n import translate

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_stranger_learns_klackers_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    with lesson_table(browser, f"phone-tutorial-klackers-{language}", language) as (
        server,
        tv,
        phone,
    ):
        # the new-game dialog opens by itself: choose the game, and its lesson is offered
        tv.page.select_option("select[name=game]", "klackers")
        assert translate(language, "tutorial.learn_about") in tv.page.inner_text(".lesson-start")
        tv.page.get_by_role("button", name=translate(language, "tutorial.learn")).click()
        tv.page.wait_for_selector(".table-lesson")
        assert isinstance(server.room.session, KlackersLesson)
        join_from_the_table(phone, tv, server, language)

        page = phone.page
        seen: list[str] = []
        explained = False
        for now, taps in lesson_steps(phone, 40):
            if not now[0]:  # the bot's turn: it plays its part of the script
                continue
            one_screen(page, now[0])
            step = now[0].rsplit(".", 1)[1]
            seen.append(step)
            if step == "pull_two" and not explained:
                explained = a_number_already_down_is_explained(phone, language)
            for i, name in enumerate(taps):
                tap_named(phone, name)
                if i < len(taps) - 1:  # after the last, the next step is checked
                    one_screen(page, f"{step}, after {name}")
                if step == "pull_two" and i == 0:  # the phone mid-step: one number chosen
                    phone.shot(f"phone-tutorial-klackers-{language}")
                    if language == "en":
                        tv.shot("table-tv-tutorial-klackers")
                        tv_reads_from_a_sofa(tv)
        assert seen == TAUGHT
        assert explained
        session = server.room.session
        assert session is not None and session.result()["winners"] == ["south"]  # type: ignore[index]
        klack = translate(language, "klackers.klack")
        assert klack in phone.page.inner_text("#lesson")
        real = into_the_real_game(phone, server, language, KlackersLesson)
        assert real.game == "klackers"
        assert "south" in server.room.seats.claims and server.room.seats.bots == {"north": "greedy"}


def a_number_already_down_is_explained(phone: Page, language: str) -> bool:
    """The 8, pulled in the first step, is tapped again: the phone says it is down (the
    rules' own reason) and what to do instead."""
    page = phone.page
    down = translate(language, "klackers.number_down", number=8)
    page.get_by_role("button", name=down, exact=True).click(force=True)
    page.wait_for_selector("#why:not([hidden])")
    said = page.inner_text("#why")
    assert translate(language, "rule.not_standing", number=8).rstrip(".") in said, said
    instead = translate(language, "tutorial.instead", step="").strip()
    pull = translate(language, "klackers.pull", numbers="1 + 9")
    assert instead in said and pull in said, said
    page.click("#why")
    return True
