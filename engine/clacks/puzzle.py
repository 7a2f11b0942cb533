"""The lamp puzzle a seat faces in its turn, as plain data for the solver.

A puzzle is built either from the game state or from the seat's own view (what a bot or a
phone sees). Both give the same puzzle, because it holds nothing the seat may not see:
the board, the pawns and the Deep Dwarf, the turn so far, and the seat's own cards.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.clacks.components import ComponentSet
from engine.clacks.effects import Timing
from engine.clacks.geometry import (
    Colour,
    Seat,
    Shape,
    mask_of,
    reading_frame,
    tower,
    towers_of,
)
from engine.clacks.state import ClacksState
from engine.core.budget import WorkBudget

TRANSMIT = "transmit"  # make the next symbol show at a tower and send it
DARKEN = "darken"  # Last Letter Sabotage: turn off all six lamps of one tower
COMPETITIVE = "competitive"  # pawns, a stress limit, Fault Reports in hand
MAP = "map"  # co-op, solitaire and junior: any tower of the seat's colour, no pawns
UNLIMITED = 99  # a stress budget no hand can reach (the junior race has no limit)
# The pawn's routes are searched within this many steps of their own (a turn the rules
# deal takes a few hundred), so a search cut short still leaves work for the solver.
MOVEMENT_STEPS = 20_000


@dataclass(frozen=True)
class Piece:
    """A card the seat may play once this turn: a Jacquard (its holes), or a Fault Report
    that flips ``flips`` lamps of the player's choice."""

    id: str
    kind: str  # "jacquard" or "fault"
    cost: int
    shape: Shape | None = None
    flips: int = 0


@dataclass(frozen=True)
class Stop:
    """A tower the pawn can end its movement on this turn, and the cheapest way there."""

    tower: str
    cost: int  # stress points the moves cost
    moves: tuple[str, ...]  # the buttons to move to, in order; () = stay
    can_transmit: bool  # False where the rules forbid sending from it (ruling 2)


@dataclass(frozen=True)
class SwapOption:
    """Co-op: a swap slot whose Jacquard is known (face up on an Incident Report)."""

    slot: str
    lift_cost: int  # stress for lifting it (an Operator's Log's extra point)
    piece: Piece


@dataclass(frozen=True)
class Puzzle:
    seat: Seat
    goal: str
    board: int
    symbol: str | None  # TRANSMIT: the symbol to send
    pattern: int  # the 6-bit pattern wanted (0 for DARKEN)
    stops: tuple[Stop, ...]  # where the work can be done, cheapest way there
    pieces: tuple[Piece, ...]
    budget: int  # stress points that may still be spent this turn
    flipped: int  # lamps flipped so far this turn (the fresh-pattern rule, ruling 3)
    played: int  # Jacquards played so far this turn
    rules: str = COMPETITIVE
    max_jacquards: int | None = None  # more may not be played this turn (a card's limit)
    required: frozenset[str] = frozenset()  # pieces that must be played (a lifted Jacquard)
    swaps: tuple[SwapOption, ...] = ()  # co-op: known Jacquards one may swap for
    # Lamps set again by Fault Reports played in this order during the turn (a tower's
    # six off, every lamp on); ``board`` is the board with them applied, and a card may
    # be played before any of them (engine.clacks.solver)
    resets: tuple[int, ...] = ()
    # Stress points a Fault Report in hand takes off the limit before the turn ends
    # (Grit in the Gears played on oneself), which can let it end without a Jacquard
    lowered_at_end: int = 0

    @property
    def jacquards_in_hand(self) -> int:
        return sum(1 for p in self.pieces if p.kind == "jacquard")

    def needs_jacquard(self) -> bool:
        """Whether a Jacquard must still be played before transmitting (ruling 5; in the
        map games only while the hand holds one)."""
        if self.played > 0:
            return False
        return self.rules == COMPETITIVE or self.jacquards_in_hand > 0

    def may_end_without_jacquard(self, left: int) -> bool:
        """Whether the turn may end with no (more) Jacquard played, ``left`` stress
        points remaining: the competitive game lets a player who cannot afford one."""
        if self.played > 0 or self.jacquards_in_hand == 0:
            return True
        return self.rules == COMPETITIVE and all(
            p.cost > left - self.lowered_at_end for p in self.pieces if p.kind == "jacquard"
        )

    def window(self, stop: Stop) -> tuple[int, ...]:
        """The six lamps that matter at ``stop``, in pattern order (bit 5 first)."""
        if self.goal == DARKEN:
            mask = tower(stop.tower).mask
            return tuple(i for i in range(16) if mask >> i & 1)
        return reading_frame(self.seat, stop.tower)


def movement_budget(pieces: Sequence[Piece], budget: int, played: int) -> int:
    """What the pawn's movement may spend: before the turn's first Jacquard, no move may
    leave too little for the cheapest one in hand (ruling 5)."""
    costs = [p.cost for p in pieces if p.kind == "jacquard"]
    if played or not costs or min(costs) > budget:
        return budget
    return budget - min(costs)


