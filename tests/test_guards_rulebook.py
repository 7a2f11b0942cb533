"""Guards! Guards! refereed to the letter of the rulebook: each scenario quotes the rule
it checks (``../shared/seeds/guards-guards-rules-en.txt``) and plays it through the real
rules, the dice made to fall as it needs."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from guards_support import (
    act,
    card_of,
    final_of,
    pass_round,
    refused,
    rig,
    run_of,
    set_up,
    to_move,
    top_of,
    volunteer,
    with_targets,
)
from shared_seeds import seed_text

from engine.core.errors import GameIsOver, IllegalAction, NotYourTurn
from engine.core.rng import Rng
from engine.guards import GuardsGame
from engine.guards.actions import Action
from engine.guards.describe import describe_event
from engine.guards.dragons import draw_dragon
from engine.guards.errors import (
    AbilityRule,
    DragonRule,
    GuildHouseRule,
    SaboteursLocked,
    SendAtOnce,
)
from engine.guards.forms import legal_forms
from engine.guards.lamps import button_action
from engine.guards.session import GuardsSession
from web.refusals import in_english

BROTHER: dict[str, Any] = {"brethren": True}


def game_with(players: int = 2, spells: int = 5, **dealt: Any) -> GuardsGame:
    """Red begins; Challenge 1 needs 13."""
    options = replace(with_targets(players, c1=13, c2=13, c4=(10, 11)), spells=spells)
    game = GuardsGame.new(options, 1)
    set_up(game, **dealt)
    rig(game, [8] + [2] * (players - 1))
    act(game, game.seats[0], "roll")
    return game


def forms_of(game: GuardsGame, seat: str, type_: str) -> list[dict[str, Any]]:
    return [f for f in legal_forms(game.state, seat) if f["type"] == type_]


# --------------------------------------------------------------------- the Spell Run lock


def blue_saboteur_planted(brethren: int) -> GuardsGame:
    """Blue dealt ``brethren`` Brethren (1 or 2) and one of them planted as a Saboteur in
    the Assassins' quadrant in its first turn; red's turn again."""
    dealt: dict[str, Any] = {"blue_lords_ladies": volunteer("Blue Brother", **BROTHER)}
    if brethren == 2:
        dealt["blue_man_beast"] = volunteer("Blue Brother 2", deck="man_beast", **BROTHER)
    game = game_with(**dealt)
    act(game, "red", "end_turn")
    rig(game, [5])
    act(game, "blue", "plant", card=game.state.players["blue"].hand[0], quadrant="assassins")
    act(game, "blue", "end_turn")
    return game


def test_the_lock_holds_until_the_announcers_next_turn_even_after_a_pass() -> None:
    """"IMPORTANT: ONCE A SPELL RUN HAS BEEN ANNOUNCED BY A PLAYER, NO SABOTEURS MAY BE
    PLANTED OR MOVED BY OPPOSING PLAYERS IN THAT ROUND." The runners pass their Challenge
    on the turn they were announced: the next opponent still may not plant or recall."""
    game = blue_saboteur_planted(brethren=2)
    red = game.state.players["red"]
    act(game, "red", "spell_run", spell=card_of(red).spells[0], quadrant="thieves", runners=list(red.hand), route=["fools"])
    act(game, "blue", "let_pass")
    rig(game, [8, 2])  # Streetwise 4 + 10 against 13: returned at once
    act(game, "red", "roll")
    assert red.returned
    act(game, "red", "spend_point", attribute="magic")
    act(game, "red", "end_turn")
    blue = game.state.players["blue"]
    error = refused(game, "blue", "plant", SaboteursLocked, card=blue.hand[0], quadrant="fools")
    assert "until Red's next turn" in in_english(error)
    refused(game, "blue", "recall", SaboteursLocked, card=blue.planted["assassins"])
    assert forms_of(game, "blue", "recall")[0]["out"] is True  # greyed, the reason asked of the rules
    act(game, "blue", "end_turn")
    assert game.state.lock is None  # red's next turn: that round is over
    act(game, "red", "end_turn")
    act(game, "blue", "recall", card=blue.planted["assassins"])


def test_two_spell_runs_in_one_round_freeze_saboteurs_both_ways() -> None:
    """"... NO SABOTEURS MAY BE PLANTED OR MOVED BY OPPOSING PLAYERS IN THAT ROUND": red
    announces, then blue announces in the same round; blue is red's opponent, so even
    after its own announcement blue may not recall its Saboteur until red's next turn."""
    game = blue_saboteur_planted(brethren=1)
    red, blue = game.state.players["red"], game.state.players["blue"]
    act(game, "red", "spell_run", spell=card_of(red).spells[0], quadrant="thieves", runners=[red.hand[0]], route=[])
    rig(game, [1])
    act(game, "red", "roll")  # red's runner fails: blue's turn, in red's round
    act(game, "blue", "spell_run", spell=card_of(blue).spells[0], quadrant="fools", runners=[blue.hand[0]], route=[])
    rig(game, [8, 5])
    act(game, "blue", "roll")  # Streetwise 2 + 13 against 13: returned
    act(game, "blue", "spend_point", attribute="guild")
    assert game.state.locks == ["red", "blue"]
    error = refused(game, "blue", "recall", SaboteursLocked, card=blue.planted["assassins"])
    assert "Red has announced a Spell Run" in in_english(error)
    assert forms_of(game, "blue", "recall")[0]["out"] is True
    act(game, "blue", "end_turn")
    assert game.state.locks == ["blue"]  # red's round is over; blue's runs on
    act(game, "red", "end_turn")
    act(game, "blue", "recall", card=blue.planted["assassins"])  # blue's next turn: free again


