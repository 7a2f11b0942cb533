"""Every other Clacks mode through a real browser: the co-operative Race to Genua (Long
Distance and Night Shift, two phones and the table, set up in the lobby with the team's
own words), solitaire played to its end on one phone, a few turns of the junior race,
and the alphabet trainer. The table screen runs with a simulated exchange board, so its
tower buttons go through the board's press path and its LEDs are drawn.

As in the competitive test, the engine's self-play policy chooses each move by reading
the game in progress, and every move is made by tapping a page.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser_support import (
    PHONE,
    SCREENSHOTS,
    TV,
    Page,
    lamps_shown,
    lobby_for,
    place_jacquard,
    read_all,
    read_one,
    start_game,
)
from live_server import LiveServer

from engine.clacks.actions import Action, EndTurn, PlayJacquard, Swap, Transmit
from engine.clacks.geometry import Seat, pattern_mask, tower, towers_of
from engine.clacks.selfplay import choose_map_action
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.games import game_module
from firmware.config import BoardConfig, LedConfig
from firmware.factory import create_board
from web.i18n import catalog
from web.refusals import in_english

pytestmark = pytest.mark.browser

LAMPS: list[str] = game_module("clacks").reference()["lamps"]


@contextmanager
def serving(board_config: BoardConfig | None = None) -> Iterator[LiveServer]:
    """A companion with a simulated exchange board, its renderer running."""
    board = create_board(board_config or BoardConfig(), model=None)
    server = LiveServer(board=board)
    board.start()
    try:
        yield server
    finally:
        server.close()
        board.stop()


@contextmanager
def opened(browser: Any, **sizes: dict[str, Any]) -> Iterator[dict[str, Page]]:
    pages = {name: Page(browser, name, **size) for name, size in sizes.items()}
    try:
        yield pages
    finally:
        for page in pages.values():
            page.context.close()


def sit(phone: Page, server: LiveServer, seat: str, name: str, language: str = "en") -> None:
    phone.page.goto(server.url(f"/join/{server.code}?lang={language}"))
    phone.page.wait_for_selector(f"button[data-seat={seat}]")
    if phone.page.locator("#player-name").count():  # a seat the table named asks no name
        phone.page.fill("#player-name", name)
    phone.page.click(f"button[data-seat={seat}]")
    phone.page.wait_for_selector("#who button")  # seated: the seat picker has gone
    phone.wait_revision(server.room.revision)


def tap(
    phone: Page,
    seat: str,
    action: Action,
    hand: list[dict[str, Any]],
    table: Page | None = None,
    table_previews: bool = True,
) -> None:
    """Make ``action`` by tapping the phone of ``seat`` (with ``table``: check that the
    table screen previews a Jacquard's flips too, or, in Long Distance, that it does not:
    the card is hidden from the rest of the team)."""
    page = phone.page
    if isinstance(action, PlayJacquard):
        card = next(c for c in hand if c["id"] == action.jacquard)
        wanted = action.to_json()["lamps"]
        place_jacquard(phone, seat, card, wanted)
        if table is not None and table_previews:
            table.page.wait_for_function(
                "n => document.querySelectorAll('.board-box .lamp.flip').length === n",
                arg=len(wanted),
            )
            assert lamps_shown(table.page, ".board-box .lamp.flip") == set(wanted)
        elif table is not None:
            table.page.wait_for_timeout(500)  # time for a preview to arrive, if one were sent
            assert lamps_shown(table.page, ".board-box .lamp.flip") == set()
        page.click("[data-action=confirm]")
    elif isinstance(action, Swap):
        # the swap slots are folded under the hand: open them first
        if not page.locator("details.more").evaluate("d => d.open"):
            page.click("details.more > summary")
        page.click(f"[data-slot='{action.slot}'] [data-action=swap]")
        page.click(f".jacquard[data-card='{action.jacquard}'] .card-button")
    elif isinstance(action, Transmit):
        page.click(f".board-box [data-tower='{action.tower}']")
    else:
        assert isinstance(action, EndTurn), action
        page.click("[data-action=end_turn]")


def wait_for_change(server: LiveServer, revision: int, phone: Page, what: Any) -> None:
    deadline = time.time() + 10
    while server.room.revision == revision and time.time() < deadline:
        time.sleep(0.02)
    assert server.room.revision == revision + 1, (
        f"{phone.name} could not {what}: {phone.page.inner_text('#error')}"
    )


def shown_cards(page: Any) -> set[str]:
    """Every Jacquard the page's DOM names: its own hand and any other card drawn."""
    found: list[str] = read_all(
        page,
        "[data-card], [data-jacquard]", "n => n.map(x => x.dataset.card || x.dataset.jacquard)"
    )
    return set(found)


