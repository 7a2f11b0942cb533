"""A first game at the table, through a real browser: every greyed-out control says the
engine's reason and the turn's prompt states the order the rules impose; the new-game
dialog keeps, frees or hands to a bot the seats people hold; a phone's turn is one
screen at 360x740 in every mode; the table screen reads from a sofa at 1920x1080 and
still works at 1366x768; a Jacquard's tapped lamp stays under it through rotate and
mirror while the keyboard follows the flow; the table clacks and rings, its mute
remembered, and a phone vibrates when its turn begins.

Web Audio and the Vibration API are replaced in the page by counters (the browser
under test has no speaker and no motor); everything else is the real page and server.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser_support import (
    BOX,
    PHONE_740,
    TEXT_SIZES,
    Page,
    assert_parts_side_by_side,
    lamps_shown,
    place_jacquard,
    read_one,
    tap_greyed,
    wait_for_change,
)
from game_tables import first_table_phones
from live_server import LiveServer, companion
from table_driver import GAMES, seat_everyone
from test_tutorial_browser import one_screen
from web_client import call

from engine.clacks.actions import Transmit
from engine.clacks.selfplay import choose_map_action
from engine.core.interface import Session
from engine.core.rng import Rng
from engine.games import game_module
from web.i18n import translate

pytestmark = pytest.mark.browser

# every game and mode but those whose own browser tests walk their phone screens
MODES = {mode: table for mode, table in GAMES.items() if first_table_phones(table[0])}

# Counters in place of the speaker and the motor: each clack is one burst of noise (a
# buffer source) and one knock (an oscillator); a bell is four oscillators.
COUNT_SOUNDS = """
(() => {
  window.__sound = { noise: 0, tones: 0 };
  class Param { setValueAtTime() { return this; } exponentialRampToValueAtTime() { return this; } }
  class Node {
    constructor() { this.gain = new Param(); this.frequency = new Param(); this.Q = new Param(); }
    connect(next) { return next; }
    start() {}
    stop() {}
  }
  class Context {
    constructor() { this.sampleRate = 8000; this.currentTime = 0; this.state = "running"; this.destination = new Node(); }
    createBuffer(channels, length) { return { getChannelData: () => new Float32Array(length) }; }
    createBufferSource() { window.__sound.noise += 1; return new Node(); }
    createBiquadFilter() { return new Node(); }
    createGain() { return new Node(); }
    createOscillator() { window.__sound.tones += 1; return new Node(); }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = Context;
})();
"""
COUNT_VIBRATIONS = """
(() => {
  window.__buzz = [];
  Object.defineProperty(Navigator.prototype, "vibrate", {
    configurable: true, value: (pattern) => { window.__buzz.push(pattern); return true; } });
})();
"""



@contextmanager
def seated_table(
    game: str, options: dict[str, Any]
) -> Iterator[tuple[LiveServer, Session, dict[str, str]]]:
    """A companion with a new game of ``game`` (seed 5) and every seat held: the server,
    the game's session and each seat's token."""
    with companion() as server:
        server.room.new_game(game, options, 5)
        tokens = seat_everyone(server)
        session = server.room.session
        assert session is not None
        yield server, session, tokens


@contextmanager
def first_seat_phone(browser: Any) -> Iterator[tuple[LiveServer, Session, str, str, Page]]:
    """A two-player Clacks table with every seat held, and the phone of the seat whose
    turn comes first: the server, the game's session, the seat, its token and its phone."""
    with seated_table("clacks", {"players": 2}) as (server, session, tokens):
        seat = session.active_seats[0]
        phone = seated_phone(browser, server, seat, tokens[seat])
        try:
            yield server, session, seat, tokens[seat], phone
        finally:
            phone.context.close()


def seated_phone(
    browser: Any, server: LiveServer, seat: str, token: str, language: str = "en"
) -> Page:
    """A phone at 360x740 holding ``seat`` (through the seat's own link)."""
    phone = Page(browser, f"phone-{seat}", **PHONE_740)
    phone.page.goto(server.url(f"/join/{server.code}?lang={language}#seat={seat}&token={token}"))
    phone.page.wait_for_selector("body.seated")
    phone.wait_revision(server.room.revision)
    return phone


def why(page: Any) -> str:
    page.wait_for_selector("#why:not([hidden])")
    return str(page.inner_text("#why"))


def checked(server: LiveServer, seat: str, token: str, action: dict[str, Any]) -> str:
    """The engine's reason for refusing ``action``, asked the way the phone asks it."""
    path = f"/api/rooms/{server.code}/seats/{seat}/check"
    status, answer = call(server.base, "POST", path, {"action": action}, token=token)
    assert status == 200 and not answer["allowed"], answer
    return str(answer["error"]["message"])


# ---------------------------------------------------------------------- one screen


def the_connection_lost_moves_nothing(phone: Page) -> None:
    """The Wi-Fi gone as the phone asks the companion something: the banner says so over
    the screen, below the seat's header, and the turn stays one screen; it goes once the
    phone is back."""
    page = phone.page
    where = """[...document.querySelectorAll('main button, main svg')]
      .map((e) => e.getBoundingClientRect()).map((r) => [r.top, r.height])"""
    before = page.evaluate(where)
    # Chromium's offline emulation alone was once seen to leave the page's stream able to
    # come back (the banner never showed); every request to the companion refused as well
    # makes the lost Wi-Fi certain for as long as the test holds it
    def refuse(route: Any) -> None:
        route.abort("internetdisconnected")

    phone.context.route("**/api/**", refuse)
    phone.context.set_offline(True)
    page.evaluate("Clacks.api('GET', '/games').catch(() => null)")  # a request that fails
    page.wait_for_selector("#live:not([hidden])")
    one_screen(page)
    assert page.evaluate(where) == before  # nothing on the screen moved or shrank for it
    header, banner = page.evaluate(
        "['header.top', '#live'].map((s) => document.querySelector(s).getBoundingClientRect())"
        ".map((r) => [r.top, r.bottom])"
    )
    assert banner[0] >= header[1] and banner[1] <= 740, (header, banner)
    phone.context.set_offline(False)
    phone.context.unroute("**/api/**", refuse)
    page.wait_for_selector("#live", state="hidden")


@pytest.mark.parametrize("mode", MODES)
def test_a_phone_turn_fits_one_screen_at_360_by_740_in_every_mode(browser: Any, mode: str) -> None:
    game, options = MODES[mode]
    with seated_table(game, options) as (server, session, tokens):
        seat = session.active_seats[0]
        languages = ("en", "cs") if mode in ("competitive", "coop") else ("en",)
        for language in languages:
            phone = seated_phone(browser, server, seat, tokens[seat], language)
            try:
                page = phone.page
                page.wait_for_selector("main button:not([disabled])")
                one_screen(page)  # the turn as it begins
                # ... and in the middle of its decision
                if game == "clacks":
                    page.click(".hand-strip .card-button:not([aria-disabled])")
                    page.wait_for_selector("[data-action=rotate]")
                    one_screen(page)
                    page.click(".board-box [data-lamp=b2]")
                    page.wait_for_selector("[data-action=confirm]:not([aria-disabled])")
                    one_screen(page)
                    page.click("[data-action=cancel]")
                if mode in ("coop", "solitaire"):
                    # a swap: the slots are folded away; once one is chosen, the card to
                    # give up for it is chosen on one screen again
                    page.click("details.more > summary")
                    page.wait_for_selector("details.more[open] [data-slot]")
                    one_screen(page)  # the slots to choose from, on the same screen
                    page.click("[data-slot] [data-action=swap]:not([aria-disabled])")
                    page.wait_for_selector(".hand-strip .badge")
                    assert page.locator("details.more").count() == 0
                    one_screen(page)
                elif game == "klackers":
                    page.click("[data-action=roll]")
                    page.wait_for_selector("[data-action=pull]")
                    one_screen(page)
                elif game == "clacks-trainer":
                    page.wait_for_selector("[data-answer]")
                    one_screen(page)
                the_connection_lost_moves_nothing(phone)
                assert phone.errors == []
            finally:
                phone.context.close()


# ---------------------------------------------------------------------- why not


def test_the_first_turn_states_the_order_and_every_greyed_out_control_says_why(
    browser: Any,
) -> None:
    with first_seat_phone(browser) as (server, session, seat, token, phone):
        page = phone.page
        # the prompt says what comes first and what a Jacquard closes
        prompt = page.inner_text(".prompt")
        assert prompt == translate("en", "clacks.hint.turn_place")
        assert "Once you play a Jacquard you stay there this turn" in prompt
        # a greyed-out control still answers a tap, with the engine's reason
        assert page.get_attribute("[data-action=transmit]", "aria-disabled") == "true"
        tap_greyed(page.locator("[data-action=transmit]"))  # a tap lands on it all the same
        assert why(page) == checked(server, seat, token, {"type": "transmit"})
        assert session.log_json()["actions"] == []  # asking changed nothing

        # play a Jacquard: the towers stop answering moves, and say why when tapped
        hand = session.view(seat)["you"]["hand"]
        legal = session.legal_actions(seat, 0.0)
        play = next(a for a in legal if a["type"] == "play_jacquard")
        card = next(c for c in hand if c["id"] == play["jacquard"])
        place_jacquard(phone, seat, card, play["lamps"])
        page.click("[data-action=confirm]")
        # the play reaches the server (a busy machine may show the staged play first)
        deadline = time.monotonic() + 15
        while not session.log_json()["actions"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(session.log_json()["actions"]) == 1
        page.wait_for_function(
            "p => document.querySelector('.prompt').innerText !== p", arg=prompt
        )
        phone.wait_revision(server.room.revision)
        mine = next(
            t["id"]
            for t in game_module("clacks").reference()["towers"]
            if t["colour"]
            == next(p["colour"] for p in session.view(seat)["players"] if p["seat"] == seat)
        )
        tap_greyed(page.locator(f".board-box [data-tower={mine}]"))
        refused = checked(server, seat, token, {"type": "move", "tower": mine})
        assert why(page) == refused
        assert refused.startswith("Move before playing Jacquards")
        assert len(session.log_json()["actions"]) == 1

        # a card out of reach says why when the keyboard reaches it, not only a tap
        page.click("#why")  # dismissed
        page.wait_for_selector("#why", state="hidden")
        out_of_reach = page.locator(".hand-strip .card-button[aria-disabled=true]")
        assert out_of_reach.count() >= 1
        out_of_reach.first.focus()
        assert "stress" in why(page)
        assert phone.errors == []


# ---------------------------------------------------------------------- the lobby


def test_the_new_game_dialog_keeps_frees_or_hands_to_a_bot_the_seats_people_hold(
    browser: Any,
) -> None:
    with companion() as server:
        room = server.room
        room.new_game("clacks", {"players": 2}, 5)
        table = Page(browser, "table", viewport={"width": 1366, "height": 768})
        phone = Page(browser, "phone", **PHONE_740)
        try:
            phone.page.goto(server.url(f"/join/{server.code}"))
            phone.page.fill("#player-name", "Ann")
            phone.page.click("button[data-seat=south]")
            phone.page.wait_for_selector("body.seated")
            room.seats.claim("north", "Bob", None)  # a phone that has gone away

            page = table.page
            page.goto(server.url("/"))
            page.wait_for_selector(".clacks-table")
            page.click("#new-game")
            south = page.locator("#lobby [data-seat-row=south]")
            north = page.locator("#lobby [data-seat-row=north]")
            # who sits where, by name, and whether their phone is here
            assert translate("en", "lobby.sits_connected", name="Ann") in south.inner_text()
            assert translate("en", "lobby.sits_away", name="Bob") in north.inner_text()
            assert "⚠" not in page.inner_text("#lobby")
            options = north.locator("select[data-hold=north] option")
            assert options.all_inner_texts()[:2] == [
                translate("en", "lobby.keep", name="Bob"),
                translate("en", "lobby.free", name="Bob"),
            ]
            # Ann stays, Bob's seat goes to a bot in place
            north.locator("select[data-hold=north]").select_option("bot:planner")
            page.click("#lobby button[type=submit]")
            page.wait_for_selector("#lobby", state="hidden")
            assert room.game_number == 2
            assert room.seats.bots == {"north": "planner"}
            assert set(room.seats.claims) == {"south"}
            phone.wait_revision(room.revision)
            assert phone.page.locator("body.seated").count() == 1

            # the next game lets Ann go: her phone offers the seats again
            page.click("#new-game")
            page.locator("#lobby select[data-hold=south]").select_option("free")
            page.click("#lobby button[type=submit]")
            page.wait_for_selector("#lobby", state="hidden")
            assert room.seats.claims == {}
            phone.page.wait_for_selector("button[data-seat=south]")
            assert table.errors == [] and phone.errors == []
        finally:
            table.context.close()
            phone.context.close()


# ---------------------------------------------------------------------- the TV


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1366, 768)])
def test_the_table_screen_reads_from_a_sofa(browser: Any, width: int, height: int) -> None:
    scale = width / 1920  # the screen grows with its width; a smaller one keeps the proportions
    with seated_table("clacks", {"players": 2}) as (server, session, tokens):
        seat = session.active_seats[0]
        play = next(a for a in session.legal_actions(seat, 0.0) if a["type"] == "play_jacquard")
        path = f"/api/rooms/{server.code}/seats/{seat}/actions"
        assert call(server.base, "POST", path, {"action": play}, token=tokens[seat])[0] == 200
        tv = Page(browser, "tv", viewport={"width": width, "height": height})
        try:
            page = tv.page
            page.goto(server.url("/"))
            tv.wait_revision(1)
            page.wait_for_selector("#latest:not([hidden])")
            def size(css: str) -> float:
                return float(read_one(page, css, "e => parseFloat(getComputedStyle(e).fontSize)"))

            # whose turn and what just happened, in big letters
            assert size(".status .turn > strong") >= 48 * scale
            assert size("#latest") >= 48 * scale
            latest = page.inner_text("#latest")
            assert latest and latest in page.inner_text("#log-list li[data-step='1']")
            # no text on the first screen smaller than body text
            smallest = min(page.evaluate(TEXT_SIZES))
            assert smallest[0] >= 28 * scale - 0.01, smallest
            # the exchange takes most of the height
            board = read_one(page, ".board-box svg.exchange", BOX)
            assert board[3] - board[1] >= 0.6 * height
            assert board[3] <= height  # all of it on the screen
            # the screen's parts side by side, none over another, none wider than it
            boxes = assert_parts_side_by_side(page, width)
            for css in (".status", ".board-box", ".seats"):
                inner = read_one(page, f"main {css}", BOX)
                assert inner[2] <= boxes["aside.join"][0] or inner[1] >= boxes["aside.join"][3]
            # the table's controls: one tap, on the first screen
            controls = read_one(page, "#open-controls", BOX)
            assert controls[3] <= height and controls[2] <= width
            page.click("#open-controls")
            page.wait_for_selector("#controls-dialog[open] #end-game")
            assert tv.errors == []
        finally:
            tv.context.close()


