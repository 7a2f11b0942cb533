"""Magic and Guild Abilities: what players may do in any turn, their own or another's.

- **Casting a Scroll:** ``d8 + Magic >= the Scroll's target``, plus the bonus against
  Magic of the player it is aimed at (their best Volunteer's, ruling 12; all of them
  added with the ``anti_magic_sum`` option). Cast, it goes to the bottom of a deck; a
  failed one is kept. No Scroll is tried twice in one turn. Its target number is typed
  the first time it is cast, and kept.
- **Using an Item** needs no roll: it goes back to the bottom of a deck.
- **A Guild Ability** is used only in another player's turn, on the player whose turn it
  is (within two tiles: on the board), by a Guild test of 6. The Alchemists' Fire Water
  is a token: one is thrown when the ability works and sits on its victim until it is
  reported settled (exploded, ending the victim's turn, or not); either way it goes back
  to the Alchemist, who has three.

Nobody in a Hospital or a Watch House uses, or is the target of, Magic or a Guild
Ability. What a Scroll, an Item or an Ability does is read from the card and put on the
trackers by the players.
"""

from __future__ import annotations

from engine.core.hidden import unusable
from engine.guards import rolls
from engine.guards.actions import Action
from engine.guards.cards import Item, Scroll
from engine.guards.common import (
    anti_magic,
    handlers,
    own,
    put,
    read_values,
    require_free,
    require_playing,
    seat_in_play,
)
from engine.guards.errors import AbilityRule, BadCard, MagicRule, Protected
from engine.guards.events import Event, ev
from engine.guards.recruiting import not_recruited
from engine.guards.state import GameState
from engine.guards.turns import finish_turn

ABILITY_TARGET = 6
FIRE_WATER_GUILD = "alchemists"
def require_free_to_act(state: GameState, seat: str, what: str) -> None:
    """Refuse ``what`` (magic, ability) to a player in a Hospital or a Watch House."""
    player = state.players[seat]
    if player.protected:
        raise Protected(reason="acting", seat=seat, place=player.place, what=what)


def require_open_target(state: GameState, seat: str, what: str) -> None:
    """Refuse ``what`` (magic, ability) on a player in a Hospital or a Watch House."""
    player = state.players[seat]
    if player.protected:
        raise Protected(reason="target", seat=seat, place=player.place, what=what)


def described(state: GameState, uid: str, values: object) -> Scroll | Item:
    """A Scroll's or Item's values with those typed in now laid over the known ones."""
    card = state.cards[uid]
    known = card.values
    assert isinstance(known, (Scroll, Item))
    if not isinstance(values, dict):
        raise BadCard(reason="values_table")
    merged = {**{k: v for k, v in known.to_json().items() if v is not None}, **values}
    new = read_values(card.kind, merged)
    assert isinstance(new, (Scroll, Item))
    return new


def describe(state: GameState, action: Action) -> list[Event]:
    """Type the values of one's own Scroll or Item (its name, target, bonuses)."""
    seat = seat_in_play(state, action)
    card = state.cards.get(action["card"])
    if card is None or card.kind not in ("scroll", "item") or not card.place.startswith(("hand:" + seat,
                                                                                        "carried:" + seat)):
        raise unusable()
    card.values = described(state, card.uid, action["values"])
    return [ev("card_described", seat, card_kind=card.kind)]


def cast(state: GameState, action: Action) -> list[Event]:
    seat = seat_in_play(state, action)
    turn = state.turn
    assert turn is not None
    card = own(state, seat, action["scroll"], "scroll")
    require_free_to_act(state, seat, "magic")
    target = action["target"]
    if target is not None and target != seat:
        require_open_target(state, target, "magic")
    values = card.values
    if action["values"] is not None:
        values = described(state, card.uid, action["values"])
    assert isinstance(values, Scroll)
    if values.target is None:
        raise BadCard(reason="scroll_target")
    if card.uid in turn.cast:
        raise MagicRule(reason="tried", scroll=values.name or "")
    card.values = values
    defence = anti_magic(state, target) if target is not None and target != seat else 0
    player = state.players[seat]
    base = player.effective("magic")
    parts = [("magic", base)]
    spec = rolls.TestSpec("cast", "plain", seat, base, values.target + defence, tuple(parts),
                          extra={"card": values.name, "scroll_target": values.target, "defence": defence,
                                 "victim": target})
    turn.cast.append(card.uid)
    _rolled, passed, events = rolls.make(state, spec)
    if passed:
        put(state, card.uid, "supply")
        return [*events, ev("scroll_cast", seat, name=values.name, victim=target)]
    return [*events, ev("scroll_failed", seat, name=values.name, victim=target)]


