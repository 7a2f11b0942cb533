"""Helpers for scenario tests of the map games: deal a game, then arrange the cards and
lamps exactly as a scenario needs. Cards are moved, never created or lost, so every
invariant about the 48 Jacquards still holds afterwards."""

from __future__ import annotations

from typing import Any

from engine.clacks import ClacksGame, Options, PlayJacquard, Seat
from engine.clacks.actions import Swap
from engine.clacks.events import Event
from engine.clacks.geometry import lamp_index, pattern_mask, tower


def new_game(mode: str = "coop", players: int = 2, seed: int = 1, **kwargs: Any) -> ClacksGame:
    if "seats" in kwargs:
        return ClacksGame.new(Options(mode=mode, **kwargs), seed)
    return ClacksGame.new(Options.for_players(players, mode=mode, **kwargs), seed)


def _remove_everywhere(game: ClacksGame, card_id: str) -> None:
    state = game.state
    for pile in (state.bag, state.discard):
        if card_id in pile:
            pile.remove(card_id)
            return
    raise AssertionError(f"{card_id} is not in the bag or the discard pile")


def copy_of(
    game: ClacksGame, design: str, stamped: bool | None = False, exclude: tuple[str, ...] = ()
) -> str:
    """A copy of a Jacquard design lying in the bag or the discard pile (stamped or not,
    as asked)."""
    free = set(game.state.bag) | set(game.state.discard)
    for card in game.components.jacquards.values():
        if card.design.id != design or card.id not in free or card.id in exclude:
            continue
        if stamped is None or card.fault == stamped:
            return card.id
    raise AssertionError(f"no free copy of {design} (stamped={stamped})")


def set_hand(game: ClacksGame, seat: Seat, designs: list[str]) -> list[str]:
    """Give ``seat`` one unstamped copy of each design; their old hand goes to the bag."""
    player = game.state.players[seat]
    game.state.bag.extend(player.hand)
    player.hand.clear()
    ids: list[str] = []
    for design in designs:
        card_id = copy_of(game, design, exclude=tuple(ids))
        _remove_everywhere(game, card_id)
        player.hand.append(card_id)
        ids.append(card_id)
    return ids


def bag_only(game: ClacksGame, card_ids: list[str]) -> None:
    """Leave only ``card_ids`` in the bag (the rest go to the discard pile), so the
    next draws are known: the bag refills from the discard pile only when empty."""
    state = game.state
    rest = [c for c in state.bag if c not in card_ids]
    for card_id in card_ids:
        if card_id not in state.bag:
            _remove_everywhere(game, card_id)
    state.bag = list(card_ids)
    state.discard.extend(rest)


def one_lamp_short(game: ClacksGame, seat: Seat, tower_name: str, symbol: str, lamp: str) -> None:
    """Make ``tower_name`` show ``symbol`` from ``seat`` except ``lamp`` (one of its
    six), so flipping that one lamp sends it."""
    t = tower(tower_name)
    index = lamp_index(lamp)
    assert t.mask >> index & 1, f"{lamp} is not a lamp of {tower_name}"
    shown = pattern_mask(game.components.pattern(symbol), seat, tower_name)
    game.state.board = (game.state.board & ~t.mask) | shown
    game.state.board ^= 1 << index


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def put_on_slot(game: ClacksGame, slot_id: str, design: str) -> None:
    team = game.state.team
    assert team is not None
    slot = team.slot(slot_id)
    assert slot is not None
    decks = {**game.components.incidents, **game.components.logs}
    wanted = next(c for c in decks if decks[c].design.id == design)
    if wanted in team.set_aside:  # swap it with the dealt card, keeping every card accounted
        assert slot.card is not None
        team.set_aside[team.set_aside.index(wanted)] = slot.card
    else:
        other = next(s for s in team.slots if s.card == wanted)
        other.card = slot.card
    slot.card = wanted


def play_any(game: ClacksGame, seat: Seat, card: str) -> None:
    mask = game.components.jacquards[card].design.placements[0].mask
    game.apply(PlayJacquard(seat, jacquard=card, lamps=mask))


def swap_in(
    slot_id: str, design: str, hand: list[str], players: int = 2
) -> tuple[ClacksGame, list[str], list[Event]]:
    """A co-op game with ``design`` on ``slot_id`` and South holding ``hand``, whose first
    Jacquard South swaps for it: the game, South's Jacquards (as ``set_hand``) and the
    swap's events."""
    game = new_game("coop", players)
    put_on_slot(game, slot_id, design)
    held = set_hand(game, Seat.SOUTH, hand)
    events = game.apply(Swap(Seat.SOUTH, jacquard=held[0], slot=slot_id))
    return game, held, events
