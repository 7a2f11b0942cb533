"""The turn's frame, shared by every rule: whose turn it is, what the game waits for,
moving a piece between rings, passing the turn on, and ending the game."""

from __future__ import annotations

from engine.clockman.errors import (
    AwaitingAnswer,
    EventLimit,
    GameIsOver,
    NotYourTurn,
)
from engine.clockman.events import Event
from engine.clockman.state import STRAIGHT, ClockmanState, Player, Turn

EVENT_LIMIT = 3  # event cards one player may play in one turn (the Anzahlregel)


def require_open(state: ClockmanState) -> Turn:
    """The turn, if the game is neither over nor waiting for an answer."""
    turn = state.turn
    if turn is None:
        raise GameIsOver(reason="over")
    if state.check is not None:
        raise AwaitingAnswer(reason="check", seat=state.check.winner)
    hit = state.hit
    if hit is not None:
        waiting = hit.victim if hit.stage == "defence" else hit.hitter
        raise AwaitingAnswer(reason="knock", seat=waiting)
    return turn


def require_turn(state: ClockmanState, seat: str) -> tuple[Turn, Player]:
    """The turn and its player, if it is ``seat``'s turn and nothing else is awaited."""
    turn = require_open(state)
    if seat != turn.seat:
        raise NotYourTurn(reason="turn", current=turn.seat)
    return turn, state.players[seat]


def reach(player: Player, ring: int) -> None:
    player.ring = ring
    if ring != STRAIGHT:
        player.field = 0
    player.furthest = max(player.furthest, ring)


def count_play(turn: Turn, seat: str, cards: int = 1) -> None:
    """Count event cards ``seat`` plays now against the Anzahlregel."""
    played = turn.played.get(seat, 0)
    if played + cards > EVENT_LIMIT:
        raise EventLimit(limit=EVENT_LIMIT, played=played)
    turn.played[seat] = played + cards


def next_in_play(state: ClockmanState, after: str) -> str | None:
    order = state.order
    at = order.index(after)
    for step in range(1, len(order) + 1):
        seat = order[(at + step) % len(order)]
        if state.players[seat].in_play:
            return seat
    return None


def start_turn(state: ClockmanState, seat: str, number: int) -> list[Event]:
    state.turn = Turn(seat, number)
    return [Event.of("turn_started", seat, number=number)]


def finish(state: ClockmanState, winners: list[str], reason: str) -> list[Event]:
    state.winners = list(winners)
    state.reason = reason
    state.turn = None
    state.offer = None
    state.hit = None
    state.check = None
    return [Event.of("game_won", winners[0], reason=reason)]
