"""The Clockman phone's flows through a real browser (Debian's chromium, Playwright) on a
360 x 740 screen: a knock reported and then the landing, with no dead end in between;
every greyed-out control saying why in the engine's words; symbol cards named by their
pose. The moves before the phone's part are played through the room, as any phone
plays them."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import (
    PHONE,
    Page,
    opened_pages,
    read_one,
    take_seat,
    tap_greyed,
    wait_for_change,
)
from live_server import LiveServer

from engine.clockman.game import ClockmanGame

pytestmark = pytest.mark.browser
PHONE_SCREEN = {**PHONE, "viewport": {"width": 360, "height": 740}}
HEIGHT = 740


@pytest.fixture
def pages(browser: Any) -> Any:
    with opened_pages(browser, phone=PHONE_SCREEN) as opened:
        yield opened


def started(server: LiveServer, seed: int = 3) -> tuple[ClockmanGame, str, str]:
    """A two-player game: the game, the starter (on circle 1, to report its landing) and
    the other player (on the start field)."""
    server.room.new_game(
        "clockman", {"players": 2}, seed=seed, names={"south": "Ann", "north": "Bob"}
    )
    session = server.room.session
    assert session is not None
    game: ClockmanGame = session.clockman  # type: ignore[attr-defined]
    starter = game.current_seat
    assert starter is not None
    other = next(s for s in game.seats if s != starter)
    return game, starter, other


def played(server: LiveServer, seat: str, *actions: dict[str, Any]) -> None:
    """Actions played through the room's one change path, as a phone's requests are."""
    for action in actions:
        with server.room.lock:
            server.room.apply(seat, action)


def claim(server: LiveServer, phone: Page, seat: str, lang: str = "en") -> None:
    take_seat(server, phone, seat, ".clockman-phone", lang)
    phone.wait_revision(server.room.revision)


def tap(server: LiveServer, phone: Page, selector: str) -> None:
    """Tap a control the rules allow, and wait until the game has moved on."""
    revision = server.room.revision
    phone.page.click(f"{selector}:not([aria-disabled])")
    wait_for_change(server, revision, phone)
    phone.wait_revision(server.room.revision)


def on_screen(phone: Page, selector: str) -> None:
    """The control is inside the phone's one screen, with nothing to scroll to."""
    phone.page.wait_for_selector(selector, state="visible")  # the page draws the step anew
    box = read_one(phone.page, selector, "n => n.getBoundingClientRect().toJSON()")
    assert box["height"] >= 44 and box["bottom"] <= HEIGHT, (selector, box)


def why(phone: Page, selector: str) -> str:
    """Tap a greyed-out control: it says why, and nothing is sent to the game."""
    node = phone.page.locator(selector)
    assert node.get_attribute("aria-disabled") == "true"
    phone.page.evaluate("document.getElementById('why').textContent = ''")
    tap_greyed(node)  # a tap lands on it all the same
    phone.page.wait_for_function("() => document.getElementById('why').textContent.length > 0")
    return str(phone.page.inner_text("#why"))


