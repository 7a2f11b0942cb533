"""Spell Runs, the Wizards' Challenges, the Final Spell, Saboteurs, combat and the
reactions of other players: the third slice of the companion (A4 scenarios 7 to 17)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from guards_support import (
    act,
    card_of,
    new_game,
    pass_round,
    recruit_into,
    refused,
    rig,
    run_of,
    set_up,
    started,
    to_move,
    volunteer,
    with_targets,
)

from engine.guards import GuardsGame, dice
from engine.guards.errors import (
    AbilityRule,
    MagicRule,
    Protected,
    RunRule,
    SaboteurRule,
    SaboteursLocked,
    SpellRule,
    TooManyRunners,
    TurnNotBegun,
)
from engine.guards.lamps import roll_frame
from web.refusals import in_english


def game_with(players: int = 2, first: str = "red", spells: int = 5, cap_eights: bool = False,
              **dealt: Any) -> GuardsGame:
    options = replace(with_targets(players, c1=13, c2=13, c4=(10, 11)), spells=spells, cap_eights=cap_eights)
    game = GuardsGame.new(options, 1)
    set_up(game, **dealt)
    rig(game, [8 if s == first else 2 for s in game.seats])
    act(game, game.seats[0], "roll")
    return game


def runners_of(game: GuardsGame, seat: str = "red") -> list[str]:
    return list(game.state.players[seat].hand)


def run(game: GuardsGame, seat: str = "red", runners: list[str] | None = None, route: list[str] | None = None,
        spell: str | None = None, **more: object) -> list[dict[str, object]]:
    card = card_of(game.state.players[seat])
    wanted = spell or next(s for s in card.spells if s not in game.state.players[seat].returned)
    return act(game, seat, "spell_run", spell=wanted, quadrant="thieves", runners=runners or runners_of(game, seat),
               route=route or [], **more)


def test_an_8_then_a_1_adds_to_9_and_passes() -> None:
    # scenario 7: runners' Streetwise 5, target 13, rolls 8 then 1: 14
    game = game_with(red_lords_ladies=volunteer(streetwise=3), red_man_beast=volunteer(deck="man_beast", streetwise=2))
    run(game)
    test = game.view("red")["pending"][0]["test"]
    assert (test["base"], test["target"], test["purpose"]) == (5, 13, "challenge")
    assert test["house"] is True and test["chance"] == "1/8"  # an 8, then any face; a house target
    rig(game, [8, 1])
    events = act(game, "red", "roll")
    assert events[0]["faces"] == [8, 1] and events[0]["total"] == 14 and events[0]["passed"]
    assert "spell_returned" in [e["kind"] for e in events]


def test_a_first_1_fails_the_challenge_whatever_the_sum() -> None:
    # scenario 8
    game = game_with(red_lords_ladies=volunteer(streetwise=12), red_man_beast=volunteer(deck="man_beast", streetwise=12))
    run(game)
    rig(game, [1])
    events = act(game, "red", "roll")
    assert events[0]["passed"] is False
    assert to_move(game) == "blue"  # the turn ends; the runners wait at the Gate
    assert run_of(game.state.players["red"]).stage == "gate"


def test_a_pass_pays_five_dollars_and_a_point_and_moves_on_to_the_next_challenge() -> None:
    # scenario 9
    game = game_with()
    spell = card_of(game.state.players["red"]).spells[0]
    run(game, spell=spell)
    assert game.state.lock == "red"
    rig(game, [8, 2])  # Streetwise 4 + 10 against 13
    act(game, "red", "roll")
    red = game.state.players["red"]
    assert red.dollars == 10 and red.returned == [spell] and red.run is None
    assert game.state.lock == "red"  # the Saboteurs stay frozen until red's next turn (ruling 10)
    assert [p.kind for p in game.state.pending] == ["point"]
    act(game, "red", "spend_point", attribute="magic")
    assert red.base["magic"] == 2
    view = game.view(None)
    assert view["players"][0]["next_challenge"]["number"] == 2
    assert view["players"][0]["spells"][0]["returned"] is True
    assert game.view(None)["decks"]["lords_ladies"]["discards"] == 1  # the runners discarded


def test_four_runners_set_out_and_six_may_stand_at_the_gate() -> None:
    # scenario 10
    game = game_with()
    for _ in range(5):
        recruit_into(game, "red")
    hand = runners_of(game)
    assert len(hand) == 7
    error = refused(game, "red", "spell_run", TooManyRunners, spell="red", quadrant="thieves", runners=hand[:5], route=[])
    assert "At most 4" in in_english(error)
    run(game, runners=hand[:4], spell="red")
    rig(game, [1])
    act(game, "red", "roll")  # failed: the turn ends
    act(game, "blue", "end_turn")
    refused(game, "red", "reattempt", TooManyRunners, runners=hand[4:7])
    act(game, "red", "reattempt", runners=hand[4:6])
    assert len(run_of(game.state.players["red"]).runners) == 6


def test_challenge_4_keeps_the_half_already_passed() -> None:
    # ruling 13
    game = game_with()
    for _ in range(3):  # three Great Spells returned first, by runners recruited for each
        recruit_into(game, "red")
        run(game, runners=runners_of(game)[-1:])
        rig(game, [8, 8, 7])
        act(game, "red", "roll")
        act(game, "red", "spend_point", attribute="guild")
        pass_round(game, "red")
    run(game)
    assert game.view("red")["pending"][0]["test"]["attribute"] == "brawl"
    rig(game, [6])
    act(game, "red", "roll")  # Brawl 4 + 6 passes 10
    assert game.view("red")["pending"][0]["test"]["attribute"] == "streetwise"
    rig(game, [1])
    act(game, "red", "roll")  # Streetwise fails on the 1
    act(game, "blue", "end_turn")
    act(game, "red", "reattempt")
    test = game.view("red")["pending"][0]["test"]
    assert test["attribute"] == "streetwise" and test["target"] == 11


def test_the_final_spell_is_collected_in_person_and_only_the_failed_roll_is_tried_again() -> None:
    # scenario 11, in a Short Game of one spell (its only spell is the Final Spell)
    game = game_with(spells=1)
    red = game.state.players["red"]
    refused(game, "red", "spell_run", SpellRule, spell=card_of(red).spells[0], quadrant="fools",
            runners=runners_of(game), route=[])
    act(game, "red", "adjust", attribute="magic", by=4)  # Magic 5, Guild 3
    act(game, "red", "collect_final", spell=card_of(red).spells[0], quadrant="fools")
    assert to_move(game) == "blue"  # the turn ends on collection
    act(game, "blue", "end_turn")
    act(game, "red", "at_gate")
    assert game.view("red")["pending"][0]["test"]["attribute"] == "magic"
    rig(game, [4])
    events = act(game, "red", "roll")  # 5 + 4 = 9 passes
    assert events[0]["passed"] and game.view("red")["pending"][0]["test"]["attribute"] == "guild"
    rig(game, [2])
    events = act(game, "red", "roll")  # Guild 3 + 2 fails
    assert to_move(game) == "blue"
    act(game, "blue", "end_turn")
    act(game, "red", "at_gate")
    assert game.view("red")["pending"][0]["test"]["attribute"] == "guild"
    rig(game, [6])
    events = act(game, "red", "roll")
    assert game.over and game.state.winners == ["red"] and events[-1]["kind"] == "game_won"


def test_the_final_spell_needs_a_volunteer() -> None:
    game = game_with(spells=1)
    for uid in runners_of(game):
        act(game, "red", "discard", card=uid)
    error = refused(game, "red", "collect_final", RunRule, spell=card_of(game.state.players["red"]).spells[0],
                    quadrant="fools")
    assert "at least one Volunteer" in in_english(error)


BROTHER: dict[str, Any] = {"brethren": True}


def test_planting_at_the_beginning_only_and_one_saboteur_a_quadrant() -> None:
    # scenario 12
    game = game_with(red_lords_ladies=volunteer("Brother A", **BROTHER),
                     red_man_beast=volunteer("Brother B", deck="man_beast", **BROTHER))
    a, b = runners_of(game)
    act(game, "red", "adjust", attribute="guild", by=1)  # Guild 4
    act(game, "red", "guild_house", collect=True)
    refused(game, "red", "plant", TurnNotBegun, card=a, quadrant="fools")  # mid-turn
    pass_round(game, "red")
    rig(game, [1])
    events = act(game, "red", "plant", card=a, quadrant="fools")  # 4 + 1: a 1 fails
    assert events[-1]["kind"] == "plant_failed" and a in game.state.players["red"].hand
    refused(game, "red", "plant", SaboteurRule, card=b, quadrant="fools")  # one attempt a turn
    pass_round(game, "red")
    rig(game, [3])
    events = act(game, "red", "plant", card=a, quadrant="fools")
    assert events[-1]["kind"] == "planted"
    # the event says nothing of where, or whom
    assert "fools" not in json.dumps(events) and "Brother A" not in json.dumps(events)
    assert game.view("blue")["players"][0]["saboteurs"] == 1
    red_public = json.dumps(game.view("blue")["players"][0])
    assert "fools" not in red_public and "Brother A" not in json.dumps(game.view("blue"))
    assert game.view("red")["you"]["saboteurs"][0]["quadrant"] == "fools"
    pass_round(game, "red")
    refused(game, "red", "plant", SaboteurRule, card=b, quadrant="fools")  # the fools marker is out


def test_only_brethren_are_planted() -> None:
    game = game_with()
    refused(game, "red", "plant", SaboteurRule, card=runners_of(game)[0], quadrant="fools")


def test_after_a_spell_run_is_announced_no_opponent_plants_or_recalls() -> None:
    game = game_with(blue_lords_ladies=volunteer("Blue Brother", **BROTHER),
                     blue_man_beast=volunteer("Blue Brother 2", deck="man_beast", **BROTHER))
    act(game, "red", "end_turn")
    rig(game, [5])
    act(game, "blue", "plant", card=runners_of(game, "blue")[0], quadrant="assassins")
    act(game, "blue", "end_turn")
    run(game, route=["fools"])  # red announces; blue's saboteur is not on the route
    assert game.view("red")["pending"][0]["kind"] == "window"  # asked all the same
    assert game.view("blue")["pending"][0]["seats"] == ["blue"]
    act(game, "blue", "let_pass")
    rig(game, [1])
    act(game, "red", "roll")  # the challenge fails: blue's turn
    error = refused(game, "blue", "plant", SaboteursLocked, card=runners_of(game, "blue")[0], quadrant="fools")
    assert "Red has announced a Spell Run" in in_english(error)
    refused(game, "blue", "recall", SaboteursLocked, card=game.state.players["blue"].planted["assassins"])
    act(game, "blue", "end_turn")
    assert game.state.lock is None  # red's next turn: the round is over
    act(game, "red", "end_turn")
    act(game, "blue", "recall", card=game.state.players["blue"].planted["assassins"])
    refused(game, "blue", "plant", SaboteurRule, card=runners_of(game, "blue")[0], quadrant="fools")


def planted_game(players: int = 2, cap_eights: bool = False, **dealt: Any) -> GuardsGame:
    """Red runs; the others each have a Brethren Saboteur planted in the Fools' Quadrant."""
    game = game_with(players, cap_eights=cap_eights, **dealt)
    act(game, "red", "end_turn")
    for seat in game.seats[1:]:
        brother = next(u for u in runners_of(game, seat) if game.state.volunteer(u).brethren)
        rig(game, [7])
        act(game, seat, "plant", card=brother, quadrant="fools")
        act(game, seat, "end_turn")
    return game


