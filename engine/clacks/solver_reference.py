"""A brute-force reference for the solver: every sequence of moves, every set of cards,
every placement of each card, played out on the whole 16-lamp board.

It shares nothing with the solver but the component data and the board geometry. It is
as slow as it looks; it exists to check the solver in tests and to give the bench its
speed-up figure. Like the solver, it takes a co-op swap to leave the lamps alone (the
Incident Report under the Jacquard is face down).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

from engine.clacks.card_effects import jacquard_limit, surcharge
from engine.clacks.components import ComponentSet
from engine.clacks.geometry import pattern_mask, tower, towers_of
from engine.clacks.state import ClacksState

UNLIMITED = 99

# (faults used, stress, cards, lamps flipped outside the tower)
CompleteRank = tuple[int, int, int, int]
# (wrong lamps, faults used, stress, cards, lamps flipped outside the tower)
PartialRank = tuple[int, int, int, int, int]
# a card: (stress, is a Fault Report, every set of lamps it can flip, id)
CardSpec = tuple[int, bool, tuple[int, ...], str]
# a place to work: (tower mask, lamps wanted lit, fresh already, stress spent, may send)
Goal = tuple[int, int, bool, int, bool]
# a set of cards to play: (their places in the hand, stress, Fault Reports, Jacquards)
Subset = tuple[tuple[int, ...], int, int, int]


@dataclass(frozen=True)
class Reference:
    complete: CompleteRank | None
    partial: PartialRank | None


@dataclass(frozen=True)
class _End:
    pawn: str
    dwarf: str | None
    spent: int


@dataclass(frozen=True)
class _Rules:
    budget: int
    need_jacquard: bool  # a Jacquard must be played before transmitting
    competitive: bool
    played: int
    limit: int | None  # Jacquards still allowed this turn
    required: frozenset[str]


def _ends(state: ClacksState, components: ComponentSet) -> list[_End]:
    """Every (pawn, Deep Dwarf, stress) the current player can reach by legal moves."""
    turn = state.turn
    seat = turn.seat
    player = state.players[seat]
    budget = turn.stress_limit - turn.stress_spent
    others = {p.pawn for s, p in state.players.items() if s is not seat and p.pawn}
    follows = state.options.dwarf_seat is seat
    found: set[_End] = set()
    # before the turn's first Jacquard a move may not leave too little for the cheapest
    costs = [_card(components, j)[0] for j in player.hand]
    cheapest = min(costs) if costs and turn.jacquards_played == 0 else None

    def walk(pawn: str | None, dwarf: str | None, spent: int) -> None:
        if pawn is not None:
            found.add(_End(pawn, dwarf, spent))
        if not (turn.can_move and turn.phase == "play"):
            return
        for name in towers_of(seat.colour):
            if name in (pawn, dwarf) or name in others:
                continue
            cost = 0 if pawn is None else tower(pawn).distance(tower(name))
            left = budget - spent
            if cost > left or (cheapest is not None and cheapest <= left < cheapest + cost):
                continue
            new_dwarf = turn.start_tower if follows and turn.start_tower is not None else dwarf
            walk(name, new_dwarf, spent + cost)

    walk(player.pawn, state.dwarf, 0)
    return sorted(found, key=lambda e: (e.pawn, e.dwarf or "", e.spent))


def _card(components: ComponentSet, card_id: str, extra: int = 0) -> CardSpec:
    design = components.jacquards[card_id].design
    return (design.cost + extra, False, tuple(p.mask for p in design.placements), card_id)


def solve_by_brute_force(
    state: ClacksState, components: ComponentSet, with_faults: bool = False
) -> Reference | None:
    """The best complete and (if none) best partial ranks for the current player, or None
    when the player has no puzzle now."""
    turn = state.turn
    if state.over or turn.phase == "timeout_discard":
        return None
    if state.options.mode != "competitive":
        return _map_game(state, components)
    seat = turn.seat
    player = state.players[seat]
    budget = turn.stress_limit - turn.stress_spent
    cards = [_card(components, j) for j in player.hand]
    if with_faults:
        for f in player.faults:
            design = components.faults[f].design
            if design.effect == "flip_lamps" and design.when.value != "others_turn":
                count = int(design.params["count"])
                flips = tuple(sum(1 << i for i in c) for c in combinations(range(16), count))
                cards.append((0, True, flips, f))
    rules = _Rules(
        budget, turn.jacquards_played == 0, True, turn.jacquards_played, None, frozenset()
    )
    if turn.phase == "sabotage":
        assert state.sabotage is not None
        mask = tower(state.sabotage.tower).mask
        complete = _complete(state.board, cards, [(mask, 0, True, 0, True)], rules)
        if complete is not None:
            return Reference(complete, None)
        return Reference(None, ((state.board & mask).bit_count(), 0, 0, 0, 0))
    symbol = player.next_symbol
    if symbol is None:
        return None
    pattern = components.pattern(symbol)
    goals: list[Goal] = []
    for end in _ends(state, components):
        mask = tower(end.pawn).mask
        allowed = end.pawn not in (player.must_leave, end.dwarf)
        fresh = bool(turn.flipped & mask)
        goals.append((mask, pattern_mask(pattern, seat, end.pawn), fresh, end.spent, allowed))
    complete = _complete(state.board, cards, goals, rules)
    if complete is not None:
        return Reference(complete, None)
    return Reference(None, _partial(state.board, cards, goals, rules))


def _map_game(state: ClacksState, components: ComponentSet) -> Reference | None:
    """Co-op, solitaire, junior: any tower of the seat's colour, the Post Office's limit,
    a card's Jacquard limit and surcharge, a lifted Jacquard, and swaps."""
    turn = state.turn
    seat = turn.seat
    player = state.players[seat]
    team = state.team
    extra = surcharge(state) if team is not None else 0
    if team is not None:
        symbol = team.next_symbol
        steps_left = team.track - team.post_office
        capped = team.turn_cap is not None and team.turn_cap - team.turn_steps < steps_left
        budget = UNLIMITED if capped else steps_left - 1
    else:
        symbol = player.next_symbol
        budget = UNLIMITED
    if symbol is None:
        return None
    pattern = components.pattern(symbol)
    goals: list[Goal] = [
        (
            tower(name).mask,
            pattern_mask(pattern, seat, name),
            bool(turn.flipped & tower(name).mask),
            0,
            True,
        )
        for name in towers_of(seat.colour)
    ]
    limit = jacquard_limit(state)
    left = None if limit is None else max(0, limit - turn.jacquards_played)
    lifted = team.lifted if team is not None else None
    required = frozenset({lifted}) if lifted else frozenset()
    played = turn.jacquards_played
    cards = [_card(components, j, extra) for j in player.hand]
    rules = _Rules(budget, played == 0 and bool(cards), False, played, left, required)
    complete = _complete(state.board, cards, goals, rules)
    if complete is not None:
        return Reference(complete, None)
    if team is not None and not team.swapped and lifted is None:
        best: CompleteRank | None = None
        for slot in team.slots:
            if slot.taken or slot.kind != "incident" or slot.jacquard is None:
                continue
            lift = 1 if slot.kind == "log" else 0
            for dropped in player.hand:
                hand = [c for c in cards if c[3] != dropped] + [
                    _card(components, slot.jacquard, extra)
                ]
                swapped = _Rules(
                    budget - lift, played == 0, False, played, left, frozenset({slot.jacquard})
                )
                found = _complete(state.board, hand, goals, swapped)
                if found is not None:
                    found = (found[0], found[1] + lift, found[2], found[3])
                    if best is None or found < best:
                        best = found
        if best is not None:
            return Reference(best, None)
    return Reference(None, _partial(state.board, cards, goals, rules))


