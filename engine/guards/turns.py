"""Turns, their order and the game's end, and the trackers players adjust by hand.

Play passes to the left: the order the seats were given in. A turn begins with what the
last one left behind (a turn to miss, a night in the Watch House) and ends when the
player says so, or by the rules (a Hospital, a failed Wizard's Challenge, collecting the
Final Spell, summoning a Dragon). The first to return their last Great Spell wins; a
Short Game ends at its agreed number, or when the players stop and rank everyone by
spells returned, then dollars.

The trackers are for what the companion cannot know: a Fate card's text, a Scroll's
effect, a Guild Ability's effect. A player changes their own Guild Card (dollars, an
attribute within its table, a lasting effect, a curse) and the change is logged.
"""

from __future__ import annotations

from engine.core.hidden import unusable
from engine.guards import rolls
from engine.guards.actions import Action
from engine.guards.common import (
    clamp,
    discard_volunteer,
    put,
    require_free,
    require_pending,
    require_playing,
    require_turn,
)
from engine.guards.errors import AttributeLimit, GameIsOver, NotEnoughMoney, NotNow
from engine.guards.events import Event, ev
from engine.guards.gate import require_sent
from engine.guards.state import GameState, Pending, Turn

JAIL_TARGET = 7
BAIL = 2


def begin_turn(state: GameState, seat: str) -> list[Event]:
    """``seat``'s turn begins; one to miss passes on at once."""
    events: list[Event] = []
    # every turn missed takes one off a count, so someone plays within this many
    for _ in range(sum(p.miss for p in state.players.values()) + len(state.seats) + 1):
        player = state.players[seat]
        state.turns += 1
        if seat in state.locks:
            state.locks.remove(seat)
        if state.lock == seat:
            state.lock = state.locks[-1] if state.locks else None  # that Spell Run's round is over (ruling 10)
            events.append(ev("saboteurs_unlocked", seat))
        if player.miss > 0:
            player.miss -= 1
            player.missed += 1
            if player.place == "watch_house":
                player.jail_served = True
            events.append(ev("turn_missed", seat, place=player.place))
            seat = next_seat(state, seat)
            continue
        player.turns += 1
        state.turn = Turn(seat, state.turns)
        events.append(ev("turn_began", seat, number=player.turns))
        if player.place == "watch_house":
            if player.jail_served:
                player.place, player.jail_served = "street", False
                events.append(ev("released", seat))
            else:
                rolls.ask(state, "jail", seat)
        elif player.place == "hospital":
            player.place = "street"
        return events
    raise AssertionError("every player misses turns for ever")


def next_seat(state: GameState, seat: str) -> str:
    seats = state.seats
    return seats[(seats.index(seat) + 1) % len(seats)]


def finish_turn(state: GameState, reason: str) -> list[Event]:
    """The turn ends (by the rules or the player); the next player's begins."""
    turn = state.turn
    assert turn is not None
    if state.over:
        return []
    events = [ev("turn_ended", turn.seat, reason=reason)]
    state.turn = None
    events += begin_turn(state, next_seat(state, turn.seat))
    return events


def end_turn(state: GameState, action: Action) -> list[Event]:
    require_sent(state, require_turn(state, action.seat))
    return finish_turn(state, "done")


# --------------------------------------------------------------------- the Watch House


def jail_spec(state: GameState, context: dict[str, object]) -> rolls.TestSpec:
    turn = state.turn
    assert turn is not None
    player = state.players[turn.seat]
    return rolls.TestSpec("jail", "plain", turn.seat, player.effective("charm"), JAIL_TARGET,
                          (("charm", player.effective("charm")),))


def after_jail(state: GameState, spec: rolls.TestSpec, rolled: object, passed: bool,
               context: dict[str, object]) -> list[Event]:
    """Talked out with Charm 7; else bail of $2; else a turn missed in the cells."""
    seat = spec.seat
    player = state.players[seat]
    if passed:
        player.place = "street"
        return [ev("released", seat, how="charm")]
    if player.dollars >= BAIL:
        player.dollars -= BAIL
        player.place = "street"
        return [ev("released", seat, how="bail", dollars=BAIL)]
    player.jail_served = True
    return [ev("stays_in_jail", seat), *finish_turn(state, "jail")]


rolls.purpose("jail", jail_spec, after_jail)


# --------------------------------------------------------------------- the end


def spells_needed(state: GameState) -> int:
    return state.options.spells


def check_win(state: GameState, seat: str) -> list[Event]:
    player = state.players[seat]
    if len(player.returned) < spells_needed(state):
        return []
    state.phase = "over"
    state.winners = [seat]
    state.ending = "spells"
    state.ranking = ranking(state)
    state.pending.clear()
    return [ev("game_won", seat, spells=len(player.returned))]


def ranking(state: GameState) -> list[str]:
    """Everyone by Great Spells returned, then dollars (the Short Game's judging)."""
    order = {s: i for i, s in enumerate(state.seats)}
    return sorted(
        state.seats,
        key=lambda s: (-len(state.players[s].returned), -state.players[s].dollars, order[s]),
    )


def stop_game(state: GameState, action: Action) -> list[Event]:
    """The players stop and judge the winner: most spells, then most dollars (ties
    share the win)."""
    require_playing(state)
    ranked = ranking(state)
    best = state.players[ranked[0]]
    key = (len(best.returned), best.dollars)
    state.winners = [s for s in ranked if (len(state.players[s].returned), state.players[s].dollars) == key]
    state.phase = "over"
    state.ending = "stopped"
    state.ranking = ranked
    state.pending.clear()
    return [ev("game_stopped", action.seat, winners=list(state.winners), ranking=ranked)]