def lit_leds(page: Any) -> set[str]:
    return set(read_all(page, "#led-grid .led.lit", "n => n.map(x => x.dataset.led)"))


# ---------------------------------------------------------------------- co-op


# one whole game told in order, a branch for each step the table may wait for
def test_a_long_distance_co_op_game_with_two_phones_and_the_table(browser: Any) -> None:  # noqa: C901
    with serving() as server, opened(browser, table=TV, south=PHONE, north=PHONE) as pages:
        table, south, north = pages["table"], pages["south"], pages["north"]
        table.page.goto(server.url("/"))

        # the lobby: the co-op mode, its route and variants, the team's own message
        lobby = table.page.locator("dialog")
        lobby.locator("select[name=mode]").select_option("coop")
        lobby.locator("select[name=players]").select_option("2")
        lobby.locator("select[name=choice-route]").select_option("hard")
        lobby.locator("input[value=long_distance]").check()
        lobby.locator("input[value=night_shift]").check()
        lobby.locator("input[name=words][value=custom]").check()
        lobby.locator("input[name=word-team-0]").fill("Genua")
        lobby.locator("input[name=word-team-1]").fill("Moist")
        assert lobby.locator("[data-letters=team]").inner_text() == "10 of 10 letters"
        start_game(table, 3, south="Ann", north="Bob")
        session = server.room.session
        assert session is not None
        view = session.view(None)
        assert view["mode"] == "coop" and view["route"]["id"] == "hard"
        assert view["options"]["long_distance"] and view["options"]["night_shift"]
        assert view["message"]["words"] == ["GENUA", "MOIST"]
        assert table.page.locator(".route-map .site").count() == 12
        # (the count's spaces do not break: it stays on one line)
        route_box = table.page.inner_text(".route-box").replace("\u00a0", " ")
        assert "Post Office: step 0 of 34" in route_box
        assert table.page.locator("[data-slot]").count() == 4

        # the simulated exchange's LEDs on the table screen (a view of their own): the
        # lamps as lit
        table.page.click("#views [data-view=leds]")
        table.page.wait_for_selector("#leds:not([hidden]) .led")
        lit = {LAMPS[i] for i in range(16) if session.lamps().lit >> i & 1}
        table.page.wait_for_function(
            "n => document.querySelectorAll('#led-grid .led.lit').length === n", arg=len(lit)
        )
        assert lit_leds(table.page) == lit
        table.page.click("#views [data-view=game]")

        sit(south, server, "south", "Ann")
        sit(north, server, "north", "Bob")
        phones = {"south": south, "north": north}
        clacks = session.clacks  # type: ignore[attr-defined]
        rng = Rng(3)
        hands_at: dict[int, dict[str, list[str]]] = {}
        public: set[str] = {s["jacquard"]["id"] for s in view["slots"] if s["jacquard"]}
        done = {"swap": 0, "transmit": 0, "table_transmit": 0, "table_preview": 0}
        while done["transmit"] < 3 and not session.over:
            revision = server.room.revision
            hands_at[revision] = {
                s: [c["id"] for c in session.view(s)["you"]["hand"]] for s in phones
            }
            seat = session.active_seats[0]
            phone = phones[seat]
            phone.wait_revision(revision)
            legal = clacks.legal_actions(Seat.parse(seat))
            swaps = [a for a in legal if isinstance(a, Swap) and a.slot.startswith("log")]
            action = swaps[0] if swaps and not done["swap"] else choose_map_action(clacks, rng)
            if (
                isinstance(action, Transmit)
                and done["transmit"] == 1
                and not done["table_transmit"]
            ):
                # the table screen's tower button transmits for the player in turn, through
                # the board's own press path
                table.wait_revision(revision)
                table.page.click(f".board-box [data-tower='{action.tower}']")
                done["table_transmit"] += 1
            else:
                if isinstance(action, Transmit) and not done["transmit"]:
                    refuse_a_tower_without_the_symbol(phone, clacks, seat)
                previewed = table if isinstance(action, PlayJacquard) and revision < 4 else None
                done["table_preview"] += previewed is not None
                tap(
                    phone, seat, action, session.view(seat)["you"]["hand"], previewed,
                    table_previews=False,  # Long Distance: the preview stays on the phone
                )
            wait_for_change(server, revision, phone, action.to_json())
            kind = (
                "swap"
                if isinstance(action, Swap)
                else "transmit"
                if isinstance(action, Transmit)
                else None
            )
            if kind:
                done[kind] += 1
            table.wait_revision(revision + 1)
            if isinstance(action, Swap):
                # the card lifted with it is read out on every screen
                (card,) = [c["id"] for c in session.view(None)["revealed"]][-1:]
                for page in (table, south, north):
                    page.wait_revision(revision + 1)
                    assert page.page.locator(f"[data-revealed='{card}']").count() == 1
            if isinstance(action, Transmit):
                progress = session.view(None)["message"]["progress"]
                assert table.page.locator(".route-box .site.on").count() == progress
            # Long Distance: no page ever shows a Jacquard from another hand
            hands = {s: [c["id"] for c in session.view(s)["you"]["hand"]] for s in phones}
            hands_at[revision + 1] = hands
            for seat_name, page in phones.items():
                page.wait_revision(revision + 1)
                own = set(hands[seat_name])
                assert own <= shown_cards(page.page)
                others = {c for s, cs in hands.items() if s != seat_name for c in cs} - public
                assert not shown_cards(page.page) & others, seat_name
            assert table.page.locator("[data-card]").count() == 0
            assert not shown_cards(table.page) & {c for cs in hands.values() for c in cs} - public
        assert done["swap"] == 1 and done["transmit"] == 3 and done["table_transmit"] == 1
        assert done["table_preview"] >= 1
        south.wait_revision(server.room.revision)
        if not south.page.locator("details.more").evaluate("d => d.open"):
            south.page.click("details.more > summary")  # the team, folded under the turn
        assert "hidden (Long Distance)" in south.page.inner_text(".team")
        if SCREENSHOTS:
            time.sleep(1.5)  # the transmit animation over, the LED board shows the lamps
        table.shot("table-tv-coop")
        (phones[session.active_seats[0]] if session.active_seats else south).shot("phone-coop")

        # nothing another seat held ever reached a page: pushed events and API answers
        for page, reader in ((table, None), (south, "south"), (north, "north")):
            assert page.errors == [], page.errors
            pushed = page.pushed()
            assert len(pushed) >= 6
            for message in pushed:
                held = hands_at.get(message["revision"])
                text = json.dumps(message)
                for seat_name, cards in (held or {}).items():
                    if seat_name != reader:
                        for card in set(cards) - public:
                            assert f'"{card}"' not in text, (page.name, message["revision"], card)
            for text in page.responses:
                answer = json.loads(text) if text.startswith("{") else {}
                held = hands_at.get(answer.get("revision", -1))
                for seat_name, cards in (held or {}).items():
                    if seat_name != reader:
                        for card in set(cards) - public:
                            assert f'"{card}"' not in text, (page.name, card)


