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
from live_server import LiveServer
from test_tutorial_browser import (
    into_the_real_game,
    lesson_reads_from_a_sofa,
    lesson_steps,
    lesson_table,
    one_screen,
    tap_named,
)
from test_tutorial_guards import LEARNER, OPPONENT, TAUGHT

from engine.guards.tutorial import GuardsLesson
from web.i18n import translate

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_stranger_learns_to_report_guards_from_what_the_phone_and_table_say(
    browser: Any, language: str
) -> None:
    with lesson_table(browser, f"phone-tutorial-guards-{language}", language) as (
        server,
        tv,
        phone,
    ):
        # the new-game dialog opens by itself: choose the game, and its lesson is offered
        tv.page.select_option("select[name=game]", "guards")
        about = translate(language, "tutorial.learn_about.guards")
        assert about in tv.page.inner_text(".lesson-start")
        tv.page.get_by_role("button", name=translate(language, "tutorial.learn")).click()
        tv.page.wait_for_selector(".table-lesson")
        assert isinstance(server.room.session, GuardsLesson)
        join_as_the_learner(phone, tv, server, language)

        page = phone.page
        seen: list[str] = []
        explained = False
        for now, taps in lesson_steps(phone, 40):
            if not now[0]:  # the other player's turn: the script reports it
                continue
            one_screen(page, now[0])
            step = now[0].rsplit(".", 1)[1]
            seen.append(step)
            if step == "recruit" and not explained:
                explained = a_wrong_report_is_explained(phone, language)
            for i, name in enumerate(taps):
                tap_named(phone, name)
                if i < len(taps) - 1:  # after the last, the next step is checked
                    one_screen(page, f"{step}, after {name}")
                if step == "spell_run" and i == 2:  # the phone mid-step: the runners' way
                    phone.shot(f"phone-tutorial-guards-{language}")
                    if language == "en":
                        tv.shot("table-tv-tutorial-guards")
                        lesson_reads_from_a_sofa(tv)
        assert seen == TAUGHT
        assert explained
        real = into_the_real_game(phone, server, language, GuardsLesson)
        assert real.game == "guards"
        assert LEARNER in server.room.seats.claims and server.room.seats.bots == {}
        assert OPPONENT not in server.room.seats.claims


def join_as_the_learner(phone: Page, tv: Page, server: LiveServer, language: str) -> None:
    """The phone opens the join page, types the code the table shows and takes the seat
    the lesson left free."""
    page = phone.page
    page.goto(server.url(f"/join?lang={language}"))
    page.fill("#code", tv.page.inner_text("#room-code"))
    page.get_by_role("button", name=translate(language, "ui.join")).click()
    seat = translate(language, f"seat.{LEARNER}")
    page.get_by_role("button", name=translate(language, "ui.take_seat", seat=seat)).click()
    page.wait_for_selector("body.seated #lesson .lesson")


def a_wrong_report_is_explained(phone: Page, language: str) -> bool:
    """Ending the turn before the stop is reported (the rules would take it, the lesson
    does not): the greyed button says why not and what to do instead."""
    page = phone.page
    end = translate(language, "guards.form.end_turn")
    page.get_by_role("button", name=end, exact=True).click(force=True)
    page.wait_for_selector("#why:not([hidden])")
    said = page.inner_text("#why")
    instead = translate(language, "tutorial.instead", step="").strip()
    recruit = translate(language, "guards.form.recruit")
    assert instead in said and recruit in said, said
    assert translate(language, "tutorial.not_this_step") in said, said
    page.click("#why")
    return True
