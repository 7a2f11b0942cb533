"""What the seat's own Fault Reports can do to its puzzle this turn, read from its view.

Cards that flip lamps join the solver as pieces (``puzzle_from_view(with_faults=True)``).
The others change the puzzle itself: more stress points (Well Oiled, a Clacks
Technician), a free move (Relay Runner), or lamps set outright (Wick Fire turning a
tower's six off, Overload turning every lamp on). Their effect does not depend on what
else is played, except for the lamps a setting card sets: a card played before it loses
what it changed there, which the solver weighs as the puzzle's ``resets``.

Grit in the Gears played on oneself never helps send a symbol, but a player who then
cannot afford a Jacquard may move freely and end the turn without one, which can leave
fewer lamps wrong. A Jammed Loom's new hand is unknown, so a plan never counts on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

from engine.clacks.actions import PlayFault
from engine.clacks.components import ComponentSet
from engine.clacks.geometry import (
    FULL_BOARD,
    TOWER_NAMES,
    Seat,
    lamps_of,
    mask_of,
    tower,
    towers_of,
)
from engine.clacks.puzzle import DARKEN, Puzzle, puzzle_from_view
from engine.clacks.solver import set_mask
from engine.core.budget import WorkBudget

View = dict[str, Any]
SETTING = ("set_tower", "light_all")


@dataclass(frozen=True)
class Variant:
    """The puzzle once ``setup`` (more stress, a free move) is played, with ``sets``
    (lamp-setting cards, in order) to be played during the turn."""

    setup: tuple[PlayFault, ...]
    sets: tuple[PlayFault, ...]
    puzzle: Puzzle
    closing: tuple[PlayFault, ...] = ()  # played last, letting the turn end without a Jacquard


def own_turn_faults(view: View) -> list[dict[str, Any]]:
    return [c for c in view["you"]["faults"] if c["when"] != "others_turn"]


def fault_outcomes(view: View, seat: Seat, card: dict[str, Any]) -> list[tuple[PlayFault, View]]:
    """Each way to play ``card`` now that changes something, with the view as it would
    be afterwards."""
    effect = card["effect"]
    turn = view["turn"]
    board = int(view["board"])
    if effect == "stress_bonus":
        amount = int(card["params"]["amount"])
        after = {**view, "turn": {**turn, "stress_limit": turn["stress_limit"] + amount}}
        return [(PlayFault(seat, card=card["id"]), after)]
    if effect == "light_all":
        return [(PlayFault(seat, card=card["id"]), with_board(view, FULL_BOARD))]
    if effect == "set_tower":
        lit = bool(card["params"]["lit"])
        sabotage = view["sabotage"]
        # any tower can matter: one of either colour overlaps the seat's own towers
        names = [sabotage["tower"]] if turn["phase"] == "sabotage" else list(TOWER_NAMES)
        out = []
        for name in names:
            mask = tower(name).mask
            new_board = board | mask if lit else board & ~mask
            if new_board != board:
                play = PlayFault(seat, card=card["id"], tower=name)
                out.append((play, with_board(view, new_board)))
        return out
    if effect == "free_move" and turn["phase"] == "play":
        return [
            (PlayFault(seat, card=card["id"], tower=name), after)
            for name, after in _moves(view, seat)
        ]
    return []


def with_board(view: View, new_board: int) -> View:
    """The view with the board changed by a card: the lamps it changed count as
    flipped this turn (ruling 3)."""
    turn = view["turn"]
    changed = int(view["board"]) ^ new_board
    flipped = mask_of(turn["flipped"]) | changed
    return {**view, "board": new_board, "turn": {**turn, "flipped": lamps_of(flipped)}}


def _moves(view: View, seat: Seat) -> Iterator[tuple[str, View]]:
    """Relay Runner: each free button of the seat's colour, with the view once there."""
    turn = view["turn"]
    me = next(p for p in view["players"] if p["seat"] == seat.label)
    taken = {p["pawn"] for p in view["players"] if p["seat"] != seat.label}
    taken |= {view["dwarf"], me["pawn"]}
    follows = view.get("dwarf_seat") == seat.label and turn["start_tower"] is not None
    for name in towers_of(seat.colour):
        if name in taken:
            continue
        players = [{**p, "pawn": name} if p["seat"] == seat.label else p for p in view["players"]]
        dwarf = turn["start_tower"] if follows else view["dwarf"]
        yield name, {**view, "players": players, "dwarf": dwarf}


