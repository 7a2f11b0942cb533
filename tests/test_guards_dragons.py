"""Dragons, the Brethren and the Call, the four-Dragon ending and winning: the fourth
slice of the companion (A4 scenarios 6, 19 and 20)."""

from __future__ import annotations

from typing import Any

from guards_support import (
    act,
    card_of,
    pass_round,
    recruit_into,
    refused,
    rig,
    set_up,
    to_move,
    top_of,
    volunteer,
)

from engine.guards import GuardsGame, GuardsOptions
from engine.guards.errors import DragonRule, DragonThere, TooManyFighters, TurnNotBegun
from web.refusals import in_english

BROTHER: dict[str, Any] = {"brethren": True}
DRAGONS = [("Errol", 12, 3), ("Goodboy Bindle", 13, 4), ("Lady Fang", 14, 5), ("The Noble One", 30, 9)]


def brethren_game(players: int = 2, spells: int = 5, **dealt: Any) -> GuardsGame:
    """Everyone dealt two Brethren; red begins."""
    game = GuardsGame.new(GuardsOptions.from_json({"players": players, "spells": spells}), 3)
    cards = {f"{s}_{d}": volunteer(f"{s} {d}", d, toughness=3, brawl=2, **BROTHER)
             for s in game.seats for d in ("lords_ladies", "man_beast")}
    set_up(game, **{**cards, **dealt})
    rig(game, [8] + [2] * (players - 1))
    act(game, "red", "roll")
    return game


def dragon(index: int) -> dict[str, object]:
    name, toughness, brawl = DRAGONS[index]
    return {"name": name, "toughness": toughness, "brawl": brawl}


def call_a_dragon(game: GuardsGame, seat: str, index: int, wound: bool = False) -> list[dict[str, object]]:
    """``seat`` draws the Call; the Dragon comes; everyone sends one Volunteer; the fight
    is rigged to wound it or to fail with every Volunteer surviving."""
    events = act(game, seat, "call")
    assert events[0]["kind"] == "call_answered"
    events += act(game, seat, "dragon_card", values=dragon(index))
    while game.state.top is not None and game.state.top.kind == "muster":
        sender = top_of(game).seats[0]
        events += act(game, sender, "send", cards=[game.state.players[sender].hand[0]])
    rig(game, [8, 7] if wound else [1])
    events += act(game, top_of(game).seats[0], "roll")
    while game.state.top is not None and game.state.top.kind == "test":
        rig(game, [7])
        events += act(game, top_of(game).seats[0], "roll")
    return events


def test_the_call_brings_a_dragon_to_the_drawers_guild_house_or_on_clockwise() -> None:
    game = brethren_game()
    events = call_a_dragon(game, "red", 0)
    assert events[0]["counts"] == {"red": 2, "blue": 2} and events[0]["total"] == 4
    home = card_of(game.state.players["red"]).guild  # thieves
    # the log says where the fight was
    assert next(e for e in events if e["kind"] == "rolled") == {
        "kind": "rolled", "seat": "red", "purpose": "dragon", "faces": [1], "base": 4, "total": 5, "target": 12,
        "passed": False, "natural": 1, "quadrant": home,
    }
    assert game.view(None)["dragons"][home]["name"] == "Errol"
    events = call_a_dragon(game, "red", 1)
    clockwise = list(game.state.options.data.clockwise)
    following = clockwise[(clockwise.index(home) + 1) % 4]
    assert game.view(None)["dragons"][following]["name"] == "Goodboy Bindle"
    # each failed fight: every Volunteer survived its Toughness test and came back
    assert len(game.state.players["red"].hand) == 2 and len(game.state.players["blue"].hand) == 2


def test_two_brethren_do_not_answer_the_call() -> None:
    game = brethren_game(blue_lords_ladies=volunteer("Honest"), blue_man_beast=volunteer("Also", "man_beast"))
    events = act(game, "red", "call")
    assert events[-1]["kind"] == "call_unanswered" and not game.state.dragons


def test_a_wounded_dragon_withdraws_and_pays_each_volunteer() -> None:
    game = brethren_game()
    events = call_a_dragon(game, "red", 0, wound=True)
    wounded = next(e for e in events if e["kind"] == "dragon_wounded")
    assert wounded["paid"] == {"red": 1, "blue": 1}
    assert not game.state.dragons
    assert game.state.cards[next(u for u, c in game.state.cards.items() if c.kind == "dragon")].place == "pool"
    assert game.state.players["red"].dollars == 6


