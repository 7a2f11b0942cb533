"""The game log, a phone's feed and the connection, through a real browser against a
real `clacks serve` (restarted on the same saves) or the in-process server.

- After a restart the table's log has every step of the game, in order, numbered by
  step, scrolling back to the first.
- A page notices the restart and is live again within 2 s of the companion answering,
  with one banner meanwhile and its controls out of reach.
- The table draws the simulated board's LEDs from the event stream, never polling.
- A phone's feed tells what another seat's Fault Report did to it, until dismissed.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import PHONE, TV, Page, read_all
from live_server import LiveServer
from serve_process import Served, serve_process
from test_web_api import claim
from web_client import call

from engine.clacks.selfplay import next_action
from engine.core.interface import JSON, Session
from engine.core.rng import Rng
from engine.games import game_module
from web.i18n import translate

pytestmark = pytest.mark.browser

OFFLINE = translate("en", "ui.offline")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Players:
    """Every seat of a game on a served table, playing through the API; the moves are
    chosen on a copy of the game dealt from the seed the table was given (an unfinished
    game's file is not handed out), as a person who sees every hand would."""

    def __init__(self, served: Served, options: JSON, seed: int) -> None:
        self.served = served
        room = f"/api/rooms/{served.code}"
        body = {"options": options, "seed": seed}
        status, _ = call(served.base, "POST", f"{room}/game", body, pin=served.pin)
        assert status == 201
        self.session: Session = game_module("clacks").new(options, seed)
        self.tokens: dict[str, str] = {}
        for info in self.session.seats:
            _, claimed = call(served.base, "POST", f"{room}/seats/{info.id}", {"name": info.id})
            self.tokens[info.id] = claimed["token"]
        self.rng = Rng(seed)

    def play(self, actions: int) -> list[list[JSON]]:
        """Play ``actions`` actions; the public events each one announced."""
        announced = []
        clacks = self.session.clacks  # type: ignore[attr-defined]
        for _ in range(actions):
            action = next_action(clacks, self.rng, fault_chance=0).to_json()
            seat = action["seat"]
            status, answer = call(
                self.served.base,
                "POST",
                f"/api/rooms/{self.served.code}/seats/{seat}/actions",
                {"action": action},
                token=self.tokens[seat],
            )
            assert status == 200, answer
            self.session.apply(seat, action, 0.0)
            announced.append(answer["events"])
        return announced


def log_shown(table: Page) -> list[tuple[int, int]]:
    """The table's log as shown, newest first: (step, lines) for every step, after
    scrolling back to the first step."""
    page = table.page
    page.wait_for_selector("#log-list li")
    while page.locator(".log-earlier").count():
        before = page.locator("#log-list li").count()
        page.locator(".log-earlier").scroll_into_view_if_needed()
        page.wait_for_function(
            "n => document.querySelectorAll('#log-list li').length > n", arg=before
        )
    return [
        (int(item.get_attribute("data-step")), item.locator(".step-event").count())
        for item in page.locator("#log-list li").all()
    ]


def test_the_log_after_a_restart_has_every_step_in_order(browser: Any, tmp_path: Path) -> None:
    with serve_process(tmp_path) as served:
        players = Players(served, {"players": 2, "long_message": True}, 7)
        announced = players.play(60)  # more than a fresh page gets (50): it must scroll back
    with serve_process(tmp_path) as served:
        table = Page(browser, "table", **TV)
        try:
            table.page.goto(f"{served.base}/")
            shown = log_shown(table)
            # newest first, numbered by step, every step there: the game set up, then
            # one step an action, with one line an event it announced
            assert [step for step, _ in shown] == list(range(len(announced), -1, -1))
            assert [lines for _, lines in reversed(shown)] == [1] + [len(e) for e in announced]
            first = table.page.inner_text("#log-list li[data-step='0']")
            assert translate("en", "event.game_started") in first
            # the log is read from the saves: the API pages the same steps
            _, page = call(served.base, "GET", f"/api/rooms/{served.code}/log?before=3")
            assert [s["events"] for s in page["steps"][1:]] == announced[:2]
            assert table.errors == []
        finally:
            table.context.close()


def offline_banners(page: Page) -> int:
    """How many things on the page say the connection is lost (shown ones: laid out
    on the page, in its flow or fixed over it)."""
    count: int = page.page.evaluate(
        """text => [...document.querySelectorAll('body *')].filter((node) =>
             node.getClientRects().length > 0 && [...node.childNodes].some((child) =>
               child.nodeType === Node.TEXT_NODE && child.textContent.includes(text))).length""",
        OFFLINE,
    )
    return count


def test_a_restart_is_noticed_and_recovered_within_two_seconds(
    browser: Any, tmp_path: Path
) -> None:
    port = free_port()
    table = Page(browser, "table", **TV)
    phone = Page(browser, "phone", **PHONE)
    try:
        with serve_process(tmp_path, "--port", str(port)) as served:
            players = Players(served, {"players": 2}, 3)
            token = players.tokens["south"]
            players.play(4)
            table.page.goto(f"{served.base}/")
            phone.page.goto(f"{served.base}/join/{served.code}#seat=south&token={token}")
            table.page.wait_for_selector("#game .clacks-table")
            phone.page.wait_for_selector("#main .board-box")
        # the companion is gone: each page says so once, and nothing can be tapped
        for page in (table, phone):
            page.page.wait_for_selector("#live:not([hidden])")
            assert page.page.evaluate("document.getElementById('main').inert")
        with pytest.raises(Exception, match="Timeout"):
            phone.page.click("#main button >> nth=0", timeout=800)
        # a request into the void (the table page's, say) adds no second notice
        for page in (table, phone):
            page.page.evaluate("Clacks.api('GET', '/games').catch(() => null)")
            assert offline_banners(page) == 1
        time.sleep(2.5)  # down a while, as a companion starting again takes a moment
        for page in (table, phone):
            assert offline_banners(page) == 1
        # every push from here on is the new companion's: a page may reconnect while
        # serve_process still waits to hear the companion answer, and then has its one
        # push from before ``answering``, with nothing new to push after it
        restarted = time.time()
        with serve_process(tmp_path, "--port", str(port)) as served:
            answering = time.time()
            for page in (table, phone):
                page.page.wait_for_function(
                    """since => (window.__pushedAt || []).some((at) => at > since)
                         && document.getElementById('live').hidden
                         && !document.getElementById('main').inert""",
                    arg=restarted * 1000,
                    timeout=10_000,
                )
                pushed = page.page.evaluate("window.__pushedAt")
                back = min(at for at in pushed if at > restarted * 1000) / 1000
                assert back - answering <= 2.0, (page.name, back - answering)
            # and the pages work again: the phone's seat and the table's game are back
            assert phone.page.locator("#main button:not([disabled])").count()
        for page in (table, phone):
            assert page.errors == []
    finally:
        table.context.close()
        phone.context.close()


def two_players_on_the_table(served: Served, table: Page, path: str) -> Players:
    """The table screen at ``path`` switched to its LED board, its LEDs drawn, with a
    two-player game (seed 5) begun on it."""
    table.page.goto(f"{served.base}{path}")
    players = Players(served, {"players": 2}, 5)
    table.page.wait_for_selector("#game .clacks-table")  # the lobby closed for the game
    table.page.click("#views [data-view=leds]")
    table.page.wait_for_selector("#leds:not([hidden]) #led-grid .led")
    return players


def test_the_table_draws_the_board_from_the_stream_without_polling(
    browser: Any, tmp_path: Path
) -> None:
    table = Page(browser, "table", **TV)
    asked: list[str] = []
    table.page.on("request", lambda r: asked.append(r.url) if "/board" in r.url else None)
    try:
        with serve_process(tmp_path) as served:
            players = two_players_on_the_table(served, table, "/")
            drawn = read_all(
                table.page,
                "#led-grid .led", "nodes => nodes.map((n) => n.dataset.rgb).join(' ')"
            )
            players.play(3)  # lamps flip on the board: the picture follows
            table.page.wait_for_function(
                """drawn => [...document.querySelectorAll('#led-grid .led')]
                     .map((n) => n.dataset.rgb).join(' ') !== drawn""",
                arg=drawn,
            )
            time.sleep(2.0)
            assert asked == []  # the stream brought every frame; nothing was polled
            assert table.errors == []
    finally:
        table.context.close()


def fault_seed() -> tuple[int, str, str]:
    """A seed whose deal gives the seat out of turn a Fault Report that cuts the stress
    of the seat in turn: (seed, its holder, the card)."""
    for seed in range(500):
        session = game_module("clacks").new({"players": 2}, seed)
        playing = session.active_seats[0]
        for seat in (s.id for s in session.seats if s.id != playing):
            for card in session.view(seat)["you"]["faults"]:
                if card["effect"] == "stress_penalty":
                    return seed, seat, card["id"]
    raise AssertionError("no deal in 500 gives a stress penalty to the seat out of turn")


def test_a_phone_feed_tells_what_another_seats_fault_report_did_to_it(
    browser: Any, server: LiveServer
) -> None:
    seed, holder, card = fault_seed()
    server.room.new_game("clacks", {"players": 2}, seed)
    session = server.room.session
    assert session is not None
    victim = session.active_seats[0]
    tokens = {seat: claim(server, seat, seat.title()) for seat in (victim, holder)}
    phone = Page(browser, "victim", **PHONE)
    try:
        phone.page.goto(server.url(f"/join/{server.code}#seat={victim}&token={tokens[victim]}"))
        phone.page.wait_for_selector(".board-box")
        assert phone.page.locator("#feed").count() == 0  # nothing has happened yet
        play = next(
            a
            for a in session.legal_actions(holder, server.room.clock())
            if a["type"] == "play_fault" and a["card"] == card
        )
        status, answer = call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/seats/{holder}/actions",
            {"action": play},
            token=tokens[holder],
        )
        assert status == 200 and "stress_changed" in [e["kind"] for e in answer["events"]]
        feed = phone.page.wait_for_selector("#feed")
        text = feed.inner_text()
        assert translate("en", "phone.feed_title") in text
        assert "plays the Fault Report Grit in the Gears" in text
        # what it did to this seat stands out: its stress for the turn
        done = phone.page.inner_text("#feed .to-you")
        limit = next(e for e in answer["events"] if e["kind"] == "stress_changed")["limit"]
        assert f"may now spend {limit} stress" in done and victim.title() in done
        # dismissed, it stays dismissed over a reload
        phone.page.click("[data-action=dismiss-feed]")
        phone.page.wait_for_selector("#feed", state="detached")
        phone.page.reload()
        phone.page.wait_for_selector(".board-box")
        assert phone.page.locator("#feed").count() == 0
        # the holder's own phone shows no feed of its own action; its draws are its own
        assert phone.errors == []
    finally:
        phone.context.close()


