"""An exact solver for the lamp puzzle: the cheapest legal way to send the next symbol.

Flips are XOR, so only *which* cards are played and *where* matters, never the order; and
only the six lamps of the tower the symbol is read at decide success. So each placement
is projected onto the tower's six-lamp window as (6-bit change, touches-the-tower flag),
a card becomes a small table of such projections (at most 128 entries, usually a dozen
or two), and a set of cards is solved by combining all but one card's tables and looking
the last card's needed change up directly. Tables depend only on card shapes and the
window, never on the board, so they are cached and most solves are a few hundred lookups.

Every (tower, set of cards) within the stress budget is tried in order of cost, so the
first cost level with an answer is the minimum. Ties go to fewer Fault Reports, fewer
cards, then fewer lamps flipped outside the tower (counted per card), then less walking.

The search works within a ``WorkBudget`` (engine.core.budget): each set of cards it
considers and each table entry it looks at is a step. A turn as the rules and options
deal it takes under ten thousand steps, well inside ``SOLVE_STEPS``, and weighs at most
``MAX_PIECES`` cards; a position beyond either (one the rules never deal) is searched
only that far, and the best plan found is returned (``Solution.exact`` is then False),
so no hand and no option makes a hint or a bot think without end.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from engine.clacks import actions
from engine.clacks.geometry import FULL_BOARD, Seat, lamps_of, placements, tower
from engine.clacks.puzzle import COMPETITIVE, DARKEN, TRANSMIT, Piece, Puzzle, Stop
from engine.core.budget import WorkBudget

# A table maps key = change << 1 | touched to (lamps flipped outside, masks per piece).
# A mask's bits from STAGE_SHIFT up say when the piece is played among the puzzle's
# lamp-setting Fault Reports (``Puzzle.resets``): 0 before the first, and so on.
Table = dict[int, tuple[int, tuple[int, ...]]]
Window = tuple[int, ...]
Erasures = tuple[int, ...]  # per stage: the window's lamps set again after it (6 bits)
STAGE_SHIFT = 16
LAMPS = (1 << STAGE_SHIFT) - 1

SOLVE_STEPS = 50_000  # the default budget of one solve (engine.core.budget)
# The most cards a seat can weigh in one turn: a hand of 6 (the top of hand_size) and
# the 4 Fault Reports that flip lamps. Every set of them is tried, so each card more
# doubles the work; any beyond are left out.
MAX_PIECES = 10


def set_mask(play: actions.PlayFault) -> int:
    """The lamps a lamp-setting Fault Report sets: a tower's six, or all of them."""
    return tower(play.tower).mask if play.tower is not None else FULL_BOARD