def movement_stops(
    colour: Colour,
    pawn: str | None,
    must_leave: str | None,
    dwarf: str | None,
    dwarf_follows: bool,
    start_tower: str | None,
    others: frozenset[str],
    can_move: bool,
    budget: int,
    work: WorkBudget | None = None,
) -> tuple[Stop, ...]:
    """Every (tower, stress) the pawn can end its movement on, each with the shortest
    moves that get there (rulings 1 and 4), cheapest first for each tower.

    A search over (pawn, Deep Dwarf, stress) states. One move is the cheapest way to any
    free button, but not the only one: the player the Dwarf follows frees the Dwarf's
    button by moving and can reach it with a second move, and a detour that spends more
    stress is legal too, within ``budget`` (see ``movement_budget``). When ``work`` is
    given, each state taken from the queue and each move of a path queued is a step of
    it, and the search ends when it is spent or has taken ``MOVEMENT_STEPS`` (a stress
    budget the rules never give would otherwise queue ever longer detours).
    """
    State = tuple[str | None, str | None, int]
    best: dict[State, tuple[str, ...]] = {(pawn, dwarf, 0): ()}
    queue: list[tuple[int, int, tuple[str, ...], str | None, str | None]] = [
        (0, 0, (), pawn, dwarf)
    ]
    own = WorkBudget(MOVEMENT_STEPS)
    while queue and can_move:
        if not own.spend() or (work is not None and not work.spend()):
            break
        cost, _, moves, here, dwarf_now = heapq.heappop(queue)
        if best[(here, dwarf_now, cost)] != moves:
            continue
        dwarf_next = start_tower if dwarf_follows and start_tower is not None else dwarf_now
        for name in towers_of(colour):
            if name in (here, dwarf_now) or name in others:
                continue
            step = 0 if here is None else tower(here).distance(tower(name))
            key = (name, dwarf_next, cost + step)
            path = (*moves, name)
            if cost + step > budget:
                continue
            known = best.get(key)
            if known is None or (len(path), path) < (len(known), known):
                if not own.spend(len(path)) or (work is not None and not work.spend(len(path))):
                    break
                best[key] = path
                heapq.heappush(queue, (cost + step, len(path), path, name, dwarf_next))
    stops: dict[tuple[str, int], Stop] = {}
    for (here, dwarf_at, cost), moves in best.items():
        if here is None:
            continue
        stop = Stop(here, cost, moves, here != must_leave and here != dwarf_at)
        known_stop = stops.get((here, cost))
        if known_stop is None or (
            not known_stop.can_transmit,
            len(known_stop.moves),
            known_stop.moves,
        ) > (
            not stop.can_transmit,
            len(moves),
            moves,
        ):
            stops[(here, cost)] = stop
    order = {name: i for i, name in enumerate(towers_of(colour))}
    return tuple(sorted(stops.values(), key=lambda s: (order[s.tower], s.cost)))


def _fault_pieces(faults: list[dict[str, Any]], own_turn: bool) -> list[Piece]:
    pieces = []
    for card in faults:
        when = Timing(card["when"])
        if (when is Timing.OTHERS_TURN and own_turn) or (when is Timing.OWN_TURN and not own_turn):
            continue
        if card["effect"] == "flip_lamps":
            pieces.append(Piece(card["id"], "fault", 0, flips=int(card["params"]["count"])))
    return pieces


def puzzle_from_view(
    view: dict[str, Any],
    components: ComponentSet,
    with_faults: bool = False,
    work: WorkBudget | None = None,
) -> Puzzle | None:
    """The puzzle of the seat whose view this is, or None when it has none now (not its
    turn, game over, message complete, or its time ran out). ``with_faults`` adds the
    Fault Reports that flip lamps as extra pieces; finding where the pawn can go counts
    against ``work``, when given."""
    you = view.get("you")
    if you is None or view.get("end_reason") is not None:
        return None
    seat = Seat.parse(you["seat"])
    turn = view["turn"]
    if Seat.parse(turn["seat"]) is not seat or turn.get("phase") == "timeout_discard":
        return None
    if view["mode"] != "competitive":
        return _map_puzzle(view, components, seat)
    players = {Seat.parse(p["seat"]): p for p in view["players"]}
    me = players[seat]
    pieces = [
        Piece(
            card["id"], "jacquard", int(card["cost"]), components.jacquards[card["id"]].design.shape
        )
        for card in you["hand"]
    ]
    if with_faults:
        pieces += _fault_pieces(you["faults"], own_turn=True)
    budget = int(turn["stress_limit"]) - int(turn["stress_spent"])
    flipped = mask_of(turn["flipped"])
    played = int(turn["jacquards_played"])
    board = int(view["board"])
    if turn["phase"] == "sabotage":
        target = view["sabotage"]["tower"]
        return _darken(seat, board, target, pieces, budget, flipped, played)
    symbol = me["next_symbol"]
    if symbol is None:
        return None
    others = frozenset(p["pawn"] for s, p in players.items() if s is not seat and p["pawn"])
    dwarf_seat = view.get("dwarf_seat")
    stops = movement_stops(
        seat.colour,
        me["pawn"],
        me["must_leave"],
        view["dwarf"],
        dwarf_seat is not None and Seat.parse(dwarf_seat) is seat,
        turn["start_tower"],
        others,
        bool(turn["can_move"]),
        movement_budget(pieces, budget, played),
        work,
    )
    return Puzzle(
        seat,
        TRANSMIT,
        board,
        symbol,
        components.pattern(symbol),
        stops,
        tuple(pieces),
        budget,
        flipped,
        played,
    )