def use_item(state: GameState, action: Action) -> list[Event]:
    seat = seat_in_play(state, action)
    card = own(state, seat, action["item"], "item")
    require_free_to_act(state, seat, "magic")
    values = card.values
    if action["values"] is not None:
        values = described(state, card.uid, action["values"])
    assert isinstance(values, Item)
    card.values = values
    put(state, card.uid, "supply")
    return [ev("item_used", seat, name=values.name)]


def guild_ability(state: GameState, action: Action) -> list[Event]:
    seat = seat_in_play(state, action)
    turn = state.turn
    assert turn is not None
    target = action["target"]
    if turn.seat == seat:
        raise AbilityRule(reason="own_turn")
    if target != turn.seat:
        raise AbilityRule(reason="whose_turn", current=turn.seat)
    require_free_to_act(state, seat, "ability")
    require_open_target(state, target, "ability")
    used = state.ability_used.get(seat)
    if used == turn.number:
        raise AbilityRule(reason="tried")
    player = state.players[seat]
    assert player.card is not None
    fire_water = state.options.letter and player.card.guild == FIRE_WATER_GUILD
    if fire_water and player.fire_water <= 0:
        raise AbilityRule(reason="fire_water_out")
    state.ability_used[seat] = turn.number
    base = player.effective("guild")
    spec = rolls.TestSpec("ability", "plain", seat, base, ABILITY_TARGET, (("guild", base),),
                          extra={"card": player.card.ability, "victim": target})
    _rolled, passed, events = rolls.make(state, spec)
    outcome = "ability_worked" if passed else "ability_failed"
    events.append(ev(outcome, seat, ability=player.card.ability, guild=player.card.guild, victim=target))
    if passed and fire_water:
        player.fire_water -= 1
        state.players[target].fire_water_on.append(seat)
        events.append(ev("fire_water_thrown", seat, victim=target, tokens=player.fire_water))
    return events


def fire_water(state: GameState, action: Action) -> list[Event]:
    """A Fire Water token on a player is settled: "Once an Alchemist's Fire Water
    explodes, the victim's turn ends (any actions being taken automatically fail) and the
    token is returned to the Alchemist and can then be re-used." One that does not
    explode (a defence the card allows) goes back to the Alchemist all the same. An
    explosion in the victim's turn is taken while the victim's own roll waits (see
    ``cut_short``); anything else waits for what the game waits for."""
    require_playing(state)
    target = action["target"] or action.seat
    assert target is not None
    exploded = action["exploded"] is not False
    in_turn = exploded and state.turn is not None and state.turn.seat == target
    if not (in_turn and may_cut_short(state, str(target))):
        require_free(state)
    victim = state.players.get(target)
    if victim is None or not victim.fire_water_on:
        raise AbilityRule(reason="no_fire_water", target=str(target))
    alchemist = victim.fire_water_on.pop(0)
    state.players[alchemist].fire_water += 1
    events = [ev("fire_water_settled", target, alchemist=alchemist, how="exploded" if exploded else "defused",
                 tokens=state.players[alchemist].fire_water)]
    if in_turn:
        events += cut_short(state, str(target))
        events += finish_turn(state, "fire_water")
    return events


# the rolls an explosion makes fail, by their purpose: the action they belong to fails
# as it would on a failed roll (a failed Challenge ends the turn, the runners wait)
CUT_SHORT_ROLLS = ("recruit", "challenge")


def may_cut_short(state: GameState, seat: str) -> bool:
    """Whether what the game waits for is ``seat``'s own action under way, which an
    explosion makes fail: the roll of a recruit or a Challenge, or the Bribe offered
    after a failed recruit."""
    if len(state.pending) != 1 or state.pending[0].seats != [seat]:
        return False
    waiting = state.pending[0]
    if waiting.kind == "bribe":
        return True
    return waiting.kind == "test" and waiting.data["purpose"] in CUT_SHORT_ROLLS


def cut_short(state: GameState, seat: str) -> list[Event]:
    """``seat``'s action under way fails: its roll is not made, and a Volunteer being
    recruited is not recruited (it goes face up, as after any failed recruit)."""
    if not state.pending:
        return []
    state.pending.clear()
    recruiting = state.recruiting
    if recruiting is not None and recruiting.seat == seat:
        return not_recruited(state)
    return []


HANDLERS = handlers(cast, use_item, guild_ability, fire_water, describe)
