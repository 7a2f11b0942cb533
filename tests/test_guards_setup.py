"""Guards! Guards! set-up, turns, trackers and the end: the first slice of the companion.

Set-up as the rulebook's "What players need" (money, Saboteur markers, Fire Water, the
dealt Volunteers' bonuses), the roll for the first player (ruling 2), play passing to
the left, each Guild Card's trackers, undo back to the last roll, the Short Game's
judging, and what each seat may see.
"""

from __future__ import annotations

import json

import pytest
from guards_support import act, card_of, new_game, rig, set_up, started, to_move, volunteer
from refusals import raises_in_words

from engine.core.errors import IllegalAction, MalformedAction
from engine.games import game_module, game_modules
from engine.guards import GuardsGame, GuardsOptions
from engine.guards.errors import (
    AttributeLimit,
    BadCard,
    BadOptions,
    NotEnoughMoney,
    NothingToUndo,
    NotNow,
    NotYourTurn,
    SetUpFirst,
    SpellRule,
)
from web.refusals import in_english


def refused(game: GuardsGame, seat: str, type_: str, error: type[IllegalAction], **fields: object) -> IllegalAction:
    """The report is refused with ``error`` and the game is exactly as it was."""
    before = json.dumps(game.state.to_json(), sort_keys=True)
    log = len(game.log)
    with pytest.raises(error) as caught:
        act(game, seat, type_, **fields)
    assert json.dumps(game.state.to_json(), sort_keys=True) == before
    assert len(game.log) == log
    return caught.value


def test_the_game_is_on_the_box_for_two_to_six() -> None:
    assert "guards" in game_modules()
    module = game_module("guards")
    mode = module.options_schema()["modes"][0]
    assert mode["players"] == [2, 3, 4, 5, 6]
    assert mode["default_seats"]["6"] == ["red", "blue", "green", "yellow", "black", "white"]
    assert mode["choices"]["spells"] == {"type": "integer", "min": 1, "max": 5, "default": 5}
    session = module.new({"players": 6, "spells": 3}, seed=4)
    assert [s.id for s in session.seats] == ["red", "blue", "green", "yellow", "black", "white"]
    for bad in ({"players": 7}, {"players": 1}, {"spells": 0}, {"spells": 6}, {"seats": ["red", "red"]},
                {"cap_eights": "yes"}, {"colour": "red"}, {"mode": "clacks"}):
        with pytest.raises(BadOptions):
            module.new(bad, 1)


def test_each_player_begins_with_five_dollars_and_four_saboteur_markers() -> None:
    game = new_game(3)
    set_up(game, cards=("thieves-a", "alchemists-b", "fools-a"))
    for seat in game.seats:
        player = game.state.players[seat]
        assert player.dollars == 5
        assert player.fire_water == (3 if seat == "blue" else 0)  # only the Alchemist
        view = game.view(seat)
        assert sorted(view["you"]["markers"]) == ["alchemists", "assassins", "fools", "thieves"]
        assert view["players"][game.seats.index(seat)]["attributes"]["magic"]["base"] == card_of(player).start["magic"]


def test_a_guild_card_is_chosen_once_and_may_carry_the_printed_values() -> None:
    game = new_game(2)
    act(game, "red", "choose_guild", card="fools-a")
    error = refused(game, "blue", "choose_guild", SpellRule, card="fools-a")
    assert "Red has already chosen" in in_english(error)
    refused(game, "blue", "choose_guild", SpellRule, card="wizards")
    refused(game, "blue", "choose_guild", BadCard, card="fools-b", values={"start": {"magic": 30, "guild": 1, "charm": 1}})
    act(game, "blue", "choose_guild", card="fools-b",
        values={"start": {"magic": 4, "guild": 1, "charm": 2}, "top": {"magic": 9, "guild": 9, "charm": 9}})
    card = game.state.players["blue"].card
    assert card is not None and card.house is False and card.start["magic"] == 4
    assert game.state.players["blue"].base == {"magic": 4, "guild": 1, "charm": 2}
    assert card_of(game.state.players["red"]).house is True


