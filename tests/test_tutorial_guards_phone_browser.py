"""The Guards! Guards! lesson on a 360x740 phone, read as a stranger reads it: each
report's form says every value in full (nothing cut off at the phone's width), the Spell
Run's quadrants stand in the order its words name them, and a phone seated at another
game when the table starts the lesson is the learner, seat and all."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import PHONE_740, Page, take_seat
from live_server import companion
from test_tutorial_browser import lesson_joined, lesson_steps, tap_named
from test_tutorial_other_games_browser import GUARDS

from engine.guards.tutorial import LEARNER
from web.i18n import translate

pytestmark = pytest.mark.browser

# Text in a report's form that its box cuts off: a list whose chosen entry is wider than
# the list shows, or words wider than their box.
CUT_OFF = """
() => {
  const pen = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const box of document.querySelectorAll(".g-form select")) {
    if (!box.getClientRects().length) continue;
    const style = getComputedStyle(box);
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = box.selectedIndex >= 0 ? box.options[box.selectedIndex].text : "";
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 18;
    if (pen.measureText(text).width > room) cut.push(text);
  }
  for (const node of document.querySelectorAll(".g-form *")) {
    const hidden = getComputedStyle(node).clip !== "auto";  // said to screen readers only
    if (node.matches("select, option") || hidden || !node.getClientRects().length) continue;
    if (node.scrollWidth > node.clientWidth + 1) cut.push(node.innerText.slice(0, 40));
  }
  return cut;
}
"""


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_guards_lessons_forms_say_everything_in_full_and_its_route_in_order(
    browser: Any, language: str
) -> None:
    name = f"phone-tutorial-guards-forms-{language}"
    with lesson_joined(browser, name, language, GUARDS) as (_, _, phone):
        page = phone.page
        routes = 0
        for now, taps in lesson_steps(phone, 40):
            if not now[0]:
                continue
            step = now[0].rsplit(".", 1)[1]
            tap_named(phone, taps[0])
            if page.locator(".g-form:visible").count():  # opened with the tap, at once
                assert page.evaluate(CUT_OFF) == [], step
            if step in {"recruit", "spell_run"}:
                phone.shot(f"phone-tutorial-guards-{step}-{language}")
            if step == "spell_run":
                shown = page.locator(".g-route-buttons button").all_inner_texts()
                assert [s.strip() for s in shown] == taps[1:3], (shown, taps)
                routes += 1
            for tap in taps[1:]:
                tap_named(phone, tap)
        assert routes == 1


def test_a_phone_seated_at_another_game_is_the_learner_when_the_guards_lesson_starts(
    browser: Any,
) -> None:
    with companion() as server:
        server.room.new_game("clacks", {"players": 2}, 5)
        phone = Page(browser, "phone-carried", **PHONE_740)
        try:
            take_seat(server, phone, "south", ".clacks-phone")
            digest = server.room.seats.claims["south"].digest
            server.room.new_game("guards", {"tutorial": "first-game"})
            # the phone shows the lesson's first step, in the learner's seat
            phone.page.wait_for_selector("body.seated #lesson .lesson[data-step]")
            assert phone.page.inner_text(".who-name") == translate("en", f"seat.{LEARNER}")
            assert server.room.seats.claims[LEARNER].digest == digest
            start = translate("en", "guards.roll_start")
            tap_named(phone, start)
            phone.page.wait_for_function(
                "() => !document.querySelector('#lesson .lesson').dataset.step.endsWith('.start')"
            )
            assert phone.errors == []
        finally:
            phone.context.close()
