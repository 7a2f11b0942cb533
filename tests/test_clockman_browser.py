"""Clockman through a real browser: Debian's chromium driven by Playwright.

The table screen sets up a two-player game in the lobby (with one of the optional rules
ticked); two phones (360 px) join and play it to a winner by tapping: roll, report where
the piece landed, end the turn. The test decides each report by looking at the game, as
a player looks at the board, but every report is a tap on the phone. Along the way the
table screen shows both date keys, the turn order and the deck counts, and no page ever
receives another seat's symbol hand. Screenshots of a turn (the table at 1920 x 1080, a
phone at 360 x 740) are taken in English and Czech when CLACKS_SCREENSHOTS names a
directory.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import (
    PHONE,
    SCREENSHOTS,
    Page,
    lobby_for,
    opened_pages,
    phone_turns,
    read_all,
    read_one,
    start_game,
    take_seat,
    wait_for_change,
)
from live_server import LiveServer

from engine.clockman.digits import fills_a_gap
from engine.clockman.game import ClockmanGame

pytestmark = pytest.mark.browser
FULL_HD = {"viewport": {"width": 1920, "height": 1080}}
PHONE_SCREEN = {**PHONE, "viewport": {"width": 360, "height": 740}}


@pytest.fixture
def pages(browser: Any) -> Any:
    with opened_pages(browser, table=FULL_HD, phone=PHONE_SCREEN) as opened:
        yield opened


def taps(game: ClockmanGame, seat: str) -> list[str]:
    """What a player who knows the board reports now: the selectors to tap, in order.
    Digits first; an event card that moves the piece inward (a quick way past each ring
    of Whytookis); on circle 4 with the key complete, the straight once a symbol card of
    its Whytooki's pose is in hand and the die reaches the last field; else a symbol
    field for more cards."""
    state = game.state
    turn = state.turn
    assert turn is not None
    if turn.phase == "roll":
        return ["[data-action=roll]"]
    if turn.phase == "done":
        return ["[data-action=end_turn]"]
    me = state.players[seat]
    digit = state.data.circle_digit(me.ring)
    if digit and fills_a_gap(me.holdings, digit, state.need) and state.supply[digit]:
        return ["[data-report=digit]", f"[data-value='{digit}']"]
    if me.ring < 4:
        return ["[data-report=event]", "[data-kind=now]", "[data-effect=circle_in]"]
    pose = state.straights[seat]
    if me.hand.get(pose) and turn.die is not None and turn.die >= 3:
        return ["[data-report=straight]", "[data-value='3']"]
    return ["[data-report=symbol]"]


def claim(server: LiveServer, phone: Page, seat: str, lang: str = "en") -> None:
    take_seat(server, phone, seat, ".clockman-phone", lang)


def test_a_clockman_game_from_the_lobby_to_a_winner_on_two_phones(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    table, south, north = pages["table"], pages["south"], pages["north"]
    lobby = lobby_for(server, table, "clockman")
    # the four optional rules, each with what it does
    for rule in ("transfer", "robbery", "swap"):
        assert lobby.locator(f"input[name=choice-{rule}][type=checkbox]").count() == 1
    assert lobby.locator("select[name=choice-hamster] option").count() == 3
    assert "one digit more" in lobby.inner_text()
    lobby.locator("input[name=choice-swap]").check()
    start_game(table, 11, south="Ann", north="Bob")
    table.page.wait_for_selector(".clockman-table")
    session = server.room.session
    assert session is not None and session.game == "clockman"
    game: ClockmanGame = session.clockman  # type: ignore[attr-defined]
    assert game.state.options.swap and not game.state.options.robbery

    for phone, seat in ((south, "south"), (north, "north")):
        claim(server, phone, seat)
        phone.wait_revision(1)
    # a phone's turn at 360 px: no sideways scrolling, tap targets of 44 px or more
    assert south.page.evaluate("document.documentElement.scrollWidth") <= 360
    heights = read_all(
        south.page,
        ".cm-act button, .cm-mine button", "n => n.map(b => b.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44

    phones = {"south": south, "north": north}
    shots = False
    turns = phone_turns(server, session, phones)
    for taps_made, (seat, phone, revision) in enumerate(turns, start=1):
        wanted = taps(game, seat)
        for selector in wanted:
            phone.page.click(f"{selector}:not([aria-disabled])")
        wait_for_change(server, revision, phone)
        assert taps_made < 400
        turn = game.state.turn
        midgame = taps_made >= 45  # some digits in the keys by then
        if (
            not shots
            and midgame
            and turn is not None
            and turn.phase == "report"
            and turn.seat == seat
        ):
            # a turn in words on the table screen: the die, whose turn, what to report
            table.wait_revision(server.room.revision)
            shown = table.page.inner_text(".cm-status")
            assert str(turn.die) in shown and "Ann" in shown + table.page.inner_text(".cm-order")
            die = table.page.get_attribute(".cm-status [data-die]", "data-die")
            assert die == str(turn.die)
            phone.wait_revision(server.room.revision)
            phone.page.wait_for_selector(".cm-reports button:not([aria-disabled])")
            # the whole turn fits the phone's screen: the reports and the date key
            bottom = read_one(
                phone.page,
                ".cm-mine .cm-key", "n => n.getBoundingClientRect().bottom"
            )
            assert bottom <= 740
            table.shot("clockman-table-turn")
            phone.shot("clockman-phone-turn")
            shots = True
        if taps_made % 10 == 0:
            check_table(table, server, game)

    assert shots
    result = session.result()
    assert result is not None and result["reason"] == "centre"
    winner = result["winners"][0]
    name = {"south": "Ann", "north": "Bob"}[winner]
    for page in (table, south, north):
        page.wait_revision(server.room.revision)
        text = page.page.inner_text("main")
        assert name in text and "wins" in text
    # each phone shows its own player's result: the loser's is not the winner's banner
    phones = {"south": south, "north": north}
    loser = next(seat for seat in phones if seat != winner)
    assert phones[winner].page.inner_text(".cm-now .winner.won") == "You win!"
    lost = phones[loser].page.inner_text(".cm-now .winner.lost")
    assert name in lost and "Better luck next time" in lost
    check_table(table, server, game)
    for page in (table, south, north):
        assert page.errors == [], page.errors
        for text in page.responses:
            assert '"seed"' not in text and '"rng"' not in text and '"deck"' not in text
    # each phone received its own symbol hand and never the other's
    for seat, page in (("south", south), ("north", north)):
        for pushed in page.pushed():
            view = pushed.get("view")
            if view is None:
                continue
            assert all("hand" not in p for p in view["players"])
            if pushed["seat"] is None:  # before the seat was taken: the table's view
                assert view["you"] is None
            else:
                assert pushed["seat"] == seat and view["you"]["seat"] == seat
    for pushed in table.pushed():
        assert pushed.get("view") is None or pushed["view"]["you"] is None


def check_table(table: Page, server: LiveServer, game: ClockmanGame) -> None:
    """The table screen shows every date key, each piece's ring, the turn order, the deck
    counts, and the log."""
    table.wait_revision(server.room.revision)
    for seat, player in game.state.players.items():
        slots = read_all(
            table.page,
            f".cm-player[data-seat={seat}] .cm-digit", "n => n.map(x => x.dataset.slot)"
        )
        view = game.view(None)["players"]
        assert slots == next(p["slots"] for p in view if p["seat"] == seat)
        stop = table.page.get_attribute(
            f".cm-player[data-seat={seat}] .cm-track li.at", "data-stop"
        )
        expected = {0: "start", 5: f"z{player.field}"}.get(player.ring, str(player.ring))
        assert stop == ("centre" if player.status == "won" else expected)
    order = read_all(table.page, ".cm-order li", "n => n.map(x => x.dataset.order)")
    assert order == list(game.state.order)
    decks = table.page.inner_text(".cm-supply")
    assert f"Symbol deck: {len(game.state.deck)} cards" in decks
    assert f"Event deck: {game.state.event_deck()} cards" in decks
    assert table.page.locator("#log-list li").count() > 0


def test_the_clockman_pages_speak_czech(server: LiveServer, pages: dict[str, Page]) -> None:
    server.room.new_game(
        "clockman", {"players": 2, "transfer": True}, seed=4, names={"south": "Ann", "north": "Bob"}
    )
    session = server.room.session
    assert session is not None
    seat = session.active_seats[0]
    phone = pages[seat]
    claim(server, phone, seat, "cs")
    phone.page.wait_for_selector(".cm-reports button:not([aria-disabled])")
    assert "Kam vaše figurka došla?" in phone.page.inner_text(".cm-now")
    assert phone.page.inner_text("[data-report=symbol]") == "Pole se symbolem (zelené)"
    table = pages["table"]
    table.page.goto(server.url(f"/table/{server.code}?lang=cs"))
    table.page.wait_for_selector(".clockman-table")
    assert "domácí hodnoty" in table.page.inner_text(".cm-whytookis")
    assert "Balíček symbolů: 40 karet" in table.page.inner_text(".cm-supply")
    if SCREENSHOTS:
        table.shot("clockman-table-turn-cs")
        phone.shot("clockman-phone-turn-cs")
    # a refused press of the box's digit button (circle 1 has only jokers) is explained in
    # Czech on the table screen, and nothing changes
    revision = server.room.revision
    table.page.click(".cm-button[data-button=a3b3]")
    table.page.wait_for_selector("#notice:not([hidden])")
    assert "Na 1. kruhu leží jen žolík" in table.page.inner_text("#notice")
    assert server.room.revision == revision