def test_tied_saboteurs_roll_again_and_only_they() -> None:
    # scenario 13
    brothers: dict[str, Any] = {f"{s}_lords_ladies": volunteer(f"{s} brother", brawl=3, **BROTHER) for s in ("blue", "green")}
    game = planted_game(3, **brothers)
    run(game, route=["thieves", "fools"])
    window = game.view(None)["pending"][0]
    assert window["kind"] == "window" and window["seats"] == ["blue", "green"]
    blue = game.state.players["blue"].planted["fools"]
    green = game.state.players["green"].planted["fools"]
    act(game, "blue", "strike", card=blue, method="ambush")
    assert game.view(None)["pending"][0]["seats"] == ["green"]
    rig(game, [4, 4, 6, 2])  # both Guild 2: 6 and 6 tie; then 8 against 4
    events = act(game, "green", "strike", card=green, method="ambush")
    contest = next(e for e in events if e["kind"] == "saboteurs_contest")
    assert contest["rounds"] == [{"blue": 6, "green": 6}, {"blue": 8, "green": 4}]
    assert contest["seat"] == "blue"


def test_alter_allegiance_picks_a_runner_by_the_die_and_a_failed_loyalty_changes_sides() -> None:
    # scenario 14
    game = planted_game(2, red_lords_ladies=volunteer("Lone Runner", loyalty=3),
                        blue_lords_ladies=volunteer("Turncoat", **BROTHER))
    lone = runners_of(game)[0]
    run(game, runners=[lone], route=["fools"])
    rig(game, [None, 3])  # the pick, then a Loyalty roll of 3: 3 + 3 < 7
    events = act(game, "blue", "strike", card=game.state.players["blue"].planted["fools"], method="alter")
    alter = next(e for e in events if e["kind"] == "alter_allegiance")
    assert alter["runner"] == "Lone Runner" and alter["quadrant"] == "fools"
    test = game.view(None)["pending"][0]["test"]
    assert (test["purpose"], test["base"], test["target"], test["seat"]) == ("loyalty", 3, 7, "red")
    rig(game, [3])
    events = act(game, "red", "roll")
    assert "allegiance_changed" in [e["kind"] for e in events]
    assert lone in game.state.players["blue"].hand
    act(game, "blue", "replant", quadrant="thieves")
    assert "thieves" in game.state.players["blue"].planted
    assert game.state.players["red"].run is None  # the last runner lost: the run fails
    assert to_move(game) == "red"