def variants(view: View, components: ComponentSet, work: WorkBudget) -> Iterator[Variant]:
    """Every puzzle the seat's Fault Reports besides those that flip lamps can lead to
    this turn (the competitive game), the lamp-flipping ones among its pieces: each
    number of stress bonuses (the largest first) or of stress penalties played first,
    each free move, each order and target of the lamp-setting cards that reaches a lamp
    that matters, and the penalties kept to the end of the turn."""
    seat = Seat.parse(view["you"]["seat"])
    faults = own_turn_faults(view)
    sabotage = view["turn"]["phase"] == "sabotage"
    movers = [c for c in faults if c["effect"] == "free_move"][:1]  # copies behave alike
    setters = _distinct([c for c in faults if c["effect"] in SETTING])
    penalties = [c for c in faults if c["effect"] == "stress_penalty"]
    reach = tower(view["sabotage"]["tower"]).mask if sabotage else _colour_lamps(seat)
    closings: list[tuple[PlayFault, ...]] = [()]
    if not sabotage:  # a failed sabotage ends the attempt with or without a Jacquard
        closings += [_plays(seat, penalties[:count]) for count in range(1, len(penalties) + 1)]
    for setup, stressed in _stress_changes(view, seat, faults):
        moved: list[tuple[tuple[PlayFault, ...], View]] = [((), stressed)]
        if not sabotage:
            for card in movers:
                moved += [((play,), after) for play, after in fault_outcomes(stressed, seat, card)]
        for moves, after_moves in moved:
            for sets in _set_orders(seat, setters, reach):
                after = after_moves
                for play in sets:
                    after = with_board(after, _set(int(after["board"]), play, setters))
                for closing in closings:
                    if not (setup or moves or sets or closing):
                        continue  # the puzzle without any of them is the caller's own
                    if work.exhausted:
                        return
                    puzzle = puzzle_from_view(after, components, with_faults=True, work=work)
                    if puzzle is None or (sabotage and puzzle.goal != DARKEN):
                        continue
                    lowered = sum(int(c["params"]["amount"]) for c in penalties[: len(closing)])
                    puzzle = dataclasses.replace(
                        puzzle,
                        resets=tuple(set_mask(p) for p in sets),
                        lowered_at_end=lowered,
                    )
                    yield Variant((*setup, *moves), sets, puzzle, closing)


def _plays(seat: Seat, cards: list[dict[str, Any]]) -> tuple[PlayFault, ...]:
    return tuple(PlayFault(seat, card=c["id"]) for c in cards)


def _stress_changes(
    view: View, seat: Seat, faults: list[dict[str, Any]]
) -> Iterator[tuple[tuple[PlayFault, ...], View]]:
    """The turn's stress limit as the seat's own Fault Reports can change it first: each
    number of bonuses (the largest first), or of penalties (which let a player who then
    cannot afford a Jacquard move freely and end the turn without one)."""
    for effect, sign in (("stress_bonus", 1), ("stress_penalty", -1)):
        cards = sorted(
            (c for c in faults if c["effect"] == effect),
            key=lambda c: (-int(c["params"]["amount"]), c["id"]),
        )
        for count in range(0 if sign > 0 else 1, len(cards) + 1):
            turn = view["turn"]
            change = sign * sum(int(c["params"]["amount"]) for c in cards[:count])
            limit = max(0, int(turn["stress_limit"]) + change)
            yield _plays(seat, cards[:count]), {**view, "turn": {**turn, "stress_limit": limit}}


def _distinct(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One card of each effect and numbers: copies behave alike."""
    seen: set[tuple[str, str]] = set()
    out = []
    for card in cards:
        key = (card["effect"], repr(sorted(card.get("params", {}).items())))
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out


def _colour_lamps(seat: Seat) -> int:
    union = 0
    for name in towers_of(seat.colour):
        union |= tower(name).mask
    return union


def _set_orders(
    seat: Seat, setters: list[dict[str, Any]], reach: int
) -> Iterator[tuple[PlayFault, ...]]:
    """Every order of every set of the lamp-setting cards, with every target that sets
    a lamp within ``reach``; the empty order first."""
    choices = []
    for card in setters:
        if card["effect"] == "light_all":
            choices.append([PlayFault(seat, card=card["id"])])
        else:
            names = [name for name in TOWER_NAMES if tower(name).mask & reach]
            choices.append([PlayFault(seat, card=card["id"], tower=name) for name in names])
    for size in range(len(choices) + 1):
        for chosen in combinations(range(len(choices)), size):
            for order in permutations(chosen):
                yield from _product([choices[i] for i in order])


def _product(lists: list[list[PlayFault]]) -> Iterator[tuple[PlayFault, ...]]:
    if not lists:
        yield ()
        return
    for first in lists[0]:
        for rest in _product(lists[1:]):
            yield (first, *rest)


def _set(board: int, play: PlayFault, setters: list[dict[str, Any]]) -> int:
    card = next(c for c in setters if c["id"] == play.card)
    mask = set_mask(play)
    lit = card["effect"] == "light_all" or bool(card["params"]["lit"])
    return board | mask if lit else board & ~mask
