"""Recruiting and the places of Ankh-Morpork: the second slice of the companion.

The A4 scenarios 1 to 5 and 18 of the design, the Guild House's limits (scenario 6; its
Dragon is in the Dragons' tests), the face-up piles and decks, Temples and Shops, the
Pox, the Hospital and the City Watch House.
"""

from __future__ import annotations

import json
from typing import Any

from guards_support import act, refused, rig, started, to_move, volunteer

from engine.guards import GuardsGame
from engine.guards.errors import (
    AttributeLimit,
    CannotBribe,
    CardElsewhere,
    GuildHouseRule,
    NotEnoughMoney,
    NothingToCure,
    NotNow,
    PoxRule,
    StopOnce,
    WaitForOthers,
    WrongDeck,
)
from web.refusals import in_english


def charm(game: GuardsGame, seat: str, value: int) -> None:
    act(game, seat, "adjust", attribute="charm", by=value - game.state.players[seat].base["charm"])


def touch(game: GuardsGame, seat: str = "red", source: str = "deck", deck: str = "lords_ladies", **card: Any) -> None:
    act(game, seat, "recruit", deck=deck, source=source, quadrant="fools", values=volunteer(deck=deck, **card))


def test_charm_equal_or_higher_recruits() -> None:
    # scenario 1: Charm 3 against a Charm of 7, a roll of 4
    game = started(2, first="red")
    charm(game, "red", 3)
    touch(game, name="Carrot", charm=7, luggage=3, bonus={"magic": 1})
    pending = game.view("red")["pending"][0]
    assert pending["test"]["target"] == 7 and pending["test"]["base"] == 3
    assert pending["test"]["chance"] == "5/8"  # faces 4 to 8
    rig(game, [4])
    events = act(game, "red", "roll")
    kinds = [e["kind"] for e in events]
    assert "recruited" in kinds and "luggage_moves" in kinds
    assert next(e for e in events if e["kind"] == "luggage_moves")["spaces"] == 3
    red = game.state.players["red"]
    assert len(red.hand) == 3 and red.base["magic"] == 2  # the red text, for good
    assert not game.state.pending


def test_a_natural_8_wins_one_extra_recruit_only() -> None:
    # scenario 2
    game = started(2, first="red")
    touch(game, charm=20)
    rig(game, [8])
    act(game, "red", "roll")
    assert game.state.players["red"].hand[-1].startswith("v")
    assert [p.kind for p in game.state.pending] == ["extra"]
    refused(game, "red", "recruit_extra", WrongDeck, source="deck", values=volunteer(deck="man_beast"))
    act(game, "red", "recruit_extra", source="deck", values=volunteer("Second", charm=20))
    rig(game, [8])
    events = act(game, "red", "roll")
    assert "recruited" in [e["kind"] for e in events]
    assert not game.state.pending  # "even if they roll a second natural 8"
    assert len(game.state.players["red"].hand) == 4


def test_the_extra_recruit_can_be_declined() -> None:
    game = started(2, first="red")
    touch(game, charm=20)
    rig(game, [8])
    act(game, "red", "roll")
    act(game, "red", "decline")
    assert not game.state.pending
    refused(game, "red", "recruit", StopOnce, deck="man_beast", source="deck", quadrant="fools",
            values=volunteer(deck="man_beast"))


def test_a_natural_1_fails_but_a_bribe_may_still_be_paid() -> None:
    # scenario 3: Charm 9 against 5 and a 1 fails; the Bribe is offered
    game = started(2, first="red")
    charm(game, "red", 9)
    touch(game, name="Unbribable", charm=5, bribe=None)
    rig(game, [1])
    events = act(game, "red", "roll")
    assert events[0]["passed"] is False and events[0]["natural"] == 1
    assert [p.kind for p in game.state.pending] == ["bribe"]
    error = refused(game, "red", "bribe", CannotBribe)
    assert "Bribe X" in in_english(error)
    act(game, "red", "decline")
    face_up = game.view(None)["decks"]["lords_ladies"]["face_up"]
    assert face_up["name"] == "Unbribable"  # face up on its pile


def test_a_bribe_needs_the_money() -> None:
    game = started(2, first="red")
    touch(game, name="Greedy", charm=20, bribe=6)
    rig(game, [2])
    act(game, "red", "roll")
    refused(game, "red", "bribe", NotEnoughMoney)
    act(game, "red", "adjust", dollars=1)
    events = act(game, "red", "bribe")
    assert [e["kind"] for e in events][:2] == ["bribed", "recruited"]
    assert game.state.players["red"].dollars == 0