def test_the_random_runner_is_either_runner() -> None:
    chosen = set()
    for seed in range(12):
        game = planted_game(2, red_lords_ladies=volunteer("First"), red_man_beast=volunteer("Second", deck="man_beast"),
                            blue_lords_ladies=volunteer("Bro", **BROTHER))
        game.state.rng = type(game.state.rng)(seed)
        run(game, route=["fools"])
        events = act(game, "blue", "strike", card=game.state.players["blue"].planted["fools"], method="alter")
        chosen.add(next(e for e in events if e["kind"] == "alter_allegiance")["runner"])
    assert chosen == {"First", "Second"}


def ambush_game(cap_eights: bool = False) -> GuardsGame:
    game = planted_game(2, cap_eights, red_lords_ladies=volunteer("Runner", toughness=2, brawl=3),
                        blue_lords_ladies=volunteer("Thug", brawl=4, toughness=5, **BROTHER))
    run(game, runners=[runners_of(game)[0]], route=["fools"])
    act(game, "blue", "strike", card=game.state.players["blue"].planted["fools"], method="ambush")
    act(game, "blue", "decline")  # no offensive magic
    act(game, "red", "decline")  # no defensive magic: on to the Brawl roll
    return game


def test_a_blow_greater_than_the_toughness_defeats_the_runner() -> None:
    # scenario 15: 9 against 7
    game = ambush_game()
    test = game.view(None)["pending"][0]["test"]
    assert (test["purpose"], test["seat"], test["base"], test["against"]) == ("attack", "blue", 4, 2)
    rig(game, [5])
    act(game, "blue", "roll")
    defence = game.view(None)["pending"][0]["test"]
    assert (defence["purpose"], defence["seat"], defence["target"]) == ("defence", "red", 9)
    rig(game, [5])
    events = act(game, "red", "roll")
    assert [e["kind"] for e in events][-1] != "blow_missed"
    assert any(e["kind"] == "defeated" and e["card"] == "Runner" for e in events)
    act(game, "blue", "decline")  # the Saboteur stays where it is
    assert game.state.players["red"].run is None and game.state.players["blue"].planted