def test_dealt_volunteers_give_their_bonuses_but_no_pox_fate_or_luggage() -> None:
    game = new_game(2)
    act(game, "red", "choose_guild", card="thieves-a")  # charm 2, top 9
    refused(game, "red", "dealt", NotNow, deck="shades_shadows", values=volunteer(deck="shades_shadows"))
    events = act(game, "red", "dealt", deck="lords_ladies",
                 values=volunteer("Lady Ramkin", bonus={"charm": 2}, scrolls=1, infectious=True, fate=True,
                                  luggage=4, dollars=2))
    player = game.state.players["red"]
    assert player.base["charm"] == 4 and player.dollars == 7
    assert not player.pox and game.state.fate_used == 0
    assert len(player.scrolls) == 1 and game.state.supply["scroll"] == 19
    assert not any(e["kind"] in ("luggage_moves", "fate_drawn", "pox_caught") for e in events)
    # the event says a card was dealt, never which
    assert "Lady Ramkin" not in json.dumps(events)
    refused(game, "red", "dealt", NotNow, deck="lords_ladies", values=volunteer())
    refused(game, "red", "dealt", BadCard, deck="man_beast", values=volunteer(deck="man_beast", charm=99))
    refused(game, "blue", "dealt", SetUpFirst, deck="man_beast", values=volunteer(deck="man_beast"))


def test_a_dealt_bonus_stays_within_the_attribute_table() -> None:
    game = new_game(2)
    act(game, "red", "choose_guild", card="thieves-a", values={"start": {"magic": 8, "guild": 3, "charm": 2}})
    act(game, "red", "dealt", deck="lords_ladies", values=volunteer(bonus={"magic": 3}))
    assert game.state.players["red"].base["magic"] == 8  # the top of Magic's table


def test_the_first_player_is_the_highest_roller_and_only_the_tied_roll_again() -> None:
    game = new_game(3)
    set_up(game)
    assert game.state.phase == "start"
    refused(game, "red", "end_turn", SetUpFirst)
    rig(game, [6, 6, 2, 3, 5])  # red and blue tie on 6; only they roll again
    events = act(game, "green", "roll")
    assert events[0]["rolls"] == [{"red": 6, "blue": 6, "green": 2}, {"red": 3, "blue": 5}]
    assert to_move(game) == "blue"
    # play passes to the left: the order the seats sit in
    act(game, "blue", "end_turn")
    assert to_move(game) == "green"
    act(game, "green", "end_turn")
    assert to_move(game) == "red"
    refused(game, "blue", "end_turn", NotYourTurn)


def test_a_turn_to_miss_passes_on() -> None:
    game = started(3, first="red")
    act(game, "blue", "miss_turn")
    act(game, "red", "end_turn")
    assert to_move(game) == "green"
    assert game.state.players["blue"].miss == 0


def test_the_guild_card_trackers_refuse_what_the_card_cannot_hold() -> None:
    game = started(2, first="red")
    error = refused(game, "red", "adjust", NotEnoughMoney, dollars=-6)
    assert "$5" in in_english(error)
    act(game, "red", "adjust", dollars=-5)
    assert game.state.players["red"].dollars == 0
    refused(game, "red", "adjust", AttributeLimit, attribute="guild", by=8)  # 3 + 8 > 10
    act(game, "red", "adjust", attribute="guild", by=7)
    assert game.state.players["red"].base["guild"] == 10
    refused(game, "red", "adjust", AttributeLimit, attribute="magic", by=-2)  # below 0
    act(game, "red", "adjust", attribute="charm", by=-1, lasting=True)
    red = game.view("red")["players"][0]
    assert red["attributes"]["charm"] == {"base": 2, "effective": 1, "top": 9}
    act(game, "blue", "ailment", curse="Turned into a newt")
    assert game.view(None)["players"][1]["ailments"] == 1
    act(game, "blue", "pay", to="red", dollars=2)
    assert game.state.players["red"].dollars == 2 and game.state.players["blue"].dollars == 3
    refused(game, "blue", "pay", NotEnoughMoney, to="red", dollars=4)