def test_a_greyed_plant_or_recall_says_why_from_the_rules() -> None:
    """Locked out by an opponent's Spell Run, the phone greys *Plant a Saboteur* and
    *Recall a Saboteur*; the report each stands for, checked as a tap on it checks it
    (``POST .../check``), is refused with the rule's reason."""
    game = blue_saboteur_planted(brethren=2)
    red = game.state.players["red"]
    act(game, "red", "spell_run", spell=card_of(red).spells[0], quadrant="thieves", runners=[red.hand[0]], route=[])
    rig(game, [1])
    act(game, "red", "roll")  # blue's turn, in red's round
    session = GuardsSession(game)
    for type_ in ("plant", "recall"):
        (greyed,) = forms_of(game, "blue", type_)
        assert greyed["out"] is True and greyed["fields"] == []
        refusal = session.refusal("blue", greyed["probe"], 0.0)
        assert isinstance(refusal, SaboteursLocked) and "until Red's next turn" in in_english(refusal)


def test_a_greyed_guild_house_says_why_from_the_rules() -> None:
    """On the turn after a visit the Guild House is greyed; its reason is the rule's."""
    game = game_with()
    act(game, "red", "guild_house", collect=True)
    pass_round(game, "red")
    (greyed,) = forms_of(game, "red", "guild_house")
    assert greyed["out"] is True
    refusal = GuardsSession(game).refusal("red", greyed["probe"], 0.0)
    assert isinstance(refusal, GuildHouseRule) and "two turns running" in in_english(refusal)


# --------------------------------------------------------------------- the Final Spell


def final_game(magic: int, guild: int) -> GuardsGame:
    """A Short Game of one spell; red has collected the Final Spell and is back at the
    Gate with Magic ``magic`` and Guild ``guild``, the Magic roll waiting."""
    game = game_with(spells=1)
    red = game.state.players["red"]
    for attribute, value in (("magic", magic), ("guild", guild)):
        if value != red.base[attribute]:
            act(game, "red", "adjust", attribute=attribute, by=value - red.base[attribute])
    act(game, "red", "collect_final", spell=card_of(red).spells[0], quadrant="fools")
    act(game, "blue", "end_turn")
    act(game, "red", "at_gate")
    return game


def test_the_final_spell_makes_both_rolls_and_retries_only_the_failed_one() -> None:
    """"On reaching their Start Gate they must face the final Wizard's Challenge, first
    rolling the die and adding the result to their character's current Magic Level and
    then roll again and add the result to their character's current Guild Level. ... If
    either roll fails, they must wait and re-attempt only the failed roll on their next
    turn." A failed Magic roll does not stop the Guild roll."""
    game = final_game(magic=3, guild=5)
    assert game.view("red")["pending"][0]["test"]["attribute"] == "magic"
    rig(game, [2])
    events = act(game, "red", "roll")  # Magic 3 + 2: fails
    assert events[0]["passed"] is False and to_move(game) == "red"
    assert game.view("red")["pending"][0]["test"]["attribute"] == "guild"  # the Guild roll is still made
    rig(game, [5])
    events = act(game, "red", "roll")  # Guild 5 + 5: passes
    assert events[0]["passed"] is True
    assert next(e for e in events if e["kind"] == "final_waits")["left"] == ["magic"]
    assert to_move(game) == "blue" and final_of(game.state.players["red"]).passed == ["guild"]
    act(game, "blue", "end_turn")
    (retry,) = forms_of(game, "red", "at_gate")
    assert retry["again"] is True and retry["left"] == ["magic"] and retry["fields"] == []
    act(game, "red", "at_gate")
    assert game.view("red")["pending"][0]["test"]["attribute"] == "magic"  # only the failed roll
    rig(game, [6])
    events = act(game, "red", "roll")
    assert game.over and game.state.winners == ["red"] and events[-1]["kind"] == "game_won"


