"""Random reports: whole games of Clockman played by reporting random landings, and the
invariants every state must keep, for `clacks simulate --game clockman` and the tests.

Nobody can play Clockman for a player (the pieces stay on the table), so there are no
bots; the simulation stands in for the table instead. Each step someone the game waits
for makes a random report, play, trade or answer, drawn from a separate seeded
generator: mostly things that could have happened on the board, sometimes nonsense. The
engine must take the first and refuse the second without changing anything. Reports are
weighted towards progress so that games end.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.clockman.actions import EFFECTS, Action, make
from engine.clockman.digits import KEPT, complete, fills_a_gap, may_take, missing, surplus_real
from engine.clockman.game import ClockmanGame
from engine.clockman.options import DEFAULT_SEATS, ClockmanOptions
from engine.clockman.state import CARD_KINDS, START, STRAIGHT, ClockmanState
from engine.clockman.turns import EVENT_LIMIT
from engine.core.errors import IllegalAction
from engine.core.rng import Rng, derive_seed

MAX_STEPS = 3000


@dataclass
class Outcome:
    game: ClockmanGame
    steps: int = 0
    refused: int = 0
    undone: int = 0
    events: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def _weighted(rng: Rng, table: tuple[tuple[int, str], ...]) -> str:
    roll = rng.below(sum(w for w, _ in table))
    for weight, name in table:
        if roll < weight:
            return name
        roll -= weight
    raise AssertionError("unreachable")


def _pick(rng: Rng, items: list[Any] | tuple[Any, ...]) -> Any:
    return items[rng.below(len(items))]


def random_action(game: ClockmanGame, rng: Rng) -> Action | None:
    """A random action by someone the game waits for (or, now and then, anyone)."""
    state = game.state
    turn = state.turn
    if turn is None:
        return None
    waiting = game.active_seats()
    seat = _pick(rng, waiting)
    if rng.below(40) == 0:
        seat = _pick(rng, list(state.players))  # someone out of turn: usually refused
    me = state.players[seat]
    if state.check is not None:
        return _check_answer(state, seat, rng)
    hit = state.hit
    if hit is not None:
        if hit.stage == "defence":
            held = [c.id for c in me.cards]
            guard: dict[str, str] = {}
            if held and rng.below(2):
                guard["digit"] = _pick(rng, held)
            if len(held) > 1 and rng.below(3) == 0:
                guard["knock"] = _pick(rng, [c for c in held if c != guard.get("digit")])
            return make("defend", seat, **guard)
        return make("take", seat, digit=_pick(rng, list(hit.choices) or list(KEPT)))
    offer = state.offer
    if offer is not None and seat == offer.to:
        return make("accept" if rng.below(2) else "decline", seat)
    if me.cards and rng.below(12) == 0:
        return _play(state, seat, rng)
    if seat != turn.seat:
        return make("end_turn", seat)  # refused: not their turn
    if turn.phase == "roll":
        if state.options.swap and rng.below(10) == 0:
            return _offer(state, seat, rng)
        return make("roll", seat)
    if turn.phase == "done":
        choice = rng.below(20)
        if choice == 0:
            return make("knock", seat, victim=_pick(rng, list(state.players)))
        if choice == 1 and state.options.swap:
            return _offer(state, seat, rng)
        if choice == 2 and offer is not None:
            return make("withdraw", seat)
        return make("end_turn", seat)
    return _landing(state, seat, rng)


def _landing_weights(state: ClockmanState, seat: str) -> tuple[tuple[int, str], ...]:
    """How likely each landing report is for ``seat`` now: what could be true on the
    board is likely, the rest (which the rules must refuse) now and then."""
    me = state.players[seat]
    need, allowance = state.need, state.options.allowance
    here = state.data.circle_digit(me.ring)
    ring = state.rings[me.ring - 1] if 1 <= me.ring <= len(state.rings) else []
    innermost = me.ring == len(state.rings) + 1
    ready = innermost and complete(me.date, need)
    others_here = any(p.ring == me.ring and p.seat != seat for p in state.players.values())
    useful_digit = (
        here is not None and fills_a_gap(me.holdings, here, need) and state.supply[here] > 0
    )
    spare_digit = here is not None and may_take(me.holdings, here, need, allowance)
    # a sensible table collects a circle's digits before passing on, and goes back out
    # for a digit it lost
    behind = (
        any(
            me.holdings[d] < need[d] and state.data.circles[d] < me.ring for d in state.data.circles
        )
        and missing(me.holdings, need) > 0
    )
    straight_card = bool(me.hand.get(state.straights[seat]))
    return (
        (12, "plain"),
        (30 if ready and not straight_card else 12, "symbol"),
        (5, "event"),
        (80 if useful_digit else 4 if spare_digit else 2, "digit"),
        (
            60 if any(me.hand.get(p) for p in ring) and not useful_digit and not behind else 3,
            "blockade",
        ),
        (4, "lift"),
        (25 if state.options.transfer and any(me.pending.values()) else 2, "transfer"),
        (40 if ready and straight_card else 1, "straight"),
        (2, "forfeit"),
        (4 if others_here else 1, "knock"),
        (30 if behind else 1, "outward"),
    )


def _landing(state: ClockmanState, seat: str, rng: Rng) -> Action:
    me = state.players[seat]
    report = _weighted(rng, _landing_weights(state, seat))
    if report == "event":
        kind = _pick(rng, CARD_KINDS)
        extra: dict[str, Any] = {}
        if kind == "now" and rng.below(2):
            extra["effect"] = _pick(rng, EFFECTS)
            if rng.below(3) == 0:
                extra["target"] = _pick(rng, list(state.players))
        return make("event", seat, kind=kind, label=f"card {state.cards_drawn + 1}", **extra)
    if report == "digit":
        here = state.data.circle_digit(me.ring)
        digit = here if here and rng.below(5) else _pick(rng, KEPT)
        return make("digit", seat, digit=digit)
    if report == "blockade":
        ring = state.rings[me.ring - 1] if 1 <= me.ring <= len(state.rings) else state.data.pose_ids
        held = [p for p in ring if me.hand.get(p)]
        pose = _pick(rng, held if held and rng.below(8) else list(ring))
        if me.cards and rng.below(6) == 0:
            return make("blockade", seat, pose=pose, card=_pick(rng, [c.id for c in me.cards]))
        return make("blockade", seat, pose=pose)
    if report == "lift":
        return make("lift", seat, use=bool(rng.below(4)))
    if report == "straight":
        die = state.turn.die if state.turn and state.turn.die else 1
        return make("straight", seat, field=1 + rng.below(min(die, state.data.straight_fields)))
    if report == "knock":
        same = [p.seat for p in state.players.values() if p.ring == me.ring and p.seat != seat]
        return make(
            "knock", seat, victim=_pick(rng, same if same and rng.below(4) else list(state.players))
        )
    return make(report, seat)


def _play(state: ClockmanState, seat: str, rng: Rng) -> Action:
    card = _pick(rng, [c.id for c in state.players[seat].cards])
    extra: dict[str, Any] = {"effect": _pick(rng, EFFECTS)}
    if rng.below(4) == 0:
        extra["target"] = _pick(rng, list(state.players))
    return make("play", seat, card=card, **extra)


def _offer(state: ClockmanState, seat: str, rng: Rng) -> Action:
    others = [s for s in state.players if s != seat]
    return make(
        "offer",
        seat,
        to=_pick(rng, others),
        give=[_pick(rng, KEPT) for _ in range(1 + rng.below(2))],
        get=[_pick(rng, KEPT) for _ in range(1 + rng.below(2))],
    )


def _check_answer(state: ClockmanState, seat: str, rng: Rng) -> Action:
    check = state.check
    assert check is not None
    if check.stage == "check":
        if rng.below(3) == 0:
            return make("confirm", seat)
        return make("inspect", seat, kinds=[_pick(rng, CARD_KINDS) for _ in check.cards])
    return make("revoke" if rng.below(2) else "confirm", seat)


def invariant_problems(state: ClockmanState) -> list[str]:
    """What is wrong with ``state``, if anything: digits not conserved, a date key beyond
    what the rules allow, a piece off the board, cards not adding up."""
    problems = []
    data = state.data
    need = state.need
    allowance = state.options.allowance
    players = list(state.players.values())
    for digit in KEPT:
        in_hands = 0
        for p in players:
            in_hands += p.date[digit] + p.pending[digit]
        if in_hands + state.supply[digit] != data.digits[digit] or state.supply[digit] < 0:
            problems.append(
                f"the {digit}s are not conserved: {in_hands} held, {state.supply[digit]} lying"
            )
    if not 0 <= state.supply["L"] <= data.digits["L"]:
        problems.append(f"{state.supply['L']} lifts lying")
    symbols = len(state.deck)
    for p in players:
        held = p.holdings
        if min(p.date.values()) < 0 or min(p.pending.values()) < 0:
            problems.append(f"{p.seat} holds a negative count of digits")
        if surplus_real(held, need) > allowance:
            problems.append(f"{p.seat} holds {held}, beyond the key and the allowance {allowance}")
        if not state.options.transfer and any(p.pending.values()):
            problems.append(f"{p.seat} has digits set aside without the transfer rule")
        if p.ring == STRAIGHT and not complete(p.date, need):
            problems.append(f"{p.seat} is on the straight with an incomplete date key")
        if not START <= p.ring <= STRAIGHT or p.furthest < p.ring:
            problems.append(f"{p.seat} is on ring {p.ring} (furthest {p.furthest})")
        for count in p.hand.values():
            symbols += count
            if count <= 0:
                problems.append(f"{p.seat}'s hand has an empty pose")
    if symbols != len(data.poses) * data.symbol_cards_per_pose:
        problems.append(f"{symbols} symbol cards in play")
    if state.event_deck() < 0:
        problems.append("more event cards held than the deck has")
    turn = state.turn
    if turn is not None and turn.played and max(turn.played.values()) > EVENT_LIMIT:
        problems.append("more than three event cards played in a turn")
    return problems


def view_problems(game: ClockmanGame) -> list[str]:
    """A seat's view holding another seat's hand or notes, or any view holding secrets."""
    problems = []
    state = game.state
    secrets = (f'"rng": {state.rng.to_json()}', '"seed"', '"deck"', '"undo_floor"')
    for seat in [None, *state.players]:
        view = game.view(seat)
        text = json.dumps(view)
        problems += [f"the view of {seat} shows {s}" for s in secrets if s in text]
        if seat is None and view["you"] is not None:
            problems.append("the table's view has a seat's own part")
        if seat is not None and view["you"]["hand"] != dict(
            sorted(state.players[seat].hand.items())
        ):
            problems.append(f"{seat}'s view does not show its own hand")
        for other in view["players"]:
            if "hand" in other:
                problems.append(f"the view of {seat} shows {other['seat']}'s hand")
            if other["seat"] != seat:
                for card in other["cards"]:
                    if card["kind"] == "hidden" and card["label"]:
                        problems.append(
                            f"the view of {seat} shows {other['seat']}'s face-down note"
                        )
    return problems


def play_random_game(
    options: ClockmanOptions, seed: int, max_steps: int = MAX_STEPS, checks: bool = True
) -> Outcome:
    """One game of random reports to its end (or ``max_steps``), with every invariant
    checked after every step when ``checks``; the log must replay to the same game."""
    game = ClockmanGame.new(options, seed)
    rng = Rng(derive_seed(seed, "clockman-simulation"))
    outcome = Outcome(game)
    while not game.over and outcome.steps < max_steps:
        outcome.steps += 1
        seat = game.current_seat
        if seat is not None and game.can_undo(seat) and rng.below(50) == 0:
            game.undo(seat)
            outcome.undone += 1
            if checks and outcome.undone % 8 == 1:
                again = ClockmanGame.replay(game.log_to_json()).state.to_json()
                if again != game.state.to_json():
                    outcome.problems.append(
                        f"step {outcome.steps}: undo is not the game without the action"
                    )
            continue
        action = random_action(game, rng)
        assert action is not None
        before = game.state.to_json() if checks and outcome.refused % 16 == 0 else None
        try:
            for event in game.apply(action):
                outcome.events[event.kind] += 1
        except IllegalAction:
            outcome.refused += 1
            if before is not None and game.state.to_json() != before:
                outcome.problems.append(
                    f"step {outcome.steps}: a refused {action.type} changed the game"
                )
            continue
        if checks:
            outcome.problems += [
                f"step {outcome.steps}: {p}" for p in invariant_problems(game.state)
            ]
        if checks and outcome.steps % 64 == 0:
            outcome.problems += [f"step {outcome.steps}: {p}" for p in view_problems(game)]
    if checks:
        outcome.problems += view_problems(game)
        replayed = ClockmanGame.replay(game.log_to_json())
        if replayed.state.to_json() != game.state.to_json():
            outcome.problems.append("the log does not replay to the same game")
        if ClockmanState.from_json(game.state.to_json()).to_json() != game.state.to_json():
            outcome.problems.append("the state does not read back from its JSON")
    return outcome


def options_for(index: int) -> ClockmanOptions:
    """A spread of options over a run: 2 to 4 players, every optional rule on and off."""
    players = 2 + index % 3
    flags = index // 3
    return ClockmanOptions(
        seats=DEFAULT_SEATS[players],
        transfer=bool(flags & 1),
        hamster=("off", "on", "extended")[(flags >> 1) % 3],
        robbery=bool(flags & 8),
        swap=bool(flags & 16),
    )
