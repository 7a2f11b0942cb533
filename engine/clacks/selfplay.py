"""A cheap, seeded self-play policy that finishes games: for simulation tests and benches.

It plays legally and with a little sense (move where needed, play the Jacquard that brings
the tower closest to the next symbol, transmit when it can, try sabotage), and now and
then plays a Fault Report for a random seat, so long simulations visit every rule.
It reads the full state, so it is a test driver, not a bot for real seats.
"""

from __future__ import annotations

from engine.clacks.actions import (
    Action,
    EndTurn,
    Move,
    PlayFault,
    PlayJacquard,
    TimeUp,
    Transmit,
)
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import read_pattern, tower
from engine.core.rng import Rng

MAX_ACTIONS = 5000


def _wrong_lamps(game: ClacksGame, board: int) -> int:
    state = game.state
    player = state.players[state.turn.seat]
    assert player.pawn is not None and player.next_symbol is not None
    wanted = game.components.alphabet[player.next_symbol]
    return (read_pattern(board, player.seat, player.pawn) ^ wanted).bit_count()


def choose_turn_action(game: ClacksGame, rng: Rng, at: float | None = None) -> Action:
    """The current player's next action under the heuristic policy."""
    state = game.state
    seat = state.turn.seat
    if state.options.express and at is None:
        at = state.turn.started_at + 1.0
    actions = [a for a in game.legal_actions(seat, at) if not isinstance(a, PlayFault)]
    if not actions:
        deadline = game.rules.deadline(state)
        return TimeUp(None, at=deadline)
    for action in actions:
        if isinstance(action, Transmit):
            return action
    plays = [a for a in actions if isinstance(a, PlayJacquard)]
    ends = [a for a in actions if isinstance(a, EndTurn)]
    if state.turn.phase == "sabotage":
        assert state.sabotage is not None
        mask = tower(state.sabotage.tower).mask
        lit_now = (state.board & mask).bit_count()
        best = min(plays, key=lambda a: ((state.board ^ a.lamps) & mask).bit_count(), default=None)
        if best is not None and ((state.board ^ best.lamps) & mask).bit_count() < lit_now:
            return best
        return ends[0] if ends else actions[0]
    player = state.players[seat]
    moves = [a for a in actions if isinstance(a, Move)]
    if moves and (player.pawn is None or player.pawn == player.must_leave or rng.below(5) == 0):
        return moves[rng.below(len(moves))]
    if player.pawn is not None and player.next_symbol is not None and plays:
        now = _wrong_lamps(game, state.board)
        scored = [(_wrong_lamps(game, state.board ^ a.lamps), rng.below(1000), a) for a in plays]
        wrong, _, best = min(scored, key=lambda t: (t[0], t[1]))
        if wrong < now or state.turn.jacquards_played == 0:
            return best
    if ends:
        return ends[0]
    return actions[rng.below(len(actions))]


def play_heuristic_game(game: ClacksGame, seed: int, fault_chance: int = 20) -> ClacksGame:
    """Play ``game`` to the end (or MAX_ACTIONS) and return it; 1 in ``fault_chance``
    steps plays a random Fault Report for a random seat instead."""
    rng = Rng(seed ^ 0x5EED)
    while not game.over and len(game.log) < MAX_ACTIONS:
        game.apply(next_action(game, rng, fault_chance))
    return game


def next_action(game: ClacksGame, rng: Rng, fault_chance: int = 20) -> Action:
    if fault_chance and rng.below(fault_chance) == 0:
        seat = game.seats[rng.below(len(game.seats))]
        at = game.state.turn.started_at + 1.0 if game.state.options.express else None
        faults = [a for a in game.legal_actions(seat, at) if isinstance(a, PlayFault)]
        if faults:
            return faults[rng.below(len(faults))]
    return choose_turn_action(game, rng)