def test_a_miss_gives_exactly_one_counter_attack() -> None:
    # scenario 15: 6 against 7
    game = ambush_game()
    rig(game, [2])
    act(game, "blue", "roll")  # 4 + 2 = 6
    rig(game, [5])
    events = act(game, "red", "roll")  # 2 + 5 = 7 holds
    assert events[-1] == {"kind": "blow_missed", "seat": "blue", "counter": True}
    counter = game.view(None)["pending"][0]["test"]
    assert (counter["purpose"], counter["seat"], counter["base"], counter["against"]) == ("counter", "red", 3, 5)
    rig(game, [3, 4])  # 3 + 3 = 6 against 5 + 4 = 9: held
    act(game, "red", "roll")
    events = act(game, "blue", "roll")
    assert events[-1]["kind"] == "runners_at_gate"  # no second counter-attack: on to the Gate
    assert game.view(None)["pending"][0]["test"]["purpose"] == "challenge"


def test_a_scroll_against_a_defended_player_needs_the_defence_added() -> None:
    # scenario 16: target 5 against +2 needs 7
    game = game_with(blue_lords_ladies=volunteer("Warded", anti_magic=2))
    act(game, "red", "buy", kind="scroll", price=2, quadrant="assassins", name="Curse")
    scroll = game.state.players["red"].scrolls[0]
    act(game, "red", "adjust", attribute="magic", by=2)  # Magic 3
    rig(game, [3])
    events = act(game, "red", "cast", scroll=scroll, target="blue", values={"target": 5})
    cast = events[0]
    assert (cast["target"], cast["total"], cast["passed"]) == (7, 6, False)
    assert scroll in game.state.players["red"].scrolls  # a failed Scroll is kept
    refused(game, "red", "cast", MagicRule, scroll=scroll, target="blue")
    act(game, "red", "end_turn")
    rig(game, [4])
    events = act(game, "red", "cast", scroll=scroll, target="blue")  # in blue's turn; 5 typed once
    assert events[0]["passed"] and events[-1]["kind"] == "scroll_cast"
    assert scroll not in game.state.players["red"].scrolls