def _subsets(cards: list[CardSpec], rules: _Rules) -> list[Subset]:
    """Every set of cards the rules let the turn play, with what it costs and holds."""
    result = []
    for size in range(len(cards) + 1):
        for subset in combinations(range(len(cards)), size):
            if not rules.required <= {cards[i][3] for i in subset}:
                continue
            faults = sum(1 for i in subset if cards[i][1])
            jacquards = len(subset) - faults
            if rules.limit is not None and jacquards > rules.limit:
                continue
            result.append((subset, sum(cards[i][0] for i in subset), faults, jacquards))
    return result


def _complete(
    start: int, cards: list[CardSpec], goals: list[Goal], rules: _Rules
) -> CompleteRank | None:
    best: CompleteRank | None = None
    for subset, cost, faults, jacquards in _subsets(cards, rules):
        if jacquards == 0 and rules.need_jacquard:
            continue
        goals_here = [g for g in goals if g[3] + cost <= rules.budget and g[4]]
        for combo in product(*(cards[i][2] for i in subset)):
            flipped = union = 0
            for m in combo:
                flipped ^= m
                union |= m
            board = start ^ flipped
            for mask, wanted, fresh, spent, _ in goals_here:
                if board & mask == wanted and (fresh or union & mask):
                    outside = sum((m & ~mask).bit_count() for m in combo)
                    rank = (faults, spent + cost, len(subset), outside)
                    if best is None or rank < best:
                        best = rank
    return best


def _partial(
    start: int, cards: list[CardSpec], goals: list[Goal], rules: _Rules
) -> PartialRank | None:
    best: PartialRank | None = None
    for subset, cost, faults, jacquards in _subsets(cards, rules):
        endings = []
        for mask, wanted, _, spent, _ in goals:
            left = rules.budget - spent
            if spent + cost > rules.budget:
                continue
            hand_jacquards = [c for c in cards if not c[1]]
            may_end = (
                jacquards > 0
                or rules.played > 0
                or not hand_jacquards
                or (rules.competitive and all(c[0] > left for c in hand_jacquards))
            )
            if may_end:
                endings.append((mask, wanted, spent))
        for combo in product(*(cards[i][2] for i in subset)):
            flipped = 0
            for m in combo:
                flipped ^= m
            board = start ^ flipped
            for mask, wanted, spent in endings:
                wrong = ((board & mask) ^ wanted).bit_count()
                if best is not None and wrong > best[0]:
                    continue
                outside = sum((m & ~mask).bit_count() for m in combo)
                rank = (wrong, faults, spent + cost, len(subset), outside)
                if best is None or rank < best:
                    best = rank
    return best
