"""Knocks (6.3 Rausschmiss) and what the Raub and Hamster rules make of them.

A player whose piece lands on another's field, on the same circle, knocks that piece one
circle outward (from circle 1 back to its start field); a change of circle that lands on
a piece knocks too (a lift, a passed Whytooki). Nobody can be knocked on the final
straight. One knock per roll.

With the Raubregel the hitter also takes one of the victim's digits, unless the victim
shows an event card that protects the digit; the knock itself still happens unless a
second card protects against it. With the Hamsterregel a knock takes one of the
victim's spare digits (those beyond the date key). Either way one digit per knock, the
hitter's choice among those the hitter may hold, taken ones not yet transferred
included (ruling 8).
"""

from __future__ import annotations

from engine.clockman.actions import Action
from engine.clockman.digits import KEPT, may_take, spares
from engine.clockman.errors import CannotKnock, NotYourTurn, WrongMoment
from engine.clockman.events import Event
from engine.clockman.state import START, STRAIGHT, ClockmanState, Hit, Player
from engine.clockman.turns import (
    count_play,
    reach,
    require_turn,
)
from engine.core.hidden import unusable


def takeable(state: ClockmanState, hitter: Player, victim: Player) -> tuple[str, ...]:
    """The digits a knock lets ``hitter`` take from ``victim``, by the rules in play."""
    options = state.options
    held = victim.holdings
    if options.robbery:
        kinds = [d for d in KEPT if held[d] > 0]
    elif options.allowance > 0:
        kinds = spares(held, state.need)
    else:
        return ()
    mine = hitter.holdings
    return tuple(d for d in kinds if may_take(mine, d, state.need, options.allowance))


def knock(state: ClockmanState, action: Action) -> list[Event]:
    turn, hitter = require_turn(state, action.seat)
    if turn.phase == "roll":
        raise WrongMoment(reason="roll_then_knock")
    if turn.knocked:
        raise WrongMoment(reason="one_knock")
    victim = state.players[action.text("victim")]
    if victim is hitter:
        raise CannotKnock(reason="self")
    if not victim.in_play:
        raise CannotKnock(reason="out", seat=victim.seat)
    if victim.ring == STRAIGHT:
        raise CannotKnock(reason="straight", seat=victim.seat)
    if victim.ring == START:
        raise CannotKnock(reason="start", seat=victim.seat)
    if victim.ring != hitter.ring:
        raise CannotKnock(reason="circle", seat=victim.seat, victim_ring=victim.ring, ring=hitter.ring)
    turn.knocked = True
    hit = Hit(hitter.seat, victim.seat, "defence", takeable(state, hitter, victim))
    events = [Event.of("knocked", hitter.seat, victim=victim.seat, ring=hitter.ring)]
    if state.options.robbery and victim.cards:
        state.hit = hit
        return [*events, Event.of("defence_asked", victim.seat, by=hitter.seat)]
    return events + _resolve(state, hit)


def defend(state: ClockmanState, action: Action) -> list[Event]:
    """The victim's answer under the Raubregel: an event card protecting the digit, one
    protecting against the knock, both, or none."""
    hit = state.hit
    turn = state.turn
    if hit is None or hit.stage != "defence" or turn is None:
        raise WrongMoment(reason="no_defence")
    if action.seat != hit.victim:
        raise NotYourTurn(reason="knock_answer", current=hit.victim)
    victim = state.players[hit.victim]
    chosen = [c for c in (action.maybe_text("digit"), action.maybe_text("knock")) if c]
    if len(set(chosen)) != len(chosen):
        raise WrongMoment(reason="one_card_each")
    for card_id in chosen:
        if victim.card(card_id) is None:
            raise unusable("event_card")
    if action.maybe_text("digit") and not hit.choices:
        raise WrongMoment(reason="no_digit")
    if chosen:
        count_play(turn, victim.seat, len(chosen))
    events: list[Event] = []
    for what in ("digit", "knock"):
        named = action.maybe_text(what)
        if named:
            card = victim.card(named)
            assert card is not None
            victim.cards.remove(card)
            events.append(
                Event.of("protected", victim.seat, card=card.id, label=card.label, against=what)
            )
    protected = Hit(
        hit.hitter,
        hit.victim,
        "defence",
        hit.choices,
        digit_protected=bool(action.maybe_text("digit")),
        knock_protected=bool(action.maybe_text("knock")),
    )
    state.hit = None
    return events + _resolve(state, protected)


def take(state: ClockmanState, action: Action) -> list[Event]:
    hit = state.hit
    if hit is None or hit.stage != "take":
        raise WrongMoment(reason="no_take")
    if action.seat != hit.hitter:
        raise NotYourTurn(reason="digit_choice", current=hit.hitter)
    digit = action.text("digit")
    if digit not in hit.choices:
        raise WrongMoment(reason="take_choice", digit=digit, choices=", ".join(hit.choices))
    state.hit = None
    return _take(state, hit, digit) + _knock_out(state, hit)


def _resolve(state: ClockmanState, hit: Hit) -> list[Event]:
    """After any defence: the digit (chosen now if there is only one), then the knock."""
    if hit.choices and not hit.digit_protected:
        if len(hit.choices) > 1:
            state.hit = Hit(
                hit.hitter, hit.victim, "take", hit.choices, knock_protected=hit.knock_protected
            )
            return [
                Event.of("take_asked", hit.hitter, victim=hit.victim, choices=list(hit.choices))
            ]
        return _take(state, hit, hit.choices[0]) + _knock_out(state, hit)
    return _knock_out(state, hit)


def _take(state: ClockmanState, hit: Hit, digit: str) -> list[Event]:
    hitter, victim = state.players[hit.hitter], state.players[hit.victim]
    source = victim.pending if victim.pending[digit] else victim.date
    source[digit] -= 1
    (hitter.pending if state.options.transfer else hitter.date)[digit] += 1
    return [Event.of("digit_taken_from", hitter.seat, victim=victim.seat, digit=digit)]


def _knock_out(state: ClockmanState, hit: Hit) -> list[Event]:
    victim = state.players[hit.victim]
    if hit.knock_protected:
        return [Event.of("knock_averted", victim.seat, by=hit.hitter)]
    reach(victim, victim.ring - 1)
    return [Event.of("knocked_out", victim.seat, ring=victim.ring, by=hit.hitter)]