def test_only_a_seat_reads_its_own_draws(browser: Any, server: LiveServer) -> None:
    server.room.new_game("clacks", {"players": 2}, 4)
    session = server.room.session
    assert session is not None
    tokens = {s: server.room.seats.claim(s, s.title(), None)["token"] for s in ("south", "north")}
    first = session.active_seats[0]
    other = "north" if first == "south" else "south"
    table = Page(browser, "table", **TV)
    phones = {seat: Page(browser, seat, **PHONE) for seat in ("south", "north")}
    try:
        table.page.goto(server.url("/"))
        for seat, phone in phones.items():
            phone.page.goto(server.url(f"/join/{server.code}#seat={seat}&token={tokens[seat]}"))
            phone.page.wait_for_selector(".board-box")
        legal = session.legal_actions(first, server.room.clock())
        server.room.act(first, tokens[first], next(a for a in legal if a["type"] == "play_jacquard"))
        server.room.act(first, tokens[first], {"type": "end_turn"})
        assert server.room.game_log is not None
        told = server.room.game_log.steps[-1].private[first].values()
        cards = [card for details in told for card in details.get("jacquards", [])]
        names = [translate("en", f"jacquard.{c.rsplit('-', 1)[0]}.name") for c in cards]
        assert names
        # the drawing seat's feed names the cards it drew ...
        phones[first].page.wait_for_selector("#feed .to-you")
        mine = phones[first].page.inner_text("#feed .feed-list")
        assert all(name in mine for name in names) and "You draw" in mine
        # ... the other seat's feed and the table's log tell how many only
        feed = phones[other].page.wait_for_selector("#feed")
        drew = translate("en", "event.drew_jacquards", seat=first.title(), count=len(cards))
        assert drew in feed.inner_text()
        # the feed reads in the order things happened, the latest scrolled into view
        steps = read_all(
            phones[other].page,
            "#feed .feed-list li", "items => items.map((li) => Number(li.dataset.step))"
        )
        assert len(set(steps)) >= 2 and steps == sorted(steps), steps
        table.page.wait_for_selector("#log-list .event-drew_jacquards")
        for page in (table, phones[other]):
            text = page.page.inner_text("body")
            assert "You draw" not in text
            pushed = json.dumps(page.pushed())
            assert not any(f'"{card}"' in pushed for card in cards)
    finally:
        for page in (table, *phones.values()):
            page.context.close()
