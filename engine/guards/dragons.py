"""Dragons: summoned by the Brethren, called by a Fate card, fought by Volunteers.

- **Summoning:** a player holding three or more Brethren (after recalling a Saboteur if
  need be) shows them, discards one and places a Dragon, taken at random from the face-
  down ones (the companion draws it: one seen before is named, one not seen yet is
  typed), on any Guild House free of one. It takes the whole
  turn. Every other player must send a Volunteer against it at once; the summoner need
  not.
- **The Call** (a Fate card): every Brethren in hands and planted is shown; more than
  two, and a Dragon goes to the drawer's Guild House, or the next free one clockwise.
  Then everyone sends a Volunteer against it.
- **Fighting:** at most six Volunteers (one Item each). The player who sent the highest
  Brawl (the nearest in turn order on a tie: ruling 15) makes an open roll added to all
  their Brawl; equal to or above the Dragon's Toughness wounds it: it withdraws to the
  face-down Dragons (ruling 15) and each Volunteer comes back with $1. Otherwise each
  Volunteer makes an open Toughness test against the Dragon's Brawl, and those that fail
  are discarded. A player may fight a Dragon in their own turn, and others may join.
- **Four Dragons** in the city at once: one shared fight against the last; if it fails,
  the game ends and everybody loses (ranked by spells, then dollars, for the "winning
  loser").
- **The Luggage** passing through a Dragon sends it to the next free Guild House
  anticlockwise.

While a Dragon is in a quadrant nobody recruits, collects a Great Spell, does business
at the Guild House or buys there (recruiting.py, places.py, runs.py check it).
"""

from __future__ import annotations

from typing import Any

from engine.core.hidden import unusable
from engine.guards import dice, rolls
from engine.guards.actions import Action
from engine.guards.cards import Dragon
from engine.guards.common import (
    back_to_hand,
    create,
    discard_volunteer,
    handlers,
    mark_began,
    other_seats,
    own,
    put,
    read_values,
    require_pending,
    require_turn,
)
from engine.guards.errors import BadCard, CardElsewhere, DragonRule, TooManyFighters, TurnNotBegun
from engine.guards.events import Event, ev
from engine.guards.gate import item_bonus
from engine.guards.runs import carry, sent_out
from engine.guards.state import Fight, GameState, Pending
from engine.guards.turns import finish_turn, ranking

DRAGON_CARDS = 4
BRETHREN_TO_SUMMON = 3
MOST_FIGHTERS = 6
WOUND_PAY = 1


def brethren_in_hand(state: GameState, seat: str) -> list[str]:
    return [u for u in state.players[seat].hand if state.volunteer(u).brethren]


def identify_dragon(state: GameState, card: object, values: object) -> tuple[str | None, Dragon]:
    """The Dragon card turned over: one the game knows (face down still), or new values."""
    if card is not None:
        found = state.cards.get(card) if isinstance(card, str) else None
        if found is None or found.kind != "dragon":
            raise unusable()
        if found.place != "pool":
            raise CardElsewhere(reason="in_city", card=str(found.values.to_json()["name"]))
        values_ = found.values
        assert isinstance(values_, Dragon)
        return found.uid, values_
    known = sum(1 for c in state.cards.values() if c.kind == "dragon")
    if values is None:
        raise BadCard(reason="which_dragon")
    if known >= DRAGON_CARDS:
        raise BadCard(reason="dragons_known")
    new = read_values("dragon", values)
    assert isinstance(new, Dragon)
    return None, new


def draw_dragon(state: GameState) -> str | None:
    """The companion takes a Dragon at random from the face-down ones ("Take a random
    Dragon Card"): one it has seen before (its uid), or None for one not seen yet, which
    the players turn over and type."""
    seen = sorted(c.uid for c in state.cards.values() if c.kind == "dragon" and c.place == "pool")
    unseen = DRAGON_CARDS - sum(1 for c in state.cards.values() if c.kind == "dragon")
    pick = state.rng.below(len(seen) + unseen)
    return seen[pick] if pick < len(seen) else None


def bring_dragon(state: GameState, seat: str, quadrant: str | None, how: str, exempt: list[str]) -> list[Event]:
    """A Dragon comes (summoned to ``quadrant``, or called: None); the companion draws
    it, and asks for the values of one not seen yet."""
    drawn = draw_dragon(state)
    if drawn is None:
        state.pending.append(Pending("dragon", [seat], {"reason": how, "quadrant": quadrant, "unseen": True,
                                                        "exempt": exempt}))
        return [ev("dragon_drawn", seat, dragon=None, how="unseen")]
    values = state.cards[drawn].values
    assert isinstance(values, Dragon)
    return [ev("dragon_drawn", seat, dragon=values.name, how="seen"), *arrive_dragon(state, seat, drawn, values, quadrant, how,
                                                                         exempt)]


