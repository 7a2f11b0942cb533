"""The printed rules as the engine plays them: ruling 2 (two letters in a row never go
out from the same tower), the published setup by default, the stress limit named in
its refusal, and a mode's only player count taken when none is given."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from clacks_setup import give_hand, lamps, moved_under_grit, set_turn
from refusals import raises_in_words

from clacks.cli import _options as cli_options
from clacks.cli import build_parser
from clacks.simulate_clacks import options_from as simulate_options
from engine.clacks import (
    ClacksGame,
    EndTurn,
    Move,
    Options,
    PlayJacquard,
    Seat,
    Transmit,
)
from engine.clacks import errors as E
from engine.clacks.geometry import pattern_mask
from engine.clacks.hints import hint
from engine.clacks.session import ClacksModule
from web.refusals import in_english

S, N = Seat.SOUTH, Seat.NORTH


def guard_game() -> ClacksGame:
    """South sends GUARD, North TROLL; South starts (GUARD comes first)."""
    game = ClacksGame.new(Options(seats=(S, N), words=(("GUARD",), ("TROLL",))), seed=3)
    assert game.current_seat is S
    return game


def send_freshly(game: ClacksGame, seat: Seat, tower: str, symbol: str) -> None:
    """Put ``symbol`` on ``tower`` for ``seat`` and flip one of its lamps off and on, so
    the pattern counts as made this turn."""
    game.state.board = pattern_mask(game.components.alphabet[symbol], seat, tower) | lamps("d4")
    pin, other, _ = give_hand(game, seat, ["pin", "pin", "pair"])
    game.apply(PlayJacquard(seat, jacquard=pin, lamps=lamps("b1")))
    game.apply(PlayJacquard(seat, jacquard=other, lamps=lamps("b1")))


def quiet_turn(game: ClacksGame, seat: Seat) -> None:
    """A turn with one Jacquard played and no letter sent."""
    assert game.current_seat is seat
    pin, _, _ = give_hand(game, seat, ["pin", "pin", "pair"])
    game.apply(PlayJacquard(seat, jacquard=pin, lamps=lamps("d4")))
    game.apply(EndTurn(seat))


def transmit_g_from_b2c2(game: ClacksGame) -> None:
    game.state.players[S].pawn = "b2c2"
    set_turn(game, S)
    send_freshly(game, S, "b2c2", "G")
    assert next(e.kind for e in game.apply(Transmit(S))) == "transmitted"
    assert game.state.players[S].must_leave == "b2c2"


def test_a_turn_without_a_letter_in_between_does_not_free_the_tower() -> None:
    game = guard_game()
    transmit_g_from_b2c2(game)
    quiet_turn(game, N)
    quiet_turn(game, S)  # South stays on b2c2 and sends nothing
    assert game.state.players[S].must_leave == "b2c2"
    quiet_turn(game, N)
    send_freshly(game, S, "b2c2", "U")
    before = game.to_json()
    with raises_in_words(E.MustChangeTower, match="last letter went out from b2c2"):
        game.apply(Transmit(S))
    assert game.to_json() == before


def test_leaving_the_tower_and_coming_back_does_not_free_it() -> None:
    game = guard_game()
    transmit_g_from_b2c2(game)
    quiet_turn(game, N)
    game.apply(Move(S, tower="a2b2"))  # away for a turn without a letter
    pin, _, _ = give_hand(game, S, ["pin", "pin", "pair"])
    game.apply(PlayJacquard(S, jacquard=pin, lamps=lamps("d4")))
    game.apply(EndTurn(S))
    quiet_turn(game, N)
    game.apply(Move(S, tower="b2c2"))  # and back
    send_freshly(game, S, "b2c2", "U")
    with pytest.raises(E.MustChangeTower):
        game.apply(Transmit(S))
    assert game.state.players[S].progress == 1


def test_the_next_letter_goes_out_from_another_tower_and_frees_the_first() -> None:
    game = guard_game()
    transmit_g_from_b2c2(game)
    quiet_turn(game, N)
    game.apply(Move(S, tower="a2b2"))
    send_freshly(game, S, "a2b2", "U")
    game.apply(Transmit(S))
    assert game.state.players[S].progress == 2
    assert game.state.players[S].must_leave == "a2b2"


def test_hints_never_plan_a_second_letter_from_the_same_tower() -> None:
    game = guard_game()
    transmit_g_from_b2c2(game)
    quiet_turn(game, N)
    quiet_turn(game, S)
    quiet_turn(game, N)
    # U is one lamp away on b2c2: the cheapest plan ignoring ruling 2 would stay there
    wanted = pattern_mask(game.components.alphabet["U"], S, "b2c2")
    lowest = wanted & -wanted
    game.state.board = wanted ^ lowest
    give_hand(game, S, ["pin", "pair", "pin"])
    plan = hint(game.view(S), game.components)
    assert plan is not None
    assert plan.tower != "b2c2"
    if plan.complete:
        for action in plan.actions():
            game.apply(action)
        assert game.state.players[S].progress == 2


def test_the_published_setup_deals_every_player_a_fault_report_by_default() -> None:
    for game in (
        ClacksGame.new(Options(), seed=4),
        ClacksModule().new({}, seed=4).clacks,  # type: ignore[attr-defined]
        ClacksGame.new(Options.from_json({"mode": "competitive", "seats": ["south", "north"]}), 4),
    ):
        assert not game.state.options.balanced_start
        assert all(len(p.faults) == 1 for p in game.state.players.values())
    house = ClacksGame.new(Options(balanced_start=True), seed=4).state
    assert house.players[house.order[0]].faults == []


def test_the_terminal_and_simulate_deal_the_published_setup_unless_asked() -> None:
    parser = build_parser()
    plain = parser.parse_args(["play"])
    assert not cli_options(plain).balanced_start
    house = parser.parse_args(["play", "--balanced-start"])
    assert cli_options(house).balanced_start
    simulate = argparse.Namespace(
        mode="competitive", players=2, express=False, quick=False, long_message=False,
        balanced_start=False, route="easy", night_shift=False, long_distance=False,
        stress_limit=None, hand_size=None, turn_seconds=None,
    )
    assert not simulate_options(simulate).balanced_start


def test_the_lobby_offers_the_balanced_start_unticked_with_its_figures() -> None:
    schema = ClacksModule().options_schema()
    competitive = next(m for m in schema["modes"] if m["id"] == "competitive")
    assert "balanced_start" in competitive["variants"]
    assert "balanced_start" not in competitive.get("variants_on", [])
    figures = competitive["variant_figures"]["balanced_start"]
    assert 0 < figures["balanced"] < figures["published"] < 100


def test_the_stress_refusal_names_the_limit_of_five() -> None:
    game = guard_game()
    game.state.players[S].pawn = "a2b2"
    set_turn(game, S)
    game.state.turn.stress_spent = 4
    with pytest.raises(E.StressLimit) as refused:
        game.apply(Move(S, tower="c2d2"))
    assert in_english(refused.value) == (
        "Moving to c2d2 costs 2 stress points; a turn may spend at most 5 stress points, "
        "and you have 1 left."
    )
    assert refused.value.params == {
        "reason": "move", "tower": "c2d2", "cost": 2, "left": 1, "limit": 5, "limit_from": "rules"
    }


def test_the_stress_refusal_names_the_limit_a_fault_report_set() -> None:
    game = guard_game()
    long_bar = moved_under_grit(game)
    with pytest.raises(E.StressLimit) as refused:
        game.apply(PlayJacquard(S, jacquard=long_bar, lamps=lamps("a1", "b1", "c1", "d1")))
    assert "a Fault Report set this turn's limit to 3 stress points" in in_english(refused.value)
    assert refused.value.params["limit"] == 3
    assert refused.value.params["limit_from"] == "fault_report"


@pytest.mark.parametrize(("mode", "players"), [("solitaire", 1), ("junior", 2)])
def test_a_mode_with_one_player_count_takes_it_without_being_told(mode: str, players: int) -> None:
    session = ClacksModule().new({"mode": mode}, seed=2)
    assert len(session.seats) == players
    assert len(Options(mode=mode).seats) == players


def test_a_wrong_count_is_still_refused_by_name() -> None:
    with raises_in_words(E.BadOptions, match="for 1 player, not 2"):
        ClacksModule().new({"mode": "solitaire", "players": 2}, seed=2)


def test_a_game_saved_before_the_ruling_replays_under_the_rule_it_was_played_with() -> None:
    """A format-1 save was played when a turn without a letter freed the tower; this one
    sends its next letter from that tower again (action 35), which it may, and only it."""
    fixture = Path(__file__).parent / "data" / "earlier_release" / "clacks-competitive-ruling2.json"
    saved = json.loads(fixture.read_text())
    game = ClacksGame.replay(saved)
    assert game.legacy and len(game.log) == len(saved["actions"])
    again = game.log_to_json()
    assert (again["format"], again["seed"], again["actions"]) == (1, saved["seed"], saved["actions"])
    first, second = (saved["actions"][i] for i in (17, 34))
    assert first["type"] == second["type"] == "transmit" and first["seat"] == second["seat"]
    seat = Seat.parse(first["seat"])
    towers = [
        ClacksGame.replay({**saved, "actions": saved["actions"][:i]}).state.players[seat]
        for i in (17, 34)
    ]
    assert towers[0].pawn == towers[1].pawn  # two letters from one tower, quiet turns between
    assert towers[1].must_leave is None  # freed by those quiet turns, as it then was
