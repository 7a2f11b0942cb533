"""An exhaustive reference for hints in the competitive game: every card the player in
turn may play now, in every order, every placement and target, from every tower the
pawn can end on.

It reads the game state, not the seat's view, and shares nothing with the solver or
the hint but the component data and the board geometry. Per tower it collects every
(lamps of the tower, fresh-pattern rule met) reachable with each set of cards, played
one after another in any order; Fault Reports are applied as the rules apply them: a
tower's lamps set (Wick Fire), every lamp on (Overload), lamps flipped, the stress limit
raised or lowered, a free move. A Jammed Loom's new hand is unknown, so it is left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from engine.clacks.components import ComponentSet
from engine.clacks.geometry import FULL_BOARD, TOWER_NAMES, pattern_mask, tower, towers_of
from engine.clacks.state import ClacksState


@dataclass(frozen=True)
class Card:
    id: str
    kind: str  # "jacquard", or the Fault Report's effect
    cost: int = 0  # a Jacquard's stress
    amount: int = 0  # stress_bonus / stress_penalty
    options: tuple[tuple[int, int, bool], ...] = ()  # (mask, value, sets) per target


@dataclass(frozen=True)
class Verdict:
    possible: bool  # some legal turn sends the symbol (or darkens the tower)
    fewest_wrong: int | None  # TRANSMIT: fewest wrong lamps a turn may legally end with


def _cards(state: ClacksState, components: ComponentSet) -> list[Card]:
    player = state.players[state.turn.seat]
    cards = []
    for j in player.hand:
        design = components.jacquards[j].design
        masks = tuple((p.mask, 0, False) for p in design.placements)
        cards.append(Card(j, "jacquard", design.cost, options=masks))
    for f in player.faults:
        fault = components.faults[f].design
        if fault.when.value == "others_turn":
            continue
        effect, params = fault.effect, fault.params
        if effect == "flip_lamps":
            combos = combinations(range(16), int(params["count"]))
            flips = tuple((sum(1 << i for i in c), 0, False) for c in combos)
            cards.append(Card(f, effect, options=flips))
        elif effect == "set_tower":
            value = FULL_BOARD if params["lit"] else 0
            sets = tuple((tower(name).mask, value, True) for name in TOWER_NAMES)
            cards.append(Card(f, effect, options=sets))
        elif effect == "light_all":
            cards.append(Card(f, effect, options=((FULL_BOARD, FULL_BOARD, True),)))
        elif effect in ("stress_bonus", "stress_penalty"):
            cards.append(Card(f, effect, amount=int(params["amount"])))
        elif effect == "free_move":
            cards.append(Card(f, effect))
    return cards


def _reachable(
    board: int, flipped: int, window: int, cards: list[Card]
) -> dict[int, set[tuple[int, bool]]]:
    """For each set of the lamp cards (a bitmask over ``cards``): every (window lamps,
    a window lamp flipped this turn) some order of playing them reaches."""
    start = (board & window, bool(flipped & window))
    reach: dict[int, set[tuple[int, bool]]] = {0: {start}}
    options = []
    for card in cards:
        seen = set()
        for mask, value, sets in card.options:
            seen.add((mask & window, value & window, sets))
        options.append(sorted(seen))
    for used in range(1, 1 << len(cards)):
        found: set[tuple[int, bool]] = set()
        for i in range(len(cards)):
            if not used >> i & 1:
                continue
            for lamps, touched in reach[used & ~(1 << i)]:
                for mask, value, sets in options[i]:
                    after = (lamps & ~mask) | value if sets else lamps ^ mask
                    found.add((after, touched or bool(after ^ lamps) or bool(mask and not sets)))
        reach[used] = found
    return reach


def _walk(
    state: ClacksState,
    components: ComponentSet,
    limit: int,
    free_move: bool,
    lowered: tuple[int, ...] = (),
) -> set[tuple[str, int, bool]]:
    """Every (tower, stress spent moving, may send from it) the pawn can end on: paid
    moves (none after a Jacquard; none that leaves too little for the cheapest Jacquard
    before the first), and with a Relay Runner a free move before or after them."""
    turn = state.turn
    seat = turn.seat
    player = state.players[seat]
    others = {p.pawn for s, p in state.players.items() if s is not seat and p.pawn}
    follows = state.options.dwarf_seat is seat and turn.start_tower is not None
    costs = [components.jacquards[j].cost for j in player.hand]
    cheapest = min(costs) if costs and turn.jacquards_played == 0 else None
    ends: set[tuple[str, int, bool]] = set()
    seen: set[tuple[str | None, str | None, int, bool]] = set()

    def free_towers(pawn: str | None, dwarf: str | None) -> list[str]:
        return [t for t in towers_of(seat.colour) if t not in (pawn, dwarf) and t not in others]

    def visit(pawn: str | None, dwarf: str | None, spent: int, free_left: bool) -> None:
        if (pawn, dwarf, spent, free_left) in seen:
            return
        seen.add((pawn, dwarf, spent, free_left))
        if pawn is not None:
            ends.add((pawn, spent, pawn != player.must_leave and pawn != dwarf))
        moved_dwarf = turn.start_tower if follows else dwarf
        if free_left and turn.phase == "play":
            for name in free_towers(pawn, dwarf):
                visit(name, moved_dwarf, spent, False)
        if not (turn.can_move and turn.phase == "play"):
            return
        for name in free_towers(pawn, dwarf):
            cost = 0 if pawn is None else tower(pawn).distance(tower(name))
            if not any(_may_move(cap - turn.stress_spent - spent, cost, cheapest) for cap in caps):
                continue
            visit(name, moved_dwarf, spent + cost, free_left)

    # a Fault Report changing the limit may come before or after a move: the move is
    # legal under any limit the turn can have had
    caps = (turn.stress_limit, limit, *lowered)
    visit(player.pawn, state.dwarf, 0, free_move)
    return ends


def _may_move(left: int, cost: int, cheapest: int | None) -> bool:
    return cost <= left and not (cheapest is not None and cheapest <= left < cheapest + cost)


def reference(state: ClacksState, components: ComponentSet) -> Verdict:
    """Whether any legal turn completes the player's goal now, and (sending a symbol)
    the fewest wrong lamps any legal turn can end with."""
    turn = state.turn
    seat = turn.seat
    player = state.players[seat]
    cards = _cards(state, components)
    lamp_cards = [c for c in cards if c.options]
    bonuses = [c for c in cards if c.kind == "stress_bonus"]
    penalties = [c for c in cards if c.kind == "stress_penalty"]
    has_free = any(c.kind == "free_move" for c in cards)
    hand_costs = {c.id: c.cost for c in lamp_cards if c.kind == "jacquard"}
    sabotage = turn.phase == "sabotage"
    assert not sabotage or state.sabotage is not None
    possible = False
    fewest: int | None = None
    raises = sorted(
        {
            sum(c.amount for c in chosen)
            for n in range(len(bonuses) + 1)
            for chosen in combinations(bonuses, n)
        }
    )
    lowers = sorted(
        {
            sum(c.amount for c in chosen)
            for n in range(len(penalties) + 1)
            for chosen in combinations(penalties, n)
        }
    )
    reach_by_tower: dict[str, dict[int, set[tuple[int, bool]]]] = {}
    for raised in raises:
        limit = turn.stress_limit + raised
        if sabotage:
            assert state.sabotage is not None
            ends = {(state.sabotage.tower, 0, True)}
        else:
            low = tuple(max(0, turn.stress_limit - amount) for amount in lowers if amount)
            ends = _walk(state, components, limit, has_free, low)
        for name, moving, may_send in ends:
            window = tower(name).mask
            if name not in reach_by_tower:
                reach_by_tower[name] = _reachable(state.board, turn.flipped, window, lamp_cards)
            wanted = 0
            if not sabotage:
                symbol = player.next_symbol
                assert symbol is not None
                wanted = pattern_mask(components.pattern(symbol), seat, name)
            for used, states in reach_by_tower[name].items():
                chosen = [c for i, c in enumerate(lamp_cards) if used >> i & 1]
                jacquards = [c for c in chosen if c.kind == "jacquard"]
                spent = turn.stress_spent + moving + sum(c.cost for c in jacquards)
                if spent > limit:
                    continue
                played = turn.jacquards_played + len(jacquards)
                for lamps, touched in states:
                    if sabotage:
                        possible = possible or lamps == 0
                    elif lamps == wanted and touched and played and may_send:
                        possible = True
                if sabotage:
                    continue
                left_in_hand = [
                    hand_costs[j] for j in hand_costs if j not in {c.id for c in chosen}
                ]
                for lowered in lowers:
                    remaining = max(0, limit - lowered) - spent
                    if played == 0 and any(cost <= remaining for cost in left_in_hand):
                        continue  # a Jacquard must be played each turn (ruling 5)
                    for lamps, _ in states:
                        wrong = (lamps ^ wanted).bit_count()
                        fewest = wrong if fewest is None else min(fewest, wrong)
    return Verdict(possible, None if sabotage else fewest)
