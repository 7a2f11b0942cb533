"""The exact solver: agreement with brute force, plans the engine accepts, and the rules
it must respect (movement, Deep Dwarf, fresh pattern, at least one Jacquard, budget)."""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Iterable

import pytest
from solver_states import (
    random_map_state,
    random_state,
    states_from_games,
    states_from_map_games,
)

from engine.clacks import ClacksGame, Move, Options, Seat
from engine.clacks.actions import Swap
from engine.clacks.data import load_components
from engine.clacks.events import Event
from engine.clacks.geometry import mask_of, pattern_mask, read_pattern, tower
from engine.clacks.puzzle import (
    DARKEN,
    TRANSMIT,
    Piece,
    Puzzle,
    Stop,
    movement_stops,
    puzzle_from_state,
    puzzle_from_view,
)
from engine.clacks.solver import Plan, solve
from engine.clacks.solver_reference import solve_by_brute_force
from engine.clacks.state import ClacksState, Sabotage
from engine.core.rng import Rng

COMPONENTS = load_components()
PIN = COMPONENTS.jacquards["pin-2"].design.shape


def _check_against_reference(state: ClacksState, with_faults: bool = False) -> str:
    """Solve ``state`` both ways, compare, and play the plan through the engine.
    Returns "complete", "partial" or "none" for the tally."""
    puzzle = puzzle_from_state(state, COMPONENTS, with_faults=with_faults)
    reference = solve_by_brute_force(state, COMPONENTS, with_faults=with_faults)
    if puzzle is None:
        assert reference is None
        return "none"
    assert reference is not None
    solution = solve(puzzle)
    if solution.plan is not None:
        plan = solution.plan
        assert reference.complete == (plan.faults_used, plan.cost, len(plan.plays), plan.outside)
        assert plan.cost <= puzzle.budget
        _play_complete(state, plan)
        return "complete"
    assert reference.complete is None, "the brute force found a plan the solver missed"
    partial = solution.partial
    if partial is None:  # e.g. a pawn still off the exchange after a Jacquard was played
        assert reference.partial is None
        return "none"
    assert reference.partial == (
        partial.wrong,
        partial.faults_used,
        partial.cost,
        len(partial.plays),
        partial.outside,
    )
    _play_partial(state, partial)
    return "partial"


def _play(state: ClacksState, plan: Plan) -> tuple[ClacksGame, list[Event]] | None:
    """Apply the plan's actions; None when a co-op swap's face-down card changed the
    lamps or moved the Post Office, which no plan can foresee."""
    game = ClacksGame(state.clone(), COMPONENTS)
    events: list[Event] = []
    for action in plan.actions():
        before = game.state.board
        happened = game.apply(action)
        events += happened
        if isinstance(action, Swap) and (
            game.state.board != before
            or game.over
            or any(e.kind == "post_office_moved" for e in happened)
        ):
            return None
    return game, events


def _symbol(state: ClacksState) -> str | None:
    if state.team is not None:
        return state.team.next_symbol
    return state.players[state.turn.seat].next_symbol


def _play_complete(state: ClacksState, plan: Plan) -> None:
    played = _play(state, plan)
    if played is None:
        return
    game, events = played
    kinds = [e.kind for e in events]
    if plan.goal == TRANSMIT:
        assert "transmitted" in kinds
        sent = next(e for e in events if e.kind == "transmitted")
        assert sent.data["tower"] == plan.tower
    else:
        assert state.sabotage is not None
        assert not game.state.board & tower(state.sabotage.tower).mask
        assert "sabotage_succeeded" in kinds or not plan.plays


def _play_partial(state: ClacksState, plan: Plan) -> None:
    game = ClacksGame(state.clone(), COMPONENTS)
    *work, last = plan.actions()
    for action in work:
        game.apply(action)
    if plan.goal == TRANSMIT:
        symbol = _symbol(game.state)
        assert symbol is not None
        if state.options.mode == "competitive":
            assert game.state.players[state.turn.seat].pawn == plan.tower
        shown = read_pattern(game.state.board, state.turn.seat, plan.tower)
        assert (shown ^ COMPONENTS.pattern(symbol)).bit_count() == plan.wrong
    events = game.apply(last)
    assert game.over or any(e.kind == "turn_ended" for e in events)


def _tally(states: Iterable[ClacksState]) -> dict[str, int]:
    tally = {"complete": 0, "partial": 0, "none": 0}
    for state in states:
        tally[_check_against_reference(state)] += 1
    return tally


def _from_real_games() -> dict[str, int]:
    """3,000 competitive and 500 co-op, solitaire and junior states met in play."""
    competitive = (s for s in states_from_games(200, seed=7) if puzzle_from_state(s, COMPONENTS))
    on_the_map = (s for s in states_from_map_games(60, seed=7) if puzzle_from_state(s, COMPONENTS))
    return _tally(
        itertools.chain(itertools.islice(competitive, 3000), itertools.islice(on_the_map, 500))
    )


