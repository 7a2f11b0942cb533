"""The eight-sided die of Guards! Guards!: the tests' special cases and the exact chance
of passing, checked against an independent enumeration of the die's faces."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from guards_support import act, rig, started
from hypothesis import given
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.guards import dice, rolls, rules
from engine.guards.actions import SCHEMAS, Action
from engine.guards.dice import Roll, attack_chance, chance, passes
from engine.guards.events import Event
from engine.guards.state import GameState

DEPTH = 24  # faces enumerated in a row: what is left over is below 8**-24


def open_values(depth: int, cap: bool) -> dict[int, Fraction]:
    """An open roll's value -> probability, enumerating faces (0 stands for a first 1)."""
    out: dict[int, Fraction] = {0: Fraction(1, 8)}

    def go(total: int, p: Fraction, rolled: int) -> None:
        for face in range(1, 9):
            q = p / 8
            if face == 8 and rolled < depth and not (cap and rolled >= 1):
                go(total + 8, q, rolled + 1)
            else:
                out[total + face] = out.get(total + face, Fraction(0)) + q

    for face in range(2, 9):
        if face == 8:
            go(8, Fraction(1, 8), 1)
        else:
            out[face] = out.get(face, Fraction(0)) + Fraction(1, 8)
    return out


OPEN = open_values(DEPTH, False)
CAPPED = open_values(1, True)


def enumerated_chance(kind: str, base: int, target: int, cap: bool) -> Fraction:
    if kind == "open":
        values = CAPPED if cap else OPEN
        return sum((p for v, p in values.items() if v and base + v >= target), Fraction(0))
    faces = [f for f in range(2, 9) if base + f >= target or (kind == "recruit" and f == 8)]
    return Fraction(len(faces), 8)


@pytest.mark.parametrize("kind", dice.KINDS)
@pytest.mark.parametrize("cap", [False, True])
def test_the_exact_chance_agrees_with_every_face_enumerated(kind: str, cap: bool) -> None:
    for base in range(-3, 12):
        for target in range(0, 40):
            exact = chance(kind, base, target, cap)
            counted = enumerated_chance(kind, base, target, cap)
            if kind == "open" and not cap:
                assert 0 <= exact - counted < Fraction(1, 8**DEPTH), (base, target)
            else:
                assert exact == counted, (kind, base, target)


@pytest.mark.parametrize("cap", [False, True])
def test_the_chance_of_a_hit_agrees_with_both_rolls_enumerated(cap: bool) -> None:
    values = CAPPED if cap else open_values(8, False)
    for attack in range(-2, 10):
        for defence in range(-2, 10):
            hit = Fraction(0)
            for a, pa in values.items():
                if a == 0:
                    continue  # the attacker's natural 1 misses
                for d, pd in values.items():
                    if d == 0 or attack + a > defence + d:
                        hit += pa * pd
            exact = attack_chance(attack, defence, cap)
            if cap:
                assert exact == hit
            else:
                assert abs(exact - hit) < Fraction(2, 8**8), (attack, defence)


def test_a_challenge_roll_of_8_then_1_makes_9() -> None:
    # scenario 7: sum 5, target 13, rolls 8 then 1: 14, a pass (the FAQ's 8 + 1 = 9)
    assert passes("open", 5, 13, Roll((8, 1)))
    assert Roll((8, 1)).value == 9


def test_a_first_1_fails_whatever_the_sum() -> None:
    # scenario 8: "A roll of 1 is an automatic failure!"
    for kind in dice.KINDS:
        assert not passes(kind, 40, 2, Roll((1,)))


def test_a_recruiting_natural_8_always_wins_and_a_plain_8_counts_8() -> None:
    assert passes("recruit", 0, 20, Roll((8,)))
    assert not passes("plain", 0, 9, Roll((8,)))  # ruling 4: counts 8
    assert passes("plain", 1, 9, Roll((8,)))
    assert passes("recruit", 3, 7, Roll((4,)))  # scenario 1: equal to, or higher


def test_open_rolls_go_on_after_every_8_unless_capped() -> None:
    rng = Rng(0)
    chained = 0
    for _ in range(20_000):
        rolled = dice.roll(rng, "open")
        assert all(f == 8 for f in rolled.faces[:-1]) and rolled.faces[-1] != 8
        chained += len(rolled.faces) > 2
        capped = dice.roll(rng, "open", cap_eights=True)
        assert len(capped.faces) <= 2
        assert len(dice.roll(rng, "plain").faces) == 1
    assert chained  # eight after eight happens (1 in 64)


def test_the_dice_are_fair() -> None:
    rng = Rng(11)
    counts = [0] * 9
    for _ in range(80_000):
        counts[dice.roll_die(rng)] += 1
    assert counts[0] == 0
    assert all(abs(c - 10_000) < 500 for c in counts[1:])


@given(st.sampled_from(dice.KINDS), st.integers(-5, 15), st.integers(-5, 45), st.booleans())
def test_chances_are_probabilities_that_rise_with_the_base(kind: str, base: int, target: int, cap: bool) -> None:
    value = chance(kind, base, target, cap)
    assert 0 <= value <= Fraction(7, 8)  # a first natural 1 always fails
    assert chance(kind, base + 1, target, cap) >= value
    assert chance(kind, base, target + 1, cap) <= value


def test_the_chance_table_reads_as_fractions() -> None:
    table = dice.chance_table("plain", 3)
    assert table[4] == "7/8" and table[11] == "1/8" and table[12] == "0"
    assert dice.percent(Fraction(1, 3)) == 33.3


# The rules modules register their tests and handlers when they are imported; these call
# the registration itself, so that a change to it shows in a test and not only at start-up.


def drill_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    return rolls.TestSpec("drill", "plain", context["seat"], 3, 6)


def test_a_registered_test_is_rolled_then_followed_by_what_its_result_calls_for() -> None:
    followed: list[bool] = []

    def after(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
              context: dict[str, Any]) -> list[Event]:
        followed.append(passed)
        return []

    rolls.purpose("drill", drill_spec, after)
    rolls.purpose("drill", drill_spec)  # registered again without a follow-up: the first stays
    try:
        game = started(first="red")
        rolls.ask(game.state, "drill", "red")
        rig(game, [5])
        events = act(game, "red", "roll")
        assert (events[0]["purpose"], events[0]["total"], events[0]["passed"]) == ("drill", 8, True)
        assert followed == [True]
    finally:
        rolls.SPECS.pop("drill")
        rolls.AFTER.pop("drill")


def test_a_handler_registered_for_several_actions_answers_each() -> None:
    answered: list[str] = []

    @rules.handles("drill_one", "drill_two")
    def drill(state: GameState, action: Action) -> list[Event]:
        answered.append(action.type)
        return []

    try:
        game = started(first="red")
        for type_ in ("drill_one", "drill_two"):
            game.apply(Action(type_, "red", {}))
        assert answered == ["drill_one", "drill_two"]
    finally:
        rules.HANDLERS.pop("drill_one")
        rules.HANDLERS.pop("drill_two")


def test_every_action_the_parser_accepts_has_a_handler() -> None:
    assert set(SCHEMAS) == set(rules.HANDLERS)
