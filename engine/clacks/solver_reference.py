"""A brute-force reference for the solver: every sequence of moves, every set of cards,
every placement of each card, played out on the whole 16-lamp board.

It shares nothing with the solver but the component data and the board geometry. It is
as slow as it looks; it exists to check the solver in tests and to give the bench its
speed-up figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

from engine.clacks.components import ComponentSet
from engine.clacks.geometry import pattern_mask, tower, towers_of
from engine.clacks.state import ClacksState

# (faults used, stress, cards, lamps flipped outside the tower)
CompleteRank = tuple[int, int, int, int]
# (wrong lamps, faults used, stress, cards, lamps flipped outside the tower)
PartialRank = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Reference:
    complete: CompleteRank | None
    partial: PartialRank | None


@dataclass(frozen=True)
class _End:
    pawn: str
    dwarf: str | None
    spent: int


def _ends(state: ClacksState) -> list[_End]:
    """Every (pawn, Deep Dwarf, stress) the current player can reach by legal moves."""
    turn = state.turn
    seat = turn.seat
    player = state.players[seat]
    budget = turn.stress_limit - turn.stress_spent
    others = {p.pawn for s, p in state.players.items() if s is not seat and p.pawn}
    follows = state.options.dwarf_seat is seat
    found: set[_End] = set()

    def walk(pawn: str | None, dwarf: str | None, spent: int) -> None:
        if pawn is not None:
            found.add(_End(pawn, dwarf, spent))
        if not (turn.can_move and turn.phase == "play"):
            return
        for name in towers_of(seat.colour):
            if name in (pawn, dwarf) or name in others:
                continue
            cost = 0 if pawn is None else tower(pawn).distance(tower(name))
            if spent + cost > budget:
                continue
            new_dwarf = turn.start_tower if follows and turn.start_tower is not None else dwarf
            walk(name, new_dwarf, spent + cost)

    walk(player.pawn, state.dwarf, 0)
    return sorted(found, key=lambda e: (e.pawn, e.dwarf or "", e.spent))


def solve_by_brute_force(
    state: ClacksState, components: ComponentSet, with_faults: bool = False
) -> Reference | None:
    """The best complete and (if none) best partial ranks for the current player, or None
    when the player has no puzzle now."""
    turn = state.turn
    if state.over or turn.phase == "timeout_discard":
        return None
    seat = turn.seat
    player = state.players[seat]
    budget = turn.stress_limit - turn.stress_spent
    cards: list[tuple[int, bool, tuple[int, ...]]] = [
        (
            components.jacquards[j].cost,
            False,
            tuple(p.mask for p in components.jacquards[j].design.placements),
        )
        for j in player.hand
    ]
    if with_faults:
        for f in player.faults:
            design = components.faults[f].design
            if design.effect == "flip_lamps" and design.when.value != "others_turn":
                count = int(design.params["count"])
                flips = tuple(sum(1 << i for i in c) for c in combinations(range(16), count))
                cards.append((0, True, flips))
    if turn.phase == "sabotage":
        assert state.sabotage is not None
        mask = tower(state.sabotage.tower).mask
        # (tower mask, lamps wanted lit, fresh already, stress spent, may transmit)
        goals = [(mask, 0, True, 0, True)]
        need_jacquard = False
    else:
        symbol = player.next_symbol
        if symbol is None:
            return None
        pattern = components.pattern(symbol)
        goals = []
        for end in _ends(state):
            mask = tower(end.pawn).mask
            allowed = end.pawn != player.must_leave and end.pawn != end.dwarf
            fresh = bool(turn.flipped & mask)
            goals.append((mask, pattern_mask(pattern, seat, end.pawn), fresh, end.spent, allowed))
        need_jacquard = turn.jacquards_played == 0
    best_complete: CompleteRank | None = None
    best_partial: PartialRank | None = None
    subsets = [s for size in range(len(cards) + 1) for s in combinations(range(len(cards)), size)]
    for subset in subsets:
        cost = sum(cards[i][0] for i in subset)
        faults = sum(1 for i in subset if cards[i][1])
        jacquards = len(subset) - faults
        goals_here = [g for g in goals if g[3] + cost <= budget]
        for combo in product(*(cards[i][2] for i in subset)):
            flipped = union = 0
            for m in combo:
                flipped ^= m
                union |= m
            board = state.board ^ flipped
            for mask, wanted, fresh, spent, allowed in goals_here:
                if (
                    allowed
                    and board & mask == wanted
                    and (fresh or union & mask)
                    and not (need_jacquard and jacquards == 0)
                ):
                    outside = sum((m & ~mask).bit_count() for m in combo)
                    complete = (faults, spent + cost, len(subset), outside)
                    if best_complete is None or complete < best_complete:
                        best_complete = complete
    if best_complete is not None:
        return Reference(best_complete, None)
    if turn.phase == "sabotage":
        mask = goals[0][0]
        return Reference(None, ((state.board & mask).bit_count(), 0, 0, 0, 0))
    for subset in subsets:
        cost = sum(cards[i][0] for i in subset)
        faults = sum(1 for i in subset if cards[i][1])
        jacquards = len(subset) - faults
        endings = [
            (mask, wanted, spent)
            for mask, wanted, _, spent, _ in goals
            if spent + cost <= budget
            and (
                jacquards > 0
                or turn.jacquards_played > 0
                or all(c[0] > budget - spent for c in cards if not c[1])
            )
        ]
        for combo in product(*(cards[i][2] for i in subset)):
            flipped = 0
            for m in combo:
                flipped ^= m
            board = state.board ^ flipped
            for mask, wanted, spent in endings:
                wrong = ((board & mask) ^ wanted).bit_count()
                if best_partial is not None and wrong > best_partial[0]:
                    continue
                outside = sum((m & ~mask).bit_count() for m in combo)
                partial = (wrong, faults, spent + cost, len(subset), outside)
                if best_partial is None or partial < best_partial:
                    best_partial = partial
    return Reference(None, best_partial)
