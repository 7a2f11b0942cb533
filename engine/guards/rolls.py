"""The tests players make, from what the game holds now, and rolling them.

A test is named by its ``purpose`` (a recruiting Charm roll, a Wizard's Challenge, an
Ambush's Brawl roll...) and its context (whose, which cards). ``spec`` works out from
the state as it is now who rolls, the kind of roll, the sum of attributes it adds to
the die (with where each part comes from, for the pages) and the target, so a lasting
effect typed in while a roll waits counts. A rules module registers, for each purpose,
how to work out the test and what follows its result.

Tests the game waits for are ``Pending("test")`` entries answered by a ``roll``; a test
made as part of an action (planting, casting, a Guild Ability) is rolled at once, its
chance having been shown on the phone's form.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.guards import dice
from engine.guards.events import Event, ev
from engine.guards.state import GameState, Pending


@dataclass(frozen=True)
class TestSpec:
    purpose: str
    kind: str  # recruit, plain, open
    seat: str
    base: int
    target: int
    parts: tuple[tuple[str, int], ...] = ()  # (label, value): what the base adds up
    against: int | None = None  # an attack: the defender's Toughness (chance = a hit)
    house: bool = False  # the target is a house value
    verdict: bool = True  # False: the roll is one half of a contest (an attack), no pass
    extra: dict[str, Any] = field(default_factory=dict)

    def chance(self, cap_eights: bool) -> Fraction:
        if self.against is not None:
            return dice.attack_chance(self.base, self.against, cap_eights)
        return dice.chance(self.kind, self.base, self.target, cap_eights)

    def to_json(self, cap_eights: bool) -> dict[str, Any]:
        chance = self.chance(cap_eights)
        return {
            "purpose": self.purpose,
            "kind": self.kind,
            "seat": self.seat,
            "base": self.base,
            "target": self.target,
            "parts": [list(p) for p in self.parts],
            "against": self.against,
            "verdict": self.verdict,
            "house": self.house,
            "chance": str(chance),
            "percent": dice.percent(chance),
            **self.extra,
        }


SpecFn = Callable[[GameState, dict[str, Any]], TestSpec]
AfterFn = Callable[[GameState, TestSpec, dice.Roll, bool, dict[str, Any]], list[Event]]
SPECS: dict[str, SpecFn] = {}
AFTER: dict[str, AfterFn] = {}


def purpose(name: str, spec: SpecFn, after: AfterFn | None = None) -> None:
    SPECS[name] = spec
    if after is not None:
        AFTER[name] = after


def spec_of(state: GameState, pending: Pending) -> TestSpec:
    return SPECS[pending.data["purpose"]](state, pending.data["context"])


def ask(state: GameState, name: str, seat: str, **context: Any) -> Pending:
    """Wait for ``seat`` to roll the test ``name``."""
    pending = Pending("test", [seat], {"purpose": name, "context": {"seat": seat, **context}})
    state.pending.append(pending)
    return pending


def make(state: GameState, spec: TestSpec) -> tuple[dice.Roll, bool, list[Event]]:
    """Roll ``spec`` now from the game's generator; the result is public."""
    rolled = dice.roll(state.rng, spec.kind, state.options.cap_eights)
    passed = dice.passes(spec.kind, spec.base, spec.target, rolled)
    shown = passed if spec.verdict else None
    record(state, spec, rolled, shown)
    return rolled, passed, [rolled_event(spec, rolled, shown)]


def record(state: GameState, spec: TestSpec, rolled: dice.Roll, passed: bool | None) -> None:
    state.last_roll = {
        "purpose": spec.purpose,
        "seat": spec.seat,
        "faces": list(rolled.faces),
        "total": spec.base + rolled.value if rolled.natural != 1 else None,
        "base": spec.base,
        "target": spec.target,
        "passed": passed,
        "step": state.steps + 1,
        "turn": state.turns,
        **({"attribute": spec.extra["attribute"]} if "attribute" in spec.extra else {}),
    }


def rolled_event(spec: TestSpec, rolled: dice.Roll, passed: bool | None) -> Event:
    return ev(
        "rolled",
        spec.seat,
        purpose=spec.purpose,
        faces=list(rolled.faces),
        base=spec.base,
        total=spec.base + rolled.value,
        target=spec.target,
        passed=passed,
        natural=rolled.natural if rolled.natural in (1, dice.SIDES) else None,
        **{k: v for k, v in spec.extra.items() if k in ("challenge", "test", "attribute", "quadrant")},
    )


def answer(state: GameState, pending: Pending) -> list[Event]:
    """Roll the test ``pending`` waits for, then do what its result calls for."""
    spec = spec_of(state, pending)
    context = pending.data["context"]
    state.pending.remove(pending)
    rolled, passed, events = make(state, spec)
    after = AFTER.get(spec.purpose)
    if after is not None:
        events += after(state, spec, rolled, passed, context)
    return events
