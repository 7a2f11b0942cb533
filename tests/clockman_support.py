"""Helpers for the Clockman tests: dice that fall as a scenario needs, turns passed on,
and pieces, digits and cards arranged as the scenario describes the table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from scripted_dice import ScriptedDice as ScriptedDice  # handed on to the rule tests

from engine.clockman import ClockmanGame, ClockmanOptions, make
from engine.clockman.digits import KEPT, counted
from engine.clockman.events import Event
from engine.clockman.state import HeldCard
from engine.core.errors import IllegalAction
from web.refusals import in_english


def new_game(
    seats: tuple[str, ...] = ("south", "north"), starter: str = "south", **options: Any
) -> ClockmanGame:
    """A new game whose start rolls gave ``starter`` the first turn, with scripted dice
    from then on."""
    chosen = ClockmanOptions(seats=seats, **options)
    for seed in range(1000):
        game = ClockmanGame.new(chosen, seed)
        if game.current_seat == starter:
            game.state.rng = ScriptedDice()
            return game
    raise AssertionError(f"no seed lets {starter} start")


def act(
    game: ClockmanGame, action_type: str, seat: str | None = None, **params: Any
) -> list[Event]:
    who = seat or game.current_seat
    assert who is not None
    return game.apply(make(action_type, who, **params))


def told(events: list[Event]) -> list[tuple[str, str | None, dict[str, object]]]:
    """What events tell the table, field for field: the game log is made from these."""
    return [(e.kind, e.seat, e.data) for e in events]


def says(refusal: IllegalAction, words: str, params: Mapping[str, object]) -> None:
    """A refusal's English and its values: a page reads the values (a reason among them)
    to choose the catalogue's words, so both are the rule's."""
    assert (in_english(refusal), refusal.params) == (words, dict(params))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def roll(game: ClockmanGame, die: int) -> list[Event]:
    dice = game.state.rng
    assert isinstance(dice, ScriptedDice)
    dice.faces.append(die)
    return act(game, "roll")


def to_turn(game: ClockmanGame, seat: str) -> None:
    """Pass turns on (reporting plain fields) until ``seat`` is to roll."""
    for _ in range(8):
        turn = game.state.turn
        assert turn is not None
        if turn.seat == seat and turn.phase == "roll":
            return
        if turn.phase == "roll":
            roll(game, 1)
        if game.state.turn is not None and game.state.turn.phase == "report":
            act(game, "plain")
        act(game, "end_turn")
    raise AssertionError(f"{seat}'s turn never came")


def place(
    game: ClockmanGame,
    seat: str,
    ring: int | None = None,
    field: int = 0,
    date: str | None = None,
    pending: str | None = None,
    hand: str | None = None,
    cards: list[tuple[str, str]] | None = None,
) -> None:
    """Set a player's piece, digits and cards as the scenario has them on the table:
    digits and symbol cards as strings ("0000011X", "AC"), held event cards as
    (kind, label). Digits and cards come out of the supply and the deck, so every count
    still adds up."""
    state = game.state
    player = state.players[seat]
    if ring is not None:
        player.ring, player.field = ring, field
        player.furthest = max(player.furthest, ring)
    for pile, text in ((player.date, date), (player.pending, pending)):
        if text is None:
            continue
        for digit in KEPT:
            state.supply[digit] += pile[digit]
        wanted = counted(text)
        for digit in KEPT:
            pile[digit] = wanted[digit]
            state.supply[digit] -= wanted[digit]
            assert state.supply[digit] >= 0
    if hand is not None:
        for pose, count in player.hand.items():
            state.deck.extend([pose] * count)
        player.hand = {}
        for pose in hand:
            state.deck.remove(pose)
            player.hand[pose] = player.hand.get(pose, 0) + 1
    if cards is not None:
        player.cards = []
        for kind, label in cards:
            state.cards_drawn += 1
            player.cards.append(HeldCard(f"e{state.cards_drawn}", kind, label))
    state.check_sound()


def south_on_the_final_straight() -> tuple[ClockmanGame, str]:
    """A two-player game in which south stands on the final straight's first field with a
    complete date and no symbol card, and is to roll; with the pose of the Whytooki card
    south's straight asks for."""
    game = new_game()
    pose = game.state.straights["south"]
    act(game, "plain")
    act(game, "end_turn")
    place(game, "south", ring=5, field=1, date="00000112", hand="")
    to_turn(game, "south")
    return game, pose


def snapshot(game: ClockmanGame) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def refused(
    game: ClockmanGame,
    error: type[IllegalAction],
    action_type: str,
    seat: str | None = None,
    **params: Any,
) -> IllegalAction:
    """The report is refused with ``error`` and the game is exactly as before."""
    before = snapshot(game)
    with pytest.raises(error) as caught:
        act(game, action_type, seat, **params)
    assert snapshot(game) == before
    return caught.value