def test_undo_takes_back_reports_but_never_a_roll() -> None:
    game = started(2)  # undo replays the log: no die made to fall here
    first, other = to_move(game), next(s for s in game.seats if s != to_move(game))
    with pytest.raises(NothingToUndo):
        game.undo(first)  # the roll for the first player
    act(game, first, "adjust", dollars=3)
    act(game, first, "adjust", attribute="magic", by=1)
    assert game.can_undo(first) and not game.can_undo(other)
    game.undo(first)
    game.undo(first)
    assert game.state.players[first].dollars == 5
    with pytest.raises(NothingToUndo):
        game.undo(first)
    act(game, first, "end_turn")
    with pytest.raises(NothingToUndo):
        game.undo(first)


def test_the_short_game_is_judged_by_spells_then_dollars() -> None:
    game = started(3, first="red")
    act(game, "blue", "adjust", dollars=4)
    act(game, "green", "adjust", dollars=4)
    game.state.players["red"].returned.append("red")
    events = act(game, "green", "stop_game")
    assert game.over and events[-1]["kind"] == "game_stopped"
    assert game.state.ranking == ["red", "blue", "green"]
    assert game.state.winners == ["red"]
    with pytest.raises(IllegalAction):
        act(game, "red", "end_turn")


def test_a_tie_on_spells_and_dollars_shares_the_win() -> None:
    game = started(2, first="red")
    act(game, "red", "stop_game")
    assert game.state.winners == ["red", "blue"]


def test_views_keep_each_hand_to_its_player() -> None:
    game = new_game(2)
    set_up(game, red_lords_ladies=volunteer("Secret Sam"))
    table = json.dumps(game.view(None))
    blue = json.dumps(game.view("blue"))
    red = json.dumps(game.view("red"))
    assert "Secret Sam" in red and "Secret Sam" not in blue and "Secret Sam" not in table
    for text in (table, blue, red):
        assert '"rng"' not in text and '"seed"' not in text
    assert game.view(None)["you"] is None
    assert game.view("blue")["players"][0]["volunteers"] == 2


def test_a_replayed_log_is_the_same_game() -> None:
    game = started(4, seed=9, spells=3)
    act(game, to_move(game), "adjust", dollars=2)
    act(game, to_move(game), "end_turn")
    again = GuardsGame.replay(json.loads(json.dumps(game.log_to_json())))
    assert again.state.to_json() == game.state.to_json()
    assert again.state.options.spells == 3


def test_bad_actions_are_malformed_before_any_rule() -> None:
    game = started(2)
    for bad in ({"type": "fly"}, {"type": "adjust", "dollars": "ten"}, {"type": "pay", "to": "mauve", "dollars": 1},
                {"type": "recruit", "deck": "wizards", "source": "deck", "quadrant": "fools"}, [1, 2]):
        with pytest.raises(MalformedAction):
            game.apply_json(bad, "red")


def test_the_options_keep_the_data_so_a_save_replays_after_the_files_change() -> None:
    options = GuardsOptions.from_json({"players": 2})
    saved = json.loads(json.dumps(options.to_json()))
    saved["data"]["challenges.toml"]["challenge"][0]["tests"][0]["target"] = 9
    again = GuardsOptions.from_json(saved)
    assert again.data.challenge(1).tests == (("streetwise", 9),)
    saved["data"]["challenges.toml"]["challenge"][0]["tests"][0]["target"] = "nine"
    with raises_in_words(BadOptions, match="target"):
        GuardsOptions.from_json(saved)


def test_many_turns_missed_by_everyone_still_come_round() -> None:
    game = started(2, first="red")
    for _ in range(6):
        act(game, "red", "miss_turn")
        act(game, "blue", "miss_turn")
    act(game, "red", "end_turn")
    assert game.state.turn is not None
    assert sum(p.miss for p in game.state.players.values()) < 12