def test_volunteers_that_fail_their_toughness_are_discarded() -> None:
    game = brethren_game()
    act(game, "red", "call")
    act(game, "red", "dragon_card", values=dragon(2))  # Brawl 5
    act(game, "red", "send", cards=[game.state.players["red"].hand[0]])
    act(game, "blue", "send", cards=[game.state.players["blue"].hand[0]])
    test = game.view(None)["pending"][0]["test"]
    assert (test["purpose"], test["base"], test["target"]) == ("dragon", 4, 14)
    rig(game, [3])
    act(game, "red", "roll")  # 4 + 3 < 14
    rig(game, [1])
    events = act(game, "red", "roll")  # red's Volunteer: 3 + a 1 fails
    assert events[-1]["kind"] == "lost_to_dragon"
    rig(game, [2])
    events = act(game, "blue", "roll")  # blue's: 3 + 2 = 5 holds
    assert [e["kind"] for e in events][-2:] == ["survived_dragon", "dragon_stays"]
    assert len(game.state.players["red"].hand) == 1 and len(game.state.players["blue"].hand) == 2


def test_summoning_takes_the_turn_and_the_summoner_sends_nobody() -> None:
    game = brethren_game(red_lords_ladies=volunteer("R1", **BROTHER), red_man_beast=volunteer("R2", "man_beast", **BROTHER))
    refused(game, "red", "summon", DragonRule, quadrant="fools",
            discard=game.state.players["red"].hand[0])  # two Brethren are not enough
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("R3", "shades_shadows", charm=1, **BROTHER))
    rig(game, [5])
    act(game, "red", "roll")
    refused(game, "red", "summon", TurnNotBegun, quadrant="fools", discard=game.state.players["red"].hand[0])
    pass_round(game, "red")
    discard = game.state.players["red"].hand[0]
    events = act(game, "red", "summon", quadrant="fools", discard=discard)
    assert events[0] == {"kind": "dragon_drawn", "seat": "red", "dragon": None, "how": "unseen"}  # drawn by the companion: unseen
    events = act(game, "red", "dragon_card", values=dragon(0))
    assert events[0]["kind"] == "dragon_summoned" and game.state.dragons["fools"]
    assert game.view(None)["pending"][0]["seats"] == ["blue"]  # the summoner is exempt
    refused(game, "blue", "send", DragonRule, cards=[])
    refused(game, "blue", "decline", DragonRule)
    act(game, "blue", "send", cards=[game.state.players["blue"].hand[0]])
    rig(game, [1])
    act(game, "blue", "roll")
    rig(game, [7])
    events = act(game, "blue", "roll")
    assert to_move(game) == "blue"  # the summoning took red's whole turn
    assert len(game.state.players["red"].hand) == 2


def test_a_dragon_closes_its_quadrant() -> None:
    # scenario 6: the Guild House with a Dragon in its quadrant
    game = brethren_game()
    call_a_dragon(game, "red", 0)  # onto red's Guild House (thieves)
    home = card_of(game.state.players["red"]).guild
    refused(game, "red", "guild_house", DragonThere, collect=True)
    refused(game, "red", "recruit", DragonThere, deck="man_beast", source="deck", quadrant=home,
            values=volunteer(deck="man_beast"))
    refused(game, "red", "buy", DragonThere, kind="item", price=1, quadrant=home)
    refused(game, "red", "spell_run", DragonThere, spell=card_of(game.state.players["red"]).spells[0], quadrant=home,
            runners=game.state.players["red"].hand[:1], route=[])
    act(game, "red", "buy", kind="item", price=1, quadrant="fools")


def test_the_luggage_sends_a_dragon_anticlockwise() -> None:
    game = brethren_game()
    call_a_dragon(game, "red", 0)
    home = card_of(game.state.players["red"]).guild
    clockwise = list(game.state.options.data.clockwise)
    events = act(game, "red", "dragon_flies", quadrant=home)
    assert events[0]["quadrant"] == clockwise[clockwise.index(home) - 1]
    refused(game, "red", "dragon_flies", DragonRule, quadrant=home)


def test_a_fight_takes_six_volunteers_at_most_and_the_highest_brawl_rolls() -> None:
    extra: dict[str, Any] = {f"blue_{d}": volunteer(f"Strong {d}", d, brawl=5, toughness=3, **BROTHER) for d in ("lords_ladies", "man_beast")}
    game = brethren_game(3, **extra)
    call_a_dragon(game, "red", 0)
    pass_round(game, "red")
    red = game.state.players["red"].hand
    act(game, "red", "fight_dragon", quadrant=game.state.players["red"].guild, cards=red)
    assert game.view(None)["pending"][0]["seats"] == ["blue", "green"]
    act(game, "blue", "send", cards=game.state.players["blue"].hand)
    act(game, "green", "decline")
    test = game.view(None)["pending"][0]["test"]
    assert test["seat"] == "blue"  # Brawl 5 is the highest sent
    assert test["base"] == 2 + 2 + 5 + 5


