"""Random simulation: a thousand seeded games (CLACKS_SIM_GAMES to play more), invariants
checked after every action.

Games are driven by the seeded heuristic self-play (so they finish), with random Fault
Reports, random timeouts in Clacks Express, random undos, and at every step a few legal
and a few illegal actions tried on a clone.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace

import pytest
from seed_tiers import fast_then_slow_batches

from engine.clacks import ClacksGame, Options, actions
from engine.clacks.geometry import TOWER_NAMES, Seat
from engine.clacks.selfplay import MAX_ACTIONS, next_action
from engine.clacks.state import ClacksState
from engine.core.errors import IllegalAction
from engine.core.rng import Rng

GAMES = int(os.environ.get("CLACKS_SIM_GAMES", "1000"))
BATCHES = 20
FAST_GAMES = 10  # the first seeds, in the fast tier; the rest in the full one, in batches
VIEW_KEYS = {
    "game",
    "mode",
    "options",
    "board",
    "lit",
    "players",
    "dwarf",
    "dwarf_seat",
    "turn",
    "sabotage",
    "bag_count",
    "discard_count",
    "recently_played",
    "fault_deck_count",
    "finishers",
    "winner",
    "end_reason",
    "you",
    "winners",
    "hints_allowed",
}


def options_for(seed: int) -> Options:
    rng = Rng(seed * 7919)
    return Options.for_players(
        2 + rng.below(3),
        express=rng.below(4) == 0,
        long_message=rng.below(5) == 0,
        quick=rng.below(4) == 0,
    )


def random_candidate(game: ClacksGame, rng: Rng) -> actions.Action:
    """A plausible action, legal or not: right or wrong seat, card, lamps, tower, time."""
    state = game.state
    seat = list(Seat)[rng.below(4)]
    at = state.turn.started_at + rng.below(90) if state.options.express else None
    player = state.players.get(seat)
    cards = sorted(game.components.jacquards)
    faults = sorted(game.components.faults)
    hand = player.hand if player and player.hand and rng.below(3) else cards
    fault_hand = player.faults if player and player.faults and rng.below(3) else faults
    kind = rng.below(7)
    if kind == 0:
        return actions.Move(seat, tower=TOWER_NAMES[rng.below(12)], at=at)
    if kind == 1:
        return actions.PlayJacquard(
            seat, jacquard=hand[rng.below(len(hand))], lamps=rng.below(1 << 16), at=at
        )
    if kind == 2:
        card = hand[rng.below(len(hand))]
        masks = sorted(game.components.jacquards[card].masks)
        return actions.PlayJacquard(seat, jacquard=card, lamps=masks[rng.below(len(masks))], at=at)
    if kind == 3:
        tower = TOWER_NAMES[rng.below(12)] if rng.below(2) else None
        return actions.PlayFault(
            seat,
            card=fault_hand[rng.below(len(fault_hand))],
            lamps=(1 << rng.below(16)) | (rng.below(2) << rng.below(16)),
            tower=tower,
            at=at,
        )
    if kind == 4:
        return actions.Transmit(seat, at=at)
    if kind == 5:
        return actions.EndTurn(seat, at=at)
    if state.options.express and rng.below(2):
        return actions.TimeUp(None, at=at)
    return actions.Discard(seat, jacquard=hand[rng.below(len(hand))], at=at)


def check_invariants(game: ClacksGame) -> None:
    state = game.state
    assert 0 <= state.board < 1 << 16
    jacquards = state.bag + state.discard + [j for p in state.players.values() for j in p.hand]
    assert Counter(jacquards) == Counter(list(game.components.jacquards)), (
        "Jacquards lost or doubled"
    )
    faults = state.fault_deck + [f for p in state.players.values() for f in p.faults]
    assert Counter(faults) == Counter(list(game.components.faults)), "Fault Reports lost or doubled"
    for viewer in [None, *state.players]:
        view = game.view(viewer)
        assert set(view) == VIEW_KEYS
        text = json.dumps(view)
        for seat, player in state.players.items():
            if seat is viewer:
                assert [c["id"] for c in view["you"]["hand"]] == player.hand
                continue
            for card in player.hand + player.faults:
                assert f'"{card}"' not in text or card in state.discard, (viewer, seat, card)
        assert "rng" not in text and "seed" not in text and 'fault_deck"' not in text
    state_json = state.to_json()
    assert ClacksState.from_json(json.loads(json.dumps(state_json))).to_json() == state_json
    if len(game.log) % 10 == 0:  # the whole game (state and log) now and then: it grows
        assert ClacksGame.from_json(json.loads(json.dumps(game.to_json()))) == game
    assert game.clone() == game


def check_actions(game: ClacksGame, rng: Rng) -> None:
    """Sampled legal actions are accepted; candidates outside the legal list are refused
    without any change."""
    state = game.state
    at = state.turn.started_at + 1.0 if state.options.express else None
    everything = [a for seat in state.players for a in game.legal_actions(seat, at)]
    legal = set(everything)
    if everything:
        game.clone().apply(everything[rng.below(len(everything))])
    for _ in range(2):
        candidate = random_candidate(game, rng)
        if not isinstance(candidate, actions.TimeUp):
            candidate = replace(candidate, at=at)  # legality is listed for one moment
        trial = game.clone()
        if candidate in legal:
            trial.apply(candidate)
            continue
        before = trial.state.to_json()
        try:
            trial.apply(candidate)
        except IllegalAction:
            assert trial.state.to_json() == before, f"{candidate} changed the state though refused"
            assert trial.log == game.log
        else:
            assert isinstance(candidate, actions.TimeUp), (
                f"{candidate} was accepted but not listed as legal"
            )


def play_checked(seed: int) -> ClacksGame:
    game = ClacksGame.new(options_for(seed), seed)
    rng = Rng(seed)
    snapshots = [json.dumps(game.state.to_json(), sort_keys=True)]
    while not game.over:
        assert len(game.log) < MAX_ACTIONS, f"game {seed} does not end"
        check_invariants(game)
        check_actions(game, rng)
        if game.state.options.express and rng.below(25) == 0:
            deadline = game.rules.deadline(game.state)
            if game.state.turn.phase != "timeout_discard" and deadline is not None:
                game.apply(actions.TimeUp(None, at=deadline + rng.below(3)))
                snapshots.append(json.dumps(game.state.to_json(), sort_keys=True))
                continue
        seat = game.current_seat
        if game.can_undo(seat) and rng.below(15) == 0:
            before_undo = game.to_json()
            last = game.log[-1]
            game.undo(seat)
            snapshots.pop()
            assert json.dumps(game.state.to_json(), sort_keys=True) == snapshots[-1]
            game.apply(last)
            assert game.to_json() == before_undo  # undo round trip
            snapshots.append(json.dumps(game.state.to_json(), sort_keys=True))
        action = next_action(game, rng)
        game.apply(action)
        snapshots.append(json.dumps(game.state.to_json(), sort_keys=True))
    check_invariants(game)
    # replaying the log reproduces the state after every single action
    replay = ClacksGame.new(game.state.options, game.state.seed)
    for index, action in enumerate(game.log):
        replay.apply(actions.action_from_json(json.loads(json.dumps(action.to_json()))))
        assert json.dumps(replay.state.to_json(), sort_keys=True) == snapshots[index + 1]
    assert ClacksGame.replay(json.loads(json.dumps(game.log_to_json()))) == game
    return game


@pytest.mark.parametrize("seeds", fast_then_slow_batches(GAMES, FAST_GAMES, BATCHES))
def test_random_games_keep_every_invariant(seeds: range) -> None:
    for seed in seeds:
        game = play_checked(seed)
        assert game.winner is not None


def test_simulated_games_reach_every_ending() -> None:
    reasons: Counter[str] = Counter()
    for seed in range(60):  # each ending comes eight times or more in these
        game = ClacksGame.new(options_for(seed), seed)
        rng = Rng(seed)
        while not game.over:
            game.apply(next_action(game, rng))
        reasons[str(game.state.end_reason)] += 1
    assert set(reasons) == {"sabotage_failed", "message_complete", "quick_game"}, reasons
