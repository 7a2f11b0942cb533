"""Guards! Guards! through a real browser: Debian's chromium driven by Playwright.

The table screen sets up a Short Game of three Great Spells in the lobby; two phones
(360 px) join, choose their Guild Cards, type the Volunteers dealt to them and play it
out to a winner: Spell Runs and their Wizards' Challenges, a recruit typed on the phone,
the Final Spell collected in person and returned with Magic and Guild, and a Guild
Ability used in the other player's turn. The test decides each step from the game as a
player would from the table, but every step is a tap or a typed value on a phone.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import (
    PHONE_740,
    Page,
    lobby_for,
    opened_pages,
    read_all,
    start_game,
    take_seat,
)
from browser_support import wait_for_change as changed
from guards_support import final_of, rig, run_of, to_move
from live_server import LiveServer
from web_client import call

pytestmark = pytest.mark.browser
HERO, OTHER = "red", "blue"
CARDS = {"red": "thieves-a", "blue": "fools-b"}


@pytest.fixture
def pages(browser: Any) -> Any:
    with opened_pages(browser, seats=("red", "blue")) as opened:
        yield opened


def ready(server: LiveServer, phone: Page) -> None:
    """The phone shows the game as it is now, with its reports loaded."""
    phone.wait_revision(server.room.revision)
    phone.page.wait_for_selector("[data-loading=forms]", state="detached")


def tap(server: LiveServer, phone: Page, selector: str) -> None:
    ready(server, phone)
    revision = server.room.revision
    phone.page.click(selector)
    changed(server, revision, phone)


def open_form(phone: Page, key: str) -> Any:
    form = phone.page.locator(f'form[data-form="{key}"]')
    if form.count() == 0:
        phone.page.click(f'button[data-form="{key}"]')
    return phone.page.locator(f'form[data-form="{key}"]')


def send(server: LiveServer, phone: Page, key: str) -> None:
    revision = server.room.revision
    phone.page.click(f'button[data-send="{key}"]')
    changed(server, revision, phone)


def type_volunteer(phone: Page, key: str, name: str, **numbers: int) -> None:
    base = f"{key}.card"
    phone.page.fill(f'[data-focus="{base}.name"]', name)
    for field, value in numbers.items():
        phone.page.fill(f'[data-focus="{base}.{field}"]', str(value))


# one whole game told in order, a branch for each step the table may wait for
def test_a_short_game_from_the_lobby_to_a_winner(server: LiveServer, pages: dict[str, Page]) -> None:  # noqa: C901
    table, red, blue = pages["table"], pages["red"], pages["blue"]
    phones = {"red": red, "blue": blue}
    lobby = lobby_for(server, table, "guards")
    lobby.locator("select[name=players]").select_option("2")
    assert lobby.locator("input[value=cap_eights]").count() == 1
    lobby.locator("input[name=choice-spells]").fill("3")
    start_game(table, 5, red="Ann", blue="Bob")
    table.page.wait_for_selector(".guards-table .g-setup")
    assert table.page.locator(".g-challenges .g-house").count() == 4  # house targets marked as such
    session = server.room.session
    assert session is not None and session.game == "guards"
    state = session.guards.state  # type: ignore[attr-defined]
    assert state.options.spells == 3

    for seat, phone in phones.items():
        take_seat(server, phone, seat, ".guards-phone .g-setup-phone")
        ready(server, phone)
        phone.page.select_option('[data-focus="choose_guild.card"]', CARDS[seat])
        send(server, phone, "choose_guild")
        for deck in ("lords_ladies", "man_beast"):
            ready(server, phone)
            key = f"dealt:{deck}"
            type_volunteer(phone, key, f"{seat} {deck}", streetwise=11, toughness=11, loyalty=6, brawl=4)
            phone.page.click(f'form[data-form="{key}"] details.g-extra > summary')  # the rarer values
            phone.page.fill(f'[data-focus="{key}.card.bonus.magic"]', "3")
            phone.page.fill(f'[data-focus="{key}.card.bonus.guild"]', "3")
            send(server, phone, key)
    state = session.guards.state  # type: ignore[attr-defined]
    assert state.phase == "start"
    assert all(p.base["magic"] >= 7 for p in state.players.values())  # the dealt bonuses
    # the phone at 360 px: no sideways scrolling, big tap targets
    ready(server, red)
    red.page.wait_for_selector('button[data-form="roll"]')
    assert red.page.evaluate("document.documentElement.scrollWidth") <= 360
    heights = read_all(red.page, ".guards-phone button", "n => n.map(b => b.getBoundingClientRect().height)")
    assert min(heights) >= 44
    tap(server, red, 'button[data-form="roll"]')  # the roll for the first player

    used_ability = showed_chance = recruited = False
    steps = 0
    while not session.over:
        steps += 1
        assert steps < 150, "the game does not end"
        state = session.guards.state  # type: ignore[attr-defined]
        top = state.top
        if top is not None:
            seat = top.seats[0]
            phone = phones[seat]
            ready(server, phone)
            if top.kind == "test":
                chance = phone.page.inner_text(".g-now .g-chance")
                assert "%" in chance
                showed_chance = True
                tap(server, phone, 'button[data-form="roll"]')
            elif top.kind == "point":
                open_form(phone, "spend_point")
                options = read_all(phone.page, '[data-focus="spend_point.attribute"] option', "n => n.map(o => o.value)")
                phone.page.select_option('[data-focus="spend_point.attribute"]', next(o for o in options if o))
                send(server, phone, "spend_point")
            elif top.kind in ("bribe", "extra", "tavern"):
                tap(server, phone, f'button[data-form="decline:{top.kind}"]')
            elif top.kind == "reveal":
                form = open_form(phone, "reveal")
                assert form.count() == 1
                type_volunteer(phone, "reveal", "Turned Up")
                send(server, phone, "reveal")
            else:
                raise AssertionError(f"unexpected step {top.kind}")
            continue
        seat = state.turn.seat
        phone = phones[seat]
        ready(server, phone)
        player = state.players[seat]
        if seat == OTHER:
            tap(server, phone, 'button[data-form="end_turn"]')
            continue
        if not used_ability:
            # blue reacts in red's turn: its Guild Ability, its chance shown first
            ready(server, blue)
            assert "%" in blue.page.inner_text(".g-react .g-ability")
            tap(server, blue, 'button[data-form="guild_ability"]')
            used_ability = True
            table.wait_revision(server.room.revision)
            assert "Street Theatre" in table.page.inner_text("#log-list")  # the log tells the table
            continue
        if player.run is not None and run_of(player).stage == "gate":
            open_form(phone, "reattempt")
            send(server, phone, "reattempt")
        elif player.final is not None and player.final.at_gate:
            tap(server, phone, 'button[data-form="at_gate"]')  # the retry: only the roll left
        elif player.final is not None:
            open_form(phone, "at_gate")
            send(server, phone, "at_gate")
        elif len(player.returned) < 2 and player.hand and state.turn.stopped is None:
            open_form(phone, "spell_run")
            spells = read_all(phone.page, '[data-focus="spell_run.spell"] option', "n => n.map(o => o.value)")
            phone.page.select_option('[data-focus="spell_run.spell"]', next(s for s in spells if s))
            phone.page.select_option('[data-focus="spell_run.quadrant"]', "fools")
            phone.page.check(f'[data-focus="spell_run.runners.{player.hand[0]}"]')
            phone.page.click('form[data-form="spell_run"] button[data-quadrant="thieves"]')
            if len(player.returned) == 0:
                table.wait_revision(server.room.revision)
                table.shot("guards-table-turn")
                phone.shot("guards-phone-spell-run")
            send(server, phone, "spell_run")
        elif len(player.returned) == 2 and not player.hand and state.turn.stopped is None:
            open_form(phone, "recruit")
            phone.page.select_option('[data-focus="recruit.deck"]', "shades_shadows")
            phone.page.select_option('[data-focus="recruit.source"]', "deck")
            phone.page.select_option('[data-focus="recruit.quadrant"]', "fools")
            type_volunteer(phone, "recruit", "Escort", charm=1)
            assert "%" in phone.page.inner_text('form[data-form="recruit"] .g-chance-note')
            send(server, phone, "recruit")
            recruited = True
        elif len(player.returned) == 2 and player.hand and state.turn.stopped is None:
            open_form(phone, "collect_final")
            phone.page.click('button[data-send="collect_final"]')  # nothing chosen yet: named, not sent
            assert "Great Spell" in phone.page.inner_text('form[data-form="collect_final"] [data-missing]')
            spells = read_all(phone.page, '[data-focus="collect_final.spell"] option', "n => n.map(o => o.value)")
            phone.page.select_option('[data-focus="collect_final.spell"]', next(s for s in spells if s))
            phone.page.select_option('[data-focus="collect_final.quadrant"]', "fools")
            send(server, phone, "collect_final")
        else:
            tap(server, phone, 'button[data-form="end_turn"]')

    assert used_ability and showed_chance and recruited
    result = session.result()
    assert result is not None and result["winners"] == [HERO] and result["reason"] == "spells"
    for page in (table, red, blue):
        page.wait_revision(server.room.revision)
        assert "Ann" in page.page.inner_text(".winner")
    table.shot("guards-table-won")
    for page in (table, red, blue):
        assert page.errors == [], page.errors
        for text in page.responses:
            assert '"seed"' not in text and '"rng"' not in text


# --------------------------------------------------------------------- the Final Spell's retry


@pytest.fixture
def small_phone(browser: Any) -> Any:
    with opened_pages(browser, seats=("red",), phone=PHONE_740) as opened:
        yield opened["red"]


def on_screen(phone: Page, selector: str) -> bool:
    """Whether ``selector`` is in the 360x740 screen as the page first shows it."""
    box = phone.page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740 and box["x"] + box["width"] <= 360


def test_a_final_spell_retry_asks_only_for_the_roll_left(server: LiveServer, small_phone: Page) -> None:
    """"If either roll fails, they must wait and re-attempt only the failed roll on their
    next turn": on a 360x740 phone, the Magic roll fails and the Guild roll is still
    made; next turn one button on the first screen tries the Magic roll again, with no
    route to report, and it wins the game. Blue plays over the API."""
    red = small_phone
    base, code = server.base, server.code
    status, _ = call(base, "POST", f"/api/rooms/{code}/game",
                     {"game": "guards", "options": {"players": 2, "spells": 1}, "seed": 3}, pin=server.pin)
    assert status == 201
    blue = call(base, "POST", f"/api/rooms/{code}/seats/blue", {"name": "Bob"})[1]["token"]

    def blue_acts(action: dict[str, object]) -> None:
        status, body = call(base, "POST", f"/api/rooms/{code}/seats/blue/actions", {"action": action}, blue)
        assert status == 200, body

    blue_acts({"type": "choose_guild", "card": "fools-b"})
    for deck in ("lords_ladies", "man_beast"):
        blue_acts({"type": "dealt", "deck": deck, "values": {"name": f"blue {deck}", "deck": deck, "charm": 5,
                   "bribe": 3, "loyalty": 2, "streetwise": 2, "brawl": 2, "toughness": 2}})
    red.page.goto(server.url(f"/join/{code}"))
    red.page.click("button[data-seat=red]")
    red.page.wait_for_selector(".guards-phone .g-setup-phone")
    ready(server, red)
    red.page.select_option('[data-focus="choose_guild.card"]', "thieves-a")  # Magic 1, Guild 3
    send(server, red, "choose_guild")
    for deck in ("lords_ladies", "man_beast"):
        ready(server, red)
        type_volunteer(red, f"dealt:{deck}", f"red {deck}")
        send(server, red, f"dealt:{deck}")
    game = server.room.session.guards  # type: ignore[union-attr]
    rig(game, [8, 2])  # red begins
    tap(server, red, 'button[data-form="roll"]')

    open_form(red, "collect_final")
    red.page.select_option('[data-focus="collect_final.spell"]', "red")
    red.page.select_option('[data-focus="collect_final.quadrant"]', "fools")
    send(server, red, "collect_final")
    blue_acts({"type": "end_turn"})

    # back at the Gate: a quadrant tapped and the report cancelled leaves nothing picked
    open_form(red, "at_gate")
    red.page.click('form[data-form="at_gate"] button[data-quadrant="fools"]')
    assert red.page.locator('form[data-form="at_gate"] button[data-quadrant="fools"].primary').count() == 1
    red.page.click('button[data-cancel="at_gate"]')
    open_form(red, "at_gate")
    assert red.page.locator('form[data-form="at_gate"] button[data-quadrant].primary').count() == 0
    send(server, red, "at_gate")

    rig(game, [2, 6])  # Magic 1 + 2 fails; Guild 3 + 6 passes all the same
    ready(server, red)
    assert "Magic roll" in red.page.inner_text(".g-now")
    tap(server, red, 'button[data-form="roll"]')
    ready(server, red)
    assert "Guild roll" in red.page.inner_text(".g-now")  # the second roll is still made
    tap(server, red, 'button[data-form="roll"]')
    assert final_of(game.state.players["red"]).passed == ["guild"]
    blue_acts({"type": "end_turn"})

    ready(server, red)
    retry = 'button[data-form="at_gate"]'
    assert red.page.inner_text(retry) == "Try the Magic roll again"
    assert on_screen(red, retry)  # no scrolling to find it
    assert red.page.locator("button[data-quadrant]").count() == 0  # no route to report: no dead end
    tap(server, red, retry)
    ready(server, red)
    assert "Magic roll" in red.page.inner_text(".g-now")
    assert on_screen(red, 'button[data-form="roll"]')
    rig(game, [8, 5])
    tap(server, red, 'button[data-form="roll"]')
    assert server.room.session.over  # type: ignore[union-attr]
    red.page.wait_for_selector(".winner")
    assert red.errors == [], red.errors


def test_the_greyed_end_of_turn_says_why_a_recruit_goes_to_the_gate(server: LiveServer, small_phone: Page) -> None:
    """"Any Volunteers recruited in this way must be sent immediately to assist in
    completing the Spell Run": red's runners wait at the Gate and red has recruited one
    more. On the phone *End the turn* is greyed; a tap says why, from the rules; the
    report that sends the recruit is the one the phone shows first, the recruit ticked."""
    red = small_phone
    base, code = server.base, server.code
    status, _ = call(base, "POST", f"/api/rooms/{code}/game",
                     {"game": "guards", "options": {"players": 2, "spells": 5}, "seed": 3}, pin=server.pin)
    assert status == 201
    tokens = {seat: call(base, "POST", f"/api/rooms/{code}/seats/{seat}", {"name": seat})[1]["token"]
              for seat in ("red", "blue")}

    def acts(seat: str, **action: object) -> None:
        status, body = call(base, "POST", f"/api/rooms/{code}/seats/{seat}/actions", {"action": action}, tokens[seat])
        assert status == 200, body

    game = server.room.session.guards  # type: ignore[union-attr]
    for seat, card in (("red", "thieves-a"), ("blue", "fools-b")):
        acts(seat, type="choose_guild", card=card)
        for deck in ("lords_ladies", "man_beast"):
            acts(seat, type="dealt", deck=deck, values={"name": f"{seat} {deck}", "deck": deck, "charm": 5, "bribe": 3,
                                                         "loyalty": 2, "streetwise": 2, "brawl": 2, "toughness": 2})
    rig(game, [8, 2])
    acts("red", type="roll")
    first = game.state.players["red"].hand[0]
    acts("red", type="spell_run", spell="red", quadrant="thieves", runners=[first], route=[])
    rig(game, [1])
    acts("red", type="roll")  # the Challenge fails: the runner waits at the Gate
    acts("blue", type="end_turn")
    acts("red", type="recruit", deck="shades_shadows", source="deck", quadrant="fools",
         values={"name": "Escort", "deck": "shades_shadows", "charm": 1, "bribe": 3, "loyalty": 2, "streetwise": 2,
                 "brawl": 2, "toughness": 2})
    rig(game, [5])
    acts("red", type="roll")

    red.context.add_init_script(
        f"localStorage.setItem('clacks-seat:{code}', JSON.stringify({{seat: 'red', token: '{tokens['red']}'}}))")
    red.page.goto(server.url(f"/join/{code}"))
    red.page.wait_for_selector(".guards-phone")
    ready(server, red)
    # the re-attempt form is the turn's screen: the end of the turn waits behind it,
    # greyed, and the engine refuses it in words that name the recruit
    end = red.page.locator('button[data-form="end_turn"]')
    assert end.get_attribute("aria-disabled") == "true" and not end.is_visible()
    status, body = call(base, "POST", f"/api/rooms/{code}/seats/red/actions",
                        {"action": {"type": "end_turn"}}, tokens["red"])
    assert status == 422 and "Escort" in str(body) and "at once" in str(body), body
    assert to_move(game) == "red"  # the refusal changed nothing
    form = red.page.locator('.g-now form[data-form="reattempt"]')
    assert form.count() == 1 and on_screen(red, '.g-now form[data-form="reattempt"] h3')
    escort = game.state.players["red"].hand[-1]
    assert red.page.is_checked(f'[data-focus="reattempt.runners.{escort}"]')
    send(server, red, "reattempt")
    assert escort in run_of(game.state.players["red"]).runners
    assert red.errors == [], red.errors
