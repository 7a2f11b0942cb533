"""A phone's words at a table: it speaks the table's language until its player picks
another, and takes a seat the table named by that name, without asking for one."""

from __future__ import annotations

import pytest
from browser_support import Page
from live_server import LiveServer
from web_client import call

from web.i18n import catalog

pytestmark = pytest.mark.browser


def _new_game(server: LiveServer, language: str) -> None:
    status, body = call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/game",
        {
            "options": {"players": 2},
            "seed": 3,
            "language": language,
            "names": {"south": "Ann", "north": "Bob"},
        },
        pin=server.pin,
    )
    assert status == 201, body


def test_a_phone_takes_the_seat_the_table_named_and_follows_the_tables_language(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    south, north = pages["south"], pages["north"]
    _new_game(server, "en")
    south.page.goto(server.url(f"/join/{server.code}"))
    picker = south.page.locator(".seat-picker")
    picker.wait_for()
    # the table named the seats: the phone offers them by name and asks for none
    assert south.page.inner_text("button[data-seat=south]") == "I am Ann (South)"
    assert south.page.locator("#player-name").count() == 0
    south.page.click("button[data-seat=south]")
    south.page.wait_for_selector("body.seated")
    assert server.room.seats.claims["south"].name == "Ann"
    # North's player picks English on purpose
    north.page.goto(server.url(f"/join/{server.code}?lang=en"))
    north.page.click("button[data-seat=north]")
    north.page.wait_for_selector("body.seated")

    _new_game(server, "cs")  # the table speaks Czech from now on
    south.page.wait_for_function("() => document.documentElement.lang === 'cs'")
    # the page marks itself seated before it draws the seat's bar: wait for the name
    south.page.wait_for_function("() => document.body.innerText.includes('Ann')")
    north.wait_revision(server.room.revision)
    assert north.page.evaluate("document.documentElement.lang") == "en"
    for page in (south, north):
        assert page.errors == [], page.errors


def test_the_table_screen_switched_to_czech_takes_the_phones_that_never_picked_with_it(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    table, south, north = pages["table"], pages["south"], pages["north"]
    _new_game(server, "en")
    table.page.goto(server.url("/"))
    table.wait_revision(server.room.revision)
    south.page.goto(server.url(f"/join/{server.code}"))  # never picks a language
    south.page.click("button[data-seat=south]")
    south.page.wait_for_selector("body.seated")
    north.page.goto(server.url(f"/join/{server.code}?lang=en"))  # picks English
    north.page.click("button[data-seat=north]")
    north.page.wait_for_selector("body.seated")
    assert south.page.evaluate("document.documentElement.lang") == "en"

    table.page.click(".top .languages a[lang=cs]")  # the TV switches to Čeština
    table.page.wait_for_function("() => document.documentElement.lang === 'cs'")
    assert server.room.language == "cs"
    # the phone that never picked speaks Czech now, in words on its screen
    south.page.wait_for_function("() => document.documentElement.lang === 'cs'")
    # the page marks itself seated before it draws the seat's bar: wait for the words
    words = [catalog("cs")["ui.leave_seat"], "Ann"]
    south.page.wait_for_function(
        "words => words.every((w) => document.body.innerText.includes(w))", arg=words
    )
    north.wait_revision(server.room.revision)
    assert north.page.evaluate("document.documentElement.lang") == "en"
    for page in (table, south, north):
        assert page.errors == [], page.errors