def test_no_extra_recruit_in_a_tavern() -> None:
    # scenario 4
    game = started(2, first="red")
    rig(game, [5])
    events = act(game, "red", "tavern", quadrant="thieves")
    assert events[0]["roll"] == 5
    act(game, "red", "tavern_volunteer", deck="shades_shadows", values=volunteer(deck="shades_shadows", charm=20))
    assert game.view("red")["pending"][0]["test"]["tavern"] is True
    rig(game, [8])
    act(game, "red", "roll")
    assert not game.state.pending
    assert len(game.state.players["red"].hand) == 3


def test_the_pox_takes_a_charm_point_and_costs_at_the_hospital() -> None:
    # scenario 5
    game = started(2, first="red")
    charm(game, "red", 4)
    touch(game, name="Infected", charm=8, infectious=True)  # the Pox on touching it
    assert game.state.players["red"].pox
    test = game.view("red")["pending"][0]["test"]
    assert test["base"] == 3 and ["pox", -1] in test["parts"]
    assert game.view(None)["players"][0]["move"] == 4
    rig(game, [3])
    act(game, "red", "roll")  # 3 + 3 fails; the Pox stays caught
    act(game, "red", "decline")
    assert game.state.players["red"].pox
    act(game, "red", "end_turn")
    act(game, "blue", "luggage_hit", target="red")  # Pox and an injury
    red = game.state.players["red"]
    assert red.dollars == 3 and not red.pox and red.place == "hospital"


def test_with_no_money_the_hospital_costs_a_turn() -> None:
    game = started(2, first="red")
    act(game, "red", "adjust", dollars=-5)
    act(game, "red", "ailment", curse="Boils")
    events = act(game, "red", "hospital")
    assert events[0]["how"] == "health_service"
    assert to_move(game) == "blue"
    act(game, "blue", "end_turn")
    assert to_move(game) == "blue"  # red's turn is missed
    assert game.state.players["red"].ailments == 0


def test_the_hospital_needs_an_ailment_and_ends_the_turn() -> None:
    game = started(2, first="red")
    refused(game, "red", "hospital", NothingToCure)
    act(game, "red", "ailment", curse="Frog")
    act(game, "red", "hospital")
    assert to_move(game) == "blue" and game.state.players["red"].dollars == 4


def test_the_watch_house_charm_7_bail_or_a_night_in_the_cells() -> None:
    # scenario 18
    game = started(2, first="red")
    act(game, "red", "arrested")
    assert to_move(game) == "blue"
    charm(game, "red", 4)
    rig(game, [])
    act(game, "blue", "end_turn")
    assert game.view("red")["pending"][0]["test"]["target"] == 7
    rig(game, [3])
    events = act(game, "red", "roll")  # 4 + 3 = 7: talked out
    assert events[-1]["kind"] == "released" and events[-1]["how"] == "charm"
    act(game, "red", "arrested")
    act(game, "blue", "end_turn")
    rig(game, [2])
    events = act(game, "red", "roll")
    assert events[-1]["how"] == "bail" and game.state.players["red"].dollars == 3
    act(game, "red", "adjust", dollars=-3)
    act(game, "red", "arrested")
    act(game, "blue", "end_turn")
    rig(game, [1])
    events = act(game, "red", "roll")
    assert "stays_in_jail" in [e["kind"] for e in events]
    assert to_move(game) == "blue"
    act(game, "blue", "end_turn")
    assert to_move(game) == "red" and game.state.players["red"].place == "street"


def test_wanted_volunteers_pay_their_bribe_and_a_dollar() -> None:
    # scenario 18: Bribe 4 pays $5
    game = started(2, first="red")
    touch(game, name="Wanted Man", charm=3, bribe=4, wanted=True)
    rig(game, [5])
    act(game, "red", "roll")
    wanted = game.state.players["red"].hand[-1]
    honest = game.state.players["red"].hand[0]
    refused(game, "red", "turn_in", NotNow, cards=[honest])
    events = act(game, "red", "turn_in", cards=[wanted])
    assert events[-1]["dollars"] == 5 and game.state.players["red"].dollars == 10
    assert game.view(None)["decks"]["lords_ladies"]["discards"] == 1


def test_a_wanted_x_pays_one_dollar() -> None:
    game = started(2, first="red")
    touch(game, charm=3, bribe=None, wanted=True)
    rig(game, [5])
    act(game, "red", "roll")
    act(game, "red", "turn_in", cards=[game.state.players["red"].hand[-1]])
    assert game.state.players["red"].dollars == 6