@dataclass(frozen=True)
class Plan:
    """A turn's worth of actions: moves, cards with their lamps, then transmit (or end)."""

    seat: Seat
    goal: str
    tower: str
    moves: tuple[str, ...]
    plays: tuple[tuple[Piece, int], ...]  # each piece with the lamps it flips
    move_cost: int
    cost: int  # stress points the whole plan spends
    outside: int  # lamps the cards flip outside the tower's six
    wrong: int  # lamps of the tower still wrong after the plan (0 when complete)
    complete: bool  # the symbol is sent (TRANSMIT) or the tower dark (DARKEN)
    names_tower: bool = False  # the map games: Transmit says which tower
    swap: tuple[str, str] | None = None  # co-op: (Jacquard discarded, slot lifted from)
    # Fault Reports that change the puzzle itself, played before the moves (more stress,
    # a free move) and, in order, those that set lamps: each play's stage says how many
    # of the latter come before it
    setup: tuple[actions.PlayFault, ...] = ()
    sets: tuple[actions.PlayFault, ...] = ()
    stages: tuple[int, ...] = ()
    closing: tuple[actions.PlayFault, ...] = ()  # played last, before ending the turn
    discard: str | None = None  # Clacks Express, time ran out: the Jacquard to discard

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(piece.id for piece, _ in self.plays)

    @property
    def faults_used(self) -> int:
        played = sum(1 for piece, _ in self.plays if piece.kind == "fault")
        return played + len(self.setup) + len(self.sets) + len(self.closing)

    @property
    def lamps(self) -> int:
        """The lamps the plan's cards change: a lamp two of them flip is back as it was,
        so not among them; a lamp-setting card may change every lamp it sets."""
        changed = 0
        for _, lamps in self.plays:
            changed ^= lamps
        for play in self.sets:
            changed |= set_mask(play)
        return changed

    def actions(self) -> list[actions.Action]:
        """The plan as engine actions, in an order the rules accept."""
        if self.discard is not None:
            return [actions.Discard(self.seat, jacquard=self.discard)]
        out: list[actions.Action] = list(self.setup)
        out += [actions.Move(self.seat, tower=name) for name in self.moves]
        if self.swap is not None:
            out.append(actions.Swap(self.seat, jacquard=self.swap[0], slot=self.swap[1]))
        stages = self.stages or (0,) * len(self.plays)
        for stage in range(len(self.sets) + 1):
            for (piece, lamps), played_at in zip(self.plays, stages, strict=True):
                if played_at != stage:
                    continue
                if piece.kind == "fault":
                    out.append(actions.PlayFault(self.seat, card=piece.id, lamps=lamps))
                else:
                    out.append(actions.PlayJacquard(self.seat, jacquard=piece.id, lamps=lamps))
            if stage < len(self.sets):
                out.append(self.sets[stage])
        out += self.closing
        if self.complete and self.goal == TRANSMIT:
            out.append(actions.Transmit(self.seat, tower=self.tower if self.names_tower else None))
        elif not self.complete:
            out.append(actions.EndTurn(self.seat))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "tower": self.tower,
            "complete": self.complete,
            "cost": self.cost,
            "move_cost": self.move_cost,
            "wrong": self.wrong,
            "cards": [
                *(a.card for a in self.setup + self.sets),
                *self.cards,
                *(a.card for a in self.closing),
            ],
            "discard": self.discard,
            "swap": None if self.swap is None else {"jacquard": self.swap[0], "slot": self.swap[1]},
            "flips": [
                *([] for _ in self.setup),
                *(lamps_of(set_mask(play)) for play in self.sets),
                *(lamps_of(lamps) for _, lamps in self.plays),
                *([] for _ in self.closing),
            ],
            "actions": [a.to_json() for a in self.actions()],
        }


@dataclass(frozen=True)
class Solution:
    puzzle: Puzzle
    plan: Plan | None  # the cheapest complete plan; None proves there is none (if exact)
    partial: Plan | None  # when there is none: the plan leaving fewest wrong lamps
    exact: bool = True  # False: the work budget ran out, the search stopped early

    @property
    def best(self) -> Plan | None:
        return self.plan if self.plan is not None else self.partial


# ---------------------------------------------------------------- card tables


def piece_key(piece: Piece) -> Hashable:
    return piece.shape if piece.kind == "jacquard" else piece.flips


def _sort_key(key: Hashable) -> tuple[int, tuple[tuple[int, int], ...]]:
    if isinstance(key, int):
        return (key, ())
    assert isinstance(key, frozenset)
    return (0, tuple(sorted(key)))


@cache
def _masks(key: Hashable) -> tuple[int, ...]:
    """Every set of lamps a piece can flip: a Jacquard's placements, or any N lamps."""
    if isinstance(key, int):
        return tuple(sum(1 << i for i in combo) for combo in combinations(range(16), key))
    assert isinstance(key, frozenset)
    return tuple(p.mask for p in placements(key))


def project(mask: int, window: Window) -> int:
    """The 6-bit change ``mask`` makes in the window (bit 5 = the window's first lamp)."""
    change = 0
    for index in window:
        change = change << 1 | (mask >> index & 1)
    return change


def window_mask(window: Window) -> int:
    return sum(1 << i for i in window)


@lru_cache(maxsize=4096)
def piece_table(key: Hashable, window: Window, erasures: Erasures = ()) -> Table:
    """Each distinct (change, touched) one piece can make in the window, with the
    placement flipping fewest lamps outside it. With ``erasures`` the piece may also be
    played at an earlier stage, before lamp-setting Fault Reports set some of the
    window's lamps again: what it changed there no longer shows, but it still counts
    as flipped (ruling 3)."""
    inside = window_mask(window)
    table: Table = {}
    last = len(erasures)
    for mask in _masks(key):
        change = project(mask, window)
        touched = 1 if mask & inside else 0
        outside = (mask & ~inside).bit_count()
        for stage, erased in (*enumerate(erasures), (last, 0)):
            entry_key = (change & ~erased) << 1 | touched
            entry = (outside, (mask | stage << STAGE_SHIFT,))
            if entry_key not in table or entry < table[entry_key]:
                table[entry_key] = entry
    return table