# ---------------------------------------------------------------------- rotate, mirror, focus


def test_rotate_and_mirror_keep_the_tapped_lamp_and_the_keyboard_follows_the_flow(
    browser: Any,
) -> None:
    with first_seat_phone(browser) as (_, session, seat, _token, phone):
        page = phone.page
        hand = session.view(seat)["you"]["hand"]
        # a card that looks different turned: two holes or more
        card = next(c for c in hand if sum(row.count("X") for row in c["holes"]) >= 2)
        page.click(f".jacquard[data-card='{card['id']}'] .card-button")
        # the card chosen, the keyboard is on the board
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.matches"
            "('.board-box [data-lamp]')"
        )
        page.click(".board-box [data-lamp=b2]")
        first = lamps_shown(page, ".board-box .lamp.flip")
        assert "b2" in first
        # placed: the keyboard is on Play
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.matches"
            "('[data-action=confirm]')"
        )
        seen = [first]
        for control in ("rotate", "rotate", "mirror", "rotate", "mirror"):
            page.click(f"[data-action={control}]")
            page.wait_for_function(
                "before => { const now = [...document.querySelectorAll('.board-box .lamp.flip')]"
                ".map(n => n.dataset.lamp).sort().join(' '); return now !== before; }",
                arg=" ".join(sorted(seen[-1])),
            )
            shown = lamps_shown(page, ".board-box .lamp.flip")
            assert "b2" in shown, (control, shown)
            assert len(shown) == len(first)
            seen.append(shown)
        assert len({frozenset(s) for s in seen}) >= 3  # it did turn and mirror
        # played: the keyboard goes to the turn's prompt, not the page's body
        page.click("[data-action=confirm]")
        phone.wait_revision(1)
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.matches('.prompt')"
        )
        assert phone.errors == []