def test_the_log_names_the_final_spells_magic_and_guild_rolls() -> None:
    """"... Magic Level and then roll again ... Guild Level. They must achieve a score of
    9 or above in both cases": the log says which roll passed and which is tried again."""
    game = final_game(magic=3, guild=5)
    rig(game, [2, 5])
    failed = act(game, "red", "roll")
    passed = act(game, "red", "roll")
    assert "the Final Spell's Magic roll" in describe_event(failed[0])
    assert "the Final Spell's Guild roll" in describe_event(passed[0])
    waits = next(e for e in passed if e["kind"] == "final_waits")
    assert describe_event(waits) == "Red tries only the Magic roll again next turn."


def test_both_final_rolls_failing_are_both_tried_again() -> None:
    """"If either roll fails, they must wait and re-attempt only the failed roll": with
    both failed, both are tried again."""
    game = final_game(magic=3, guild=3)
    rig(game, [2, 2])
    act(game, "red", "roll")
    act(game, "red", "roll")
    assert to_move(game) == "blue"
    act(game, "blue", "end_turn")
    (retry,) = forms_of(game, "red", "at_gate")
    assert retry["left"] == ["magic", "guild"]


def test_a_retry_at_the_gate_offers_no_route_to_report() -> None:
    """The phone's retry asks only for the roll(s) left: the form to come back to the
    Gate again has no quadrants to tap (a route would be refused: the player is there)."""
    game = final_game(magic=6, guild=3)
    rig(game, [4, 2])
    act(game, "red", "roll")
    act(game, "red", "roll")  # Magic passes, Guild fails
    act(game, "blue", "end_turn")
    (retry,) = forms_of(game, "red", "at_gate")
    assert not any(f["name"] == "route" for f in retry["fields"]) and retry["left"] == ["guild"]


def test_the_volunteers_with_the_final_spell_may_be_sabotaged_on_the_way() -> None:
    """FAQ: "Players who step off their Start Gate while on Final Spell Run to recruit, or
    move around the board may be targeted": the quadrants walked through are reported at
    the Gate and an opponent with a Saboteur is asked before the rolls."""
    game = game_with(spells=1, blue_lords_ladies=volunteer("Blue Brother", **BROTHER))
    red = game.state.players["red"]
    act(game, "red", "collect_final", spell=card_of(red).spells[0], quadrant="fools")
    rig(game, [5])
    act(game, "blue", "plant", card=game.state.players["blue"].hand[0], quadrant="fools")
    act(game, "blue", "end_turn")
    act(game, "red", "at_gate", route=["fools"])
    assert [(p.kind, p.seats) for p in game.state.pending] == [("window", ["blue"])]
    assert forms_of(game, "blue", "strike")


# --------------------------------------------------------------------- the Guild House


def test_a_missed_turn_is_one_of_the_players_turns_at_the_guild_house() -> None:
    """"A player cannot collect money or buy attribute points from their Guild House on
    two consecutive turns": a visit, a turn missed in the Hospital (the City Health
    Service), then a visit: these are not consecutive turns."""
    game = game_with()
    act(game, "red", "guild_house", collect=True)
    act(game, "red", "adjust", dollars=-game.state.players["red"].dollars)  # $0: the Health Service
    act(game, "red", "ailment", curse="Curse of the Hat")
    act(game, "red", "hospital")  # cured for nothing; the next turn is missed
    act(game, "blue", "end_turn")  # red misses this turn
    assert to_move(game) == "blue"
    act(game, "blue", "end_turn")
    assert to_move(game) == "red"
    assert forms_of(game, "red", "guild_house")
    events = act(game, "red", "guild_house", collect=True)
    assert events[0]["kind"] == "guild_paid"


def test_the_guild_house_still_refuses_the_very_next_turn() -> None:
    """"... on two consecutive turns": with no turn missed between, the second visit is
    refused."""
    game = game_with()
    act(game, "red", "guild_house", collect=True)
    pass_round(game, "red")
    refused(game, "red", "guild_house", GuildHouseRule, collect=True)


# --------------------------------------------------------------------- sent at once


def failed_run_game() -> GuardsGame:
    """Red's runners failed Challenge 1 and wait at the Gate; it is red's turn again."""
    game = game_with()
    red = game.state.players["red"]
    act(game, "red", "spell_run", spell=card_of(red).spells[0], quadrant="thieves", runners=[red.hand[0]], route=[])
    rig(game, [1])
    act(game, "red", "roll")
    act(game, "blue", "end_turn")
    return game


