"""Set-up: each player's Guild Card and the two Volunteers they were dealt, then the roll
for the first player.

The companion does the set-up's arithmetic (the rulebook's "What players need"): $5,
four Saboteur markers, three Fire Water tokens for an Alchemist, the dealt Volunteers'
bonuses (but no Pox, no Fate card and no Luggage move from them: ruling 16). The
rest of the set-up stays on the table and is a checklist on the table screen.
"""

from __future__ import annotations

from engine.guards import dice
from engine.guards.actions import Action
from engine.guards.cards import Item, Scroll, Volunteer
from engine.guards.common import (
    apply_bonuses,
    create,
    identify_volunteer,
    put,
)
from engine.guards.data import GuildCard, read_guild_card
from engine.guards.errors import BadCard, GameIsOver, NotNow, SetUpFirst, SpellRule
from engine.guards.events import Event, ev
from engine.guards.state import FIRE_WATER, GameState, Pending
from engine.guards.turns import begin_turn

DEALT_DECKS = ("lords_ladies", "man_beast")


def require_setup(state: GameState) -> None:
    if state.phase == "over":
        raise GameIsOver(reason="over")
    if state.phase != "setup":
        raise NotNow(reason="setup_done")


def choose_guild(state: GameState, action: Action) -> list[Event]:
    require_setup(state)
    seat = action.seat
    assert seat is not None
    player = state.players[seat]
    if player.dealt:
        raise NotNow(reason="guild_card_first")
    data = state.options.data
    card_id = action["card"]
    house = data.guild_cards.get(card_id)
    if house is None:
        raise SpellRule(reason="no_guild_card", card=str(card_id), cards=", ".join(data.guild_cards))
    taken = [s for s, p in state.players.items() if s != seat and p.card is not None and p.card.id == card_id]
    if taken:
        raise SpellRule(reason="guild_card_taken", seat=taken[0], card=house.name)
    card: GuildCard = house
    if action["values"] is not None:
        typed, problems = read_guild_card({**house.to_json(), **action["values"], "id": card_id},
                                          data.spells, house=False)
        if typed is None:
            raise BadCard(reason="guild_card", problems="; ".join(problems))
        card = typed
    player.card = card
    player.base = dict(card.start)
    player.fire_water = FIRE_WATER if card.guild == "alchemists" else 0
    return [ev("guild_chosen", seat, card=card.id, name=card.name, guild=card.guild, house=card.house)]


def dealt(state: GameState, action: Action) -> list[Event]:
    require_setup(state)
    seat = action.seat
    assert seat is not None
    player = state.players[seat]
    deck = action["deck"]
    if player.card is None:
        raise SetUpFirst(reason="guild_card")
    if deck not in DEALT_DECKS:
        raise NotNow(reason="dealt_decks")
    if deck in player.dealt:
        raise NotNow(reason="dealt_already", deck=deck)
    uid, values = identify_volunteer(state, deck, action["card"], action["values"])
    # checks done: from here on the state changes
    if uid is None:
        uid = create(state, "volunteer", values, f"hand:{seat}")
    else:
        put(state, uid, f"hand:{seat}")
    player.dealt.append(deck)
    events = [ev("dealt_reported", seat, deck=deck)]
    events += dealt_bonuses(state, seat, values)
    if all(len(p.dealt) == len(DEALT_DECKS) for p in state.players.values()):
        state.phase = "start"
        state.pending.append(Pending("start", list(state.seats)))
        events.append(ev("set_up_done"))
    return events


def dealt_bonuses(state: GameState, seat: str, values: Volunteer) -> list[Event]:
    events = apply_bonuses(state, seat, values)
    for _ in range(values.scrolls):
        create(state, "scroll", Scroll(None, None, None), f"hand:{seat}")
        state.supply["scroll"] -= 1
    for _ in range(values.items):
        create(state, "item", Item(None, None, None), f"hand:{seat}")
        state.supply["item"] -= 1
    if values.scrolls or values.items:
        events.append(ev("cards_taken", seat, scrolls=values.scrolls, items=values.items))
    return events


def roll_for_start(state: GameState, action: Action) -> list[Event]:
    """Everyone rolls; the highest begins; only players tied for the highest roll again
    (ruling 2)."""
    if state.phase == "over":
        raise GameIsOver(reason="over")
    if state.phase != "start":
        raise SetUpFirst(reason="setup")
    contenders = list(state.seats)
    while True:
        rolls = {seat: dice.roll_die(state.rng) for seat in contenders}
        state.start_rolls.append(rolls)
        best = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == best]
        if len(contenders) == 1:
            break
    first = contenders[0]
    state.pending.clear()
    state.phase = "play"
    events = [ev("start_rolled", first, rolls=[dict(r) for r in state.start_rolls])]
    state.last_roll = {"purpose": "start", "seat": first, "faces": [best], "total": best,
                       "base": 0, "target": None, "passed": True,
                       "step": state.steps + 1, "turn": state.turns}
    events += begin_turn(state, first)
    return events
