"""Acceptance through a real browser: Debian's chromium driven by Playwright.

A whole two-player competitive game is played through two phone pages, with the table
screen open in a third browser context. The test chooses each move with the engine's
self-play policy (reading the game it serves, as a person would look at the table) but
every action is made by tapping the phone page. Along the way: joining through the
address in the table's QR code, a reload that keeps the seat, the preview of the lamps
a card will flip, a refusal shown in words, and a check of every page's DOM, API
responses and pushed events for hands that are not theirs.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from browser_support import (
    NO_ARM32_BUILD,
    SCREENSHOTS,
    TV,
    Page,
    lamps_shown,
    place_jacquard,
    read_all,
    start_game,
    tool_or_skip,
)
from live_server import LiveServer
from web_client import call

from engine.clacks.actions import Move, PlayJacquard, Transmit
from engine.clacks.selfplay import choose_turn_action
from engine.core.rng import Rng
from engine.games import game_module
from web.i18n import catalog, translate

pytestmark = pytest.mark.browser


def play_on_phone(
    phone: Page,
    seat: str,
    action: Any,
    hand: list[dict[str, Any]],
    table: Page | None,
) -> None:
    """Make ``action`` by tapping the phone page."""
    page = phone.page
    if isinstance(action, Move):
        page.click(f"[data-tower={action.tower}]")
    elif isinstance(action, Transmit):
        page.click("[data-action=transmit]")
    elif isinstance(action, PlayJacquard):
        card = next(c for c in hand if c["id"] == action.jacquard)
        wanted = action.to_json()["lamps"]
        # the phone previews exactly the lamps that will flip, and so does the table
        place_jacquard(phone, seat, card, wanted)
        if table is not None:
            table.page.wait_for_function(
                "n => document.querySelectorAll('.clacks-table .lamp.flip').length === n",
                arg=len(wanted),
            )
            assert lamps_shown(table.page, ".clacks-table .lamp.flip") == set(wanted)
            phone.shot("phone-preview")
            table.shot("table-tv-preview")
        page.click("[data-action=confirm]")
    else:
        assert action.TYPE == "end_turn", action
        page.click("[data-action=end_turn]")


def refuse_what_the_phone_could_not_foresee(server: LiveServer, phone: Page) -> str:
    """The table presses the tower button for South while South's phone is behind (its
    pushes held back), so the move it taps meanwhile is refused: shown in words, changing
    nothing. Returns the words."""
    page = phone.page
    page.wait_for_selector(".board-box .tower.enabled")
    towers = read_all(page, ".tower.enabled", "n => n.map(x => x.dataset.tower)")
    phone.hold_pushes()
    status, _ = call(
        server.base, "POST", f"/api/rooms/{server.code}/buttons/{towers[0]}", pin=server.pin
    )
    assert status == 200
    revision = server.room.revision
    page.click(f".board-box [data-tower='{towers[1]}']")
    page.wait_for_selector("#error:not([hidden])")
    assert server.room.revision == revision
    words: str = page.inner_text("#error")
    phone.release_pushes()
    phone.wait_revision(revision)
    return words


# one whole game told in order, a branch for each step the table may wait for
def test_a_whole_game_through_two_phones_and_the_table(  # noqa: C901
    server: LiveServer, pages: dict[str, Page]
) -> None:
    zxingcpp = tool_or_skip("zxingcpp", NO_ARM32_BUILD)
    image = tool_or_skip("PIL.Image", NO_ARM32_BUILD)

    table, south, north = pages["table"], pages["south"], pages["north"]
    table.page.goto(server.url("/"))

    # the lobby: names and a repeatable deal, started from the table screen
    start_game(table, 12, south="Ann", north="Bob")
    session = server.room.session
    assert session is not None and session.active_seats == ["south"]
    table.shot("table-tv")

    # joining through the QR code: decode the picture the table shows
    join_url = table.page.get_attribute("#room-code", "data-join-url")
    picture = image.open(io.BytesIO(table.page.locator("img.qr").screenshot()))
    decoded = [r.text for r in zxingcpp.read_barcodes(picture)]
    assert decoded == [join_url] and join_url == server.url(f"/join/{server.code}")
    south.page.goto(decoded[0])
    south.page.click("button[data-seat=south]")  # the table named it Ann: no name asked
    # the other phone types the room code instead
    north.page.goto(server.url("/join"))
    north.page.fill("#code", server.code.lower())
    north.page.click("button[type=submit]")
    north.page.click("button[data-seat=north]")
    for phone in (south, north):
        # the hand, once the seat is the phone's: the room's first revision can reach a
        # phone still showing the seats to choose from
        phone.page.wait_for_selector("body.seated .jacquard")
        assert phone.page.locator(".jacquard").count() == 3

    # the phone enables only what the engine allows: before moving there is nothing to send
    clacks = session.clacks  # type: ignore[attr-defined]
    south.page.wait_for_selector(".board-box .tower.enabled")
    assert south.page.is_disabled("[data-action=transmit]")
    assert not any(isinstance(a, Transmit) for a in clacks.legal_actions(clacks.current_seat))
    # a refusal no list of legal actions can foresee is shown in the server's words
    words = refuse_what_the_phone_could_not_foresee(server, south)
    assert words == "The game has changed since your screen was drawn; look again and retry"
    south.shot("phone-refused")

    hands_at: dict[int, dict[str, list[str]]] = {}
    rng = Rng(10)
    steps = reloaded_after = 0
    reloaded = False
    while not session.over:
        revision = server.room.revision
        hands_at[revision] = {
            seat: [c["id"] for c in session.view(seat)["you"]["hand"]]
            + [c["id"] for c in session.view(seat)["you"]["faults"]]
            for seat in ("south", "north")
        }
        seat = session.active_seats[0]
        phone, other = (south, north) if seat == "south" else (north, south)
        phone.wait_revision(revision)
        action = choose_turn_action(clacks, rng)
        hand = session.view(seat)["you"]["hand"]
        play_on_phone(phone, seat, action, hand, table if steps < 6 else None)
        deadline = time.time() + 10
        while server.room.revision == revision and time.time() < deadline:
            time.sleep(0.02)
        assert server.room.revision == revision + 1, (
            f"{seat} could not play {action.to_json()}: {phone.page.inner_text('#error')}"
        )
        steps += 1
        # the DOM of each phone holds its own cards only; the table holds none
        other.wait_revision(revision + 1)
        other_seat = "north" if seat == "south" else "south"
        own_cards = set(
            read_all(other.page, "[data-card]", "n => n.map(x => x.dataset.card)")
        )
        after = session.view(other_seat)["you"]
        assert own_cards == {c["id"] for c in after["hand"]} | {c["id"] for c in after["faults"]}
        assert table.page.locator("[data-card]").count() == 0
        if steps == 10 and not reloaded:
            # a phone that reloads mid-game gets its seat back
            south.page.reload()
            south.wait_revision(server.room.revision)
            assert south.page.locator("button[data-seat]").count() == 0
            assert "Ann" in south.page.inner_text("#who")
            reloaded = True
            reloaded_after = steps  # the page's record of pushes starts again here
        if steps == 3 and SCREENSHOTS:
            table.wait_revision(server.room.revision)
            table.shot("table-tv-playing")
        if steps == 4 and SCREENSHOTS:
            south.wait_revision(server.room.revision)
            south.shot("phone-hand")
    assert reloaded and steps >= 20

    # everyone sees the end
    result = session.result()
    assert result is not None
    table.wait_revision(server.room.revision)
    assert "wins" in table.page.inner_text(".winner")
    for phone in (south, north):
        phone.wait_revision(server.room.revision)
        assert "wins" in phone.page.inner_text(".winner")
    table.shot("table-tv-won")

    # no page ever received a hand that was not its own: API responses and pushed events
    final = {seat: hands_at[max(hands_at)][seat] for seat in ("south", "north")}
    for page, own in ((table, None), (south, "south"), (north, "north")):
        assert page.errors == [], page.errors
        pushed = page.pushed()
        assert len(pushed) >= steps - (reloaded_after if page is south else 0)
        for message in pushed:
            you = message["view"] and message["view"]["you"]
            if own is None:
                assert you is None
            elif you is not None:
                assert you["seat"] == own
            hands = hands_at.get(message["revision"])
            text = json.dumps(message)
            for seat, cards in (hands or {}).items():
                if seat != own:
                    for card in cards:
                        assert f'"{card}"' not in text, (page.name, message["revision"], card)
        for text in page.responses:
            for seat, cards in final.items():
                if seat != own:
                    for card in cards:
                        assert f'"{card}"' not in text, (page.name, card)
            assert '"seed"' not in text


def test_the_phone_speaks_czech_and_fits_a_small_screen(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    server.room.new_game("clacks", {"players": 2}, seed=12)
    phone = pages["south"].page
    phone.goto(server.url(f"/join/{server.code}?lang=cs"))
    phone.click("button[data-seat=south]")
    phone.wait_for_selector(".jacquard")
    assert phone.get_attribute(".hand-strip", "aria-label") == "Vaše karty"
    assert "Jste na tahu" in phone.inner_text(".prompt")
    pages["south"].shot("phone-turn-cs")
    words = refuse_what_the_phone_could_not_foresee(server, pages["south"])
    assert words == "Hra se změnila dřív, než váš tah dorazil; podívejte se znovu a zkuste to."
    # nothing wider than the phone: no sideways scrolling at 360 px
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    # every lamp and tower has a label a screen reader can read
    labels = read_all(
        phone,
        "[data-lamp], [data-tower]", "n => n.map(x => x.getAttribute('aria-label'))"
    )
    assert len(labels) == 28 and all(labels)
    assert any("Lampa" in label for label in labels)
    # tap targets: every button is at least 44 px tall
    heights = read_all(
        phone,
        "button", "n => n.map(b => b.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44


def a_deal_with_a_fault_out_of_turn() -> tuple[int, dict[str, Any]]:
    """A two-player deal in which North holds a Fault Report that flips lamps and may be
    played in South's first turn: the seed and one legal way to play it, as North's own
    legal actions give it."""
    module = game_module("clacks")
    for seed in range(200):
        session = module.new({"players": 2}, seed)
        plays = [
            a
            for a in session.legal_actions("north", time.time())
            if a["type"] == "play_fault" and a.get("lamps")
        ]
        if plays and session.active_seats == ["south"]:
            return seed, plays[-1]
    raise AssertionError("no deal gives North a Fault Report to play in South's turn")


def seated_on_a_fault_deal(server: LiveServer, pages: dict[str, Page]) -> dict[str, Any]:
    """A two-player game on a deal in which North may play a Fault Report in South's first
    turn, South's and North's phones seated in it; the Fault Report's legal play."""
    seed, fault = a_deal_with_a_fault_out_of_turn()
    server.room.new_game("clacks", {"players": 2}, seed=seed)
    for seat in ("south", "north"):
        page = pages[seat].page
        page.goto(server.url(f"/join/{server.code}"))
        page.click(f"button[data-seat={seat}]")
        page.wait_for_selector(".jacquard")
    return fault


