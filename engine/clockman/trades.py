"""The Tauschregel: the player whose turn it is offers digits (even ones already in the
date key) for another player's digits; when that player accepts, the trade is made at
once. Nobody else has a say (no veto), and an offer lapses with the turn.

A trade is between two players (the rulebook allows more at once: they can be made as
several trades), and it must leave both date keys within the rules: no real digit
beyond the Hamster allowance, and no more spare digits than before unless the allowance
covers them. A player on the final straight keeps the date key that let them in.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.clockman.actions import Action
from engine.clockman.digits import KEPT, Digits, counted, may_swap
from engine.clockman.errors import BadTrade, NotYourOffer, RuleNotInPlay
from engine.clockman.events import Event
from engine.clockman.state import STRAIGHT, ClockmanState, Offer, Player
from engine.clockman.turns import require_open, require_turn


def _check(state: ClockmanState, giver: Player, taker: Player, give: Digits, get: Digits) -> None:
    for player in (giver, taker):
        if not player.in_play:
            raise BadTrade(reason="out", seat=player.seat)
        if player.ring == STRAIGHT:
            raise BadTrade(reason="straight", seat=player.seat)
    for player, parting in ((giver, give), (taker, get)):
        held = player.holdings
        short = [d for d in KEPT if parting[d] > held[d]]
        if short:
            raise BadTrade(reason="short", seat=player.seat, digit=short[0])
    need, allowance = state.need, state.options.allowance
    for player, parting, getting in ((giver, give, get), (taker, get, give)):
        before = player.holdings
        after = {d: before[d] - parting[d] + getting[d] for d in KEPT}
        if not may_swap(before, after, need, allowance):
            raise BadTrade(reason="too_many", seat=player.seat)


def offer(state: ClockmanState, action: Action) -> list[Event]:
    if not state.options.swap:
        raise RuleNotInPlay(rule_name="swap")
    _, giver = require_turn(state, action.seat)
    taker = state.players.get(action.text("to"))
    if taker is None or taker is giver:
        raise BadTrade(reason="not_player")
    give, get = counted(action.texts("give")), counted(action.texts("get"))
    _check(state, giver, taker, give, get)
    state.offers_made += 1
    state.offer = Offer(
        state.offers_made, giver.seat, taker.seat, action.texts("give"), action.texts("get")
    )
    return [Event.of("offer_made", giver.seat, **_terms(state.offer))]


def _terms(made: Offer) -> dict[str, object]:
    return {"to": made.to, "give": list(made.give), "get": list(made.get), "number": made.number}


def _open_offer(state: ClockmanState) -> Offer:
    require_open(state)
    made = state.offer
    if made is None:
        raise BadTrade(reason="no_offer")
    return made


def _offer_to_answer(state: ClockmanState, action: Action) -> Offer:
    """The offer on the table, which only the player it is made to may answer."""
    made = _open_offer(state)
    if action.seat != made.to:
        raise NotYourOffer(reason="no_veto", seat=made.seat, target=made.to)
    return made


def accept(state: ClockmanState, action: Action) -> list[Event]:
    made = _offer_to_answer(state, action)
    giver, taker = state.players[made.seat], state.players[made.to]
    give, get = counted(made.give), counted(made.get)
    _check(state, giver, taker, give, get)
    _move(state, giver, taker, give)
    _move(state, taker, giver, get)
    state.offer = None
    return [Event.of("offer_accepted", taker.seat, by=giver.seat, **_terms(made))]


def decline(state: ClockmanState, action: Action) -> list[Event]:
    made = _offer_to_answer(state, action)
    state.offer = None
    return [Event.of("offer_declined", made.to, by=made.seat)]


def withdraw(state: ClockmanState, action: Action) -> list[Event]:
    made = _open_offer(state)
    if action.seat != made.seat:
        raise NotYourOffer(reason="withdraw", seat=made.seat)
    state.offer = None
    return [Event.of("offer_withdrawn", made.seat, to=made.to)]


def _move(state: ClockmanState, source: Player, target: Player, digits: Mapping[str, int]) -> None:
    """Hand digits over, taking first those not yet transferred; the receiver sets them
    aside until a transfer field when the Übertragungsregel is in play."""
    for digit in KEPT:
        for _ in range(digits[digit]):
            pile = source.pending if source.pending[digit] else source.date
            pile[digit] -= 1
            (target.pending if state.options.transfer else target.date)[digit] += 1