def test_a_guild_ability_only_in_anothers_turn_and_never_into_a_hospital() -> None:
    # scenario 17
    game = game_with()
    refused(game, "red", "guild_ability", AbilityRule, target="blue")
    rig(game, [4])
    events = act(game, "blue", "guild_ability", target="red")  # Guild 2 + 4 = 6
    assert events[0]["purpose"] == "ability" and events[-1]["kind"] == "ability_worked"
    refused(game, "blue", "guild_ability", AbilityRule, target="red")  # once a turn
    act(game, "red", "ailment", curse="Warts")
    act(game, "red", "hospital")
    error = refused(game, "red", "guild_ability", Protected, target="blue")
    assert "in a Hospital" in in_english(error)


def test_nobody_targets_a_player_in_the_watch_house() -> None:
    game = game_with()
    act(game, "red", "arrested")
    refused(game, "red", "guild_ability", Protected, target="blue")
    act(game, "blue", "buy", kind="scroll", price=1, quadrant="fools")
    refused(game, "blue", "cast", Protected, scroll=game.state.players["blue"].scrolls[0], target="red",
            values={"target": 3})


def test_the_whole_run_replays_the_same() -> None:
    game = ambush_game()
    rig(game, [2])
    act(game, "blue", "roll")
    # a rigged die is not in the log: replay from here on is checked by the simulation
    assert game.view("red")["players"][0]["run"]["runners"][0]["name"] == "Runner"