def puzzle_from_state(
    state: ClacksState, components: ComponentSet, with_faults: bool = False
) -> Puzzle | None:
    """The current player's puzzle, straight from the state (for tests and benches;
    bots and hints use ``puzzle_from_view``)."""
    if state.over or state.turn.phase == "timeout_discard":
        return None
    if state.options.mode != "competitive":  # the map games: read the seat's own view
        from engine.clacks.game import ClacksGame

        return puzzle_from_view(
            ClacksGame(state, components).view(state.turn.seat), components, with_faults
        )
    seat = state.turn.seat
    me = state.players[seat]
    turn = state.turn
    pieces = [
        Piece(j, "jacquard", components.jacquards[j].cost, components.jacquards[j].design.shape)
        for j in me.hand
    ]
    if with_faults:
        cards = [
            {
                "id": f,
                "when": components.faults[f].design.when.value,
                "effect": components.faults[f].design.effect,
                "params": components.faults[f].design.params,
            }
            for f in me.faults
        ]
        pieces += _fault_pieces(cards, own_turn=True)
    budget = turn.stress_limit - turn.stress_spent
    if turn.phase == "sabotage":
        assert state.sabotage is not None
        return _darken(
            seat,
            state.board,
            state.sabotage.tower,
            pieces,
            budget,
            turn.flipped,
            turn.jacquards_played,
        )
    symbol = me.next_symbol
    if symbol is None:
        return None
    others = frozenset(p.pawn for s, p in state.players.items() if s is not seat and p.pawn)
    stops = movement_stops(
        seat.colour,
        me.pawn,
        me.must_leave,
        state.dwarf,
        state.options.dwarf_seat is seat,
        turn.start_tower,
        others,
        turn.can_move and turn.phase == "play",
        movement_budget(pieces, budget, turn.jacquards_played),
    )
    return Puzzle(
        seat,
        TRANSMIT,
        state.board,
        symbol,
        components.pattern(symbol),
        stops,
        tuple(pieces),
        budget,
        turn.flipped,
        turn.jacquards_played,
    )


def _map_puzzle(view: dict[str, Any], components: ComponentSet, seat: Seat) -> Puzzle | None:
    """Co-op, solitaire or junior: any of the seat's six towers, no pawns, no limit but
    the Post Office's (reaching Genua loses the race), a card's Jacquard limit or
    surcharge, and in co-op the Jacquard lifted from a slot that must be played."""
    turn = view["turn"]
    you = view["you"]
    team = view["mode"] in ("coop", "solitaire")
    surcharge = int(turn.get("stress_surcharge") or 0)
    pieces = tuple(
        Piece(
            card["id"],
            "jacquard",
            int(card["cost"]) + surcharge,
            components.jacquards[card["id"]].design.shape,
        )
        for card in you["hand"]
    )
    if team:
        symbol = view["message"]["next_symbol"]
        post_office = view["post_office"]
        steps_left = int(post_office["steps_left"])
        cap = turn["post_office_cap"]
        capped = cap is not None and int(cap) - int(turn["post_office_steps"]) < steps_left
        budget = UNLIMITED if capped else steps_left - 1
    else:
        symbol = next(p for p in view["players"] if p["seat"] == seat.label)["next_symbol"]
        budget = UNLIMITED
    if symbol is None:
        return None
    limit = turn.get("jacquard_limit")
    played = int(turn["jacquards_played"])
    lifted = you.get("lifted")
    swaps: list[SwapOption] = []
    if team and not turn["swapped"] and lifted is None:
        for slot in view["slots"]:
            card = slot["jacquard"]
            if slot["taken"] or card is None:
                continue  # an Operator's Log's Jacquard lies face down: unknown
            piece = Piece(
                card["id"],
                "jacquard",
                int(card["cost"]) + surcharge,
                components.jacquards[card["id"]].design.shape,
            )
            swaps.append(SwapOption(slot["id"], int(slot["lift_cost"]), piece))
    stops = tuple(Stop(name, 0, (), True) for name in towers_of(seat.colour))
    return Puzzle(
        seat,
        TRANSMIT,
        int(view["board"]),
        symbol,
        components.pattern(symbol),
        stops,
        pieces,
        budget,
        mask_of(turn["flipped"]),
        played,
        rules=MAP,
        max_jacquards=None if limit is None else max(0, int(limit) - played),
        required=frozenset({lifted}) if lifted else frozenset(),
        swaps=tuple(swaps),
    )


def _darken(
    seat: Seat,
    board: int,
    target: str,
    pieces: list[Piece],
    budget: int,
    flipped: int,
    played: int,
) -> Puzzle:
    stop = Stop(target, 0, (), True)
    return Puzzle(seat, DARKEN, board, None, 0, (stop,), tuple(pieces), budget, flipped, played)