def recruit_now(game: GuardsGame, seat: str = "red") -> str:
    act(game, seat, "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("Fresh Recruit", "shades_shadows", charm=1))
    rig(game, [5])
    act(game, seat, "roll")
    return game.state.players[seat].hand[-1]


def test_a_volunteer_recruited_for_waiting_runners_must_be_sent_at_once() -> None:
    """"Players must complete the Spell Run as soon as possible. They may only move away
    from the Spell tile to recruit additional Volunteers to send to the Gate. (Any
    Volunteers recruited in this way must be sent immediately to assist in completing
    the Spell Run)": the turn cannot end with the recruit kept in hand."""
    game = failed_run_game()
    kept = game.state.players["red"].hand[0]
    fresh = recruit_now(game)
    error = refused(game, "red", "end_turn", SendAtOnce)
    assert "Fresh Recruit" in in_english(error)
    (end,) = forms_of(game, "red", "end_turn")
    assert end["out"] is True  # greyed on the phone, the reason asked of the rules
    (again,) = forms_of(game, "red", "reattempt")
    assert again["group"] == "now" and again["fields"][0]["must"] == [fresh] and again["fields"][0]["min"] == 1
    refused(game, "red", "reattempt", SendAtOnce, runners=[kept])
    act(game, "red", "reattempt", runners=[fresh])
    assert fresh in run_of(game.state.players["red"]).runners


def test_a_volunteer_recruited_with_no_run_waiting_may_be_kept() -> None:
    """The obligation is the Spell Run's: with no runners at the Gate a recruit stays in
    the hand and the turn ends as usual."""
    game = game_with()
    recruit_now(game)
    (end,) = forms_of(game, "red", "end_turn")
    assert "out" not in end
    act(game, "red", "end_turn")


# --------------------------------------------------------------------- forced home


def test_forced_back_to_the_guild_house_it_neither_pays_nor_sells() -> None:
    """"A player cannot collect money or buy attribute points from their Guild House ...
    if they are forced to return to their Guild House by a Fate card or by another
    player." Reported in blue's turn (another player's doing), it bars red's next turn's
    visit; counted on red's Guild Card."""
    game = game_with()
    act(game, "red", "end_turn")
    events = act(game, "blue", "sent_home", target="red")
    assert events[0] == {"kind": "sent_home", "seat": "red", "by": "blue", "times": 1}
    assert describe_event(events[0]).startswith("Red is forced back to the Guild House")
    act(game, "blue", "end_turn")
    assert forms_of(game, "red", "guild_house")[0]["out"] is True
    error = refused(game, "red", "guild_house", GuildHouseRule, collect=True)
    assert "forced back" in in_english(error)
    assert game.view("blue")["players"][0]["forced_home"] == 1
    pass_round(game, "red")
    act(game, "red", "guild_house", collect=True)  # a later visit of its own pays


def test_a_fate_card_in_ones_own_turn_bars_that_turns_visit() -> None:
    """"... forced to return to their Guild House by a Fate card": in one's own turn."""
    game = game_with()
    act(game, "red", "sent_home")
    refused(game, "red", "guild_house", GuildHouseRule, collect=True)


# --------------------------------------------------------------------- Fire Water


def alchemist_game() -> GuardsGame:
    """Blue plays the Alchemists (three Fire Water tokens); it is red's turn."""
    options = replace(with_targets(2), spells=5)
    game = GuardsGame.new(options, 1)
    set_up(game, cards=("thieves-a", "alchemists-a"))
    rig(game, [8, 2])
    act(game, "red", "roll")
    act(game, "blue", "adjust", attribute="guild", by=6)  # Guild test of 6: always passes but for a 1
    return game


def throw(game: GuardsGame) -> list[dict[str, object]]:
    rig(game, [5])
    return act(game, "blue", "guild_ability", target="red")


def test_fire_water_is_spent_and_returns_to_the_alchemist_when_it_explodes() -> None:
    """"Any player selecting to join the Guild of Alchemists also receives 3 - Fire Water
    tokens." FAQ: "Once an Alchemist's Fire Water explodes, the victim's turn ends (any
    actions being taken automatically fail) and the token is returned to the Alchemist
    and can then be re-used." """
    game = alchemist_game()
    blue, red = game.state.players["blue"], game.state.players["red"]
    assert blue.fire_water == 3
    events = throw(game)
    assert events[-1] == {"kind": "fire_water_thrown", "seat": "blue", "victim": "red", "tokens": 2}
    assert blue.fire_water == 2 and red.fire_water_on == ["blue"]
    assert game.view("blue")["players"][0]["fire_water_on"] == 1
    (settle,) = forms_of(game, "red", "fire_water")
    assert settle["fields"][0]["options"] == ["red"]
    events = act(game, "red", "fire_water")
    assert events[0]["how"] == "exploded" and events[1] == {"kind": "turn_ended", "seat": "red", "reason": "fire_water"}
    assert blue.fire_water == 3 and red.fire_water_on == []  # back with the Alchemist, to be re-used
    refused(game, "red", "fire_water", AbilityRule)  # nothing on red now


def test_fire_water_exploding_while_a_roll_waits_fails_that_action_and_ends_the_turn() -> None:
    """FAQ: "Once an Alchemist's Fire Water explodes, the victim's turn ends (any actions
    being taken automatically fail)". Red has touched a Volunteer and its Charm roll
    waits: the explosion is taken then, the recruit fails (the card goes face up, as
    any recruit that fails) and blue's turn begins, with no roll left to make."""
    game = alchemist_game()
    throw(game)
    red = game.state.players["red"]
    hand = list(red.hand)
    act(game, "red", "recruit", deck="lords_ladies", source="deck", quadrant="fools",
        values=volunteer(name="Carrot", charm=2))
    assert game.view("red")["pending"][0]["test"]["purpose"] == "recruit"
    (settle,) = forms_of(game, "blue", "fire_water")  # offered to the Alchemist now
    assert "out" not in settle and "red" in settle["fields"][0]["options"]
    events = act(game, "blue", "fire_water", target="red")
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["fire_water_settled", "not_recruited", "turn_ended"], kinds
    assert events[2]["reason"] == "fire_water"
    assert game.state.turn is not None and game.state.turn.seat == "blue"
    assert game.state.pending == [] and game.state.recruiting is None
    assert red.hand == hand  # Carrot did not join red
    assert game.state.players["blue"].fire_water == 3
    refused(game, "red", "roll", IllegalAction)  # no roll waits now


def test_fire_water_exploding_during_a_challenge_roll_fails_the_challenge() -> None:
    """The runners' Wizard's Challenge roll waits when the Fire Water explodes: the
    Challenge fails as a failed roll would (the runners wait for the next turn) and the
    turn ends."""
    game = alchemist_game()
    throw(game)
    red = game.state.players["red"]
    act(game, "red", "spell_run", spell=card_of(red).spells[0], quadrant="thieves", runners=list(red.hand), route=["fools"])
    assert game.view("red")["pending"][0]["test"]["purpose"] == "challenge"
    events = act(game, "blue", "fire_water", target="red")
    assert [e["kind"] for e in events][:2] == ["fire_water_settled", "turn_ended"]
    assert red.run is not None and red.run.passed == [] and game.state.turn.seat == "blue"  # type: ignore[union-attr]
    assert game.state.pending == []


def test_fire_water_that_does_not_explode_still_waits_for_the_roll() -> None:
    """A token reported defused while a roll waits changes nothing of the turn: the roll
    comes first."""
    game = alchemist_game()
    throw(game)
    act(game, "red", "recruit", deck="lords_ladies", source="deck", quadrant="fools",
        values=volunteer(name="Carrot", charm=2))
    refused(game, "blue", "fire_water", IllegalAction, target="red", exploded=False)


def test_an_alchemist_with_every_token_out_cannot_throw_more() -> None:
    """Three tokens, no more: with all three out the Guild Ability is greyed on the phone
    and refused, until one comes back."""
    game = alchemist_game()
    for _ in range(3):
        throw(game)
        act(game, "red", "fire_water", exploded=False)  # it did not explode: red plays on
        act(game, "red", "end_turn")
        act(game, "blue", "end_turn")
    blue = game.state.players["blue"]
    assert blue.fire_water == 3
    for _ in range(3):
        throw(game)
        act(game, "red", "end_turn")
        act(game, "blue", "end_turn")
    assert blue.fire_water == 0 and game.state.players["red"].fire_water_on == ["blue"] * 3
    (ability,) = forms_of(game, "blue", "guild_ability")
    assert ability["out"] is True
    error = refused(game, "blue", "guild_ability", AbilityRule, target="red")
    assert "Fire Water is out" in in_english(error)
    act(game, "red", "fire_water", exploded=False)
    assert blue.fire_water == 1 and "out" not in forms_of(game, "blue", "guild_ability")[0]


def test_a_magical_item_is_used_without_a_roll() -> None:
    """"Magical 'Items' do not require a Magic roll to use": used, it goes back to the
    bottom of a deck, no die rolled."""
    game = game_with(red_lords_ladies=volunteer("Quartermaster", items=1))
    (item,) = game.state.players["red"].items
    steps = game.state.rng.to_json()
    events = act(game, "red", "use_item", item=item)
    assert [e["kind"] for e in events] == ["item_used"] and game.state.rng.to_json() == steps
    assert game.state.cards[item].place == "supply"


def test_the_turn_guide_shows_the_moves_the_board_allows() -> None:
    """"A player can move their playing piece up to a maximum of 6 spaces per turn" and,
    with the Pox, "Their movement is reduced to four spaces per turn": the pieces move on
    the board; the table and the phones show the allowance."""
    game = game_with()
    assert game.view(None)["players"][0]["move"] == 6
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("Sick", "shades_shadows", infectious=True))  # the Pox, caught on touching it
    assert game.state.players["red"].pox and game.view("red")["players"][0]["move"] == 4