def refuse_a_tower_without_the_symbol(phone: Page, clacks: Any, seat: str) -> None:
    """Long Distance gives no hints: every tower of the seat's colour can be tapped, and one
    that does not show the symbol is refused with the engine's reason, changing nothing."""
    me = Seat.parse(seat)
    sending = {a.tower for a in clacks.legal_actions(me) if isinstance(a, Transmit)}
    wrong = next(t for t in towers_of(me.colour) if t not in sending)
    with pytest.raises(IllegalAction) as refused:
        clacks.clone().apply(Transmit(me, tower=wrong))
    before = len(clacks.log)
    phone.page.click(f".board-box [data-tower='{wrong}']")
    phone.page.wait_for_selector("#error:not([hidden])")
    assert phone.page.inner_text("#error") == in_english(refused.value)
    assert len(clacks.log) == before


# ---------------------------------------------------------------------- solitaire


def test_a_solitaire_game_to_its_end_on_one_phone(browser: Any) -> None:
    with serving() as server, opened(browser, south=PHONE, table=TV) as pages:
        options = {"mode": "solitaire", "players": 1, "night_shift": True}
        server.room.new_game("clacks", options, seed=2, language="cs")
        session = server.room.session
        assert session is not None
        phone = pages["south"]
        sit(phone, server, "south", "Sol", language="cs")
        # in Czech, at 360 px: nothing wider than the phone, every button a large target
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
        heights = read_all(
            phone.page,
            "button", "n => n.map(b => b.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44
        assert phone.page.get_attribute(".mine", "aria-label") == "Zpráva týmu"
        clacks = session.clacks  # type: ignore[attr-defined]
        rng = Rng(2)
        steps = 0
        while not session.over:
            revision = server.room.revision
            phone.wait_revision(revision)
            action = choose_map_action(clacks, rng)
            if isinstance(action, Transmit):
                # the Transmit button sends from the first tower the engine allows
                first = next(
                    a for a in session.legal_actions("south", 0.0) if a["type"] == "transmit"
                )
                action = Transmit(Seat.SOUTH, tower=first["tower"])
                phone.page.click("[data-action=transmit]")
            else:
                tap(phone, "south", action, session.view("south")["you"]["hand"])
            wait_for_change(server, revision, phone, action.to_json())
            steps += 1
            assert len(session.view("south")["you"]["hand"]) <= 2
        phone.wait_revision(server.room.revision)
        result = session.result()
        assert result is not None and result["team"] in ("won", "lost") and steps > 20
        banner = phone.page.inner_text(".winner")
        # solitaire: the player alone wins ("Vítězíte!"), or the Post Office does
        assert ("Vítězíte!" if result["team"] == "won" else "Vítězí Poštovní úřad.") in banner
        assert phone.page.locator("[data-action=transmit]").count() == 0
        # the cards read out, by their Czech names and texts (a Fault Report revealed on
        # the Night Shift with its Night Shift text)
        revealed = session.view(None)["revealed"]
        assert {card["deck"] for card in revealed} >= {"fault"}
        czech = catalog("cs")
        if not phone.page.locator("details.more").evaluate("d => d.open"):
            phone.page.click("details.more > summary")  # folded under the turn's screen
        for card in revealed:
            design = card["id"].rsplit("-", 1)[0]
            reading = "night_shift" if card["deck"] == "fault" else "text"
            shown = phone.page.locator(f"[data-revealed='{card['id']}']")
            assert shown.locator("strong").inner_text() == czech[f"card.{design}.name"]
            assert shown.locator("p").inner_text() == czech[f"card.{design}.{reading}"]
        # nor anywhere else on the page: the latest events, the effects that last a round
        words = phone.page.inner_text("main")
        assert not [card["name"] for card in revealed if card["name"] in words]
        # the route and its tower locations by their Czech names, on the Czech table and
        # the phone (its map folded away, the log's lit towers, the map's spoken labels)
        table = pages["table"]
        table.page.goto(server.url(f"/table/{server.code}"))  # the room's language: Czech
        table.wait_revision(server.room.revision)
        route = session.view(None)["route"]
        assert table.page.inner_text(".route-name") == czech[f"route.{route['id']}.name"]
        english = catalog("en")
        places = [f"route.{route['id']}.place.{n}" for n in range(1, len(route["towers"]) + 1)]
        for page in (table.page, phone.page):
            said = read_one(
                page,
                "main",
                "m => [m.textContent, ...[...m.querySelectorAll('[aria-label]')]"
                ".map(n => n.getAttribute('aria-label'))].join(' | ')",
            )
            assert all(czech[key] in said for key in places)
            only_english = [
                english[key]
                for key in (f"route.{route['id']}.name", "route.finish", *places)
                if english[key] != czech[key] and english[key] in said
            ]
            assert not only_english
        assert phone.errors == [] and table.errors == []


# ---------------------------------------------------------------------- junior


def test_a_few_turns_of_the_junior_race_and_a_board_warning(browser: Any) -> None:
    # an LED driver that cannot start on this machine: a warning, and the game goes on
    broken = BoardConfig(leds=LedConfig(backend="spi"))
    with serving(broken) as server, opened(browser, table=TV, south=PHONE, west=PHONE) as pages:
        table = pages["table"]
        server.room.new_game("clacks", {"mode": "junior", "players": 2}, seed=5)
        session = server.room.session
        assert session is not None
        table.page.goto(server.url("/"))
        table.wait_revision(1)
        warning = table.page.inner_text("#hardware")
        assert "LED driver 'spi' unavailable" in warning
        table.page.click("#views [data-view=leds]")  # the lamps are shown on screen instead
        assert table.page.is_visible("#leds")
        table.page.click("#views [data-view=game]")
        phones = {"south": pages["south"], "west": pages["west"]}
        for seat, phone in phones.items():
            sit(phone, server, seat, seat.capitalize())
        assert phones["south"].page.locator(".jacquard").count() == 4
        clacks = session.clacks  # type: ignore[attr-defined]
        rng = Rng(5)
        sent = 0
        while sent < 4:
            revision = server.room.revision
            seat = session.active_seats[0]
            phone = phones[seat]
            phone.wait_revision(revision)
            action = choose_map_action(clacks, rng)
            tap(phone, seat, action, session.view(seat)["you"]["hand"])
            wait_for_change(server, revision, phone, action.to_json())
            if isinstance(action, Transmit):
                sent += 1
                player = next(p for p in session.view(None)["players"] if p["seat"] == seat)
                table.wait_revision(revision + 1)
                racer = table.page.locator(f".racer[data-seat={seat}]")
                assert f"pawn at {player['pawn_at']}" in racer.inner_text()
                assert racer.locator(".site.on").count() == player["progress"]
        for phone in (table, *phones.values()):
            assert phone.errors == []


# ---------------------------------------------------------------------- the trainer


def test_the_alphabet_trainer_from_the_lobby_on_a_phone(browser: Any) -> None:
    with serving() as server, opened(browser, table=TV, west=PHONE) as pages:
        table, phone = pages["table"], pages["west"]
        lobby = lobby_for(server, table, "clacks-trainer")
        assert lobby.locator("select[name=mode]").is_hidden()
        lobby.locator("select[name=choice-seat]").select_option("west")
        lobby.locator("select[name=choice-kind]").select_option("mixed")
        lobby.locator("input[name=choice-questions]").fill("5")
        start_game(table, 1)
        session = server.room.session
        assert session is not None and session.game == "clacks-trainer"
        sit(phone, server, "west", "Kid")
        trainer = session.trainer  # type: ignore[attr-defined]
        kinds = set()
        wrong_given = False
        while not session.over:
            revision = server.room.revision
            phone.wait_revision(revision)
            table.wait_revision(revision)
            question = trainer.state.question
            kinds.add(question.kind)
            if question.kind == "read":
                answer = question.symbol
                if not wrong_given:  # one wrong answer, to see it marked
                    answer = "A" if question.symbol != "A" else "B"
                    wrong_given = True
                phone.page.click(f"[data-answer='{answer}']")
                wait_for_change(server, revision, phone, f"answer {answer}")
                continue
            # a set question: flip the lamps that differ, then check on the table screen
            needed = pattern_mask(
                trainer.components.pattern(question.symbol), Seat.WEST, question.tower
            )
            wrong = (trainer.state.board ^ needed) & tower(question.tower).mask
            for lamp in [LAMPS[i] for i in range(16) if wrong >> i & 1]:
                revision = server.room.revision
                phone.page.click(f"[data-lamp={lamp}][role=button]")  # once flips are allowed
                wait_for_change(server, revision, phone, f"flip {lamp}")
                phone.wait_revision(revision + 1)
                table.wait_revision(revision + 1)
            revision = server.room.revision
            table.page.click(f".board-box [data-tower='{question.tower}']")
            wait_for_change(server, revision, table, "check at the tower")
        assert kinds == {"read", "set"} and wrong_given  # this deal asks both kinds
        result = session.result()
        assert result is not None and result["asked"] == 5 and result["score"] == 4
        phone.wait_revision(server.room.revision)
        assert "4 of 5 right" in phone.page.inner_text(".winner").replace("\u00a0", " ")
        log = table.page.inner_text("#log-list")
        assert "but it was" in log and "right!" in log
        for page in (table, phone):
            assert page.errors == []
