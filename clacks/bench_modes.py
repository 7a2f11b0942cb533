"""Figures for the map games: how fast they play, and how the house set balances.

The co-op win rates come from the seeded heuristic self-play (engine.clacks.selfplay),
which looks two Jacquards ahead and swaps only when a face-up Jacquard finishes a
symbol: a strong, open-handed team. They are the balance measurements for the house
Incident Reports, Operator's Logs and Night Shift meanings.

``modes_card_<id>_win_rate``: the same team on the hard route, whose first player swaps
for that card's slot on turn one; compare the cards with each other (every swap costs
the lifted Jacquard's stress, and an Operator's Log one point more).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from engine.clacks import ClacksGame, Options
from engine.clacks.actions import Swap
from engine.clacks.components import ComponentSet
from engine.clacks.data import load_components
from engine.clacks.selfplay import play_heuristic_game

CONFIGS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("coop_easy", "coop", 3, {}),
    ("coop_hard", "coop", 3, {"route": "hard"}),
    ("coop_easy_night", "coop", 3, {"night_shift": True}),
    ("coop_hard_night", "coop", 3, {"route": "hard", "night_shift": True}),
    ("solitaire_easy", "solitaire", 1, {}),
    ("solitaire_hard", "solitaire", 1, {"route": "hard"}),
]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    games = 30 if args.quick else 200
    figures: dict[str, Any] = {}
    for name, mode, players, variants in CONFIGS:
        won = actions = 0
        post_office: list[int] = []
        started = time.perf_counter()
        for seed in range(games):
            game = ClacksGame.new(Options.for_players(players, mode=mode, **variants), seed)
            play_heuristic_game(game, seed)
            assert game.state.team is not None
            won += game.state.team.result == "won"
            actions += len(game.log)
            post_office.append(game.state.team.post_office)
        elapsed = time.perf_counter() - started
        figures[f"modes_{name}_win_rate"] = round(won / games, 3)
        figures[f"modes_{name}_post_office_median"] = statistics.median(post_office)
        figures[f"modes_{name}_actions_per_s"] = round(actions / elapsed)
    turns: list[int] = []
    started = time.perf_counter()
    for seed in range(games):
        game = play_heuristic_game(
            ClacksGame.new(Options.for_players(2, mode="junior"), seed), seed
        )
        turns.append(game.state.turn.number)
    figures["modes_junior_turns_median"] = statistics.median(turns)
    figures["modes_junior_games_per_s"] = round(games / (time.perf_counter() - started), 1)
    figures.update(card_win_rates(load_components(), 20 if args.quick else 100))
    return figures


def card_win_rates(components: ComponentSet, games: int) -> dict[str, float]:
    """Win rate of a team whose first player swaps for each card on turn one."""
    figures: dict[str, float] = {}
    decks = [("incident", components.incidents), ("log", components.logs)]
    for kind, deck in decks:
        for card_id in sorted({c.id for c in deck.values() if c.id.endswith("-1")}):
            won = 0
            for seed in range(games):
                game = ClacksGame.new(Options.for_players(3, mode="coop", route="hard"), seed)
                _deal_to_slot(game, f"{kind}-1", card_id)
                seat = game.current_seat
                game.apply(Swap(seat, jacquard=game.state.players[seat].hand[0], slot=f"{kind}-1"))
                play_heuristic_game(game, seed)
                assert game.state.team is not None
                won += game.state.team.result == "won"
            design = deck[card_id].design.id
            figures[f"modes_card_{design}_win_rate"] = round(won / games, 3)
    return figures


def _deal_to_slot(game: ClacksGame, slot_id: str, card_id: str) -> None:
    """Put ``card_id`` under a slot, trading places with the card dealt there."""
    team = game.state.team
    assert team is not None
    slot = team.slot(slot_id)
    assert slot is not None and slot.card is not None
    if card_id == slot.card:
        return
    if card_id in team.set_aside:
        team.set_aside[team.set_aside.index(card_id)] = slot.card
    else:
        other = next(s for s in team.slots if s.card == card_id)
        other.card = slot.card
    slot.card = card_id
