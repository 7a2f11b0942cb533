"""The table's own controls in a real browser (Debian's chromium through Playwright):
the PIN on the companion's own screen and typed elsewhere, the saved games (replay,
export, import, delete, resume), the replay viewer on the screen and the lamps, ending a
game, freeing a seat, and a phone taking its seat over from the seat's own link.

Chromium maps the name ``clacks.test`` to the loopback address, so a page opened by that
name is a table screen on another device as far as the companion can tell.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import ARGS, PHONE, Page, launched_chromium, read_all
from full_disk import FullDisk
from live_server import LiveServer
from test_web_board import RecordingBoard
from web_client import call

from engine.clacks.selfplay import next_action
from engine.core.rng import Rng, seed_to_hex
from engine.games import game_module
from web.i18n import translate

pytestmark = pytest.mark.browser
ELSEWHERE = "clacks.test"
TV = {"viewport": {"width": 1600, "height": 900}}


@pytest.fixture(scope="module")
def browser(playwright: Any) -> Iterator[Any]:
    # the name clacks.test leads to this machine, as another device's name would
    yield from launched_chromium(
        playwright, [*ARGS, f"--host-resolver-rules=MAP {ELSEWHERE} 127.0.0.1"]
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[LiveServer, RecordingBoard]]:
    board = RecordingBoard()
    server = LiveServer(board=board, data_dir=tmp_path / "state", allowed_hosts=[ELSEWHERE])
    try:
        yield server, board
    finally:
        server.close()


def play_through_api(
    server: LiveServer, tokens: dict[str, str], actions: int | None = None
) -> None:
    session = server.room.session
    assert session is not None
    rng = Rng(4)
    done = 0
    while not session.over and (actions is None or done < actions):
        action = next_action(session.clacks, rng)  # type: ignore[attr-defined]
        seat = action.seat.label  # type: ignore[union-attr]
        path = f"/api/rooms/{server.code}/seats/{seat}/actions"
        status, body = call(
            server.base, "POST", path, {"action": action.to_json()}, token=tokens[seat]
        )
        assert status == 200, body
        done += 1


def lit_on_screen(page: Any) -> set[str]:
    return set(
        read_all(page, ".clacks-table .lamp.on", "n => n.map(x => x.dataset.lamp)")
    )


def test_the_table_screen_runs_the_saved_games_and_the_replay_viewer(
    browser: Any, served: tuple[LiveServer, RecordingBoard], tmp_path: Path
) -> None:
    server, board = served
    own = Page(browser, "table", **TV)
    phone = Page(browser, "phone", **PHONE)
    moved = Page(browser, "moved", **PHONE)
    try:
        # the companion's own screen shows its PIN when asked (not to a glance at the TV),
        # and starts a game from the lobby
        table = own.page
        table.goto(server.url("/"))
        table.wait_for_selector("#lobby .pin-show")
        assert server.pin not in table.inner_text("body")
        table.click("#lobby .pin-show")
        assert table.inner_text("#lobby .pin-value") == server.pin
        assert table.inner_text("#pin-value") == server.pin
        table.click("#lobby .pin-show")
        assert server.pin not in table.inner_text("body")
        table.fill("input[name=seed]", "12")
        table.click("#lobby button[type=submit]")
        own.wait_revision(1)

        # a phone sits down, and moves its seat to another device with the seat's link:
        # the new device gets a token of its own, and the old one lets the seat go
        phone.page.goto(server.url(f"/join/{server.code}"))
        phone.page.fill("#player-name", "Ann")
        phone.page.click("button[data-seat=south]")
        phone.page.wait_for_selector("[data-action=menu]")
        first = json.loads(
            phone.page.evaluate(f"localStorage.getItem('clacks-seat:{server.code}')")
        )["token"]
        phone.page.click("[data-action=menu]")  # the seat's menu: the language, the seat's link
        phone.page.click(".seat-link summary")
        phone.page.wait_for_function("() => document.querySelector('.seat-link input').value")
        link = phone.page.input_value(".seat-link input")
        assert "#seat=south&move=" in link and first not in link
        moved.page.goto(link)
        moved.page.wait_for_selector(".jacquard")
        assert "#" not in moved.page.url  # the link leaves the address bar at once
        token = json.loads(
            moved.page.evaluate(f"localStorage.getItem('clacks-seat:{server.code}')")
        )["token"]
        server.room.seats.authorize("south", token)
        assert token != first and server.room.seats.visible_seat("south", first) is None
        phone.page.wait_for_selector("button[data-seat=south][disabled]")  # back to the picker
        # the link works once
        again = Page(browser, "again", **PHONE)
        again.page.goto(link)
        again.page.wait_for_selector("#error:not([hidden])")
        assert "used already" in again.page.inner_text("#error")
        again.context.close()
        north = call(server.base, "POST", f"/api/rooms/{server.code}/seats/north", {"name": "Bob"})[
            1
        ]

        # the table frees a seat: its controls are one tap away, and it asks again in place
        table.click("#open-controls")
        table.wait_for_selector("button[data-free=north]")
        table.click("button[data-free=north]")
        assert "Bob" in table.inner_text("[data-confirm='free:north']")
        table.click("[data-confirm='free:north'] [data-yes]")
        # freed: the table's next snapshot has the seat free, and its button gone
        table.wait_for_function(
            "() => (window.__pushed || []).some((data) => JSON.parse(data).room.seats"
            ".some((s) => s.id === 'north' && !s.claimed))"
        )
        table.wait_for_selector("[data-confirm='free:north']", state="detached")
        table.wait_for_selector("button[data-free=north]", state="detached")
        table.click("#close-controls")
        assert "north" not in server.room.seats.claims
        north = call(server.base, "POST", f"/api/rooms/{server.code}/seats/north", {"name": "Bob"})[
            1
        ]
        tokens = {"south": token, "north": north["token"]}
        play_through_api(server, tokens)
        session = server.room.session
        assert session is not None and session.over
        log = session.log_json()
        steps = len(log["actions"])

        # the saved games: replay the finished one, on the screen and on the lamps
        table.click("#open-controls")
        table.click("#open-saves")
        table.wait_for_selector("#saves [data-replay]")
        table.click("#saves [data-replay]")
        table.wait_for_selector("#replay-step")
        # (the count's spaces do not break: it stays on one line)
        assert table.inner_text("#replay-step") == f"step\u00a00\u00a0of\u00a0{steps}"
        module = game_module("clacks")
        for button, step in (
            ("#replay-forward", 1),
            ("#replay-forward", 2),
            ("#replay-last", steps),
            ("#replay-back", steps - 1),
            ("#replay-first", 0),
        ):
            table.click(button)
            table.wait_for_function(
                "t => document.querySelector('#replay-step').textContent === t",
                arg=f"step\u00a0{step}\u00a0of\u00a0{steps}",
            )
            expected = module.replay({**log, "actions": log["actions"][:step]})
            names = game_module("clacks").reference()["lamps"]
            lit = {names[i] for i in range(16) if expected.lamps().lit >> i & 1}
            table.wait_for_function(
                "n => document.querySelectorAll('.clacks-table .lamp.on').length === n",
                arg=len(lit),
            )
            assert lit_on_screen(table) == lit
            assert board.frames[-1] == expected.lamps()
            # the log tells the game up to the step shown, one item a step, the step
            # shown first with one line an event of its action
            told = call(server.base, "GET", f"/api/rooms/{server.code}")[1]["replay"]["events"]
            assert (step == 0) == (told == [])
            table.wait_for_function(
                "n => document.querySelectorAll('#log-list li').length === n", arg=step + 1
            )
            latest = table.locator("#log-list li").first
            assert latest.get_attribute("data-step") == str(step)
            if step:
                assert latest.locator(".step-event").count() == len(told)
        table.click("#replay-close")
        table.wait_for_selector("#lobby[open]")
        assert own.errors == [] and phone.errors == []
    finally:
        for page in (own, phone, moved):
            page.context.close()


def test_a_table_screen_elsewhere_types_the_pin_and_moves_games_in_and_out(
    browser: Any, served: tuple[LiveServer, RecordingBoard], tmp_path: Path
) -> None:
    server, _ = served
    room = server.room
    room.new_game("clacks", {"players": 2}, 12)
    tokens = {s: room.seats.claim(s, s.title(), None)["token"] for s in ("south", "north")}
    play_through_api(server, tokens, actions=6)
    unfinished = room.session.log_json()  # type: ignore[union-attr]
    elsewhere = Page(browser, "elsewhere", accept_downloads=True, **TV)
    try:
        table = elsewhere.page
        port = server.base.rsplit(":", 1)[1]
        table.goto(f"http://{ELSEWHERE}:{port}/table/{server.code}")
        table.wait_for_selector("#pin-input")
        assert server.pin not in table.content()
        # a wrong PIN is refused in words; the right one unlocks the table's controls
        table.fill("#pin-input", "000000")
        table.click(".pin-form button")
        table.wait_for_selector(".pin-form .error:not([hidden])")
        assert "not this table's PIN" in table.inner_text(".pin-form .error")
        table.fill("#pin-input", server.pin)
        table.click(".pin-form button")
        table.wait_for_selector("#pin-value")

        # end the game: it goes to the saved games, unfinished
        table.click("#open-controls")
        table.click("#end-game")
        table.click("[data-confirm=end] [data-yes]")
        table.wait_for_selector("#lobby[open]")
        assert room.session is None

        # an unfinished game has no plain export: revealing it gives its file and closes
        # it for play; the file imported back is a game of its own, resumed, deleted
        table.click("#lobby button:has-text('Saved games')")
        table.wait_for_selector("#saves [data-reveal]")
        assert table.query_selector("#saves [data-export]") is None
        original = server.hub.store.listing()[0]["id"]
        table.click("#saves [data-reveal]")  # asks first: the game's secrecy ends
        with table.expect_download() as download:
            table.click(f"#saves [data-reveal-yes='{original}']")
        saved = tmp_path / "exported.json"
        download.value.save_as(saved)
        exported = json.loads(saved.read_text())
        # the seed as 64 hex digits: a browser reads JSON numbers only to 2**53
        assert exported["actions"] == unfinished["actions"] and exported["seed"] == seed_to_hex(12)
        table.wait_for_selector(f"#saves [data-save='{original}'] [data-export]")
        assert table.query_selector(f"#saves [data-resume='{original}']") is None
        assert "revealed" in table.inner_text(f"#saves [data-save='{original}']")
        table.set_input_files("#import-file", str(saved))
        table.wait_for_function("() => document.querySelectorAll('#saves li.save').length === 2")
        broken = tmp_path / "broken.json"
        broken.write_text("{ not a replay")
        table.set_input_files("#import-file", str(broken))
        table.wait_for_selector("#saves .error:not([hidden])")
        table.click(f"#saves [data-delete='{original}']")
        table.click(f"#saves [data-delete-yes='{original}']")
        table.wait_for_function("() => document.querySelectorAll('#saves li.save').length === 1")
        table.click("#saves [data-resume]")
        elsewhere.wait_revision(room.revision)
        assert room.session is not None and room.session.log_json() == unfinished
        table.wait_for_selector(".clacks-table")
        assert elsewhere.errors == []
    finally:
        elsewhere.context.close()


def test_the_table_screen_fits_a_phone(
    browser: Any, served: tuple[LiveServer, RecordingBoard]
) -> None:
    server, _board = served
    server.room.new_game("clacks", {"players": 2}, seed=12)
    small = Page(browser, "table-on-a-phone", **PHONE)
    try:
        small.page.goto(server.url("/"))
        small.page.wait_for_selector(".clacks-table .lamp")
        # the join panel's long address wraps instead of widening the page
        assert small.page.evaluate("document.documentElement.scrollWidth") <= 360
        assert small.page.locator("[data-tower=b2c2]").bounding_box()["width"] >= 24
        assert small.errors == []
    finally:
        small.page.context.close()


def test_the_table_screen_says_when_the_companion_cannot_save(
    browser: Any, served: tuple[LiveServer, RecordingBoard]
) -> None:
    server, _ = served
    room = server.room
    room.new_game("clacks", {"players": 2}, 12)
    token = room.seats.claim("south", "Ann", None)["token"]
    screens = {lang: Page(browser, f"table-{lang}", **TV) for lang in ("en", "cs")}
    disk = FullDisk(server.hub.store)
    try:
        for lang, screen in screens.items():
            screen.page.goto(server.url(f"/table/{server.code}?lang={lang}"))
            screen.page.wait_for_selector(".clacks-table")
            assert screen.page.is_hidden("#saving")
        disk.fill()
        path = f"/api/rooms/{server.code}/seats/south/actions"
        move = {"action": {"type": "move", "tower": "b2c2"}}
        assert call(server.base, "POST", path, move, token=token)[0] == 503
        for lang, screen in screens.items():
            screen.page.wait_for_selector("#saving:not([hidden])")
            words = translate(lang, "ui.saves_failing", time="@").split("@")
            shown = screen.page.inner_text("#saving")
            assert shown.startswith(words[0]) and shown.endswith(words[1]), (lang, shown)
        disk.room()
        assert call(server.base, "POST", path, move, token=token)[0] == 200
        for screen in screens.values():
            screen.page.wait_for_selector("#saving", state="hidden")
            assert screen.errors == []
    finally:
        for screen in screens.values():
            screen.context.close()