def _at_random() -> dict[str, int]:
    """1,500 random competitive states and 500 random states of the map games."""
    rng = Rng(2024)
    return _tally(
        itertools.chain(
            (random_state(rng) for _ in range(1500)), (random_map_state(rng) for _ in range(500))
        )
    )


@pytest.mark.slow
def test_solver_agrees_with_brute_force_on_5500_states() -> None:
    # states met in real games on one core, random boards and hands on the other
    with multiprocessing.get_context("fork").Pool(2) as pool:
        from_games = pool.apply_async(_from_real_games)
        from_random = pool.apply_async(_at_random)
        tallies = [from_games.get(), from_random.get()]
    tally = {key: sum(t[key] for t in tallies) for key in tallies[0]}
    assert sum(tally.values()) == 5500
    assert tally["complete"] + tally["partial"] >= 5300
    assert tally["complete"] >= 1000 and tally["partial"] >= 1000, tally


def test_solver_with_flip_faults_agrees_with_brute_force() -> None:
    rng = Rng(99)
    tally = {"complete": 0, "partial": 0, "none": 0}
    for _ in range(150):
        tally[_check_against_reference(random_state(rng, True, max_hand=2), True)] += 1
    assert tally["complete"] >= 30 and tally["partial"] >= 30, tally


def test_puzzle_from_view_equals_puzzle_from_state() -> None:
    checked = 0
    for state in itertools.islice(states_from_games(10, seed=3), 600):
        game = ClacksGame(state, COMPONENTS)
        seat = state.turn.seat
        for with_faults in (False, True):
            from_view = puzzle_from_view(game.view(seat), COMPONENTS, with_faults)
            assert from_view == puzzle_from_state(state, COMPONENTS, with_faults)
        for other in state.players:
            if other is not seat:
                assert puzzle_from_view(game.view(other), COMPONENTS) is None
        checked += 1
    assert checked == 600


# ---------------------------------------------------------------- the rules, one by one


def _puzzle(
    board: int,
    symbol: str,
    pieces: list[Piece],
    budget: int = 5,
    flipped: int = 0,
    played: int = 0,
    stops: tuple[Stop, ...] = (Stop("b2c2", 0, (), True),),
) -> Puzzle:
    return Puzzle(
        Seat.SOUTH,
        TRANSMIT,
        board,
        symbol,
        COMPONENTS.pattern(symbol),
        stops,
        tuple(pieces),
        budget,
        flipped,
        played,
    )


def _pins(count: int) -> list[Piece]:
    return [Piece(f"pin-{i + 2}", "jacquard", 1, PIN) for i in range(count)]


def test_a_pattern_already_showing_must_be_refreshed() -> None:
    board = pattern_mask(COMPONENTS.pattern("I"), Seat.SOUTH, "b2c2")
    assert solve(_puzzle(board, "I", _pins(1))).plan is None
    plan = solve(_puzzle(board, "I", _pins(2))).plan
    assert plan is not None and plan.cost == 2
    first, second = (lamps for _, lamps in plan.plays)
    assert first == second and first & tower("b2c2").mask  # off and on again


def test_flips_made_earlier_in_the_turn_count_as_fresh() -> None:
    board = pattern_mask(COMPONENTS.pattern("I"), Seat.SOUTH, "b2c2")
    earlier = mask_of(["b2"])
    plan = solve(_puzzle(board, "I", _pins(1), flipped=earlier, played=1)).plan
    assert plan is not None and plan.plays == () and plan.cost == 0
    # with nothing played yet, a Jacquard must still be played: one well away from the tower
    plan = solve(_puzzle(board, "I", _pins(1), flipped=earlier, played=0)).plan
    assert plan is not None and len(plan.plays) == 1
    assert not plan.plays[0][1] & tower("b2c2").mask and plan.outside == 1


def test_no_plan_within_the_budget_is_proved_and_the_nearest_offered() -> None:
    board = 0
    bar = COMPONENTS.jacquards["bar-2"]
    bar_piece = Piece("bar-2", "jacquard", bar.cost, bar.design.shape)
    # L needs 4 lit lamps (10 10 11): a Bar (3 lamps, cost 3) and a Pin (1 lamp, cost 1)
    both = solve(_puzzle(board, "L", [bar_piece, *_pins(1)], budget=4))
    assert both.plan is not None and both.plan.cost == 4
    short = solve(_puzzle(board, "L", [bar_piece, *_pins(1)], budget=3))
    assert short.plan is None
    assert short.partial is not None and short.partial.wrong == 1
    assert short.partial.cards == ("bar-2",)
    broke = solve(_puzzle(board, "L", [bar_piece], budget=2))
    assert broke.plan is None and broke.partial is not None
    assert broke.partial.plays == () and broke.partial.wrong == 4  # may end without a card