def test_new_game_helper_still_plays() -> None:
    assert new_game(2).state.phase == "setup"
    assert started(2).state.phase == "play"


def test_equal_totals_are_no_hit_and_give_the_counter_attack() -> None:
    # ruling 5: "greater than"
    game = ambush_game()
    rig(game, [3])
    act(game, "blue", "roll")  # 4 + 3 = 7
    rig(game, [5])
    events = act(game, "red", "roll")  # 2 + 5 = 7: equal, no hit
    assert events[-1]["kind"] == "blow_missed" and events[-1]["counter"] is True
    assert run_of(game.state.players["red"]).runners  # the runner stands


def test_a_runner_who_changes_sides_takes_its_item() -> None:
    # ruling 11
    game = planted_game(2, red_lords_ladies=volunteer("Armed Runner", loyalty=0),
                        blue_lords_ladies=volunteer("Bro", **BROTHER))
    act(game, "red", "buy", kind="item", price=2, quadrant="assassins", name="Troll Club")
    club = game.state.players["red"].items[0]
    runner = runners_of(game)[0]
    run(game, runners=[runner], route=["fools"], items={runner: club})
    assert game.view(None)["players"][0]["run"]["runners"][0]["item"]["name"] == "Troll Club"
    rig(game, [None, 2])
    act(game, "blue", "strike", card=game.state.players["blue"].planted["fools"], method="alter")
    rig(game, [2])
    act(game, "red", "roll")  # Loyalty 0 + 2 < 7
    blue = game.state.players["blue"]
    assert runner in blue.hand and club in blue.items


@pytest.mark.parametrize(("summed", "needed"), [(False, 7), (True, 8)])
def test_anti_magic_counts_the_best_volunteer_or_all_of_them(summed: bool, needed: int) -> None:
    # ruling 12, and the option that adds them up
    options = replace(with_targets(2), anti_magic_sum=summed)
    game = GuardsGame.new(options, 1)
    set_up(game, blue_lords_ladies=volunteer("Warded", anti_magic=2),
           blue_man_beast=volunteer("Charmed", "man_beast", anti_magic=1))
    rig(game, [8, 2])
    act(game, "red", "roll")
    act(game, "red", "buy", kind="scroll", price=1, quadrant="assassins")
    rig(game, [2])
    events = act(game, "red", "cast", scroll=game.state.players["red"].scrolls[0], target="blue",
                 values={"target": 5})
    assert events[0]["target"] == needed


# --------------------------------------------------------------------- what the table is told


def test_the_last_runner_defeated_on_the_way_fails_the_run_and_the_table_is_told_why() -> None:
    game = ambush_game()
    rig(game, [5])
    act(game, "blue", "roll")  # 4 + 5 = 9
    rig(game, [5])
    act(game, "red", "roll")  # 2 + 5 = 7: the only runner falls
    assert act(game, "blue", "decline") == [{"kind": "run_failed", "seat": "red", "reason": "no_runners"}]
    assert game.state.players["red"].run is None


def test_runners_who_hold_the_ambush_off_reach_the_gate_and_the_table_is_told_how_many() -> None:
    game = ambush_game()
    rig(game, [2])
    act(game, "blue", "roll")
    rig(game, [5])
    act(game, "red", "roll")  # held: the counter-attack
    rig(game, [3, 4])
    act(game, "red", "roll")
    events = act(game, "blue", "roll")
    assert events[-1] == {"kind": "runners_at_gate", "seat": "red", "runners": 1}


