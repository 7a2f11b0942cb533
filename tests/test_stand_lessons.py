"""A lesson at a convention stand: its scripted opponent's seat stays the box's (a
second visitor cannot take it, and is told why on their phone), so the learner's way
into a real game works at the end."""

from __future__ import annotations

from typing import Any

from browser_support import Page
from live_server import companion
from test_stand import start
from test_stand_browser import STAND_PHONE
from test_tutorial import entry_action, learner_steps, report_over_http
from web_client import EventStream, call

from engine.klackers.tutorial import KlackersLesson
from web.i18n import translate
from web.stand import StandSettings


def test_a_lessons_bot_seat_cannot_be_taken_and_the_real_game_follows() -> None:
    with companion(stand=StandSettings(("klackers",), 120.0, 0.3)) as server:
        status, seated = start(server, "klackers", "learn", name="Ann")
        assert status == 201, seated
        room = server.room
        session = room.session
        assert isinstance(session, KlackersLesson) and room.seats.bots == {"north": "planner"}
        token, base = seated["token"], f"/api/rooms/{server.code}/seats/{seated['seat']}"
        phone = EventStream(
            server.base, f"/api/rooms/{server.code}/stream?seat=south&token={token}"
        )
        try:
            # a second visitor scans the code and tries the opponent's seat
            status, refused = call(
                server.base, "POST", f"/api/rooms/{server.code}/seats/north", {"name": "Bea"}
            )
            assert (status, refused["error"]) == (403, "stand_mode"), refused
            assert "lesson" in refused["message"] and room.seats.bots == {"north": "planner"}
            for _step in learner_steps(session):
                report_over_http(server, base, token, entry_action(session)[1])
            status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
            assert status == 201, body
            assert room.game_name == "klackers" and not isinstance(room.session, KlackersLesson)
            assert room.seats.bots == {"north": "greedy"} and "south" in room.seats.claims
        finally:
            phone.close()


def test_a_second_visitors_phone_says_the_lessons_bot_seat_is_the_boxs(browser: Any) -> None:
    with companion(stand=StandSettings(("klackers",), 120.0, 0.3)) as server:
        learner, second = (Page(browser, name, **STAND_PHONE) for name in ("learner", "second"))
        try:
            learner.page.goto(server.url(f"/join/{server.code}"))
            learner.page.click("[data-start=learn]")
            learner.page.wait_for_selector("[data-action=leave]")
            for page, language in ((second, "en"), (second, "cs")):
                page.page.goto(server.url(f"/join/{server.code}?lang={language}"))
                seat = page.page.locator("button[data-seat=north]")
                said = translate(language, "stand.lesson_bot_seat", seat="")
                assert said.strip(": ") in seat.inner_text()
                assert seat.is_disabled()
                full = translate(language, "stand.game_full")
                assert page.page.inner_text("#stand-full") == full
            assert server.room.seats.bots == {"north": "planner"}
            assert learner.errors == [] and second.errors == []
        finally:
            learner.context.close()
            second.context.close()


def test_a_taken_seat_is_refused_in_words_without_raw_seat_names() -> None:
    """A seat held by a visitor who gave no name is refused as someone's, not as
    "south already sits at south"."""
    with companion(stand=StandSettings(("klackers",), 120.0, 0.3)) as server:
        status, seated = start(server, "klackers", "bots")
        assert status == 201
        path = f"/api/rooms/{server.code}/seats/{seated['seat']}"
        status, refused = call(server.base, "POST", path, {"name": "Bea"})
        assert (status, refused["error"]) == (409, "seat_taken")
        assert refused["message"] == "Someone already sits at that seat"
        assert translate("cs", "api.seat_taken.plain") == "Na tomto místě už někdo sedí."


def test_a_refusal_on_a_phone_goes_when_the_stand_starts_over(browser: Any) -> None:
    """A visitor too slow for a bot's seat is told in words who took it, and the words
    go once that game has ended and the stand offers its games again."""
    # Ann plays without a page open: the stand must not end her game as left (after
    # left_seconds) while Bea's page is still loading on a busy machine
    settings = StandSettings(("klackers", "clockman"), 120.0, 0.3, left_seconds=120.0)
    with companion(stand=settings) as server:
        # nor Cid's seat, taken over from the bot with no page, go back to the bot
        server.room.seats.absent_seconds = 120.0
        status, ann = start(server, "klackers", "bots", name="Ann")
        assert status == 201
        bea = Page(browser, "bea", **STAND_PHONE)
        try:
            (bot_seat,) = server.room.seats.bots
            bea.page.goto(server.url(f"/join/{server.code}"))
            seat = bea.page.locator(f"button[data-seat={bot_seat}]:not([disabled])")
            seat.wait_for()
            bea.hold_pushes()  # Bea's screen is not redrawn before her tap
            path = f"/api/rooms/{server.code}/seats/{bot_seat}"
            status, cid = call(server.base, "POST", path, {"name": "Cid"})
            assert status == 200, cid
            seat.click()
            # the refusal's words arrive with the companion's answer to the tap
            bea.page.wait_for_function("() => document.querySelector('#error').textContent.trim()")
            error = bea.page.locator("#error")
            assert error.inner_text() == "Cid already sits at that seat"
            bea.release_pushes()
            for seated in (ann, cid):
                path = f"/api/rooms/{server.code}/seats/{seated['seat']}"
                assert call(server.base, "DELETE", path, token=seated["token"])[0] == 200
            bea.page.locator("[data-entry='klackers']").wait_for()
            assert error.is_hidden()
            assert bea.errors == []
        finally:
            bea.context.close()