def test_nanny_oggs_cure_all_cures_without_a_hospital() -> None:
    """FAQ: "Nanny Ogg's Cure All 'can' be used to avoid any event or illness that would
    normally make a player go to Hospital": reported on the trackers, every ailment is
    cured where the player stands, for nothing."""
    game = game_with()
    act(game, "red", "ailment", curse="Curse of the Hat")
    dollars = game.state.players["red"].dollars
    events = act(game, "red", "ailment", cured=True)
    red = game.state.players["red"]
    assert events == [{"kind": "cured", "seat": "red", "how": "card"}]
    assert red.ailments == 0 and red.place == "street" and red.dollars == dollars
    assert to_move(game) == "red"  # no Hospital: the turn goes on


# --------------------------------------------------------------------- combat


def ambushed(scrolls: int = 0) -> GuardsGame:
    """Blue's Saboteur in the Fools' Quadrant ambushes red's one runner passing there."""
    game = game_with(red_lords_ladies=volunteer("Runner", toughness=2, brawl=3),
                     blue_lords_ladies=volunteer("Thug", brawl=4, toughness=5, scrolls=scrolls, **BROTHER))
    act(game, "red", "end_turn")
    rig(game, [7])
    act(game, "blue", "plant", card=game.state.players["blue"].hand[0], quadrant="fools")
    act(game, "blue", "end_turn")
    red = game.state.players["red"]
    act(game, "red", "spell_run", spell=card_of(red).spells[0], quadrant="thieves", runners=[red.hand[0]], route=["fools"])
    act(game, "blue", "strike", card=game.state.players["blue"].planted["fools"], method="ambush")
    return game


