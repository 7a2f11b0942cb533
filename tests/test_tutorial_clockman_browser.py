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
from test_tutorial_browser import (
    into_the_real_game,
    join_from_the_table,
    lesson_reads_from_a_sofa,
    lesson_steps,
    lesson_table,
    one_screen,
    tap_named,
)

from engine.core.companion_lesson import CompanionLesson
from web.i18n import translate

pytestmark = pytest.mark.browser

TAUGHT = ["symbol", "knock", "event", "blockade", "digit", "lift"]


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_stranger_learns_to_report_clockman_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    phone_name = f"phone-tutorial-clockman-{language}"
    with lesson_table(browser, phone_name, language) as (server, tv, phone):
        # the new-game dialog opens by itself: choose the game, and its lesson is offered
        tv.page.select_option("select[name=game]", "clockman")
        about = translate(language, "tutorial.learn_about.clockman")
        assert about in tv.page.inner_text(".lesson-start")
        tv.page.get_by_role("button", name=translate(language, "tutorial.learn")).click()
        tv.page.wait_for_selector(".table-lesson")
        assert isinstance(server.room.session, CompanionLesson)
        join_from_the_table(phone, tv, server, language)

        page = phone.page
        seen: list[str] = []
        explained = False
        for now, taps in lesson_steps(phone, 80):
            one_screen(page, now[0])
            if not taps:  # the other player's turn: the script reports it
                continue
            step = now[0].rsplit(".", 1)[1]
            seen.append(step)
            if step == "symbol" and not explained:
                explained = a_wrong_report_is_explained(phone, language)
            for i, name in enumerate(taps):
                tap_named(phone, name)
                one_screen(page, f"{step}, after {name}")
                if step == "blockade" and i == 0:  # the phone mid-step: which Whytooki
                    phone.shot(f"phone-tutorial-clockman-{language}")
                    if language == "en":
                        tv.shot("table-tv-tutorial-clockman")
                        lesson_reads_from_a_sofa(tv)
        assert [s for s in seen if not s.startswith(("roll", "end_turn"))] == TAUGHT
        assert explained
        real = into_the_real_game(phone, server, language, CompanionLesson)
        assert real.game == "clockman"
        assert "south" in server.room.seats.claims and server.room.seats.bots == {}


def a_wrong_report_is_explained(phone: Page, language: str) -> bool:
    """A report the lesson does not take (a plain field, which the rules would allow)
    says why not and what to do instead."""
    page = phone.page
    plain = translate(language, "clockman.report.plain")
    page.get_by_role("button", name=plain, exact=True).click(force=True)
    page.wait_for_selector("#why:not([hidden])")
    said = page.inner_text("#why")
    instead = translate(language, "tutorial.instead", step="").strip()
    symbol = translate(language, "clockman.report.symbol")
    assert instead in said and symbol in said, said
    page.click("#why")
    return True