# --------------------------------------------------------------------- trackers


def require_seated(state: GameState, seat: str | None) -> str:
    if state.phase == "over":
        raise GameIsOver(reason="over")
    if state.phase != "play" or seat is None:
        raise NotNow(reason="trackers")
    return seat


def adjust(state: GameState, action: Action) -> list[Event]:
    """A change to one's own Guild Card by a card's text: dollars up or down (never
    below nothing), an attribute marker (within its table) or a lasting effect."""
    seat = require_seated(state, action.seat)
    player = state.players[seat]
    if action["dollars"] is not None:
        by = action["dollars"]
        if player.dollars + by < 0:
            raise NotEnoughMoney(reason="pay", seat=seat, dollars=player.dollars, price=-by)
        player.dollars += by
        return [ev("dollars_changed", seat, by=by, dollars=player.dollars, reason="report")]
    attribute, by = action["attribute"], action["by"]
    if attribute is None or by is None or by == 0:
        raise NotNow(reason="what_changes")
    if action["lasting"]:
        player.modifiers[attribute] = player.modifiers.get(attribute, 0) + by
        if not player.modifiers[attribute]:
            del player.modifiers[attribute]
        return [ev("modifier_changed", seat, attribute=attribute, by=by,
                   modifier=player.modifiers.get(attribute, 0), effective=player.effective(attribute))]
    before = player.base[attribute]
    after = before + by
    if clamp(player, attribute, after) != after:
        top = player.card.top[attribute] if player.card else 0
        raise AttributeLimit(reason="runs", attribute=attribute, value=before, top=top)
    player.base[attribute] = after
    return [ev("attribute_changed", seat, attribute=attribute, before=before, after=after)]


def ailment(state: GameState, action: Action) -> list[Event]:
    """A curse that lasts until healed, or every ailment cured at once (a Volunteer's
    or an Item's cure; Nanny Ogg's Cure All)."""
    seat = require_seated(state, action.seat)
    player = state.players[seat]
    if action["cured"]:
        if not player.ailments:
            raise NotNow(reason="no_ailment", seat=seat)
        player.pox, player.injuries, player.curses = False, 0, []
        return [ev("cured", seat, how="card")]
    curse = action["curse"]
    if curse is None:
        raise NotNow(reason="name_curse")
    player.curses.append(curse.strip())
    return [ev("cursed", seat, curse=curse.strip())]


def miss_turn(state: GameState, action: Action) -> list[Event]:
    seat = require_seated(state, action.seat)
    state.players[seat].miss += 1
    return [ev("will_miss", seat, turns=state.players[seat].miss)]


def discard(state: GameState, action: Action) -> list[Event]:
    """One of one's own cards lost by a card's effect: a Volunteer (with its Item) to
    its discards, a Scroll or Item to the bottom of its deck. Not while the game waits
    for an answer (the card might be the one asked about)."""
    seat = require_seated(state, action.seat)
    require_free(state)
    uid = action["card"]
    card = state.cards.get(uid) if isinstance(uid, str) else None
    if card is None or not card.place.startswith(f"hand:{seat}"):
        raise unusable()
    if card.kind == "volunteer":
        discard_volunteer(state, uid)
    else:
        put(state, uid, "supply")
    return [ev("discarded", seat, card_kind=card.kind)]


def pay(state: GameState, action: Action) -> list[Event]:
    seat = require_seated(state, action.seat)
    to, dollars = action["to"], action["dollars"]
    player = state.players[seat]
    if to not in state.players or to == seat:
        raise NotNow(reason="pay_whom")
    if dollars <= 0:
        raise NotNow(reason="pay_nothing")
    if player.dollars < dollars:
        raise NotEnoughMoney(reason="pay", seat=seat, dollars=player.dollars, price=dollars)
    player.dollars -= dollars
    state.players[to].dollars += dollars
    return [ev("paid", seat, to=to, dollars=dollars)]


def grant_point(state: GameState, seat: str) -> list[Event]:
    """An attribute point to place (a Wizard's Challenge passed); lost if every
    attribute is at the top of its table."""
    player = state.players[seat]
    assert player.card is not None
    if all(player.base[a] >= player.card.top[a] for a in player.base):
        return [ev("point_lost", seat)]
    state.pending.append(Pending("point", [seat]))
    return []


def forfeit_point(state: GameState, pending: Pending, action: Action) -> list[Event]:
    """No attribute can take the point (all at the top of their tables): it is lost."""
    player = state.players[pending.seats[0]]
    assert player.card is not None
    if any(player.base[a] < player.card.top[a] for a in player.base):
        raise NotNow(reason="place_point")
    state.pending.remove(pending)
    return [ev("point_lost", player.seat)]


def spend_point(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "point")
    seat = action.seat
    assert seat is not None
    player = state.players[seat]
    attribute = action["attribute"]
    top = player.card.top[attribute] if player.card else 0
    if player.base[attribute] >= top:
        raise AttributeLimit(reason="top", attribute=attribute, value=player.base[attribute], top=top)
    state.pending.remove(pending)
    player.base[attribute] += 1
    return [ev("attribute_changed", seat, attribute=attribute, before=player.base[attribute] - 1,
               after=player.base[attribute], reason="point")]

