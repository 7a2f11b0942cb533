"""Arranging Clacks positions for scenario tests.

Scenarios start from a real dealt game and then rearrange it the way players would at a
table (swap cards between hand and bag, set lamps, put pawns down) while keeping every
component accounted for, so the rules see an ordinary state.
"""

from __future__ import annotations

from engine.clacks import ClacksGame, Move, Options, PlayFault, Seat
from engine.clacks.actions import Action
from engine.clacks.geometry import mask_of
from engine.clacks.rules import CompetitiveRules


def new_game(players: int = 2, seed: int = 1, **options: object) -> ClacksGame:
    return ClacksGame.new(Options.for_players(players, **options), seed)  # type: ignore[arg-type]


def card_of(
    game: ClacksGame, design: str, exclude: set[str] | None = None, fault: bool | None = None
) -> str:
    """A copy of ``design`` that is in the bag (preferred) or anywhere."""
    exclude = exclude or set()
    candidates = [
        c
        for c in sorted(game.components.jacquards)
        if game.components.jacquards[c].design.id == design
        and c not in exclude
        and (fault is None or game.components.jacquards[c].fault == fault)
    ]
    in_bag = [c for c in candidates if c in game.state.bag]
    return (in_bag or candidates)[0]


def give_hand(
    game: ClacksGame, seat: Seat, designs: list[str], fault: bool | None = False
) -> list[str]:
    """Make ``seat`` hold one copy of each design (returning their ids); the cards it held go
    back into the bag, and the wanted cards are taken from wherever they were."""
    state = game.state
    player = state.players[seat]
    state.bag.extend(player.hand)
    player.hand.clear()
    chosen: list[str] = []
    for design in designs:
        card = card_of(game, design, set(chosen), fault)
        _take(game, card)
        chosen.append(card)
    player.hand.extend(chosen)
    return chosen


def _take(game: ClacksGame, card: str) -> None:
    state = game.state
    for pile in (state.bag, state.discard, *(p.hand for p in state.players.values())):
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"{card} is nowhere")


def give_faults(game: ClacksGame, seat: Seat, designs: list[str]) -> list[str]:
    """Make ``seat`` hold one Fault Report of each design, returning the old ones to the deck.
    A design only another player holds is taken from them, and they get a card of another
    design from the deck in its place."""
    state = game.state
    player = state.players[seat]
    state.fault_deck.extend(player.faults)
    player.faults.clear()
    faults = game.components.faults
    chosen: list[str] = []
    for design in designs:
        copies = [c for c in sorted(faults) if faults[c].design.id == design and c not in chosen]
        card = next((c for c in copies if c in state.fault_deck), None)
        if card is not None:
            state.fault_deck.remove(card)
        else:
            holder = next(p for p in state.players.values() if set(copies) & set(p.faults))
            card = next(c for c in copies if c in holder.faults)
            spare = next(c for c in state.fault_deck if faults[c].design.id not in designs)
            state.fault_deck.remove(spare)
            holder.faults[holder.faults.index(card)] = spare
        chosen.append(card)
    player.faults.extend(chosen)
    return chosen


def set_board(game: ClacksGame, lit: list[str]) -> None:
    game.state.board = mask_of(lit)


def set_turn(game: ClacksGame, seat: Seat) -> None:
    state = game.state
    state.turn.seat = seat
    state.turn.start_tower = state.players[seat].pawn


def lamps(*names: str) -> int:
    return mask_of(list(names))


def moved_under_grit(game: ClacksGame) -> str:
    """South's turn, North having played Grit in the Gears on it (3 stress points this
    turn), and South moved from a2b2 to b2c2 (2 of them): South's Long Bar, which costs 3."""
    (grit,) = give_faults(game, Seat.NORTH, ["grit-in-gears"])
    _, _, long_bar = give_hand(game, Seat.SOUTH, ["pin", "pair", "long"])
    game.state.players[Seat.SOUTH].pawn = "a2b2"
    set_turn(game, Seat.SOUTH)
    game.apply(PlayFault(Seat.NORTH, card=grit))
    game.apply(Move(Seat.SOUTH, tower="b2c2"))
    return long_bar


def competitive_rules(game: ClacksGame) -> CompetitiveRules:
    """The competitive game's rules, whose questions (who stands where, what blocks a
    transmission) the tests ask directly."""
    rules = game.rules
    assert isinstance(rules, CompetitiveRules), f"not the competitive game: {rules!r}"
    return rules


def seat_label(action: Action) -> str:
    """The seat an action of the Clacks game is made from, as the API names it."""
    assert action.seat is not None, f"{action!r} names no seat"
    return action.seat.label
