"""Recruiting Volunteers: on a Volunteer tile, from the face-up card or the top of the
face-down deck; in a Tavern, the one its table gives.

Charm first, as it is free (ruling 7): ``d8 + Charm >= the card's Charm``. A natural 8
recruits whatever the Charm and lets the player try one more card from the same deck
(never in a Tavern, and never a second extra); a natural 1 fails, but a Bribe may still
be paid unless the card's Bribe is 'X'. A card not recruited goes face up on its pile.
An Infectious card gives the Pox to whoever touches it, recruited or not, and so does
one turned over to fill an empty face-up pile. A recruit's red text changes the Guild
Card for good, its +1 Scroll or Item is taken, its Fate symbol draws a Fate card, and
the Luggage moves.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.guards import dice, rolls
from engine.guards.actions import Action
from engine.guards.cards import Item, Scroll, Volunteer
from engine.guards.common import (
    apply_bonuses,
    create,
    handlers,
    identify_volunteer,
    mark_began,
    put,
    require_pending,
    require_turn,
    take_from_deck,
)
from engine.guards.errors import CannotBribe, DragonThere, NotEnoughMoney, NotNow, StopOnce
from engine.guards.events import Event, ev
from engine.guards.state import GameState, Pending, Recruiting, Turn

SOURCES = ("display", "deck")


def require_stop(turn: Turn) -> None:
    if turn.stopped is not None:
        raise StopOnce(stopped=turn.stopped)


def require_no_dragon(state: GameState, quadrant: str, what: str) -> None:
    """Refuse ``what`` (recruiting, great_spell, guild_house, shopping) in a Dragon's quadrant."""
    if quadrant in state.dragons:
        raise DragonThere(quadrant=quadrant, what=what)


def face_up(state: GameState, deck: str) -> str | None:
    pile = state.display[deck]
    return pile[-1] if pile else None