def test_a_knock_is_reported_and_the_landing_is_the_next_step_on_one_screen(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    game, starter, other = started(server)
    played(server, starter, {"type": "plain"}, {"type": "end_turn"})
    phone = pages[other]
    claim(server, phone, other)
    tap(server, phone, "[data-action=roll]")  # onto circle 1, where the starter stands

    phone.page.click("[data-report=knock]")
    assert "Whose piece was knocked?" in phone.page.inner_text(".cm-step")
    on_screen(phone, f".cm-step [data-value={starter}]")
    tap(server, phone, f".cm-step [data-value={starter}]")
    assert game.state.players[starter].ring == 0  # knocked back to the start field

    # the next step is the landing, on the same screen: no panel with only Back and Undo
    phone.page.wait_for_selector("[data-next=landing]")
    assert phone.page.locator(".cm-step").count() == 0
    assert phone.page.inner_text("[data-next=landing]") == "Now report where your piece landed."
    assert phone.page.locator("[data-report=knock]").count() == 0  # one knock per roll
    for report in ("plain", "symbol", "event"):
        on_screen(phone, f"[data-report={report}]")
        # offered once the phone has heard which reports the engine takes now
        phone.page.wait_for_selector(f"[data-report={report}]:not([aria-disabled])")

    # the landing, then the end of the turn: the symbol card drawn shows its pose's name
    tap(server, phone, "[data-report=symbol]")
    pose = next(iter(game.state.players[other].hand))
    name = {
        "A": "Arms up",
        "B": "Pointing",
        "C": "Crouching",
        "D": "Hands on hips",
        "E": "Leaping",
    }[pose]
    assert phone.page.inner_text(f".cm-hand [data-pose={pose}]") == f"{pose} ({name})"
    on_screen(phone, "[data-action=end_turn]")
    tap(server, phone, "[data-action=end_turn]")
    assert game.current_seat == starter
    assert phone.errors == [], phone.errors


def test_every_greyed_out_control_says_why_in_the_engines_words(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    game, starter, other = started(server)
    inward = {"type": "event", "kind": "now", "effect": "circle_in"}
    # the starter goes one circle inward on each of three turns, to circle 4
    for _ in range(3):
        played(server, starter, inward, {"type": "end_turn"})
        played(server, other, {"type": "roll"}, {"type": "plain"}, {"type": "end_turn"})
        played(server, starter, {"type": "roll"})
    assert game.state.players[starter].ring == 4
    phone = pages[starter]
    claim(server, phone, starter)
    revision = server.room.revision

    # onto the final straight while the date key is incomplete
    said = why(phone, "[data-report=straight]")
    assert said == "Only a complete date key opens the final straight (digits not yet transferred do not count)."
    # a Whytooki on circle 4 is the straight's, and a lift on circle 4 leads nowhere
    assert "guard the final straights" in why(phone, "[data-report=blockade]")
    assert "leads nowhere" in why(phone, "[data-report=lift]")
    assert "Only on circle 4 with a complete date key" in why(phone, "[data-report=forfeit]")
    assert server.room.revision == revision  # asking changed nothing

    tap(server, phone, "[data-report=plain]")
    tap(server, phone, "[data-action=end_turn]")

    # the other player's phone, in Czech: a Whytooki without a card of its pose
    other_phone = pages[other]
    claim(server, other_phone, other, "cs")
    tap(server, other_phone, "[data-action=roll]")
    assert game.state.players[other].hand == {}
    said = why(other_phone, "[data-report=blockade]")
    assert "se projde jen s kartou se symbolem této pózy" in said
    assert phone.errors == [] and other_phone.errors == []


def test_a_step_shows_every_choice_the_board_may_hold_greyed_with_why(
    server: LiveServer, pages: dict[str, Page]
) -> None:
    game, starter, other = started(server)
    inward = {"type": "event", "kind": "now", "effect": "circle_in"}
    reports = [inward] + [{"type": "digit", "digit": "0"}] * 5 + [inward]
    reports += [{"type": "digit", "digit": "1"}] * 2 + [inward, {"type": "digit", "digit": "2"}]
    # the starter's turns: a circle inward or a digit each, to circle 4 with the key
    for report in reports:
        if game.state.turn is not None and game.state.turn.phase == "roll":
            played(server, starter, {"type": "roll"})
        played(server, starter, report, {"type": "end_turn"})
        played(server, other, {"type": "roll"}, {"type": "plain"}, {"type": "end_turn"})
    me = game.state.players[starter]
    assert me.ring == 4 and me.hand == {}
    phone = pages[starter]
    claim(server, phone, starter)
    tap(server, phone, "[data-action=roll]")
    assert game.state.turn is not None and game.state.turn.die is not None
    die = game.state.turn.die
    phone.page.click("[data-report=straight]")
    fields = phone.page.locator(".cm-step [data-value]")
    assert fields.count() == 3
    for field in (1, 2, 3):
        selector = f".cm-step [data-value='{field}']"
        reach = field <= die and field < 3
        assert (phone.page.get_attribute(selector, "aria-disabled") is None) is reach, field
        on_screen(phone, selector)
    pose = game.state.straights[starter]
    said = why(phone, ".cm-step [data-value='3']")
    if die < 3:
        assert said == f"A roll of {die} cannot reach field 3 of the straight."
    else:
        assert f"The last field's Whytooki has pose {pose}" in said
    tap(server, phone, ".cm-step [data-value='1']")
    entered = game.state.players[starter]
    assert (entered.ring, entered.field) == (5, 1)
    assert phone.errors == [], phone.errors
