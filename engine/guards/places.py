"""The places passed through or stopped on, and what befalls players in the streets.

- **Guild House** (passing through one's own): $3, and Attribute points at $8 each, at
  most two a visit; neither on two of the player's own turns running (ruling 9: a turn
  missed counts as one of them), nor after being forced back there by a Fate card or
  another player (reported, and counted), nor with a Dragon in the Guild's quadrant.
- **Temples and Shops** (passing through): a Scroll or an Item at the price on the card,
  shown to all; its name stays on the buyer's phone. Not in a Dragon's quadrant.
- **Hospital** (stopping there, or carried there by the Luggage): $1 an ailment, or,
  only for a player who cannot pay (ruling 8), the City Health Service: cured all the
  same, but the next turn is missed. Either way the turn ends there.
- **City Watch House**: an arrested player's turn ends; at their next turn Charm 7 talks
  them out, else $2 bail, else they stay and miss that turn (turns.py). Passing through,
  a player turns in Wanted Volunteers for their Bribe + $1 ($1 for a Bribe 'X': ruling 16).
- **The Pox**: Charm -1 and moves of 4 until cured; passed on by coming within a tile of
  an opponent in one's own turn, either way round.
"""

from __future__ import annotations

from dataclasses import replace

from engine.guards.actions import Action
from engine.guards.cards import ATTRIBUTES, Item, Scroll
from engine.guards.common import (
    create,
    discard_volunteer,
    handlers,
    mark_began,
    own,
    own_turn,
    put,
    require_free,
    require_playing,
    require_turn,
)
from engine.guards.errors import (
    AttributeLimit,
    BadCard,
    GuildHouseRule,
    NotEnoughMoney,
    NothingToCure,
    NotNow,
    PoxRule,
)
from engine.guards.events import Event, ev
from engine.guards.recruiting import require_no_dragon, require_stop
from engine.guards.state import GameState
from engine.guards.turns import finish_turn

GUILD_PAY = 3
POINT_PRICE = 8
POINTS_PER_VISIT = 2
WANTED_BONUS = 1


