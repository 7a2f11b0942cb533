"""Random-simulation invariants for every mode: many seeded self-play games, checked
after every action. Each configuration plays 50 games, the first few in the fast tier and
the rest in the full one; set CLACKS_SIM_GAMES to play more."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.clacks import ClacksGame, Options
from engine.clacks.actions import Action
from engine.clacks.card_effects import deck_of
from engine.clacks.events import Event
from engine.clacks.selfplay import MAX_ACTIONS, next_action
from engine.clacks.session import ClacksSession
from engine.core.rng import Rng

GAMES = int(os.environ.get("CLACKS_SIM_GAMES", "50"))
FAST_GAMES = 5  # each configuration's first games, in the fast tier
SEEDS = [
    pytest.param(range(FAST_GAMES), id="first"),
    pytest.param(range(FAST_GAMES, GAMES), id="rest", marks=pytest.mark.slow),
]
CHECK_EVERY = 4  # the expensive checks (views, JSON, undo, clone) run every few actions

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("competitive", 2, {}),
    ("competitive", 3, {"long_message": True}),
    ("competitive", 4, {"quick": True}),
    ("coop", 2, {}),
    ("coop", 3, {"route": "hard", "night_shift": True}),
    ("coop", 4, {"long_distance": True}),
    ("coop", 2, {"route": "hard", "long_distance": True}),
    ("coop", 3, {"long_distance": True, "night_shift": True}),
    ("solitaire", 1, {}),
    ("solitaire", 1, {"night_shift": True, "route": "hard"}),
    ("junior", 2, {}),
]


@dataclass
class Played:
    game: ClacksGame
    steps: list[tuple[Action, list[Event]]] = field(default_factory=list)

    @property
    def events(self) -> list[Event]:
        return [e for _, events in self.steps for e in events]


def check_board(game: ClacksGame) -> None:
    """The exchange is 16 lamps: the board never holds a bit outside them."""
    board = game.state.board
    assert isinstance(board, int) and 0 <= board < 1 << 16, f"board {board:#x}"


def check_cards(game: ClacksGame) -> None:
    """All 48 Jacquards and every card are somewhere, each exactly once."""
    state, components = game.state, game.components
    jacquards = list(state.bag) + list(state.discard)
    for player in state.players.values():
        jacquards += player.hand
    if state.team is not None:
        jacquards += [s.jacquard for s in state.team.slots if s.jacquard is not None]
    assert sorted(jacquards) == sorted(components.jacquards)
    ledger = state.team.ledger if state.team else state.race.ledger if state.race else None
    revealed = list(ledger.revealed) if ledger else []
    assert len(set(revealed)) == len(revealed)
    faults = list(state.fault_deck) + [c for c in revealed if deck_of(components, c) == "fault"]
    for player in state.players.values():
        faults += player.faults
    assert sorted(faults) == sorted(components.faults)
    if state.team is not None:
        cards = list(state.team.set_aside) + [s.card for s in state.team.slots if s.card]
        cards += [c for c in revealed if deck_of(components, c) != "fault"]
        assert sorted(cards) == sorted([*components.incidents, *components.logs])


def check_views(game: ClacksGame) -> None:
    """No view holds a hand it should not, nor bag or deck order, nor the seed."""
    state = game.state
    open_team = state.team is not None and not state.options.long_distance
    secret = set(state.bag) | set(state.fault_deck)
    if state.team is not None:
        secret |= {s.jacquard for s in state.team.slots if s.kind == "log" and s.jacquard}
    for viewer in [None, *state.order]:
        view = game.view(viewer)
        assert "seed" not in view and "rng" not in view and "bag" not in view
        for entry in view["players"]:
            owner = state.players[next(s for s in state.order if s.label == entry["seat"])]
            if "hand" in entry:
                assert open_team or owner.seat is viewer
                assert [c["id"] for c in entry["hand"]] == owner.hand
        if viewer is not None:
            assert [c["id"] for c in view["you"]["hand"]] == state.players[viewer].hand
        shown = json.dumps(view)
        hidden_hands = set()
        if not open_team:
            for seat, player in state.players.items():
                if seat is not viewer:
                    hidden_hands |= set(player.hand) | set(player.faults)
        leaked = [c for c in secret | hidden_hands if f'"{c}"' in shown]
        assert not leaked, f"view of {viewer} shows {leaked}"
        if state.options.long_distance:
            assert view["hints_allowed"] is False


def check_team_ledger(played: Played) -> None:
    """The Post Office is where the stress and the card effects put it, and the towers
    lit are the symbols sent."""
    game = played.game
    team = game.state.team
    assert team is not None
    moved = [e for e in played.events if e.kind == "post_office_moved"]
    assert sum(e.data["steps"] for e in moved) == team.post_office
    stress = sum(e.data["cost"] for e in played.events if e.kind in ("jacquard_played", "swapped"))
    assert stress == team.stress_total
    by_stress = sum(
        e.data["steps"] + e.data["held"] for e in moved if e.data["cause"] in ("stress", "lift")
    )
    if team.result == "lost":
        assert by_stress <= stress  # steps past Genua are not taken
    else:
        assert by_stress == stress
    capped_turns = {
        (a.seat, n)
        for n, (a, events) in enumerate(played.steps)
        for e in events
        if e.kind == "post_office_capped"
    }
    held = [e for e in moved if e.data["held"]]
    assert not held or capped_turns, "steps were held back without a cap"
    sent = [e for e in played.events if e.kind == "transmitted"]
    assert len(sent) == team.progress
    route = game.components.routes[team.route]
    assert [e.data["lit"] for e in sent] == list(route.towers[: team.progress])
    assert game.view(None)["message"]["towers_lit"] == list(route.towers[: team.progress])


def check_junior_ledger(played: Played) -> None:
    game = played.game
    assert game.state.race is not None
    counts = Counter(e.seat for e in played.events if e.kind == "transmitted")
    for seat, player in game.state.players.items():
        assert counts[seat] == player.progress
        route = game.components.routes[game.state.race.routes[seat]]
        entry = next(p for p in game.view(None)["players"] if p["seat"] == seat.label)
        assert entry["pawn_at"] == (
            route.towers[player.progress - 1] if player.progress else "Ankh-Morpork"
        )


def check_copies(game: ClacksGame, action: Action) -> None:
    """JSON round trip, clone, and undo-then-redo all give the same game."""
    saved = json.loads(json.dumps(game.to_json()))
    assert ClacksGame.from_json(saved) == game
    copy = game.clone()
    assert copy == game
    if action.seat is not None and game.can_undo(action.seat):
        undone = game.clone()
        undone.undo(action.seat)
        assert undone != game
        undone.apply(action)
        assert undone == game


def play(mode: str, players: int, variants: dict[str, Any], seed: int) -> Played:
    game = ClacksGame.new(Options.for_players(players, mode=mode, **variants), seed)
    played = Played(game)
    rng = Rng(seed ^ 0x5EED)
    while not game.over and len(game.log) < MAX_ACTIONS:
        action = next_action(game, rng, fault_chance=20, swap_chance=3)
        before = game.clone()
        events = game.apply(action)
        played.steps.append((action, events))
        assert before != game or action.TYPE == "play_fault"
        check_board(game)
        check_cards(game)
        if len(game.log) % CHECK_EVERY == 0 or game.over:
            check_views(game)
            check_copies(game, action)
    return played


@pytest.mark.parametrize("seeds", SEEDS)
@pytest.mark.parametrize(("mode", "players", "variants"), CONFIGS)
def test_random_games_keep_every_invariant(
    mode: str, players: int, variants: dict[str, Any], seeds: range
) -> None:
    endings: Counter[str] = Counter()
    for seed in seeds:
        played = play(mode, players, variants, seed)
        game = played.game
        assert game.over, f"seed {seed} did not finish in {MAX_ACTIONS} actions"
        endings[str(game.state.end_reason)] += 1
        assert ClacksGame.replay(json.loads(json.dumps(game.log_to_json()))) == game
        result = ClacksSession(game).result()
        assert result is not None
        if game.state.team is not None:
            check_team_ledger(played)
            # the whole team shares one result
            assert result["winners"] in ([s.label for s in game.state.order], [])
            assert result["team"] in ("won", "lost")
            assert len({json.dumps(game.view(s)["winners"]) for s in game.state.order}) == 1
        else:
            assert len(result["winners"]) == 1
        if game.state.race is not None:
            check_junior_ledger(played)
    assert sum(endings.values()) == len(seeds)


def test_simulations_visit_every_slot_kind_and_card_deck() -> None:
    """The self-play driver really exercises swaps and Night Shift reveals."""
    kinds_seen: Counter[str] = Counter()
    for seed in range(12):
        played = play("coop", 3, {"night_shift": True}, seed)
        for event in played.events:
            if event.kind == "swapped":
                kinds_seen[event.data["slot_kind"]] += 1
            if event.kind == "card_revealed":
                kinds_seen[event.data["deck"]] += 1
    assert kinds_seen["incident"] and kinds_seen["log"] and kinds_seen["fault"]
