"""Whole games between bots, and the figures balance is judged by.

The driver holds the game; each bot is handed only its seat's view and legal actions.
After every action, each other seat holding Fault Reports is offered the chance to play
one, as a person at the table could.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.clacks.actions import Action, PlayFault
from engine.clacks.bots import make_bot
from engine.clacks.components import ComponentSet
from engine.clacks.events import Event
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import Seat
from engine.clacks.mode_state import TEAM_MODES
from engine.clacks.state import Options
from engine.core.rng import Rng, derive_seed

MAX_ROUNDS = 100  # a game still going after this many rounds counts as unfinished
MAX_ACTIONS = 20_000
POSITIONS = ("first", "second", "third", "fourth")


@dataclass
class GameRecord:
    mode: str
    seed: int
    order: list[str]  # seats in turn order
    levels: dict[str, str]  # seat -> bot level
    rounds: int = 0
    turns: int = 0
    finished: bool = False
    winners: list[str] = field(default_factory=list)  # in co-op the whole team, or nobody
    team_result: str | None = None  # co-op and solitaire: "won" or "lost"
    route: str | None = None  # the route on the map, in the map games
    end_reason: str | None = None
    stress_per_turn: list[int] = field(default_factory=list)
    transmissions: int = 0
    sabotage_attempts: int = 0
    sabotage_successes: int = 0
    faults_played: int = 0


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of a run's games, derived from the run's seed (engine.core.rng)."""
    return [derive_seed(seed, "game", index) for index in range(games)]


def levels_for_game(levels: list[str], players: int, index: int) -> list[str]:
    """Bot levels by turn-order position; with mixed levels each game rotates them, so
    that every level sits in every position equally often."""
    if len(levels) == 1:
        return levels * players
    return [levels[(position + index) % players] for position in range(players)]


def play_bot_game(
    options: Options,
    seed: int,
    levels: list[str],
    components: ComponentSet | None = None,
    max_rounds: int = MAX_ROUNDS,
) -> GameRecord:
    """Play one game with bots of ``levels`` in turn order; returns what happened."""
    game = ClacksGame.new(options, seed, components)
    order = list(game.state.order)
    bot_rng = Rng(derive_seed(seed, "bots"))
    bots = {
        seat: make_bot(level, game.components, bot_rng.next_u64())
        for seat, level in zip(order, levels, strict=True)
    }
    record = GameRecord(
        options.mode, seed, [s.label for s in order], {s.label: b.level for s, b in bots.items()}
    )
    while not game.over and game.state.turn.round <= max_rounds and len(game.log) < MAX_ACTIONS:
        seat = game.state.turn.seat
        at = game.state.turn.started_at + 1.0 if options.express else None
        legal = game.legal_actions(seat, at)
        action = bots[seat].choose(game.view(seat), legal)
        if action is None:
            raise RuntimeError(f"the {bots[seat].level} bot at {seat.label} chose nothing")
        _record(record, game.apply(action))
        for other in order:
            if game.over or other is game.state.turn.seat or not game.state.players[other].faults:
                continue
            offers: list[Action] = [
                a for a in game.legal_actions(other, at) if isinstance(a, PlayFault)
            ]
            if offers:
                reply = bots[other].choose(game.view(other), offers)
                if reply is not None:
                    _record(record, game.apply(reply))
    state = game.state
    record.rounds = state.turn.round
    record.finished = state.over
    record.winners = [seat.label for seat in state.winners]
    record.team_result = state.team.result if state.team is not None else None
    record.route = options.route if options.mode != "competitive" else None
    record.end_reason = state.end_reason
    return record


def _record(record: GameRecord, events: list[Event]) -> None:
    for e in events:
        if e.kind == "turn_ended":
            record.turns += 1
            record.stress_per_turn.append(int(e.data["stress"]))
        elif e.kind == "transmitted":
            record.transmissions += 1
        elif e.kind == "sabotage_started":
            record.sabotage_attempts += 1
        elif e.kind == "sabotage_succeeded":
            record.sabotage_successes += 1
        elif e.kind == "fault_played":
            record.faults_played += 1


def percentile(values: list[int], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    rank = max(1, -(-int(fraction * 1000) * len(ordered) // 1000))
    return float(ordered[min(rank, len(ordered)) - 1])


def summarise(records: list[GameRecord]) -> dict[str, Any]:
    """Figures over many games: win rates by position, seat and bot level, game length,
    stress spent, sabotage."""
    games = len(records)
    finished = [r for r in records if r.finished]
    rounds = [r.rounds for r in finished] or [0]
    players = len(records[0].order) if records else 0
    by_position: Counter[str] = Counter()
    by_seat: Counter[str] = Counter()
    level_games: Counter[str] = Counter()
    level_wins: Counter[str] = Counter()
    for r in records:
        for level in r.levels.values():
            level_games[level] += 1
        for winner in r.winners:  # in co-op every seat wins or loses together
            by_position[POSITIONS[r.order.index(winner)]] += 1
            by_seat[winner] += 1
            level_wins[r.levels[winner]] += 1
    seats_seen = sorted({s for r in records for s in r.order}, key=lambda s: Seat.parse(s))
    stress = [s for r in records for s in r.stress_per_turn]
    return {
        "games": games,
        "finished": len(finished),
        "median_rounds": statistics.median(rounds),
        "p90_rounds": percentile(rounds, 0.9),
        "mean_rounds": round(statistics.fmean(rounds), 2),
        "win_rate_by_seat": {
            POSITIONS[p]: _rate(by_position[POSITIONS[p]], games) for p in range(players)
        },
        "win_rate_by_table_seat": {s: _rate(by_seat[s], games) for s in seats_seen},
        "win_rate_by_bot": {
            level: _rate(level_wins[level], level_games[level]) for level in sorted(level_games)
        },
        "symbols_per_turn": round(
            sum(r.transmissions for r in records) / max(1, sum(r.turns for r in records)), 3
        ),
        "stress_per_turn": round(statistics.fmean(stress), 3) if stress else 0.0,
        "stress_per_game": round(len(stress) and sum(stress) / max(1, games), 2),
        "sabotage_attempts": sum(r.sabotage_attempts for r in records),
        "sabotage_successes": sum(r.sabotage_successes for r in records),
        "faults_played_per_game": round(sum(r.faults_played for r in records) / max(1, games), 2),
        "unfinished": games - len(finished),
        **_team_figures(records),
    }


def _team_figures(records: list[GameRecord]) -> dict[str, Any]:
    """Co-op and solitaire: the team's win rate, overall and by route."""
    team = [r for r in records if r.mode in TEAM_MODES]
    if not team:
        return {}
    routes = sorted({r.route for r in team if r.route})
    return {
        "win_rate": _rate(sum(r.team_result == "won" for r in team), len(team)),
        "win_rate_by_route": {
            route: _rate(
                sum(r.team_result == "won" for r in team if r.route == route),
                sum(1 for r in team if r.route == route),
            )
            for route in routes
        },
    }


def _rate(wins: int, games: int) -> float:
    return round(wins / games, 4) if games else 0.0