def guild_house(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    player = state.players[seat]
    assert player.card is not None
    collect = bool(action["collect"])
    points: dict[str, int] = {a: n for a, n in (action["points"] or {}).items() if n}
    bought = sum(points.values())
    if not collect and not bought:
        raise NotNow(reason="house_what")
    require_no_dragon(state, player.card.guild, "guild_house")
    if turn.house:
        raise GuildHouseRule(reason="visited")
    if player.sent_home is not None and player.sent_home == own_turn(state, player):
        raise GuildHouseRule(reason="forced")
    if player.house_turn is not None and player.house_turn == own_turn(state, player) - 1:
        raise GuildHouseRule(reason="consecutive")
    if bought > POINTS_PER_VISIT:
        raise GuildHouseRule(reason="points", most=POINTS_PER_VISIT, points=bought)
    money = player.dollars + (GUILD_PAY if collect else 0)
    if bought * POINT_PRICE > money:
        raise NotEnoughMoney(reason="points", points=bought, seat=seat, dollars=money, price=bought * POINT_PRICE)
    for attribute, count in points.items():
        if player.base[attribute] + count > player.card.top[attribute]:
            raise AttributeLimit(reason="stops", attribute=attribute, value=player.base[attribute], top=player.card.top[attribute])
    mark_began(turn)
    turn.house = True
    player.house_turn = own_turn(state, player)
    events: list[Event] = []
    if collect:
        player.dollars += GUILD_PAY
        events.append(ev("guild_paid", seat, dollars=GUILD_PAY))
    for attribute in ATTRIBUTES:
        count = points.get(attribute, 0)
        if count:
            player.dollars -= count * POINT_PRICE
            player.base[attribute] += count
            events.append(ev("points_bought", seat, attribute=attribute, points=count,
                             dollars=count * POINT_PRICE, value=player.base[attribute]))
    return events


def buy(state: GameState, action: Action) -> list[Event]:
    """A Scroll at a Temple or an Item at a Shop, from the nearest deck."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    kind, price = action["kind"], action["price"]
    if kind not in ("scroll", "item"):
        raise NotNow(reason="buy_kind", kind=str(kind))
    require_no_dragon(state, action["quadrant"], "shopping")
    player = state.players[seat]
    known = action["card"]
    if known is not None:
        card = state.cards.get(known)
        if card is None or card.kind != kind or card.place != "supply":
            raise BadCard(reason="not_in_supply", kind=kind, card=str(known))
        # a card the game knows costs what it says; one taken free before, what is typed
        price = getattr(card.values, "price", None) or price
    if not 0 <= price <= 30:
        raise BadCard(reason="price", price=price)
    if state.supply[kind] <= 0:
        raise NotNow(reason="supply_empty", kind=kind)
    if player.dollars < price:
        raise NotEnoughMoney(reason="price", seat=seat, dollars=player.dollars, price=price)
    mark_began(turn)
    player.dollars -= price
    if known is not None:
        put(state, known, f"hand:{seat}")
        card = state.cards[known]
        if getattr(card.values, "price", None) is None:
            values = card.values
            assert isinstance(values, (Scroll, Item))
            card.values = replace(values, price=price)
    else:
        blank = Scroll(action["name"], price, None) if kind == "scroll" else Item(action["name"], price, None)
        state.supply[kind] -= 1
        create(state, kind, blank, f"hand:{seat}")
    return [ev("bought", seat, card_kind=kind, dollars=price)]


def cure(state: GameState, seat: str, why: str) -> list[Event]:
    """Hospital rules: $1 an ailment if the player can pay it, else the City Health
    Service and a missed turn; cured either way, and in the Hospital till their turn."""
    player = state.players[seat]
    cost = player.ailments
    events: list[Event]
    if player.dollars >= cost:
        player.dollars -= cost
        events = [ev("cured", seat, how="private", dollars=cost, reason=why)]
    else:
        player.miss += 1
        events = [ev("cured", seat, how="health_service", dollars=0, reason=why)]
    player.pox, player.injuries, player.curses = False, 0, []
    player.place = "hospital"
    return events


def hospital(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    require_stop(turn)
    if not state.players[seat].ailments:
        raise NothingToCure(seat=seat)
    turn.stopped = "hospital"
    mark_began(turn)
    return cure(state, seat, "visit") + finish_turn(state, "hospital")


def victim(state: GameState, action: Action) -> str:
    """The player a report is about: the reporter, or the one named."""
    require_playing(state)
    require_free(state)
    target = action["target"] or action.seat
    assert target is not None
    if target not in state.players:
        raise NotNow(reason="not_playing", target=str(target))
    return target


def luggage_hit(state: GameState, action: Action) -> list[Event]:
    """Hit by the Luggage: an injury and straight to the nearest Hospital; the turn of
    the one hit ends."""
    target = victim(state, action)
    player = state.players[target]
    if player.place == "hospital":
        raise NotNow(reason="in_hospital", target=target)
    player.injuries += 1
    events = [ev("luggage_hit", target), *cure(state, target, "luggage")]
    if state.turn is not None and state.turn.seat == target:
        events += finish_turn(state, "luggage")
    return events


def arrested(state: GameState, action: Action) -> list[Event]:
    target = victim(state, action)
    player = state.players[target]
    if player.place == "watch_house":
        raise NotNow(reason="in_watch_house", target=target)
    player.place, player.jail_served = "watch_house", False
    events = [ev("arrested", target)]
    if state.turn is not None and state.turn.seat == target:
        events += finish_turn(state, "arrested")
    return events


def turn_in(state: GameState, action: Action) -> list[Event]:
    """Wanted Volunteers handed in at a Watch House passed through: Bribe + $1 each."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    cards = [own(state, seat, uid, "volunteer") for uid in action["cards"]]
    if not cards:
        raise NotNow(reason="name_wanted")
    for card in cards:
        values = state.volunteer(card.uid)
        if not values.wanted:
            raise NotNow(reason="not_wanted", card=values.name)
    mark_began(turn)
    player = state.players[seat]
    events: list[Event] = []
    for card in cards:
        values = state.volunteer(card.uid)
        reward = (values.bribe if values.bribe is not None else 0) + WANTED_BONUS
        player.dollars += reward
        discard_volunteer(state, card.uid)
        events.append(ev("turned_in", seat, name=values.name, dollars=reward))
    return events


def pox(state: GameState, action: Action) -> list[Event]:
    """The Pox passed on within a tile, in the reporter's own turn, either way round."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    other = action["other"]
    if other == seat or other not in state.players:
        raise PoxRule(reason="name_other")
    mine, theirs = state.players[seat], state.players[other]
    if mine.pox == theirs.pox:
        if mine.pox:
            raise PoxRule(reason="both", seat=seat, target=other)
        raise PoxRule(reason="neither", seat=seat, target=other)
    mark_began(turn)
    caught = theirs if mine.pox else mine
    caught.pox = True
    return [ev("pox_caught", caught.seat, how="passed", source=seat if mine.pox else other)]


def sent_home(state: GameState, action: Action) -> list[Event]:
    """A player forced back to their Guild House "by a Fate card or by another player":
    counted, and the Guild House neither pays nor sells points for it, in the turn it
    happens in or, if in another player's turn, the player's next turn."""
    target = victim(state, action)
    player = state.players[target]
    if player.protected:
        raise NotNow(reason="protected", target=target, place=player.place)
    mine = state.turn is not None and state.turn.seat == target
    player.sent_home = own_turn(state, player) + (0 if mine else 1 + player.miss)
    player.forced_home += 1
    return [ev("sent_home", target, by=action.seat if action.seat != target else None, times=player.forced_home)]


HANDLERS = handlers(sent_home, guild_house, buy, hospital, luggage_hit, arrested, turn_in, pox)