@lru_cache(maxsize=16384)
def combined_table(keys: tuple[Hashable, ...], window: Window, erasures: Erasures = ()) -> Table:
    """What the pieces ``keys`` (canonically ordered) can make together in the window."""
    if len(keys) == 1:
        return piece_table(keys[0], window, erasures)
    first = combined_table(keys[:-1], window, erasures)
    last = piece_table(keys[-1], window, erasures)
    table: Table = {}
    for key_a, (out_a, masks_a) in first.items():
        for key_b, (out_b, masks_b) in last.items():
            key = ((key_a ^ key_b) & ~1) | ((key_a | key_b) & 1)
            entry = (out_a + out_b, (*masks_a, *masks_b))
            if key not in table or entry < table[key]:
                table[key] = entry
    return table


@lru_cache(maxsize=4096)
def nearest_table(
    key: Hashable, window: Window, erasures: Erasures = ()
) -> tuple[tuple[int, int, int], ...]:
    """For each wanted 6-bit change x: the (wrong lamps, outside, mask) of the piece's
    placement that comes closest, for partial plans."""
    table = piece_table(key, window, erasures)
    result = []
    for wanted in range(64):
        result.append(
            min(
                ((wanted ^ (k >> 1)).bit_count(), out, masks[0])
                for k, (out, masks) in table.items()
            )
        )
    return tuple(result)


# ---------------------------------------------------------------- search


@dataclass(frozen=True)
class _Target:
    stop: Stop
    index: int
    window: Window
    need: int  # the 6-bit change that turns the window into the wanted pattern
    touched: bool  # the fresh-pattern rule is met already (or does not apply)
    erasures: Erasures = ()  # per stage before the last lamp-setting Fault Report


@dataclass(frozen=True)
class _Choice:
    pieces: tuple[Piece, ...]  # canonical order
    cost: int
    jacquards: int
    faults: int
    index: int


def _choices(puzzle: Puzzle, budget: WorkBudget) -> list[_Choice]:
    result = []
    pieces = puzzle.pieces
    for bits in range(budget.take(1 << len(pieces))):
        chosen = [p for i, p in enumerate(pieces) if bits >> i & 1]
        cost = sum(p.cost for p in chosen)
        if cost > puzzle.budget or not puzzle.required <= {p.id for p in chosen}:
            continue
        chosen.sort(key=lambda p: _sort_key(piece_key(p)))
        jacquards = sum(1 for p in chosen if p.kind == "jacquard")
        if puzzle.max_jacquards is not None and jacquards > puzzle.max_jacquards:
            continue
        result.append(_Choice(tuple(chosen), cost, jacquards, len(chosen) - jacquards, bits))
    return result


def _targets(puzzle: Puzzle, transmitting: bool) -> list[_Target]:
    """Where to work: for a complete plan the cheapest way to each tower one may send
    from (dearer ways never help); for a partial plan every way, since spending stress on
    the walk can leave too little for a Jacquard and so allow ending without one."""
    result = []
    seen: set[str] = set()
    for index, stop in enumerate(puzzle.stops):
        if transmitting and (not stop.can_transmit or stop.tower in seen):
            continue
        seen.add(stop.tower)
        window = puzzle.window(stop)
        need = project(puzzle.board, window) ^ puzzle.pattern
        touched = puzzle.goal == DARKEN or bool(puzzle.flipped & tower(stop.tower).mask)
        erasures = tuple(
            project(_set_after(puzzle.resets, stage), window) for stage in range(len(puzzle.resets))
        )
        result.append(_Target(stop, index, window, need, touched, erasures))
    return result


def _set_after(resets: tuple[int, ...], stage: int) -> int:
    """The lamps set again by the lamp-setting Fault Reports after ``stage``."""
    union = 0
    for mask in resets[stage:]:
        union |= mask
    return union


