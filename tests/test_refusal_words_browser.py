"""The pages say a refusal as the server and the CLI do: ``describeError`` in
``web/static/js/common.js`` fills ``rule.<code>`` with the engine's values the way
``web/refusals.py`` does, seats, seat lists, cards and places named in the language."""

from __future__ import annotations

import pytest
from browser_support import Page
from live_server import LiveServer

from engine.clacks import errors as clacks
from engine.core.errors import IllegalAction
from engine.guards import errors as guards
from web.i18n import LANGUAGES
from web.refusals import refusal_words

pytestmark = pytest.mark.browser

# one refusal for each way a value is said: a seat, a list of seats, a Jacquard, a Fault
# Report, a quadrant, decks, a place, a lamp list, and a withheld value (the plain words)
REFUSALS: list[IllegalAction] = [
    clacks.WrongColour(reason="button", seat="west", tower="a2b2", colour="green"),
    clacks.BadPlacement(reason="count", design="pair", lamps=["b2"], holes=2, chosen=1),
    clacks.CardTiming(reason="others_turn", fault="grit-in-gears"),
    clacks.TowerOccupied(reason="pass_through", tower="b2c2", blocker="north"),
    clacks.MoveStrandsHand(reason="public", tower="c3d3", cost=3, left=2),
    clacks.BadPlacement(reason="cover", lamps=["a1"]),
    guards.WaitForOthers(reason="answer", players=["red", "blue"], seat="green"),
    guards.DragonThere(quadrant="thieves", what="shopping"),
    guards.WrongDeck(reason="typed", deck="man_beast", wanted_deck="lords_ladies"),
    guards.Protected(reason="acting", seat="red", place="hospital", what="magic"),
    guards.AttributeLimit(reason="top", attribute="charm", value=6, top=6),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_says_each_refusal_as_the_server_does(
    server: LiveServer, pages: dict[str, Page], language: str
) -> None:
    server.room.new_game("clacks", {"players": 2}, seed=12)
    phone = pages["south"].page
    phone.goto(server.url(f"/join/{server.code}?lang={language}"))
    phone.wait_for_selector("button[data-seat=south]")
    said = phone.evaluate(
        "errors => errors.map(e => Clacks.describeError(e))",
        [refusal.to_json() for refusal in REFUSALS],
    )
    expected = [refusal_words(language, r.rule, r.params) for r in REFUSALS]
    assert said == expected
    # the values are said by name, not left as codes
    assert not any(code in " ".join(said) for code in ("pair", "grit-in-gears", "thieves", "man_beast"))