def test_a_combat_takes_its_steps_in_order() -> None:
    """"Any combat during the game is resolved by the following steps 1. Offensive magic
    The Saboteur/Attacker may attempt to cast any Scrolls or use any magical Items.
    2. Defensive magic The targeted player may attempt to cast any Scrolls or use any
    magical Items. 3. Offensive Brawl Test ... 4. Defensive Toughness Test" """
    game = ambushed()
    assert [(p.kind, p.seats) for p in game.state.pending] == [("magic_attack", ["blue"])]
    refused(game, "blue", "roll", IllegalAction)  # no Brawl roll before the magic
    assert forms_of(game, "blue", "decline")[0]["offer"] == "magic_attack"
    refused(game, "red", "decline", IllegalAction)  # the attacker's magic comes first
    assert button_action(game.state, "b3c3") == ("blue", {"type": "decline"})  # the box's "go on"
    act(game, "blue", "decline")
    assert [(p.kind, p.seats) for p in game.state.pending] == [("magic_defence", ["red"])]
    refused(game, "blue", "roll", IllegalAction)
    act(game, "red", "decline")
    test = game.view(None)["pending"][0]["test"]
    assert (test["purpose"], test["seat"]) == ("attack", "blue")


def test_a_scroll_is_cast_in_the_offensive_magic_step_before_the_brawl() -> None:
    """"1. Offensive magic The Saboteur/Attacker may attempt to cast any Scrolls": cast
    while the combat waits, and only then the Brawl roll."""
    game = ambushed(scrolls=1)
    (scroll,) = game.state.players["blue"].scrolls
    assert any(f["type"] == "cast" for f in legal_forms(game.state, "blue"))
    rig(game, [6])
    events = act(game, "blue", "cast", scroll=scroll, target="red", values={"target": 3})
    assert events[0]["purpose"] == "cast"
    assert top_of(game).kind == "magic_attack"  # the step stays open until the attacker says done
    act(game, "blue", "decline")
    act(game, "red", "decline")
    assert game.view(None)["pending"][0]["test"]["purpose"] == "attack"


# --------------------------------------------------------------------- Dragons drawn