def _complete_with(
    target: _Target, choice: _Choice, budget: WorkBudget
) -> tuple[int, tuple[int, ...]] | None:
    """The fewest outside flips with which ``choice`` completes ``target``, or None."""
    pieces = choice.pieces
    if not pieces:
        return (0, ()) if target.need == 0 and target.touched else None
    keys = tuple(piece_key(p) for p in pieces)
    last = piece_table(keys[-1], target.window, target.erasures)
    if len(keys) == 1:
        rest: Table = {0: (0, ())}
    else:
        rest = combined_table(keys[:-1], target.window, target.erasures)
    budget.spend(len(rest))
    best: tuple[int, tuple[int, ...]] | None = None
    for key, (out, masks) in rest.items():
        wanted = (target.need ^ (key >> 1)) << 1
        for touched in (1, 0) if key & 1 or target.touched else (1,):
            found = last.get(wanted | touched)
            if found is not None:
                entry = (out + found[0], (*masks, *found[1]))
                if best is None or entry < best:
                    best = entry
    return best


def _nearest_with(
    target: _Target, choice: _Choice, budget: WorkBudget
) -> tuple[int, int, tuple[int, ...]]:
    """The fewest wrong lamps ``choice`` can leave at ``target``: (wrong, outside, masks)."""
    pieces = choice.pieces
    if not pieces:
        return (target.need.bit_count(), 0, ())
    keys = tuple(piece_key(p) for p in pieces)
    nearest = nearest_table(keys[-1], target.window, target.erasures)
    rest: Table = (
        {0: (0, ())}
        if len(keys) == 1
        else combined_table(keys[:-1], target.window, target.erasures)
    )
    budget.spend(len(rest))
    best: tuple[int, int, tuple[int, ...]] | None = None
    for key, (out, masks) in rest.items():
        wrong, out_last, mask = nearest[target.need ^ (key >> 1)]
        entry = (wrong, out + out_last, (*masks, mask))
        if best is None or entry < best:
            best = entry
    assert best is not None
    return best


def _plan(
    puzzle: Puzzle,
    target: _Target,
    choice: _Choice,
    outside: int,
    masks: tuple[int, ...],
    wrong: int,
    complete: bool,
) -> Plan:
    stop = target.stop
    staged = [
        (piece, mask & LAMPS, mask >> STAGE_SHIFT)
        for piece, mask in zip(choice.pieces, masks, strict=True)
    ]
    # Jacquards first, then Fault Reports: within a stage the order does not change the lamps
    staged.sort(key=lambda p: (p[2], p[0].kind == "fault"))
    plays = tuple((piece, mask) for piece, mask, _ in staged)
    return Plan(
        puzzle.seat,
        puzzle.goal,
        stop.tower,
        stop.moves,
        plays,
        stop.cost,
        stop.cost + choice.cost,
        outside,
        wrong,
        complete,
        names_tower=puzzle.rules != COMPETITIVE,
        stages=tuple(stage for _, _, stage in staged) if puzzle.resets else (),
    )


WRONG_FIRST = "wrong"  # partial plans: fewest wrong lamps, then least stress
STRESS_FIRST = "stress"  # partial plans: least stress, then fewest wrong lamps (co-op)


def solve(
    puzzle: Puzzle,
    partial: bool = True,
    prefer: str = WRONG_FIRST,
    budget: WorkBudget | None = None,
) -> Solution:
    """The cheapest complete plan for ``puzzle``, or proof there is none together with
    (when ``partial``) the best partial plan: by default the one leaving the fewest
    wrong lamps; with ``prefer=STRESS_FIRST`` the cheapest, then fewest wrong lamps
    (in co-op every stress point moves the Post Office).

    In co-op a swap for a face-up Jacquard is tried only when there is no complete plan
    without one. The Incident Report under it is face down, so such a plan assumes the
    card leaves the lamps alone; whoever follows it should look again after the swap.

    ``budget`` bounds the work (by default ``SOLVE_STEPS`` of its own); a caller making
    several solves for one decision passes one budget to them all."""
    budget = budget or WorkBudget(SOLVE_STEPS)
    whole = puzzle
    puzzle = _within_reach(puzzle)
    choices = _choices(puzzle, budget)
    plan = _cheapest_complete(puzzle, choices, budget)
    if plan is None and puzzle.swaps:
        plan = _cheapest_swap(puzzle, budget)
    nearest = None
    if plan is None and partial:
        nearest = _nearest(puzzle, choices, budget, prefer)
    exact = puzzle is whole and not budget.exhausted
    return Solution(whole, plan, nearest, exact)


