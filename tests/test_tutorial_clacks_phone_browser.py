"""The Clacks lesson on a 360x740 phone, read as a stranger reads it: every control a
step names is on the screen and big enough to tap (the Fault Report at the end of the
hand strip too, the towers while the news since the last move is open), and a lamp
tapped by mistake before the one the step names does not spoil the placement.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_support import lamps_shown, read_all, read_one, tap_greyed
from test_tutorial_browser import (
    join_from_the_table,
    lesson_steps,
    lesson_table,
    tap_named,
)

from engine.clacks.tutorial import SECOND_ELBOW
from engine.core.tutorial import TutorialSession
from web.i18n import translate

pytestmark = pytest.mark.browser

# where the control named ``name`` (as MARK_CONTROL finds it) lies on the screen
TARGET_BOX = """
name => {
  const all = [...document.querySelectorAll("body *")].filter((e) =>
    e.textContent.trim() === name && !e.closest(".lesson-do") && e.getClientRects().length);
  const inner = all.filter((e) => !all.some((other) => other !== e && e.contains(other)));
  const control = inner.map((e) => e.closest("button, [role=button], a")).find(Boolean);
  if (!control) return null;
  const r = control.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}
"""


def on_screen(page: Any, name: str, step: str) -> None:
    """The control named ``name`` lies wholly inside the 360x740 screen and is at least
    24 px each way, a size a finger can hit."""
    box = page.evaluate(TARGET_BOX, name)
    assert box is not None, (step, name)
    left, top, right, bottom = box
    assert left >= 0 and top >= 0 and right <= 360 and bottom <= 740, (step, name, box)
    assert right - left >= 24 and bottom - top >= 24, (step, name, box)


@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_control_a_clacks_step_names_is_on_the_phone_and_a_wrong_lamp_spoils_nothing(
    browser: Any, language: str
) -> None:
    name = f"phone-tutorial-clacks-targets-{language}"
    with lesson_table(browser, name, language) as (server, tv, phone):
        tv.page.get_by_role("button", name=translate(language, "tutorial.learn")).click()
        tv.page.wait_for_selector(".table-lesson")
        join_from_the_table(phone, tv, server, language)
        page = phone.page
        seen: list[str] = []
        for now, taps in lesson_steps(phone, 60):
            if not now[0]:
                continue
            step = now[0].rsplit(".", 1)[1]
            seen.append(step)
            if step == "move":
                # the news of the opponent's turn is open above the board
                assert page.locator("#feed").is_visible()
                towers_big_enough(page)
            if step == "place_again":
                wrong_lamp_first(phone.page, taps, step)
                continue
            if step in {"move", "fault"}:
                phone.shot(f"phone-tutorial-clacks-{step}-{language}")
            for tap in taps:
                on_screen(page, tap, step)
                tap_named(phone, tap)
        assert "move" in seen and "fault" in seen and "place_again" in seen


def towers_big_enough(page: Any) -> None:
    """Every tower that answers a tap on the phone's board is at least 24 px across."""
    sizes = read_all(
        page,
        ".board-box .tower.answers",
        "nodes => nodes.map(n => [n.dataset.tower, n.getBoundingClientRect().width,"
        " n.getBoundingClientRect().height])",
    )
    assert len(sizes) == 12
    small = [s for s in sizes if min(s[1], s[2]) < 24]
    assert not small, small


def wrong_lamp_first(page: Any, taps: list[str], step: str) -> None:
    """The step's card, then lamp a1 (not the step's), then the step's own lamp: the card
    lies where the step says and Play it is there to tap."""
    card, lamp, play = taps
    on_screen(page, card, step)
    page.get_by_role("button", name=card).first.click()
    page.click(".board-box [data-lamp=a1]")
    page.wait_for_selector(".board-box [data-lamp=a1].flip")
    page.click(f".board-box [data-lamp={lamp}]")
    page.wait_for_selector(f".board-box [data-lamp={lamp}].flip")
    assert lamps_shown(page, ".board-box .lamp.flip") == set(SECOND_ELBOW)
    # Play it is offered (once the engine's legal actions are in)
    page.wait_for_selector("[data-action=confirm]:not([aria-disabled=true]):enabled")
    confirm = page.locator("[data-action=confirm]")
    on_screen(page, play, step)
    confirm.click()
    page.wait_for_function(
        "() => !document.querySelector('#lesson .lesson')"
        " || document.querySelector('#lesson .lesson').dataset.step.endsWith('.finish')"
    )


def below(page: Any, note: str) -> None:
    """The note ``note`` is on the screen, wholly below the seat's header (its name,
    Leave seat, the menu) and the lesson's step."""
    page.wait_for_selector(f"{note}:not([hidden])")
    top = read_one(page, note, "e => e.getBoundingClientRect().top")
    for part in ("header.top", "#lesson .lesson"):
        bottom = read_one(page, part, "e => e.getBoundingClientRect().bottom")
        assert top >= bottom, (note, part, top, bottom)
    # and the header's controls are there to tap, the note still open
    page.get_by_role("button", name=translate("en", "ui.leave_seat")).click(
        trial=True, timeout=2000
    )


def test_a_note_on_the_phone_never_covers_its_header_or_the_lessons_step(browser: Any) -> None:
    with lesson_table(browser, "phone-tutorial-notes", "en") as (server, tv, phone):
        tv.page.get_by_role("button", name=translate("en", "tutorial.learn")).click()
        tv.page.wait_for_selector(".table-lesson")
        join_from_the_table(phone, tv, server, "en")
        page = phone.page
        page.wait_for_selector(".board-box [data-tower=a2b2].enabled")
        # why a greyed tower cannot be taken: the ℹ note
        tap_greyed(page.locator(".board-box [data-tower=b2c2]"))
        below(page, "#why")
        phone.shot("phone-tutorial-note-why-en")
        page.click("#why")
        # the step taken on the table's own board while the phone still shows it: the
        # phone's tap is refused, and the ⚠ note says so
        phone.hold_pushes()
        tv.page.click(".board-box [data-tower=a2b2]")
        session = server.room.session
        assert isinstance(session, TutorialSession)
        deadline = time.time() + 10
        while session.position() == 0 and time.time() < deadline:
            time.sleep(0.05)
        assert session.position() == 1
        page.click(".board-box [data-tower=a2b2]")
        below(page, "#error")
        phone.shot("phone-tutorial-note-error-en")
        phone.release_pushes()
