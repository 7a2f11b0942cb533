"""Helpers for the Klackers tests: dice that fall as a scenario needs, turns that end
on a chosen score, and a session rolled until a seat may pull."""

from __future__ import annotations

from typing import Any

from scripted_dice import ScriptedDice as ScriptedDice  # handed on to the rule tests

from engine.core.interface import JSON, Session
from engine.klackers import KlackersGame, KlackersOptions, Pull, Roll
from engine.klackers.events import Event
from engine.klackers.numbers import combinations, fits, mask_of, numbers_of


def match(
    seats: tuple[str, ...] = ("south", "north"), starter: str | None = None, **options: Any
) -> KlackersGame:
    """A new match whose roll-off gave ``starter`` the first turn, with scripted dice."""
    chosen = KlackersOptions(seats=seats, **options)
    for seed in range(1000):
        game = KlackersGame.new(chosen, seed)
        if starter is None or game.current_seat == starter:
            game.state.rng = ScriptedDice()
            return game
    raise AssertionError(f"no seed lets {starter} start")


def roll(game: KlackersGame, *faces: int) -> list[Event]:
    """The player with the dice rolls these faces (one face: the one-die option)."""
    dice = game.state.rng
    assert isinstance(dice, ScriptedDice)
    dice.faces.extend(faces)
    seat = game.current_seat
    assert seat is not None
    return game.apply(Roll(seat, len(faces)))


def pull(game: KlackersGame, *numbers: int) -> list[Event]:
    seat = game.current_seat
    assert seat is not None
    return game.apply(Pull(seat, numbers))


def set_standing(game: KlackersGame, seat: str, numbers: list[int]) -> None:
    game.state.players[seat].standing = mask_of(numbers)


def end_turn_scoring(game: KlackersGame, score: int) -> list[Event]:
    """End the current turn with ``score`` (0: a Klack) by setting the standing numbers
    and rolling dice that cannot be pulled (or, for a Klack, pulling the last number)."""
    seat = game.current_seat
    assert seat is not None
    if score == 0:
        set_standing(game, seat, [2])
        roll(game, 1, 1)
        return pull(game, 2)
    standing = [score] if score <= 9 else [9, score - 9]
    set_standing(game, seat, standing)
    for a, b in ((1, 1), (1, 2), (6, 6)):
        if not fits(mask_of(standing), a + b):
            return roll(game, a, b)
    raise AssertionError(f"no roll misses {standing}")


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def legal_pulls(game: KlackersGame) -> list[tuple[int, ...]]:
    return [a.numbers for a in game.legal_actions(game.current_seat) if isinstance(a, Pull)]


def combos(standing: list[int], total: int) -> list[list[int]]:
    return [list(numbers_of(c)) for c in combinations(mask_of(standing), total)]


def rolled_until_a_pull(session: Session) -> tuple[str, list[JSON]]:
    """The seats in turn roll two dice until one may pull: that seat and its pulls."""
    seat = session.active_seats[0]
    while True:
        session.apply(seat, {"type": "roll", "dice": 2}, 0.0)
        legal = session.legal_actions(seat, 0.0)
        if legal:
            return seat, legal
        seat = session.active_seats[0]