def _within_reach(puzzle: Puzzle) -> Puzzle:
    """The puzzle with at most ``MAX_PIECES`` cards: those that must be played, then the
    others in the order given."""
    if len(puzzle.pieces) <= MAX_PIECES:
        return puzzle
    ranked = sorted(puzzle.pieces, key=lambda p: p.id not in puzzle.required)
    kept = set(ranked[:MAX_PIECES])
    return dataclasses.replace(puzzle, pieces=tuple(p for p in puzzle.pieces if p in kept))


def _cheapest_swap(puzzle: Puzzle, budget: WorkBudget) -> Plan | None:
    best: tuple[tuple[int, int, int], Plan] | None = None
    for option in puzzle.swaps:
        for dropped in puzzle.pieces:
            if dropped.kind != "jacquard" or dropped.id in puzzle.required:
                continue
            pieces = (*(p for p in puzzle.pieces if p is not dropped), option.piece)
            swapped = dataclasses.replace(
                puzzle,
                pieces=pieces,
                budget=puzzle.budget - option.lift_cost,
                required=puzzle.required | {option.piece.id},
                swaps=(),
            )
            found = _cheapest_complete(swapped, _choices(swapped, budget), budget)
            if found is None:
                continue
            plan = dataclasses.replace(
                found, cost=found.cost + option.lift_cost, swap=(dropped.id, option.slot)
            )
            rank = (plan.cost, len(plan.plays), plan.outside)
            if best is None or rank < best[0]:
                best = (rank, plan)
    return None if best is None else best[1]


def _cheapest_complete(puzzle: Puzzle, choices: list[_Choice], budget: WorkBudget) -> Plan | None:
    transmitting = puzzle.goal == TRANSMIT
    pairs = []
    for target in _targets(puzzle, transmitting):
        if not budget.spend(len(choices)):
            break
        for choice in choices:
            if target.stop.cost + choice.cost > puzzle.budget:
                continue
            if transmitting and choice.jacquards == 0 and puzzle.needs_jacquard():
                continue  # at least one Jacquard each turn (ruling 5)
            group = (choice.faults, target.stop.cost + choice.cost, len(choice.pieces))
            pairs.append((group, target.stop.cost, target.index, choice.index, target, choice))
    pairs.sort(key=lambda t: t[:4])
    best: tuple[Any, ...] | None = None
    for group, move_cost, t_index, c_index, target, choice in pairs:
        if (best is not None and group > best[0]) or budget.exhausted:
            break
        found = _complete_with(target, choice, budget)
        if found is None:
            continue
        rank = (group, found[0], move_cost, t_index, c_index)
        if best is None or rank < best[:5]:
            best = (*rank, target, choice, found)
    if best is None:
        return None
    target, choice, (outside, masks) = best[5], best[6], best[7]
    return _plan(puzzle, target, choice, outside, masks, 0, True)


def _nearest(
    puzzle: Puzzle, choices: list[_Choice], budget: WorkBudget, prefer: str = WRONG_FIRST
) -> Plan | None:
    """The plan leaving fewest wrong lamps at any tower the pawn can end on (or, with
    STRESS_FIRST, the cheapest such plan), among plans that may legally end the turn.
    A sabotage attempt that cannot succeed ends at once."""
    if puzzle.goal == DARKEN:
        target = _targets(puzzle, False)[0]
        wrong = target.need.bit_count()
        return _plan(puzzle, target, _Choice((), 0, 0, 0, 0), 0, (), wrong, False)
    best: tuple[Any, ...] | None = None
    for target in _targets(puzzle, False):
        can_skip = puzzle.may_end_without_jacquard(puzzle.budget - target.stop.cost)
        for choice in choices:
            if budget.exhausted:
                break
            if target.stop.cost + choice.cost > puzzle.budget:
                continue
            if choice.jacquards == 0 and not can_skip:
                continue
            wrong, outside, masks = _nearest_with(target, choice, budget)
            stress = target.stop.cost + choice.cost
            rank = (
                wrong if prefer == WRONG_FIRST else stress,
                choice.faults,
                stress if prefer == WRONG_FIRST else wrong,
                len(choice.pieces),
                outside,
                target.stop.cost,
                target.index,
                choice.index,
            )
            if best is None or rank < best[0]:
                best = (rank, target, choice, outside, masks, wrong)
    if best is None:
        return None
    _, target, choice, outside, masks, wrong = best
    # even with no lamp wrong this is only partial: the pattern would not be fresh
    return _plan(puzzle, target, choice, outside, masks, wrong, False)