def test_a_fault_report_in_another_players_turn_and_an_undo(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    fault = seated_on_a_fault_deal(server, pages)
    session = server.room.session
    assert session is not None and session.active_seats == ["south"]
    south, north = pages["south"].page, pages["north"].page

    # South moves by tapping a tower, then takes it back
    revision = server.room.revision
    south.click("[data-tower=b2c2]")
    pages["south"].wait_revision(revision + 1)
    assert session.view("south")["players"][0]["pawn"] == "b2c2"
    south.click("[data-action=undo]")
    pages["south"].wait_revision(revision + 2)
    assert session.view("south")["players"][0]["pawn"] is None
    pages["north"].wait_revision(revision + 2)

    # North, out of turn, flips lamps with a Fault Report from its own hand
    card, lamps = fault["card"], fault["lamps"]
    assert card in {c["id"] for c in session.view("north")["you"]["faults"]}
    board_before = session.view(None)["board"]
    north.click(f".fault[data-card='{card}'] button")
    for lamp in lamps:
        north.click(f"[data-lamp={lamp}]")
    assert lamps_shown(north, ".lamp.flip") == set(lamps)
    north.click("[data-action=confirm]")
    pages["north"].wait_revision(revision + 3)
    flipped = sum(1 << reference_lamps().index(lamp) for lamp in lamps)
    assert session.view(None)["board"] == board_before ^ flipped
    assert north.locator(f".fault[data-card='{card}']").count() == 0
    assert session.active_seats == ["south"]

    # a double tap on a tower moves once, and says nothing of a changed game
    moves = len(session.log_json()["actions"])
    south.dblclick("[data-tower=b2c2]")
    pages["south"].wait_revision(revision + 4)
    south.wait_for_timeout(400)  # the second tap's answer has come back by now
    assert server.room.revision == revision + 4
    assert len(session.log_json()["actions"]) == moves + 1
    assert south.locator("#error").is_hidden()


def test_a_tap_held_down_while_news_arrives_still_lands(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    """A push from another device redraws the phone; arriving between a finger going down
    on a lamp and lifting, it must not swallow the tap."""
    fault = seated_on_a_fault_deal(server, pages)
    south, north = pages["south"].page, pages["north"].page
    revision = server.room.revision
    pages["north"].wait_revision(revision)
    north.click(f".fault[data-card='{fault['card']}'] button")
    north.wait_for_selector(f".fault-detail[data-fault='{fault['card']}']")
    lamp = fault["lamps"][0]
    # where the lamp is, read in one go: the page may be drawing itself again just then
    # (the legal moves, what the card would change), the lamp staying where it was
    x, y = north.evaluate(
        """lamp => {
          const target = document.querySelector(`[data-lamp="${lamp}"]`);
          target.scrollIntoView({ block: "center" });
          const box = target.getBoundingClientRect();
          return [box.x + box.width / 2, box.y + box.height / 2];
        }""",
        lamp,
    )
    north.mouse.move(x, y)
    north.mouse.down()
    south.click("[data-tower=b2c2]")  # South moves: every page hears of it
    north.wait_for_function(
        "r => Number(document.body.dataset.received || -1) >= r", arg=revision + 1
    )
    north.mouse.up()
    pages["north"].wait_revision(revision + 1)
    # the tapped lamp's preview, drawn once the tap is read: waited for, as it is read
    north.wait_for_selector(f'.lamp.flip[data-lamp="{lamp}"]')
    assert lamp in lamps_shown(north, ".lamp.flip")


def test_the_second_tap_of_a_double_tap_is_sent_as_the_first_though_news_came_between(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    """The first tap's move comes back as news while the second tap's finger is down: the
    page keeps its buttons until the finger lifts, and the second tap must be sent as
    the first was (same revision, same key), so the companion answers it as the first."""
    seated_on_a_fault_deal(server, pages)
    south = pages["south"].page
    session = server.room.session
    assert session is not None
    revision = server.room.revision
    moves = len(session.log_json()["actions"])
    pages["south"].wait_revision(revision)
    x, y = south.evaluate(
        """() => {
          const target = document.querySelector("[data-tower=b2c2]");
          target.scrollIntoView({ block: "center" });
          const box = target.getBoundingClientRect();
          return [box.x + box.width / 2, box.y + box.height / 2];
        }"""
    )
    south.mouse.move(x, y)
    south.mouse.down()  # the second tap's finger, down before the first tap's news
    south.evaluate(  # the first tap (a tower is drawn in SVG, which has no .click())
        'document.querySelector("[data-tower=b2c2]")'
        '.dispatchEvent(new MouseEvent("click", { bubbles: true }))'
    )
    south.wait_for_function(
        "r => Number(document.body.dataset.received || -1) >= r", arg=revision + 1
    )
    assert south.evaluate("Number(document.body.dataset.revision)") == revision
    with south.expect_response(lambda answer: answer.url.endswith("/actions")) as second:
        south.mouse.up()
    assert second.value.ok, second.value.text()
    pages["south"].wait_revision(revision + 1)
    south.wait_for_timeout(100)  # the answer handled
    assert server.room.revision == revision + 1
    assert len(session.log_json()["actions"]) == moves + 1
    assert south.locator("#error").is_hidden()


def test_a_czech_table_shows_the_cards_in_czech_and_an_english_phone_in_english(
    server: LiveServer, pages: dict[str, Page], browser: Any
) -> None:
    seed, fault = a_deal_with_a_fault_out_of_turn()
    server.room.new_game("clacks", {"players": 2}, seed=seed, language="cs")
    session = server.room.session
    assert session is not None
    south, north, table = pages["south"].page, pages["north"].page, pages["table"].page
    english_table = Page(browser, "english-table", **TV)
    north.goto(server.url(f"/join/{server.code}"))  # the table's language: Czech
    south.goto(server.url(f"/join/{server.code}?lang=en"))
    table.goto(server.url(f"/table/{server.code}"))
    english_table.page.goto(server.url(f"/table/{server.code}?lang=en"))
    for page, seat in ((south, "south"), (north, "north")):
        page.click(f"button[data-seat={seat}]")
        page.wait_for_selector(".jacquard")
    czech, english = catalog("cs"), catalog("en")

    # North's Czech phone: its Fault Report and Jacquards by their Czech names and text
    held = session.view("north")["you"]
    card = next(c for c in held["faults"] if c["id"] == fault["card"])
    name = czech[f"card.{card['design']}.name"]
    assert name != card["name"] == english[f"card.{card['design']}.name"]
    shown = north.locator(f".fault[data-card='{card['id']}']")
    assert shown.locator(".card-name").inner_text() == name
    # chosen, it says in Czech when it may be played and what it will do, its text as its title
    shown.locator("button").click()
    detail = north.locator(f".fault-detail[data-fault='{card['id']}']")
    assert detail.locator("h3").inner_text().startswith(name)
    assert detail.get_attribute("title") == czech[f"card.{card['design']}.text"]
    assert translate("cs", f"clacks.when.{card['when']}") in detail.inner_text()
    assert card["name"] not in north.inner_text("main")
    names = read_all(north, ".jacquard .card-name", "n => n.map(x => x.textContent)")
    assert names == [czech[f"jacquard.{j['design']}.name"] for j in held["hand"]]

    # South's English phone: the Jacquards by the engine's own English names
    names = read_all(south, ".jacquard .card-name", "n => n.map(x => x.textContent)")
    assert names == [j["name"] for j in session.view("south")["you"]["hand"]]

    # North plays it out of turn: each table's log names it in its own language
    for lamp in fault["lamps"]:
        north.click(f"[data-lamp={lamp}]")
    north.click("[data-action=confirm]")
    for page, language, words in ((table, "cs", name), (english_table.page, "en", card["name"])):
        seat = translate(language, "seat.north")
        line = translate(language, "event.fault_played", seat=seat, name=words)
        page.wait_for_function(
            "line => document.getElementById('log-list').innerText.includes(line)", arg=line
        )
    assert card["name"] not in table.inner_text("#log-list")
    english_table.context.close()


def reference_lamps() -> list[str]:
    lamps: list[str] = game_module("clacks").reference()["lamps"]
    return lamps


def test_the_lobby_sets_up_own_words_variants_and_language(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    table = pages["table"]
    table.page.goto(server.url("/"))
    lobby = table.page.locator("dialog")
    # the published setup unless the table ticks the house rule, its figures beside it
    balanced = lobby.locator("input[value=balanced_start]")
    assert not balanced.is_checked()
    about = lobby.locator("label", has=table.page.locator("input[value=balanced_start]")).inner_text()
    assert "44.3 %" in about and "61.8 %" in about
    lobby.locator("select[name=players]").select_option("3")
    lobby.locator("input[value=express]").check()
    lobby.locator("input[name=words][value=custom]").check()
    for seat, word in (("south", "Řeka"), ("west", "gnome"), ("north", "Troll")):
        lobby.locator(f"input[name=word-{seat}-0]").fill(word)
    assert lobby.locator("select[name=choice-word_list]").input_value() == "en"
    lobby.locator("select[name=language]").select_option("cs")
    # the Clacks Cards follow the table's language until chosen
    assert lobby.locator("select[name=choice-word_list]").input_value() == "cs"
    lobby.locator("button[type=submit]").click()
    table.page.wait_for_url("**lang=cs**")
    table.wait_revision(1)
    view = server.room.session.view(None)  # type: ignore[union-attr]
    words = {p["seat"]: p["words"] for p in view["players"]}
    assert words == {"south": ["REKA"], "west": ["GNOME"], "north": ["TROLL"]}
    assert view["options"]["express"] and server.room.language == "cs"
    options = server.room.session.clacks.state.options  # type: ignore[union-attr]
    assert options.word_list == "cs" and not options.balanced_start
    assert "Na tahu" in table.page.inner_text(".status")
    # nobody sits at the table yet: the Express clock waits, and says so
    assert table.page.locator(".countdown").count() == 0
    assert "hodiny se rozběhnou" in table.page.inner_text(".clock-waits")
    table.shot("table-tv-cs")
    # a bad word is refused in the lobby with the reason, and the running game stays
    table.page.click("#new-game")
    lobby.locator("input[name=words][value=custom]").check()
    for seat in ("south", "north"):
        lobby.locator(f"input[name=word-{seat}-0]").fill("A1")
    lobby.locator("button[type=submit]").click()
    error = lobby.locator(".error")
    error.wait_for()
    assert "1" in error.inner_text() and server.room.game_number == 1