def brethren_game() -> GuardsGame:
    """Everyone holds two Brethren (a Call brings a Dragon); red begins."""
    cards: dict[str, Any] = {f"{s}_{d}": volunteer(f"{s} {d}", d, toughness=3, brawl=2, **BROTHER)
             for s in ("red", "blue") for d in ("lords_ladies", "man_beast")}
    return game_with(**cards)


def test_the_call_brings_a_dragon_the_companion_draws_from_those_left() -> None:
    """"Take a random Dragon Card and place it on the home Guild House of the player who
    drew the Fate Card": the companion holds the deck state and draws. A Dragon not seen
    yet is turned over and typed; one seen before and back among the face-down ones is
    named by the companion, nothing to type."""
    game = brethren_game()
    events = act(game, "red", "call")
    assert events[-1] == {"kind": "dragon_drawn", "seat": "red", "dragon": None, "how": "unseen"}  # none seen yet
    (card,) = forms_of(game, "red", "dragon_card")
    assert card["unseen"] is True and card["fields"][0]["known"] == []
    act(game, "red", "dragon_card", values={"name": "Errol", "toughness": 12, "brawl": 3})
    act(game, "red", "send", cards=[game.state.players["red"].hand[0]])
    act(game, "blue", "send", cards=[game.state.players["blue"].hand[0]])
    rig(game, [8, 8])  # 4 + 16 >= 12: wounded, Errol goes back face down
    act(game, "red", "roll")
    assert not game.state.dragons
    errol = next(u for u, c in game.state.cards.items() if c.kind == "dragon")
    assert game.state.cards[errol].place == "pool"
    # the next Call: Errol is one of the four face-down, drawn or not as the die falls
    picks = {_draws(game, seed) for seed in range(64)}
    assert picks == {errol, None}  # Errol, or one not seen yet
    game.state.rng = Rng(next(seed for seed in range(64) if _draws(game, seed) == errol))
    events = act(game, "red", "call")
    drawn = next(e for e in events if e["kind"] == "dragon_drawn")
    assert drawn["dragon"] == "Errol" and any(e["kind"] == "dragon_summoned" for e in events)
    assert top_of(game).kind == "muster"  # nothing to type: on to the fight


def _draws(game: GuardsGame, seed: int) -> str | None:
    saved = game.state.rng
    game.state.rng = Rng(seed)
    try:
        return draw_dragon(game.state)
    finally:
        game.state.rng = saved


def test_summoning_leaves_the_draw_to_the_companion() -> None:
    """"Then take a random Dragon card and place it on a Guild House of their choice":
    the summoner names the quadrant; the companion draws the card (naming one is refused)."""
    cards: dict[str, Any] = {f"red_{d}": volunteer(f"red {d}", d, **BROTHER) for d in ("lords_ladies", "man_beast")}
    game = game_with(**cards)
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("R3", "shades_shadows", charm=1, **BROTHER))
    rig(game, [5])
    act(game, "red", "roll")
    pass_round(game, "red")
    (summon,) = forms_of(game, "red", "summon")
    assert [f["name"] for f in summon["fields"]] == ["quadrant", "discard"]
    discard = game.state.players["red"].hand[0]
    refused(game, "red", "summon", DragonRule, quadrant="fools", discard=discard,
            values={"name": "Errol", "toughness": 12, "brawl": 3})
    events = act(game, "red", "summon", quadrant="fools", discard=discard)
    assert events[-1]["kind"] == "dragon_drawn"


# --------------------------------------------------------------------- old saves


def test_a_first_format_log_replays_by_the_first_reading() -> None:
    """A game saved before these rulings (save format 1) replays and saves as it was
    played; there a failed Magic roll ended the turn before the Guild roll."""
    game = GuardsGame.new(replace(GuardsGame.new().state.options, spells=1), 7)
    set_up(game)
    act(game, "red", "roll")  # the first player, as the seed rolls it
    first = to_move(game)
    act(game, first, "end_turn")
    old = {**game.log_to_json(), "format": 1}
    assert game.log_to_json()["format"] == 2
    replayed = GuardsGame.replay(old)
    assert replayed.state.options.letter is False and replayed.log_to_json()["format"] == 1
    assert GuardsGame.replay(replayed.log_to_json()).state.options.letter is False
    # the first reading, played on: the failed Magic roll ends the turn
    red = replayed.state.players["red"]
    if to_move(replayed) == "blue":
        act(replayed, "blue", "end_turn")
    act(replayed, "red", "adjust", attribute="guild", by=2)
    act(replayed, "red", "collect_final", spell=card_of(red).spells[0], quadrant="fools")
    act(replayed, "blue", "end_turn")
    act(replayed, "red", "at_gate")
    rig(replayed, [2])
    act(replayed, "red", "roll")
    assert to_move(replayed) == "blue" and final_of(red).passed == []


