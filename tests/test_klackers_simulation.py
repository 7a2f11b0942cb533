"""Random-simulation invariants: many seeded matches, every option, two to four players.

After every action: each finished score equals the numbers left standing, a pulled
number never comes back within the round, chips are zero-sum, views hold nothing of the
dice generator. Every round ends, every match ends. The log replays to the same match,
the state reads back from its JSON, a clone is independent, and an undone pull can be
made again to the same state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, SerializationError
from engine.core.rng import Rng, seed_to_hex
from engine.klackers import KlackersGame, KlackersOptions, Pull, Roll
from engine.klackers.bots import make_bot
from engine.klackers.numbers import ALL_STANDING, total
from engine.klackers.options import DEFAULT_SEATS

MAX_ACTIONS_PER_TURN = 20  # at most nine pulls and ten rolls
RANDOM_MATCHES = 300
FAST_MATCHES = 30


def options_for(index: int) -> KlackersOptions:
    players = 2 + index % 3
    flags = index // 3
    return KlackersOptions(
        seats=DEFAULT_SEATS[players],
        hughie=bool(flags & 1),
        klack_to_win=bool(flags & 2),
        klack_worth_two=bool(flags & 4),
        rounds=1 + index % 4,
        target=None if index % 5 else 3,
        undo_pull=bool(index % 2),
    )


def no_secrets(view: dict[str, Any], game: KlackersGame) -> None:
    text = json.dumps(view)
    for key in ('"seed"', '"rng"', '"undo_floor"', '"log"'):
        assert key not in text
    generator = game.state.rng.to_json()
    assert isinstance(generator, dict)
    for secret in (seed_to_hex(game.state.seed), generator["key"], generator["value"]):
        assert secret not in text


def check_invariants(game: KlackersGame, before: dict[str, int], round_number: int) -> None:
    state = game.state
    assert sum(p.chips for p in state.players.values()) == 0
    for seat, player in state.players.items():
        if player.score is not None:
            assert player.score == total(player.standing)
        if state.round.number == round_number:
            # within a round numbers only ever go down
            assert player.standing & ~before[seat] == 0
    turn = state.turn
    if turn is not None:
        assert turn.phase in ("roll", "pull")
        if turn.phase == "pull":
            assert game.legal_actions(turn.seat), "a pull phase always has a combination"


def play_checked(game: KlackersGame, seed: int, level: str = "random") -> int:
    """Play to the end with bots, checking the invariants after every action."""
    bots = {seat: make_bot(level, seed * 31 + i) for i, seat in enumerate(game.seats)}
    undo_rng = Rng(seed)
    actions = 0
    while not game.over:
        seat = game.current_seat
        assert seat is not None
        before = {s: p.standing for s, p in game.state.players.items()}
        round_number = game.state.round.number
        turn_actions = 0
        while game.current_seat == seat and game.state.round.number == round_number:
            action = bots[seat].choose(game.view(seat))
            assert action in game.legal_actions(seat)
            prior = game.state.to_json()
            game.apply(action)
            actions += 1
            turn_actions += 1
            assert turn_actions <= MAX_ACTIONS_PER_TURN, "a turn that does not end"
            check_invariants(game, before, round_number)
            if isinstance(action, Pull) and game.can_undo(seat) and undo_rng.below(4) == 0:
                after = game.state.to_json()
                game.undo(seat)
                assert game.state.to_json() == prior
                game.apply(action)
                assert game.state.to_json() == after
            if game.over:
                break
        if not game.over:
            state = game.state
            if state.round.number == round_number:
                # the turn passed on: the player's numbers stand as they ended
                player = state.players[seat]
                assert player.score == total(player.standing)
        assert actions < 5000, "a match that does not end"
    return actions


# the first matches in the fast tier, the rest in the full one
@pytest.mark.parametrize(
    "matches",
    [
        pytest.param(range(FAST_MATCHES), id="first"),
        pytest.param(range(FAST_MATCHES, RANDOM_MATCHES), id="rest", marks=pytest.mark.slow),
    ],
)
def test_random_matches_keep_every_invariant_and_end(matches: range) -> None:
    rounds_seen = 0
    for index in matches:
        game = KlackersGame.new(options_for(index), seed=index)
        play_checked(game, index)
        rounds_seen += len(game.state.results)
        assert game.over and len(game.winners) == 1
        chips = {s: p.chips for s, p in game.state.players.items()}
        assert chips[game.winners[0]] == max(chips.values())
        assert list(chips.values()).count(max(chips.values())) == 1
        assert game.state.results[-1].outcome == "won"
        options = game.state.options
        if options.target is None:
            assert options.rounds is not None and len(game.state.results) >= options.rounds
    assert rounds_seen > len(matches)


def test_planner_matches_keep_every_invariant() -> None:
    for index in range(60):
        game = KlackersGame.new(options_for(index), seed=10_000 + index)
        play_checked(game, index, level="planner")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), index=st.integers(0, 200), cut=st.floats(0, 1))
def test_log_state_clone_and_views_round_trip(seed: int, index: int, cut: float) -> None:
    game = KlackersGame.new(options_for(index), seed)
    bot = make_bot("random", seed)
    while not game.over:
        seat = game.current_seat
        assert seat is not None
        game.apply(bot.choose(game.view(seat)))
        if len(game.log) > 40 * cut:
            break
    # the log replays to the same match, and the state reads back from its JSON
    log = json.loads(json.dumps(game.log_to_json()))
    assert KlackersGame.replay(log) == game
    saved = json.loads(json.dumps(game.to_json()))
    assert KlackersGame.from_json(saved) == game
    # a clone is independent of its original
    clone = game.clone()
    assert clone == game
    if not clone.over:
        seat = clone.current_seat
        before = game.state.to_json()
        clone.apply(clone.legal_actions(seat)[0])
        assert game.state.to_json() == before and clone.log != game.log
    # views: the table's and each seat's differ only in "you", and hold no secrets
    table = game.view(None)
    no_secrets(table, game)
    assert table["you"] is None
    for seat in game.seats:
        mine = game.view(seat)
        no_secrets(mine, game)
        assert mine["you"]["seat"] == seat
        assert {k: v for k, v in mine.items() if k != "you"} == {
            k: v for k, v in table.items() if k != "you"
        }


@pytest.mark.parametrize(
    "matches",
    [
        pytest.param(range(10), id="first"),
        pytest.param(range(10, 40), id="rest", marks=pytest.mark.slow),
    ],
)
def test_illegal_actions_change_nothing(matches: range) -> None:
    rng = Rng(5 + matches.start)
    for index in matches:
        game = KlackersGame.new(options_for(index), seed=index)
        bot = make_bot("random", index)
        while not game.over:
            seat = game.current_seat
            assert seat is not None
            before = game.state.to_json()
            wrong: list[Roll | Pull] = [
                Pull(seat, tuple(n for n in range(1, 10) if rng.below(2)) or (1,)),
                Roll(seat, 1),
                Roll(seat, 2),
                *(Roll(s, 2) for s in game.seats if s != seat),
            ]
            for action in wrong:
                if action in game.legal_actions(action.seat):
                    continue
                try:
                    game.apply(action)
                except IllegalAction:
                    assert game.state.to_json() == before
                else:
                    raise AssertionError(f"{action} was allowed but is not legal")
            game.apply(bot.choose(game.view(seat)))


def test_broken_saves_and_logs_are_refused_with_a_reason() -> None:
    game = KlackersGame.new(KlackersOptions(), seed=4)
    seat = game.current_seat
    assert seat is not None
    game.apply(Roll(seat, 2))
    log = game.log_to_json()
    broken: list[object] = [
        None,
        {**log, "game": "clacks"},
        {**log, "format": 99},
        {**log, "seed": "x"},
        {**log, "actions": "roll"},
        {**log, "actions": [{"type": "pull", "seat": seat, "numbers": [1]}]},
        {**log, "options": {"players": 9}},
    ]
    for data in broken:
        try:
            KlackersGame.replay(data)
        except SerializationError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"replayed {data!r}")
    saved = game.to_json()
    state = saved["state"]
    for bad_state in (
        {**state, "players": []},
        {**state, "turn": {**state["turn"], "phase": "dance"}},
        {**state, "turn": {**state["turn"], "dice": [7, 1]}},
        {**state, "players": [{**state["players"][0], "standing": ALL_STANDING + 1}]},
        {**state, "rng": None},
    ):
        try:
            KlackersGame.from_json({**saved, "state": bad_state})
        except SerializationError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"read {bad_state!r}")