def arrive_dragon(state: GameState, seat: str, uid: str | None, values: Dragon, quadrant: str | None, how: str,
                  exempt: list[str]) -> list[Event]:
    where = quadrant if quadrant is not None else called_quadrant(state, seat)
    place_dragon(state, uid, values, where)
    events = [ev("dragon_summoned", seat, quadrant=where, dragon=values.name, toughness=values.toughness,
                 brawl=values.brawl, how=how)]
    return events + start_fight(state, where, how, exempt=exempt)


def place_dragon(state: GameState, uid: str | None, values: Dragon, quadrant: str) -> str:
    if uid is None:
        uid = create(state, "dragon", values, f"city:{quadrant}")
    else:
        put(state, uid, f"city:{quadrant}")
    return uid


def summon(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    if turn.began or turn.stopped or turn.planted:
        raise TurnNotBegun(reason="summon")
    brethren = brethren_in_hand(state, seat)
    if len(brethren) < BRETHREN_TO_SUMMON:
        raise DragonRule(reason="brethren", most=BRETHREN_TO_SUMMON, seat=seat, brethren=len(brethren))
    discard = own(state, seat, action["discard"], "volunteer").uid
    if discard not in brethren:
        raise DragonRule(reason="discard_brethren")
    quadrant = action["quadrant"]
    if quadrant in state.dragons:
        raise DragonRule(reason="one_a_quadrant", quadrant=quadrant)
    letter = state.options.letter
    if letter and (action["dragon"] is not None or action["values"] is not None):
        raise DragonRule(reason="drawn_at_random")
    if not letter:
        uid, values = identify_dragon(state, action["dragon"], action["values"])
    mark_began(turn)
    turn.summoned = True
    turn.stopped = "summon"
    discard_volunteer(state, discard)
    if letter:
        return bring_dragon(state, seat, quadrant, "summoned", exempt=[seat])
    uid = place_dragon(state, uid, values, quadrant)
    events = [ev("dragon_summoned", seat, quadrant=quadrant, dragon=values.name, toughness=values.toughness,
                 brawl=values.brawl, how="summoned")]
    return events + start_fight(state, quadrant, "summoned", exempt=[seat])


def call(state: GameState, action: Action) -> list[Event]:
    """The Fate card of the Call: the Brethren are counted; more than two bring a Dragon."""
    seat = action.seat
    assert seat is not None
    require_turn(state, seat)
    counts = {s: len(brethren_in_hand(state, s)) + len(p.planted) for s, p in state.players.items()}
    total = sum(counts.values())
    events = [ev("call_answered", seat, counts=counts, total=total)]
    if total <= 2:
        return [*events, ev("call_unanswered", seat)]
    if len(state.dragons) >= DRAGON_CARDS:
        return events
    if state.options.letter:
        return events + bring_dragon(state, seat, None, "called", exempt=[])
    state.pending.append(Pending("dragon", [seat], {"reason": "called"}))
    return events


def called_quadrant(state: GameState, seat: str) -> str:
    """The drawer's Guild House, or the next free one clockwise."""
    order = list(state.options.data.clockwise)
    home = state.players[seat].guild or order[0]
    i = order.index(home)
    for step in range(len(order)):
        quadrant = order[(i + step) % len(order)]
        if quadrant not in state.dragons:
            return quadrant
    raise DragonRule(reason="every_quadrant")


def dragon_card(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "dragon")
    seat = action.seat
    assert seat is not None
    if pending.data.get("unseen"):
        # drawn by the companion: one not seen yet, turned over and typed
        if action["dragon"] is not None:
            raise DragonRule(reason="unseen")
        uid, values = identify_dragon(state, None, action["values"])
        state.pending.remove(pending)
        return arrive_dragon(state, seat, uid, values, pending.data["quadrant"], pending.data["reason"],
                             list(pending.data["exempt"]))
    uid, values = identify_dragon(state, action["dragon"], action["values"])
    state.pending.remove(pending)
    quadrant = called_quadrant(state, seat)
    place_dragon(state, uid, values, quadrant)
    events = [ev("dragon_summoned", seat, quadrant=quadrant, dragon=values.name, toughness=values.toughness,
                 brawl=values.brawl, how="called")]
    return events + start_fight(state, quadrant, "called", exempt=[])


def dragon_flies(state: GameState, action: Action) -> list[Event]:
    """The Luggage ran through a Dragon: it flies to the next free Guild House
    anticlockwise."""
    seat = action.seat
    assert seat is not None
    require_turn(state, seat)
    quadrant = action["quadrant"]
    if quadrant not in state.dragons:
        raise DragonRule(reason="no_dragon", quadrant=quadrant)
    order = list(reversed(state.options.data.clockwise))
    i = order.index(quadrant)
    for step in range(1, len(order)):
        landing = order[(i + step) % len(order)]
        if landing not in state.dragons:
            put(state, state.dragons[quadrant], f"city:{landing}")
            return [ev("dragon_flew", seat, origin=quadrant, quadrant=landing)]
    return [ev("dragon_stayed", seat, quadrant=quadrant)]


# --------------------------------------------------------------------- fights


def fighters_of(state: GameState, seat: str) -> list[str]:
    player = state.players[seat]
    return list(player.hand) + list(player.planted.values())


def start_fight(state: GameState, quadrant: str, reason: str, exempt: list[str]) -> list[Event]:
    """Everyone must send a Volunteer against the Dragon; the last of four is a fight for
    everyone."""
    turn = state.turn
    assert turn is not None
    last = len(state.dragons) >= DRAGON_CARDS
    if last:
        quadrant, reason, exempt = quadrant, "last", []
    state.fight = Fight(quadrant, state.dragons[quadrant], reason, exempt=list(exempt), forced=True,
                        starter=turn.seat)
    order = [turn.seat, *other_seats(state, turn.seat)]
    asked = [s for s in order if s not in exempt and fighters_of(state, s)]
    events: list[Event] = [ev("four_dragons", None, quadrant=quadrant)] if last else []
    if not asked:
        return events + resolve_muster(state)
    state.pending.append(Pending("muster", asked, {"forced": True, "quadrant": quadrant}))
    return events


def fight_dragon(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    quadrant = action["quadrant"]
    if quadrant not in state.dragons:
        raise DragonRule(reason="no_dragon", quadrant=quadrant)
    cards, pairs = sent_out(
        state, seat, action["cards"], action["items"], MOST_FIGHTERS, DragonRule(reason="send_one"),
        lambda count: TooManyFighters(reason="sent", fighters=count, most=MOST_FIGHTERS))
    state.fight = Fight(quadrant, state.dragons[quadrant], "chosen", forced=False, starter=turn.seat)
    send_in(state, seat, cards, pairs)
    others = [s for s in other_seats(state, seat) if fighters_of(state, s)]
    events = [ev("dragon_fight", seat, quadrant=quadrant, fighters=len(cards))]
    if others and len(cards) < MOST_FIGHTERS:
        state.pending.append(Pending("muster", others, {"forced": False, "quadrant": quadrant}))
        return events
    return events + resolve_muster(state)


def send_in(state: GameState, seat: str, cards: list[str], pairs: list[tuple[str, str]]) -> None:
    for uid in cards:
        put(state, uid, f"fight:{seat}")
    carry(state, seat, pairs)


def send(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "muster")
    seat = action.seat
    assert seat is not None
    fight = state.fight
    assert fight is not None
    forced = pending.data["forced"]
    mine = fighters_of(state, seat)
    cards = list(action["cards"])
    for uid in cards:
        if uid not in mine:
            raise DragonRule(reason="own_volunteers")
    sent = sum(len(v) for v in fight.sent.values())
    if forced and not cards and mine and sent < MOST_FIGHTERS:
        raise DragonRule(reason="grand_master")
    if sent + len(cards) > MOST_FIGHTERS:
        raise TooManyFighters(reason="already", sent=sent, most=MOST_FIGHTERS)
    items: dict[str, str] = action["items"] or {}
    for runner in items:
        if runner not in cards:
            raise DragonRule(reason="item_alone")
    pairs = [(runner, own(state, seat, item, "item").uid) for runner, item in items.items()]
    pending.seats.remove(seat)
    for uid in cards:
        card = state.cards[uid]
        if card.place.startswith("planted:") and card.item is not None:
            put(state, card.item, f"carried:{seat}")  # the Saboteur's Item goes along
    send_in(state, seat, cards, pairs)
    events = [ev("sent_against_dragon", seat, fighters=len(cards))]
    if pending.seats and sent + len(cards) < MOST_FIGHTERS:
        return events
    state.pending.remove(pending)
    return events + resolve_muster(state)


def decline_join(state: GameState, pending: Pending, action: Action) -> list[Event]:
    if pending.data.get("forced") and action.seat is not None and fighters_of(state, action.seat):
        raise DragonRule(reason="grand_master")
    assert action.seat is not None
    pending.seats.remove(action.seat)
    if pending.seats:
        return []
    state.pending.remove(pending)
    return resolve_muster(state)


def lead_fighter(state: GameState) -> str | None:
    """The player who sent the highest Brawl; on a tie the nearest in turn order."""
    fight = state.fight
    assert fight is not None
    starter = fight.starter or state.seats[0]
    best: tuple[int, int] | None = None
    lead = None
    order = [starter, *other_seats(state, starter)]
    for rank, seat in enumerate(order):
        for uid in fight.sent.get(seat, []):
            brawl = state.volunteer(uid).brawl + item_bonus(state, uid, "brawl")
            key = (brawl, -rank)
            if best is None or key > best:
                best, lead = key, seat
    return lead


def resolve_muster(state: GameState) -> list[Event]:
    lead = lead_fighter(state)
    if lead is None:
        return failed_fight(state, [ev("nobody_fought", None)])
    rolls.ask(state, "dragon", lead)
    return []


def dragon_values(state: GameState) -> Dragon:
    fight = state.fight
    assert fight is not None
    values = state.cards[fight.dragon].values
    assert isinstance(values, Dragon)
    return values


def all_sent(state: GameState) -> list[tuple[str, str]]:
    fight = state.fight
    assert fight is not None
    return [(seat, uid) for seat in state.seats for uid in fight.sent.get(seat, [])]


def dragon_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    parts = tuple((state.volunteer(u).name, state.volunteer(u).brawl + item_bonus(state, u, "brawl"))
                  for _, u in all_sent(state))
    values = dragon_values(state)
    return rolls.TestSpec("dragon", "open", context["seat"], sum(v for _, v in parts), values.toughness, parts,
                          extra={"card": values.name, "quadrant": state.fight.quadrant if state.fight else None})


def after_dragon(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                 context: dict[str, Any]) -> list[Event]:
    fight = state.fight
    assert fight is not None
    if passed:
        return wounded(state)
    if fight.reason == "last":
        return dragons_win(state)
    return next_toughness(state, 0)


def wounded(state: GameState) -> list[Event]:
    fight = state.fight
    assert fight is not None
    name = dragon_values(state).name
    put(state, fight.dragon, "pool")
    pay: dict[str, int] = {}
    for seat, uid in all_sent(state):
        back_to_hand(state, seat, uid)
        state.players[seat].dollars += WOUND_PAY
        pay[seat] = pay.get(seat, 0) + WOUND_PAY
    events = [ev("dragon_wounded", fight.starter, dragon=name, quadrant=fight.quadrant, paid=pay)]
    return events + end_fight(state)


def next_toughness(state: GameState, index: int) -> list[Event]:
    sent = all_sent(state)
    if index >= len(sent):
        return failed_fight(state, [])
    seat, uid = sent[index]
    rolls.ask(state, "dragon_toughness", seat, card=uid, index=index)
    return []


def toughness_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    uid = context["card"]
    value = state.volunteer(uid).toughness + item_bonus(state, uid, "toughness")
    return rolls.TestSpec("dragon_toughness", "open", context["seat"], value, dragon_values(state).brawl,
                          ((state.volunteer(uid).name, value),), extra={"card": state.volunteer(uid).name})


def after_toughness(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                    context: dict[str, Any]) -> list[Event]:
    fight = state.fight
    assert fight is not None
    uid, seat = context["card"], context["seat"]
    name = state.volunteer(uid).name
    if passed:
        events = [ev("survived_dragon", seat, card=name)]
        index = context["index"] + 1
    else:
        discard_volunteer(state, uid)
        events = [ev("lost_to_dragon", seat, card=name)]
        index = context["index"]  # the list is one shorter now
    return events + next_toughness(state, index)


def failed_fight(state: GameState, events: list[Event]) -> list[Event]:
    fight = state.fight
    assert fight is not None
    if fight.reason == "last":
        return events + dragons_win(state)
    for seat, uid in all_sent(state):
        back_to_hand(state, seat, uid)
    return [*events, ev("dragon_stays", None, quadrant=fight.quadrant), *end_fight(state)]


def end_fight(state: GameState) -> list[Event]:
    fight = state.fight
    assert fight is not None
    state.fight = None
    turn = state.turn
    if turn is not None and turn.summoned:  # summoning took the whole turn
        return finish_turn(state, "summoned")
    return []


def dragons_win(state: GameState) -> list[Event]:
    state.fight = None
    state.phase = "over"
    state.winners = []
    state.ending = "dragons"
    state.ranking = ranking(state)
    state.pending.clear()
    return [ev("dragons_win", None, ranking=list(state.ranking))]


rolls.purpose("dragon", dragon_spec, after_dragon)
rolls.purpose("dragon_toughness", toughness_spec, after_toughness)

HANDLERS = handlers(summon, call, dragon_card, dragon_flies, fight_dragon, send)
DECLINES = {"muster": decline_join}