def test_no_more_than_six_face_a_dragon() -> None:
    game = brethren_game(3)
    call_a_dragon(game, "red", 0)
    pass_round(game, "red")
    for _ in range(5):
        recruit_into(game, "red")
    hand = game.state.players["red"].hand
    assert len(hand) == 7
    quadrant = game.state.players["red"].guild
    refused(game, "red", "fight_dragon", TooManyFighters, quadrant=quadrant, cards=hand)
    act(game, "red", "fight_dragon", quadrant=quadrant, cards=hand[:5])
    error = refused(game, "blue", "send", TooManyFighters, cards=game.state.players["blue"].hand)
    assert "5 are sent already" in in_english(error)


def test_brawl_ties_go_to_the_nearest_in_turn_order() -> None:
    game = brethren_game(3)
    act(game, "red", "call")
    act(game, "red", "dragon_card", values=dragon(0))
    for seat in ("red", "blue", "green"):
        act(game, seat, "send", cards=[game.state.players[seat].hand[0]])
    assert game.view(None)["pending"][0]["test"]["seat"] == "red"  # all Brawl 2: whose turn it is


def test_four_dragons_mean_one_last_fight_and_failing_it_everyone_loses() -> None:
    # scenario 19
    game = brethren_game()
    for index in range(3):
        call_a_dragon(game, "red", index)
        pass_round(game, "red")
    act(game, "red", "call")
    events = act(game, "red", "dragon_card", values=dragon(3))
    assert [e["kind"] for e in events][-1] == "four_dragons"
    act(game, "red", "send", cards=[game.state.players["red"].hand[0]])
    act(game, "blue", "send", cards=[game.state.players["blue"].hand[0]])
    rig(game, [4])
    events = act(game, "red", "roll")  # 4 + 4 < 30: the game is lost
    assert events[-1]["kind"] == "dragons_win"
    assert game.over and game.state.winners == [] and game.state.ending == "dragons"
    assert sorted(game.state.ranking) == ["blue", "red"]


def final_spell_collected(game: GuardsGame, spell: str) -> list[dict[str, object]]:
    """Red sets out to collect ``spell`` in person, stands at the gate in its next turn and
    rolls 8 and 8 twice: the last roll's events."""
    act(game, "red", "collect_final", spell=spell, quadrant="fools")
    act(game, "blue", "end_turn")
    act(game, "red", "at_gate")
    rig(game, [8, 8])
    act(game, "red", "roll")
    rig(game, [8, 8])
    return act(game, "red", "roll")


def test_the_fifth_spell_returned_wins() -> None:
    # scenario 20: the full game of five
    game = brethren_game()
    red = game.state.players["red"]
    for _ in range(4):
        act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
            values=volunteer("Runner", "shades_shadows", charm=1))
        rig(game, [5])
        act(game, "red", "roll")
        act(game, "red", "end_turn")
        act(game, "blue", "end_turn")
        act(game, "red", "spell_run", spell=card_of(red).spells[len(red.returned)], quadrant="fools",
            runners=[red.hand[-1]], route=[])
        rig(game, [8, 8, 8, 2])
        act(game, "red", "roll")
        if game.state.top is not None and game.state.top.kind == "test":  # Challenge 4's second half
            rig(game, [8, 8, 8, 2])
            act(game, "red", "roll")
        act(game, "red", "spend_point", attribute="magic")
        pass_round(game, "red")
    assert len(red.returned) == 4 and not game.over
    events = final_spell_collected(game, card_of(red).spells[4])
    assert events[-1]["kind"] == "game_won" and game.state.winners == ["red"]
    assert game.state.ending == "spells"


def test_a_short_game_of_three_ends_at_three() -> None:
    # scenario 20
    game = brethren_game(spells=3)
    red = game.state.players["red"]
    assert game.view(None)["players"][0]["next_challenge"]["number"] == 1
    for _ in range(2):
        act(game, "red", "spell_run", spell=card_of(red).spells[len(red.returned)], quadrant="fools",
            runners=[red.hand[-1]], route=[])
        rig(game, [8, 8, 8, 2])
        act(game, "red", "roll")
        act(game, "red", "spend_point", attribute="guild")
        pass_round(game, "red")
    assert game.view(None)["players"][0]["next_challenge"]["number"] == 5  # the third is the Final Spell
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("Escort", "shades_shadows", charm=1))
    rig(game, [5])
    act(game, "red", "roll")
    pass_round(game, "red")
    final_spell_collected(game, card_of(red).spells[2])
    assert game.over and game.state.winners == ["red"] and len(red.returned) == 3