# ---------------------------------------------------------------------- sound and touch


class Driver:
    """Moves made through the API by the engine's self-play policy, the table screen
    waited for after each."""

    def __init__(self, server: LiveServer, tokens: dict[str, str], tv: Page) -> None:
        self.server, self.tokens, self.tv = server, tokens, tv
        self.rng = Rng(3)

    @property
    def session(self) -> Any:
        return self.server.room.session

    def next(self) -> Any:
        return choose_map_action(self.session.clacks, self.rng)

    def act(self, action: Any) -> None:
        data = action if isinstance(action, dict) else action.to_json()
        seat = data["seat"]
        path = f"/api/rooms/{self.server.code}/seats/{seat}/actions"
        status, answer = call(
            self.server.base, "POST", path, {"action": data}, token=self.tokens[seat]
        )
        assert status == 200, answer
        self.tv.wait_revision(self.server.room.revision)


def test_the_table_clacks_with_a_remembered_mute_and_a_phone_vibrates_when_its_turn_begins(
    browser: Any,
) -> None:
    with seated_table("clacks", {"mode": "junior", "players": 2}) as (server, session, tokens):
        first = session.active_seats[0]
        other = next(s for s in tokens if s != first)
        tv = Page(browser, "tv", viewport={"width": 1366, "height": 768})
        tv.context.add_init_script(COUNT_SOUNDS)
        waiting = Page(browser, "waiting", **PHONE_740)
        waiting.context.add_init_script(COUNT_VIBRATIONS)
        try:
            page = tv.page
            page.goto(server.url("/"))
            page.wait_for_selector(".clacks-table")
            assert page.inner_text("#sound") == translate("en", "table.sound_on")
            waiting.page.goto(server.url(f"/join/{server.code}#seat={other}&token={tokens[other]}"))
            waiting.page.wait_for_selector("body.seated")
            assert waiting.page.evaluate("window.__buzz") == []
            driver = Driver(server, tokens, tv)

            # a Jacquard: one clack for each lamp it flips, no bell
            play = next(
                a for a in session.legal_actions(first, 0.0) if a["type"] == "play_jacquard"
            )
            driver.act(play)
            page.wait_for_function("n => window.__sound.noise === n", arg=len(play["lamps"]))
            assert page.evaluate("window.__sound.tones") == len(play["lamps"])

            # muted, and still muted after a reload: the rest of the turn makes no sound
            page.click("#sound")
            assert page.inner_text("#sound") == translate("en", "table.sound_off")
            assert page.evaluate("localStorage.getItem('clacks-sound')") == "off"
            page.reload()
            page.wait_for_selector(".clacks-table")
            assert page.inner_text("#sound") == translate("en", "table.sound_off")
            while session.active_seats == [first]:
                driver.act(driver.next())
            assert page.evaluate("window.__sound") == {"noise": 0, "tones": 0}

            # the waiting phone's turn begins: it vibrates, once
            waiting.page.wait_for_function("() => window.__buzz.length === 1")
            assert waiting.page.evaluate("window.__buzz[0]") == [120, 60, 120]

            # sound on again: a transmission clacks (three, and one a flipped lamp)
            page.click("#sound")
            assert page.evaluate("localStorage.getItem('clacks-sound')") == "on"
            action = driver.next()
            while not isinstance(action, Transmit):
                driver.act(action)
                action = driver.next()
            page.evaluate("window.__sound = { noise: 0, tones: 0 }")
            driver.act(action)
            page.wait_for_function("() => window.__sound.noise >= 3")
            assert tv.errors == [] and waiting.errors == []
        finally:
            tv.context.close()
            waiting.context.close()