def test_the_final_spell_fails_when_its_last_volunteer_falls_on_the_way_to_the_gate() -> None:
    game = game_with(spells=1, red_lords_ladies=volunteer("Carrier", toughness=0),
                     blue_lords_ladies=volunteer("Thug", brawl=6, **BROTHER))
    red = game.state.players["red"]
    act(game, "red", "discard", card=red.hand[1])
    act(game, "red", "collect_final", spell=card_of(red).spells[0], quadrant="fools")
    rig(game, [5])
    act(game, "blue", "plant", card=game.state.players["blue"].hand[0], quadrant="fools")
    act(game, "blue", "end_turn")
    act(game, "red", "at_gate", route=["fools"])
    act(game, "blue", "strike", card=game.state.players["blue"].planted["fools"], method="ambush")
    act(game, "blue", "decline")
    act(game, "red", "decline")
    rig(game, [5])
    act(game, "blue", "roll")  # 6 + 5 = 11
    rig(game, [2])
    act(game, "red", "roll")  # 0 + 2: the Carrier falls
    events = act(game, "blue", "decline")
    assert events[-1] == {"kind": "final_failed", "seat": "red", "reason": "no_volunteer"}
    assert not game.state.players["red"].hand and not game.view("red")["pending"]


def test_an_item_adds_its_bonus_to_its_own_skill_only() -> None:
    """A runner's Streetwise item adds to the Challenge's Streetwise; a Brawl item carried
    by another runner adds nothing to it."""
    game = game_with(red_lords_ladies=volunteer("Sneak", streetwise=3),
                     red_man_beast=volunteer("Brute", deck="man_beast", streetwise=2))
    red = game.state.players["red"]
    for name, bonus in (("Lock Pick", {"streetwise": 2}), ("Troll Club", {"brawl": 3})):
        act(game, "red", "buy", kind="item", price=1, quadrant="assassins", name=name)
        act(game, "red", "describe", card=red.items[-1], values={"name": name, "bonus": bonus})
    pick, club = red.items
    sneak, brute = runners_of(game)
    run(game, runners=[sneak, brute], items={sneak: pick, brute: club})
    test = game.view("red")["pending"][0]["test"]
    assert test["parts"] == [["Sneak", 5], ["Brute", 2]] and test["base"] == 7


def test_a_recruit_need_not_be_sent_to_a_gate_that_already_holds_six() -> None:
    """At most six runners stand at a Start Gate: with six waiting there is no room for
    the recruit, so the turn ends with it in the hand."""
    game = game_with()
    for _ in range(5):
        recruit_into(game, "red")
    hand = runners_of(game)
    run(game, runners=hand[:4], spell="red")
    rig(game, [1])
    act(game, "red", "roll")
    act(game, "blue", "end_turn")
    act(game, "red", "reattempt", runners=hand[4:6])
    rig(game, [1])
    act(game, "red", "roll")
    act(game, "blue", "end_turn")
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("Fresh Recruit", "shades_shadows", charm=1))
    rig(game, [5])
    act(game, "red", "roll")
    fresh = game.state.players["red"].hand[-1]
    assert len(run_of(game.state.players["red"]).runners) == 6
    act(game, "red", "end_turn")
    assert fresh in game.state.players["red"].hand and to_move(game) == "blue"


def challenge_game(c1: int = 13, cap_eights: bool = False) -> GuardsGame:
    """Red's two runners (Streetwise 3 and 2) at the Gate, Challenge 1's roll waiting."""
    game = GuardsGame.new(replace(with_targets(2, c1=c1, c2=13, c4=(10, 11)), cap_eights=cap_eights), 1)
    set_up(game, red_lords_ladies=volunteer("Sneak", streetwise=3),
           red_man_beast=volunteer("Brute", deck="man_beast", streetwise=2))
    rig(game, [8, 2])
    act(game, "red", "roll")
    run(game)
    return game