def test_the_guild_house_pays_and_sells_points_but_not_two_turns_running() -> None:
    # scenario 6
    game = started(2, first="red")
    act(game, "red", "adjust", dollars=10)  # $15
    refused(game, "red", "guild_house", GuildHouseRule, points={"magic": 2, "guild": 1})
    act(game, "red", "guild_house", collect=True, points={"magic": 2})
    red = game.state.players["red"]
    assert red.dollars == 2 and red.base["magic"] == 3
    refused(game, "red", "guild_house", GuildHouseRule, collect=True)  # one visit a turn
    act(game, "red", "end_turn")
    act(game, "blue", "end_turn")
    error = refused(game, "red", "guild_house", GuildHouseRule, collect=True)
    assert "two turns running" in in_english(error)
    act(game, "red", "end_turn")
    act(game, "blue", "end_turn")
    refused(game, "red", "guild_house", NotEnoughMoney, points={"charm": 1})
    act(game, "red", "guild_house", collect=True)
    assert red.dollars == 5


def test_guild_house_points_stay_within_their_table() -> None:
    game = started(2, first="red")
    act(game, "red", "adjust", attribute="magic", by=7)  # 8, the top
    act(game, "red", "adjust", dollars=20)
    refused(game, "red", "guild_house", AttributeLimit, points={"magic": 1})


def test_the_face_up_pile_is_refilled_from_the_deck() -> None:
    game = started(2, first="red")
    assert game.view(None)["decks"]["man_beast"]["face_up_known"] is False
    left = game.state.deck_left["man_beast"]
    act(game, "red", "recruit", deck="man_beast", source="display", quadrant="fools",
        values=volunteer("Face Up", deck="man_beast", charm=2))
    assert game.state.deck_left["man_beast"] == left  # the face-up card is not the deck's
    rig(game, [6])
    act(game, "red", "roll")
    assert [p.kind for p in game.state.pending] == ["reveal"]
    refused(game, "red", "end_turn", WaitForOthers)
    events = act(game, "red", "reveal", values=volunteer("Next Up", deck="man_beast", infectious=True))
    assert game.state.players["red"].pox  # touched while turning it over
    assert events[0]["name"] == "Next Up"
    assert game.state.deck_left["man_beast"] == left - 1
    assert game.view("blue")["decks"]["man_beast"]["face_up"]["name"] == "Next Up"


def test_a_known_card_is_named_once_and_cannot_be_in_two_places() -> None:
    game = started(2, first="red")
    touch(game, name="Fred Colon", charm=20)
    rig(game, [2])
    act(game, "red", "roll")
    act(game, "red", "decline")  # Fred goes face up
    fred = game.state.display["lords_ladies"][-1]
    act(game, "red", "end_turn")
    refused(game, "blue", "recruit", CardElsewhere, deck="lords_ladies", source="deck", quadrant="fools", card=fred)
    act(game, "blue", "recruit", deck="lords_ladies", source="display", quadrant="fools")
    assert game.view("blue")["pending"][0]["test"]["card"] == "Fred Colon"


def test_a_deck_that_runs_out_is_made_again_from_its_discards() -> None:
    game = started(2, first="red")
    game.state.deck_left["shades_shadows"] = 1
    touch(game, deck="shades_shadows", name="Last", charm=3, wanted=True)
    rig(game, [3])
    act(game, "red", "roll")
    act(game, "red", "turn_in", cards=[game.state.players["red"].hand[-1]])
    act(game, "red", "end_turn")
    events = act(game, "blue", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
                 card=game.state.discards["shades_shadows"][0])
    assert events[0]["kind"] == "deck_reshuffled" and events[0]["cards"] == 1


def test_buying_shows_the_price_and_keeps_the_name() -> None:
    game = started(2, first="red")
    refused(game, "red", "buy", NotEnoughMoney, kind="scroll", price=6, quadrant="assassins", name="Fireball")
    events = act(game, "red", "buy", kind="scroll", price=4, quadrant="assassins", name="Fireball")
    assert events == [{"kind": "bought", "seat": "red", "card_kind": "scroll", "dollars": 4}]
    assert game.view("blue")["players"][0]["scrolls"] == [4]
    assert "Fireball" not in json.dumps(game.view("blue"))
    assert "Fireball" in json.dumps(game.view("red"))
    assert game.state.supply["scroll"] == 19


def test_the_pox_passes_only_from_the_infected() -> None:
    game = started(3, first="red")
    refused(game, "red", "pox", PoxRule, other="blue")
    act(game, "red", "end_turn")
    touch(game, "blue", name="Sneezer", charm=20, bribe=None, infectious=True)
    rig(game, [2])
    act(game, "blue", "roll")
    act(game, "blue", "decline")
    act(game, "blue", "end_turn")
    act(game, "green", "end_turn")
    act(game, "red", "pox", other="blue")  # red passes within a tile of blue
    assert game.state.players["red"].pox
    act(game, "red", "pox", other="green")
    assert game.state.players["green"].pox
    refused(game, "red", "pox", PoxRule, other="blue")