def test_a_won_race_rings_the_bell(browser: Any) -> None:
    with companion() as server:
        server.room.new_game("clacks", {"mode": "junior", "players": 2}, 5)
        tokens = seat_everyone(server)
        tv = Page(browser, "tv", viewport={"width": 1366, "height": 768})
        tv.context.add_init_script(COUNT_SOUNDS)
        try:
            tv.page.goto(server.url("/"))
            tv.page.wait_for_selector(".clacks-table")
            driver = Driver(server, tokens, tv)
            while not driver.session.over:
                action = driver.next()
                told = driver.session.clacks.clone().apply(action)  # tried on a copy
                if any(e.kind == "game_won" for e in told):
                    tv.page.evaluate("window.__sound = { noise: 0, tones: 0 }")
                driver.act(action)
            # the winning step: its clacks, and four tones more, the bell
            tv.page.wait_for_function("() => window.__sound.tones - window.__sound.noise === 4")
            assert tv.errors == []
        finally:
            tv.context.close()


# ---------------------------------------------------------------------- Guards! Guards!


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_guards_phone_decision_fits_one_screen_at_360_by_740(browser: Any, language: str) -> None:
    from guards_support import volunteer

    with seated_table("guards", {"players": 2}) as (server, session, tokens):

        def report(seat: str, action: dict[str, Any]) -> None:
            path = f"/api/rooms/{server.code}/seats/{seat}/actions"
            status, answer = call(server.base, "POST", path, {"action": action}, token=tokens[seat])
            assert status == 200, answer

        def ready(phone: Page) -> None:
            phone.wait_revision(server.room.revision)
            phone.page.wait_for_selector("[data-loading=forms]", state="detached")

        phone = seated_phone(browser, server, "red", tokens["red"], language)
        try:
            page = phone.page
            # set-up: the Guild Card to choose, then a Volunteer dealt to type in
            ready(phone)
            page.wait_for_selector('[data-focus="choose_guild.card"]')
            one_screen(page)
            page.select_option('[data-focus="choose_guild.card"]', "thieves-a")
            one_screen(page)
            # "My card differs": its six values to type, on the same screen as Send
            differs = page.locator('[data-focus^="choose_guild."][data-focus$=".differs"]')
            differs.check()
            start_magic = page.locator('[data-focus^="choose_guild."][data-focus$=".start.magic"]')
            start_magic.wait_for()
            one_screen(page)
            start_magic.fill("2")
            revision = server.room.revision
            page.click('button[data-send="choose_guild"]')
            wait_for_change(server, revision, phone)
            card = session.guards.state.players["red"].card  # type: ignore[attr-defined]
            assert (card.id, card.start["magic"]) == ("thieves-a", 2)
            ready(phone)
            page.wait_for_selector('[data-focus="dealt:lords_ladies.card.name"]')
            one_screen(page)
            for deck, name in (("lords_ladies", "A"), ("man_beast", "B")):
                report("red", {"type": "dealt", "deck": deck, "values": volunteer(name, deck)})
            report("blue", {"type": "choose_guild", "card": "fools-b"})
            for deck, name in (("lords_ladies", "C"), ("man_beast", "D")):
                report("blue", {"type": "dealt", "deck": deck, "values": volunteer(name, deck)})
            ready(phone)
            page.wait_for_selector('button[data-form="roll"]')
            one_screen(page)  # the roll for the first player
            report("red", {"type": "roll"})
            assert phone.errors == []
        finally:
            phone.context.close()
        turn = session.guards.state.turn  # type: ignore[attr-defined]
        assert turn is not None
        phone = seated_phone(browser, server, turn.seat, tokens[turn.seat], language)
        try:
            page = phone.page
            ready(phone)
            page.wait_for_selector('button[data-form="end_turn"]')
            one_screen(page)  # the turn as it begins, its news on top
            page.click('button[data-form="spell_run"]')
            page.wait_for_selector('form[data-form="spell_run"]')
            one_screen(page)  # a report opened is the screen
            if language == "cs":
                phone.shot("guards-phone-form-cs")
            page.click("details.more > summary")
            page.wait_for_selector("details.more[open] .g-others")
            assert phone.errors == []
        finally:
            phone.context.close()
