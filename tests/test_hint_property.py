"""Property: over thousands of seeded competitive positions (sabotage windows among them,
hands with Fault Reports of every kind), every hint tells the truth. A plan that sends
the symbol or darkens the tower does so when played through the rules; a hint that says
it cannot be done is checked against an exhaustive search over every card the seat may
play now (tests/hint_reference.py), and its "closest" against the fewest wrong lamps any
legal turn can end with."""

from __future__ import annotations

import os

from hint_reference import reference
from solver_states import random_state

from engine.clacks import ClacksGame
from engine.clacks.actions import EndTurn
from engine.clacks.data import load_components
from engine.clacks.geometry import TOWER_NAMES, read_pattern, tower
from engine.clacks.hints import advise
from engine.clacks.puzzle import DARKEN
from engine.clacks.state import ClacksState, Sabotage
from engine.core.rng import Rng

COMPONENTS = load_components()
POSITIONS = int(os.environ.get("HINT_POSITIONS", "2000"))


def _position(rng: Rng) -> ClacksState:
    """A random competitive position whose player holds up to three Fault Reports of any
    kind; one in three is a Last Letter Sabotage attempt after an Overload or not."""
    state = random_state(rng, with_faults=False)
    me = state.players[state.turn.seat]
    me.faults = rng.sample(sorted(COMPONENTS.faults), rng.below(4))
    if state.turn.phase != "sabotage" and rng.below(3) == 0:
        target = next(s for s in state.players if s is not state.turn.seat)
        name = TOWER_NAMES[rng.below(len(TOWER_NAMES))]
        state.sabotage = Sabotage(target, name)
        state.turn.phase, state.turn.can_move = "sabotage", False
        if rng.below(3) == 0:
            state.board = (1 << 16) - 1
        elif not state.board & tower(name).mask:
            state.board |= tower(name).mask
    return state


def test_every_hint_is_true_against_an_exhaustive_search() -> None:
    rng = Rng(2024)
    checked = {"complete": 0, "cannot": 0, "closest": 0, "with_faults": 0}
    for number in range(POSITIONS):
        state = _position(rng)
        game = ClacksGame(state, COMPONENTS)
        seat = state.turn.seat
        advice = advise(game.view(seat), COMPONENTS)
        plan = advice.plan
        if plan is None:  # nowhere to work: no pawn on a tower and no move left
            assert not reference(state, COMPONENTS).possible, number
            continue
        trial = game.clone()
        events = []
        actions = plan.actions()
        for action in actions[:-1] if not plan.complete else actions:
            events += [e.kind for e in trial.apply(action)]
        where = f"position {number}: {plan}"
        if plan.complete:
            checked["complete"] += 1
            checked["with_faults"] += plan.faults_used > 0
            done = "sabotage_succeeded" if plan.goal == DARKEN else "transmitted"
            assert done in events, where
            continue
        verdict = reference(state, COMPONENTS)
        assert not verdict.possible, f"{where}: the hint says it cannot be done, but it can"
        checked["cannot"] += 1
        assert isinstance(actions[-1], EndTurn)
        board = trial.state.board
        trial.apply(actions[-1])  # the turn may end there (ruling 5)
        if plan.goal != DARKEN:
            shown = read_pattern(board, seat, plan.tower)
            symbol = state.players[seat].next_symbol
            assert symbol is not None
            wanted = COMPONENTS.pattern(symbol)
            assert (shown ^ wanted).bit_count() == plan.wrong, where
            assert plan.wrong == verdict.fewest_wrong, f"{where}: closest {verdict.fewest_wrong}"
            checked["closest"] += 1
    # the positions reach every kind of statement, Fault Reports included
    assert min(checked.values()) >= 50, checked