def test_the_table_shows_a_challenge_roll_its_total_its_verdict_and_the_skill_tested() -> None:
    game = challenge_game()
    assert game.view(None)["pending"][0]["test"] == {
        "purpose": "challenge", "kind": "open", "seat": "red", "base": 5, "target": 13,
        "parts": [["Sneak", 3], ["Brute", 2]], "against": None, "verdict": True, "house": True,
        "chance": "1/8", "percent": 12.5, "challenge": 1, "test": 0, "attribute": "streetwise",
        "name": "Windel's Wisdom",
    }
    rig(game, [8, 1])
    events = act(game, "red", "roll")
    assert events[0] == {"kind": "rolled", "seat": "red", "purpose": "challenge", "faces": [8, 1], "base": 5,
                         "total": 14, "target": 13, "passed": True, "natural": 8, "challenge": 1, "test": 0,
                         "attribute": "streetwise"}
    assert game.view(None)["last_roll"] == {
        "purpose": "challenge", "seat": "red", "faces": [8, 1], "total": 14, "base": 5, "target": 13,
        "passed": True, "step": game.state.steps, "turn": 1, "attribute": "streetwise",
    }
    assert roll_frame(game.state) is not None  # the lamps show the die until the next move


def test_a_first_1_shows_no_total_and_a_plain_face_shows_its_sum() -> None:
    game = challenge_game()
    rig(game, [1])
    events = act(game, "red", "roll")
    assert (events[0]["natural"], events[0]["passed"]) == (1, False)
    assert game.view(None)["last_roll"]["total"] is None
    pass_round(game, "red")
    rig(game, [2])
    events = act(game, "red", "reattempt", runners=[]) + act(game, "red", "roll")
    rolled = next(e for e in events if e["kind"] == "rolled")
    assert (rolled["faces"], rolled["total"], rolled["natural"], rolled["passed"]) == ([2], 7, None, False)
    assert game.view(None)["last_roll"]["total"] == 7


def test_a_brawl_roll_is_one_half_of_a_contest_and_shows_no_verdict() -> None:
    game = ambush_game()
    assert game.view(None)["pending"][0]["test"]["verdict"] is False
    rig(game, [5])
    assert act(game, "blue", "roll") == [{"kind": "rolled", "seat": "blue", "purpose": "attack", "faces": [5],
                                          "base": 4, "total": 9, "target": 0, "passed": None, "natural": None}]
    assert game.view(None)["last_roll"]["passed"] is None


def test_capped_eights_roll_an_open_8_again_once_only_and_the_chances_shown_say_so() -> None:
    capped = challenge_game(cap_eights=True)
    rig(capped, [8, 8, 8])
    assert act(capped, "red", "roll")[0]["faces"] == [8, 8]
    endless = challenge_game()
    rig(endless, [8, 8, 3])
    assert act(endless, "red", "roll")[0]["faces"] == [8, 8, 3]
    capped, endless = challenge_game(22, cap_eights=True), challenge_game(22)
    assert capped.view(None)["pending"][0]["test"]["chance"] == "0"  # Streetwise 5 + 8 + 8 < 22
    assert endless.view(None)["pending"][0]["test"]["chance"] == "1/64"
    blow = ambush_game(cap_eights=True).view(None)["pending"][0]["test"]
    assert (blow["chance"], ambush_game().view(None)["pending"][0]["test"]["chance"]) == (
        str(dice.attack_chance(4, 2, cap_eights=True)), str(dice.attack_chance(4, 2)))
    assert blow["chance"] != str(dice.attack_chance(4, 2))


def test_a_charm_roll_out_of_reach_still_shows_the_natural_8s_chance() -> None:
    """A recruiting natural 8 always wins: a Charm 2 roll against 12 has one chance in 8."""
    game = game_with()
    act(game, "red", "recruit", deck="shades_shadows", source="deck", quadrant="fools",
        values=volunteer("Lady Sybil", "shades_shadows", charm=12))
    test = game.view("red")["pending"][0]["test"]
    assert (test["kind"], test["base"], test["target"], test["chance"], test["percent"]) == (
        "recruit", 2, 12, "1/8", 12.5)
