"""Klackers through a real browser: Debian's chromium driven by Playwright.

The table screen sets up a one-round match in the lobby; two phones (360 px) join and
play it out by tapping: roll, tap the numbers to pull (shown on the table as they are
chosen), pull. The test picks each move with the planner bot from the seat's own view,
as a player would decide looking at their phone, but every move is a tap on the page.
"""

from __future__ import annotations

import pytest
from browser_support import (
    Page,
    lobby_for,
    phone_turns,
    read_all,
    start_game,
    take_seat,
    wait_for_change,
)
from live_server import LiveServer

from engine.klackers import Pull, Roll
from engine.klackers.bots import PlannerBot

pytestmark = pytest.mark.browser


def test_a_klackers_round_through_two_phones_and_the_table(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    table, south, north = pages["table"], pages["south"], pages["north"]
    lobby = lobby_for(server, table, "klackers")
    assert lobby.locator("input[value=hughie]").count() == 1
    assert lobby.locator("fieldset.words-choice").is_hidden()
    lobby.locator("input[name=choice-rounds]").fill("1")
    start_game(table, 7, south="Ann", north="Bob")
    table.page.wait_for_selector(".klackers-table")
    session = server.room.session
    assert session is not None and session.game == "klackers"
    assert session.klackers.state.options.rounds == 1  # type: ignore[attr-defined]

    for phone, seat in ((south, "south"), (north, "north")):
        take_seat(server, phone, seat, ".klackers-phone")
        phone.wait_revision(1)
        assert phone.page.locator(".k-pad button[data-number]").count() == 9

    # the phone at 360 px: no sideways scrolling, every number labelled, big tap targets
    assert south.page.evaluate("document.documentElement.scrollWidth") <= 360
    labels = read_all(
        south.page,
        ".k-pad [data-number]", "n => n.map(x => x.getAttribute('aria-label'))"
    )
    assert all(labels) and "standing" in labels[0]
    heights = read_all(
        south.page,
        "button", "n => n.map(b => b.getBoundingClientRect().height)"
    )
    assert min(heights) >= 44

    bot = PlannerBot()
    phones = {"south": south, "north": north}
    showed_dice = showed_choice = False
    turns = phone_turns(server, session, phones)
    for moves, (seat, phone, revision) in enumerate(turns, start=1):
        action = bot.choose(session.view(seat))
        if isinstance(action, Roll):
            phone.page.click(f"[data-action={'roll' if action.dice == 2 else 'roll_one'}]")
            wait_for_change(server, revision, phone)
            view = session.view(None)
            turn = view["turn"]
            if not showed_dice and turn and turn["dice"] and turn["seat"] == seat:
                # the table shows the dice as they fell, and what must be pulled
                table.wait_revision(server.room.revision)
                dice = read_all(
                    table.page,
                    ".klackers-table .k-dice [data-die]", "n => n.map(x => Number(x.dataset.die))"
                )
                assert dice == turn["dice"]
                assert str(turn["total"]) in table.page.inner_text(".klackers-table .status")
                showed_dice = True
        else:
            assert isinstance(action, Pull)
            for number in action.numbers:
                phone.page.click(f".k-pad [data-number='{number}']")
            if not showed_choice:
                # the numbers chosen so far are marked on the table before the pull
                player = f".klackers-table .k-player[data-seat={seat}]"
                table.page.wait_for_function(
                    "([css, n]) => document.querySelectorAll(css).length === n",
                    arg=[f"{player} .k-tile.chosen", len(action.numbers)],
                )
                table.shot("klackers-table-choosing")
                phone.shot("klackers-phone-choosing")
                showed_choice = True
            phone.page.click("[data-action=pull]")
            wait_for_change(server, revision, phone)
        assert moves < 200
    assert showed_dice and showed_choice

    # everyone sees the end, the scores and the chips
    result = session.result()
    assert result is not None
    winner = result["winners"][0]
    name = {"south": "Ann", "north": "Bob"}[winner]
    loser = next(seat for seat in phones if seat != winner)
    chips = {p["seat"]: p["chips"] for p in session.view(None)["players"]}
    for page in (table, south, north):
        page.wait_revision(server.room.revision)
        banner = page.page.inner_text(".winner")
        if page is table:
            assert name in banner and "wins" in banner and "-" not in banner
        elif page is phones[winner]:  # each phone shows its own player's result
            assert "You win the match" in banner and "lost" not in page.page.get_attribute(".winner", "class")
        else:
            assert page is phones[loser]
            assert name in banner and f"wins the match. You owe {-chips[loser]} chip" in banner
            assert "lost" in page.page.get_attribute(".winner", "class")
        # a net balance reads as one: won, owes or all square, never "-2 chips"
        balances = page.page.inner_text(".k-chips") if page.page.locator(".k-chips").count() else ""
        assert "-" not in balances
        rows = page.page.locator(".k-results tbody tr").count()
        assert rows == len(session.view(None)["results"])
    scores = session.view(None)["results"][-1]["scores"]
    for seat, score in scores.items():
        shown = table.page.inner_text(f".klackers-table .k-player[data-seat={seat}] .k-score")
        assert (str(score) in shown) or (score == 0 and "KLACK" in shown)
    table.shot("klackers-table-won")
    for page in (table, south, north):
        assert page.errors == [], page.errors
        for text in page.responses:
            assert '"seed"' not in text and '"rng"' not in text


def test_the_klackers_phone_speaks_czech(server: LiveServer, pages: dict[str, Page]) -> None:
    server.room.new_game("klackers", {"players": 2}, seed=3)
    session = server.room.session
    assert session is not None
    seat = session.active_seats[0]
    phone = pages["south"].page
    phone.goto(server.url(f"/join/{server.code}?lang=cs"))
    phone.click(f"button[data-seat={seat}]")
    phone.wait_for_selector(".klackers-phone")
    assert phone.get_attribute(".k-mine", "aria-label") == "Vaše čísla"
    assert phone.inner_text("[data-action=roll]") == "Hodit dvěma kostkami"