# --------------------------------------------------------------------- the coverage table

DOC = Path(__file__).resolve().parents[1] / "docs" / "guards.md"
MARKS = ("refereed", "tracked", "on the board")


def coverage_rows() -> list[tuple[str, str, str, list[str]]]:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Rule coverage", 1)[1].split("\n### ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("Section", "---"):
            continue
        rows.append((cells[0], cells[1].strip('"'), cells[2], re.findall(r"`([^`]+)`", cells[3])))
    return rows


def flat(text: str) -> str:
    for curly, straight in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"')):
        text = text.replace(curly, straight)
    return " ".join(text.split()).lower()


def rulebook() -> str | None:
    """The rulebook beside the checkout (the project's shared references), if any."""
    text = seed_text("guards-guards-rules-en.txt")
    return flat(text) if text is not None else None


def test_the_coverage_table_names_tests_that_exist() -> None:
    rows = coverage_rows()
    assert len(rows) > 90
    tests_dir = Path(__file__).parent
    for section, rule, mark, tests in rows:
        assert mark in MARKS, f"{section}: {rule!r} is marked {mark!r}"
        for named in tests:
            path, _, name = named.partition("::")
            source = (tests_dir / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"{named} does not exist"


def test_every_refereed_rule_names_a_test_and_a_gap_says_so() -> None:
    for section, rule, mark, tests in coverage_rows():
        if mark == "refereed":
            assert tests, f"{section}: the refereed rule {rule!r} names no test"
    text = DOC.read_text(encoding="utf-8")
    gaps = [r for r in coverage_rows() if not r[3]]
    assert text.count("none: a gap") == len(gaps)


def test_the_coverage_table_quotes_the_rulebook() -> None:
    book = rulebook()
    if book is None:
        pytest.skip("the rulebook is not beside this checkout")
    for section, rule, _mark, _tests in coverage_rows():
        assert flat(rule) in book, f"{section}: {rule!r} is not the rulebook's words"
    # every section of the rulebook's rules has a row
    sections = {r[0] for r in coverage_rows()}
    for heading in ("Winning the game", "Set up", "Beginning the game", "Recruiting", "Making a Spell Run",
                    "The Wizards' Challenges", "Returning the Final Spell", "A player's Guild House",
                    "Temples and shops", "Casting Scrolls", "Guild Abilities", "Planting a Saboteur", "Sabotage",
                    "Alter Allegiance", "Ambush", "Combat rules", "Dragons", "Fighting a Dragon", "The Luggage",
                    "The Pox", "Hospitals", "City Watch House", "Wanted Volunteers", "FAQ"):
        assert heading in sections, f"no row for {heading}"


def test_every_recruit_owed_to_the_gate_is_named_in_the_refusal() -> None:
    """Two recruits in one turn (a natural 8 wins the second) while runners wait: ending
    the turn is refused naming both, for the phone to say in its own words too."""
    game = failed_run_game()
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("Fresh Recruit", "shades_shadows", charm=1))
    rig(game, [8])
    act(game, "red", "roll")
    act(game, "red", "recruit_extra", source="deck", values=volunteer("Second Recruit", "shades_shadows", charm=1))
    rig(game, [5])
    act(game, "red", "roll")
    error = refused(game, "red", "end_turn", SendAtOnce)
    assert in_english(error).endswith("send Fresh Recruit, Second Recruit with the runners waiting there.")
    assert error.params == {"names": "Fresh Recruit, Second Recruit"}


def test_a_finished_game_refuses_every_report_as_over() -> None:
    game = game_with()
    act(game, "red", "stop_game")
    for seat, type_, fields in (("red", "end_turn", {}), ("blue", "choose_guild", {"card": "fools-a"})):
        error = refused(game, seat, type_, GameIsOver, **fields)
        assert in_english(error) == "The game is over."
        assert error.params == {"reason": "over"}


def test_an_action_no_rule_handles_is_refused_by_its_name() -> None:
    # the parser knows no such type; built in code, the rules refuse it by its name
    game = game_with()
    with pytest.raises(NotYourTurn) as caught:
        game.apply(Action("juggle", "red"))
    assert caught.value.params == {"reason": "not_yet", "action": "juggle"}
    assert in_english(caught.value) == "The action “juggle” is not part of this game yet."


def test_a_seat_not_at_the_table_is_refused_whatever_it_reports() -> None:
    game = game_with()  # red and blue
    for type_ in ("end_turn", "roll"):
        error = refused(game, "green", type_, NotYourTurn)
        assert in_english(error) == "Only the players of this game act in it."
