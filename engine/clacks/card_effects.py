"""Reading out a card and applying it: the interpreter of the card effect vocabulary.

Incident Reports and Operator's Logs lifted in co-op, Fault Reports revealed on the
Night Shift and Fault Reports drawn on the junior towers all come through
``reveal_card``. It records the card, lets a waiting Emergency Repair cancel it, then
runs the card's named effect with the card's numbers: one function per effect name,
never one per card (see effects.CARD_EFFECTS for the names and durations).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.clacks import post_office
from engine.clacks.components import Card, ComponentSet
from engine.clacks.effects import Context
from engine.clacks.events import Event, event
from engine.clacks.geometry import FULL_BOARD, Seat, lamps_of, mask_of
from engine.clacks.mode_state import CardLedger, LastingEffect
from engine.clacks.state import ClacksState


@dataclass
class Reveal:
    """One card being applied: what an effect function may read."""

    state: ClacksState
    components: ComponentSet
    seat: Seat
    card: Card
    params: dict[str, Any]
    effect: str
    context: Context
    nested: bool  # revealed by a Clacks Technician

    @property
    def ledger(self) -> CardLedger:
        return ledger_of(self.state)


def ledger_of(state: ClacksState) -> CardLedger:
    if state.team is not None:
        return state.team.ledger
    assert state.race is not None, "only the map games reveal cards"
    return state.race.ledger


def deck_of(components: ComponentSet, card_id: str) -> str:
    if card_id in components.incidents:
        return "incident"
    if card_id in components.logs:
        return "log"
    return "fault"


def reveal_card(
    state: ClacksState,
    components: ComponentSet,
    seat: Seat,
    card_id: str,
    context: Context,
    nested: bool = False,
) -> list[Event]:
    """Read ``card_id`` out and apply it for ``seat``; it stays face up among the
    revealed cards (revealed Fault Reports do not go back into the deck)."""
    card = components.card(card_id)
    meaning = card.design.meaning(context.value)
    ledger = ledger_of(state)
    ledger.revealed.append(card_id)
    events = [
        event(
            "card_revealed",
            seat,
            card=card_id,
            deck=deck_of(components, card_id),
            name=card.design.name,
            text=meaning.text,
            effect=meaning.effect,
        )
    ]
    if ledger.repair is not None:
        repair = components.card(ledger.repair)
        named = list(repair.design.meaning(Context.NIGHT_SHIFT.value).params["cards"])
        ledger.repair = None
        if card.design.id in named:
            events.append(event("card_cancelled", seat, card=card_id, by=repair.id))
            return events
        events.append(event("repair_wasted", seat, card=repair.id))
    reveal = Reveal(
        state, components, seat, card, dict(meaning.params), meaning.effect, context, nested
    )
    return events + EFFECTS[meaning.effect](reveal)


# ----------------------------------------------------------------- the lamps


def reveal_top_fault(
    state: ClacksState, components: ComponentSet, seat: Seat, context: Context, nested: bool = False
) -> list[Event]:
    """The Fault Report on top of the deck, revealed for ``seat``; nothing once the deck
    is empty or the game is over."""
    if not state.fault_deck or state.over:
        return []
    return reveal_card(state, components, seat, state.fault_deck.pop(0), context, nested)


def _change_board(reveal: Reveal, board: int) -> list[Event]:
    state = reveal.state
    changed = state.board ^ board
    state.board = board
    state.turn.flipped |= changed  # lamps a card changes count as flipped this turn (ruling 3)
    return [event("lamps_changed", None, lamps=lamps_of(changed))] if changed else []


def _light_all(reveal: Reveal) -> list[Event]:
    return _change_board(reveal, FULL_BOARD)


def _darken_all(reveal: Reveal) -> list[Event]:
    return _change_board(reveal, 0)


def _named(reveal: Reveal) -> int:
    return mask_of(str(reveal.params["lamps"]).split())


def _set_lamps(reveal: Reveal) -> list[Event]:
    board, mask = reveal.state.board, _named(reveal)
    return _change_board(reveal, board | mask if reveal.params["lit"] else board & ~mask)


def _flip_named_lamps(reveal: Reveal) -> list[Event]:
    return _change_board(reveal, reveal.state.board ^ _named(reveal))


# ----------------------------------------------------------------- the Post Office


def _post_office_advance(reveal: Reveal) -> list[Event]:
    return post_office.advance(reveal.state, int(reveal.params["steps"]), cause="card")


def _post_office_delay(reveal: Reveal) -> list[Event]:
    return post_office.delay(reveal.state, int(reveal.params["steps"]))


def _post_office_cap(reveal: Reveal) -> list[Event]:
    team = reveal.state.team
    assert team is not None
    steps = int(reveal.params["steps"])
    team.turn_cap = steps if team.turn_cap is None else min(team.turn_cap, steps)
    return [event("post_office_capped", reveal.seat, steps=team.turn_cap)]


# ----------------------------------------------------------------- a round


def _for_a_round(reveal: Reveal) -> list[Event]:
    """Lasting effects hold for the next turn of every player (see effects.py)."""
    state = reveal.state
    first = state.turn.number + 1
    last = state.turn.number + len(state.order)
    reveal.ledger.lasting.append(
        LastingEffect(reveal.card.id, reveal.effect, dict(reveal.params), first, last)
    )
    return [
        event(
            "effect_started",
            reveal.seat,
            card=reveal.card.id,
            effect=reveal.effect,
            first_turn=first,
            last_turn=last,
        )
    ]


# ----------------------------------------------------------------- Night Shift specials


def _cancel_next(reveal: Reveal) -> list[Event]:
    reveal.ledger.repair = reveal.card.id
    return [
        event(
            "repair_waiting",
            reveal.seat,
            card=reveal.card.id,
            cancels=list(reveal.params["cards"]),
        )
    ]


def _reveal_faults(reveal: Reveal) -> list[Event]:
    if reveal.nested:  # a second Clacks Technician among the two is ignored
        return [event("card_ignored", reveal.seat, card=reveal.card.id)]
    state = reveal.state
    events: list[Event] = []
    for _ in range(int(reveal.params["count"])):
        events += reveal_top_fault(
            state, reveal.components, reveal.seat, reveal.context, nested=True
        )
    return events


def _nothing(reveal: Reveal) -> list[Event]:
    return []


EFFECTS: dict[str, Callable[[Reveal], list[Event]]] = {
    "light_all": _light_all,
    "darken_all": _darken_all,
    "set_lamps": _set_lamps,
    "flip_named_lamps": _flip_named_lamps,
    "post_office_advance": _post_office_advance,
    "post_office_delay": _post_office_delay,
    "post_office_cap": _post_office_cap,
    "limit_jacquards": _for_a_round,
    "stress_surcharge": _for_a_round,
    "cancel_next": _cancel_next,
    "reveal_faults": _reveal_faults,
    "nothing": _nothing,
}


def jacquard_limit(state: ClacksState) -> int | None:
    """The fewest Jacquards a lasting effect allows this turn, or None for no limit."""
    limits = [
        int(e.params["per_turn"])
        for e in ledger_of(state).active("limit_jacquards", state.turn.number)
    ]
    return min(limits) if limits else None


def surcharge(state: ClacksState) -> int:
    """Extra stress every Jacquard costs this turn."""
    return sum(
        int(e.params["amount"])
        for e in ledger_of(state).active("stress_surcharge", state.turn.number)
    )