def recruit(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    require_stop(turn)
    deck, source, quadrant = action["deck"], action["source"], action["quadrant"]
    require_no_dragon(state, quadrant, "recruiting")
    return touch(state, seat, deck, source, action["card"], action["values"], extra=False, quadrant=quadrant,
                 turn=turn)


def touch(
    state: GameState, seat: str, deck: str, source: str, card: object, values: object, extra: bool,
    quadrant: str | None, turn: Turn | None = None,
) -> list[Event]:
    """The player picks up a Volunteer to recruit: checks, then the card is touched."""
    if source not in SOURCES:
        raise NotNow(reason="source", source=str(source))
    if source == "display" and not state.display[deck]:
        raise NotNow(reason="no_display")
    shown = face_up(state, deck) if source == "display" else None
    uid, card_values = identify_volunteer(state, deck, card, values, face_up=shown)
    # from here on the state changes
    events: list[Event] = []
    if turn is not None:
        turn.stopped = "recruit"
        mark_began(turn)
    if source == "display":
        state.display[deck].pop()
    else:
        events += take_from_deck(state, deck)
    if uid is None:
        uid = create(state, "volunteer", card_values, "limbo")
    else:
        put(state, uid, "limbo")
    state.recruiting = Recruiting(seat, uid, deck, source, extra, quadrant)
    events.append(touched_event(seat, card_values, source, extra))
    events += infect_by_touch(state, seat, card_values)
    rolls.ask(state, "recruit", seat)
    return events


def touched_event(seat: str, values: Volunteer, source: str, extra: bool = False) -> Event:
    return ev("volunteer_touched", seat, deck=values.deck, source=source, name=values.name,
              charm=values.charm, bribe=values.bribe, extra=extra)


def infect_by_touch(state: GameState, seat: str, values: Volunteer) -> list[Event]:
    player = state.players[seat]
    if values.infectious and not player.pox:
        player.pox = True
        return [ev("pox_caught", seat, how="touched", card=values.name)]
    return []


def recruit_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    recruiting = state.recruiting
    assert recruiting is not None
    player = state.players[recruiting.seat]
    values = state.volunteer(recruiting.card)
    parts = [("charm", player.base["charm"])]
    if player.modifiers.get("charm"):
        parts.append(("lasting", player.modifiers["charm"]))
    if player.pox:
        parts.append(("pox", -1))
    return rolls.TestSpec("recruit", "recruit", recruiting.seat, player.effective("charm"), values.charm,
                          tuple(parts), extra={"card": values.name, "tavern": recruiting.source == "tavern",
                                               "extra_recruit": recruiting.extra})


def after_recruit(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                  context: dict[str, Any]) -> list[Event]:
    recruiting = state.recruiting
    assert recruiting is not None
    if not passed:
        values = state.volunteer(recruiting.card)
        state.pending.append(Pending("bribe", [recruiting.seat], {"card": values.name, "price": values.bribe}))
        return []
    wins_extra = rolled.natural == dice.SIDES and recruiting.source != "tavern" and not recruiting.extra
    return recruited(state, "charm", extra_after=wins_extra)


def recruited(state: GameState, how: str, extra_after: bool = False) -> list[Event]:
    """The card joins the player: its bonuses, cards, Fate and Luggage; then the face-up
    pile is filled if it was emptied, and the extra recruit a natural 8 won is offered."""
    recruiting = state.recruiting
    assert recruiting is not None
    seat, uid, deck = recruiting.seat, recruiting.card, recruiting.deck
    values = state.volunteer(uid)
    put(state, uid, f"hand:{seat}")
    state.recruiting = None
    if state.turn is not None and state.turn.seat == seat:
        state.turn.recruited.append(uid)
    events = [ev("recruited", seat, name=values.name, deck=deck, how=how)]
    events += apply_bonuses(state, seat, values)
    events += take_cards(state, seat, values)
    if values.fate:
        events += draw_fate(state, seat)
    if values.luggage:
        events.append(ev("luggage_moves", seat, spaces=values.luggage))
    if extra_after:
        state.pending.append(Pending("extra", [seat], {"deck": deck}))
        events.append(ev("extra_recruit_won", seat, deck=deck))
    if recruiting.source == "display" and not state.display[deck]:
        state.pending.append(Pending("reveal", [seat], {"deck": deck}))
    return events


def take_cards(state: GameState, seat: str, values: Volunteer) -> list[Event]:
    """+1 Scroll, +1 Item: the top card of the nearest deck, unseen by the others."""
    taken = {"scroll": 0, "item": 0}
    for kind, count in (("scroll", values.scrolls), ("item", values.items)):
        for _ in range(count):
            if state.supply[kind] <= 0:
                break
            blank = Scroll(None, None, None) if kind == "scroll" else Item(None, None, None)
            create(state, kind, blank, f"hand:{seat}")
            state.supply[kind] -= 1
            taken[kind] += 1
    if not any(taken.values()):
        return []
    return [ev("cards_taken", seat, scrolls=taken["scroll"], items=taken["item"])]


def draw_fate(state: GameState, seat: str) -> list[Event]:
    events: list[Event] = []
    if state.fate_left <= 0:
        state.fate_left, state.fate_used = state.fate_used, 0
        events.append(ev("fate_reshuffled", None, cards=state.fate_left))
    state.fate_left -= 1
    state.fate_used += 1
    return [*events, ev("fate_drawn", seat)]


def not_recruited(state: GameState) -> list[Event]:
    """The card goes face up on its pile; no bonus, no Fate, no Luggage."""
    recruiting = state.recruiting
    assert recruiting is not None
    values = state.volunteer(recruiting.card)
    put(state, recruiting.card, "display")
    state.recruiting = None
    return [ev("not_recruited", recruiting.seat, name=values.name, deck=recruiting.deck)]


def bribe(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "bribe")
    recruiting = state.recruiting
    assert recruiting is not None
    values = state.volunteer(recruiting.card)
    player = state.players[recruiting.seat]
    if values.bribe is None:
        raise CannotBribe(card=values.name)
    if player.dollars < values.bribe:
        raise NotEnoughMoney(reason="bribe", card=values.name, seat=recruiting.seat, dollars=player.dollars, price=values.bribe)
    state.pending.remove(pending)
    player.dollars -= values.bribe
    return [ev("bribed", recruiting.seat, name=values.name, dollars=values.bribe), *recruited(state, "bribe")]


def decline_bribe(state: GameState, pending: Pending, action: Action) -> list[Event]:
    state.pending.remove(pending)
    return not_recruited(state)


def decline_offer(state: GameState, pending: Pending, action: Action) -> list[Event]:
    """No to the extra recruit a natural 8 won, or to a Tavern's Volunteer."""
    state.pending.remove(pending)
    return [ev("declined", action.seat, what=pending.kind)]


def recruit_extra(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "extra")
    seat = action.seat
    assert seat is not None
    deck = pending.data["deck"]
    # the touch checks before it changes anything; the offer is taken up once it has
    state.pending.remove(pending)
    try:
        return touch(state, seat, deck, action["source"], action["card"], action["values"], extra=True,
                     quadrant=None)
    except IllegalAction:
        state.pending.append(pending)
        raise


def reveal(state: GameState, action: Action) -> list[Event]:
    """The top card of the deck turned face up to fill an emptied pile."""
    pending = require_pending(state, action.seat, "reveal")
    seat = action.seat
    assert seat is not None
    deck = pending.data["deck"]
    uid, values = identify_volunteer(state, deck, action["card"], action["values"])
    state.pending.remove(pending)
    events = take_from_deck(state, deck)
    if uid is None:
        create(state, "volunteer", values, "display")
    else:
        put(state, uid, "display")
    events.append(ev("face_up", seat, deck=deck, name=values.name, charm=values.charm, bribe=values.bribe))
    return events + infect_by_touch(state, seat, values)


# --------------------------------------------------------------------- Taverns


def tavern(state: GameState, action: Action) -> list[Event]:
    """A Tavern: the die on the Player's Guide's Tavern table; the players read what it
    gives and report the Volunteer (or none)."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    require_stop(turn)
    require_no_dragon(state, action["quadrant"], "recruiting")
    turn.stopped = "tavern"
    mark_began(turn)
    roll = dice.roll_die(state.rng)
    state.last_roll = {"purpose": "tavern", "seat": seat, "faces": [roll], "total": roll, "base": 0,
                       "target": None, "passed": None, "step": state.steps + 1, "turn": state.turns}
    state.pending.append(Pending("tavern", [seat], {"roll": roll}))
    return [ev("tavern_rolled", seat, roll=roll)]


def tavern_volunteer(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "tavern")
    seat = action.seat
    assert seat is not None
    state.pending.remove(pending)
    try:
        events = touch(state, seat, action["deck"], "deck", action["card"], action["values"], extra=False,
                       quadrant=None)
    except IllegalAction:
        state.pending.append(pending)
        raise
    assert state.recruiting is not None
    state.recruiting.source = "tavern"
    return events


rolls.purpose("recruit", recruit_spec, after_recruit)

HANDLERS = handlers(recruit, recruit_extra, reveal, bribe, tavern, tavern_volunteer)
DECLINES = {"bribe": decline_bribe, "extra": decline_offer, "tavern": decline_offer}