def _state(players: int, seat: Seat, seed: int = 1) -> ClacksState:
    game = ClacksGame.new(Options.for_players(players), seed)
    state = game.state
    state.turn.seat = seat
    state.order = [seat] + [s for s in state.order if s is not seat]
    return state


def test_first_placement_is_free_and_occupied_buttons_are_not_stops() -> None:
    stops = movement_stops(
        Seat.SOUTH.colour, None, None, None, False, None, frozenset({"b2c2"}), True, 5
    )
    assert {s.tower for s in stops} == {"a2b2", "c2d2", "a3b3", "b3c3", "c3d3"}
    assert all(s.cost == 0 and len(s.moves) == 1 for s in stops if s.cost == 0)
    assert min(s.cost for s in stops if s.tower == "b3c3") == 0


def test_moving_costs_one_per_button_and_passing_through_is_allowed() -> None:
    stops = movement_stops(
        Seat.SOUTH.colour, "a2b2", None, None, False, "a2b2", frozenset({"b2c2"}), True, 5
    )
    cheapest = {s.tower: s.cost for s in reversed(stops)}
    assert cheapest == {"a2b2": 0, "c2d2": 2, "a3b3": 1, "b3c3": 2, "c3d3": 3}
    assert next(s.moves for s in stops if s.tower == "c2d2") == ("c2d2",)  # through b2c2


def test_the_tower_transmitted_from_last_turn_cannot_send_again() -> None:
    stops = movement_stops(
        Seat.SOUTH.colour, "a2b2", "a2b2", None, False, "a2b2", frozenset(), True, 5
    )
    stay = [s for s in stops if s.tower == "a2b2" and s.cost == 0]
    assert stay and not stay[0].can_transmit
    assert all(s.can_transmit for s in stops if s.tower != "a2b2")


def test_the_deep_dwarf_blocks_and_follows_and_its_button_is_reached_in_two_moves() -> None:
    # three players: West has no one opposite, so the Dwarf follows West
    state = _state(3, Seat.WEST)
    assert state.options.dwarf_seat is Seat.WEST
    west = state.players[Seat.WEST]
    west.pawn, state.dwarf, state.turn.start_tower = "b2b3", "b1b2", "b2b3"
    puzzle = puzzle_from_state(state, COMPONENTS)
    assert puzzle is not None
    to_dwarf = [s for s in puzzle.stops if s.tower == "b1b2"]
    assert to_dwarf and to_dwarf[0].cost == 3 and len(to_dwarf[0].moves) == 2
    game = ClacksGame(state.clone(), COMPONENTS)
    for name in to_dwarf[0].moves:
        game.apply(Move(Seat.WEST, tower=name))
    assert game.state.players[Seat.WEST].pawn == "b1b2" and game.state.dwarf == "b2b3"
    # anybody else may not stop on the Dwarf's button at all
    south_state = _state(3, Seat.SOUTH)
    south_state.dwarf = "b2c2"
    south_puzzle = puzzle_from_state(south_state, COMPONENTS)
    assert south_puzzle is not None
    assert "b2c2" not in {s.tower for s in south_puzzle.stops}


@pytest.mark.parametrize("symbol", ["A", "M", "SPACE", "END"])
def test_a_plan_from_the_opening_layout_is_accepted_by_the_engine(symbol: str) -> None:
    state = _state(2, Seat.SOUTH, seed=5)
    me = state.players[Seat.SOUTH]
    me.message, me.progress = [symbol], 0
    me.hand = ["elbow-2", "pair-3", "stile-2"]
    puzzle = puzzle_from_state(state, COMPONENTS)
    assert puzzle is not None
    solution = solve(puzzle)
    plan = solution.best
    assert plan is not None
    if plan.complete:
        _play_complete(state, plan)
    else:
        _play_partial(state, plan)


def test_sabotage_darkens_the_finishers_tower_at_least_cost() -> None:
    state = _state(2, Seat.NORTH)
    state.sabotage = Sabotage(Seat.SOUTH, "b2c2")
    state.turn.phase, state.turn.can_move = "sabotage", False
    state.board = mask_of(["b2", "c2", "c3"])
    state.players[Seat.NORTH].hand = ["pin-2", "elbow-2", "pair-2"]
    puzzle = puzzle_from_state(state, COMPONENTS)
    assert puzzle is not None and puzzle.goal == DARKEN
    plan = solve(puzzle).plan
    # Pair on b2 c2 with Pin on c3 costs 3 too, but one Elbow does it with fewer cards
    assert plan is not None and plan.cost == 3 and plan.cards == ("elbow-2",)
    _play_complete(state, plan)
