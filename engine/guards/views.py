"""What a seat (or the table) may see of a game.

Public: every Guild Card's trackers (attributes, dollars, spells returned, ailments),
how many Volunteers, Scrolls and Items each player holds (and the prices shown when
they were bought), how many Saboteurs each has planted, the Spell Runs' runners (they
are on the table), the face-up Volunteers, the decks, the Dragons, the dice. Private to
a seat: its hand, its Scrolls and Items, and where its Saboteurs are. The seed and the
dice generator never leave the engine. Every view is built field by field from these
allow-lists, never by copying the state.
"""

from __future__ import annotations

from typing import Any

from engine.guards import dice, rolls
from engine.guards.cards import ATTRIBUTES, DECKS, Item, Scroll, Volunteer
from engine.guards.common import own_turn
from engine.guards.data import QUADRANTS
from engine.guards.state import Card, GameState, Pending, Player

MOVE = 6
MOVE_WITH_POX = 4
FINAL_TARGET = 9


def volunteer_json(state: GameState, uid: str) -> dict[str, Any]:
    card = state.cards[uid]
    values = card.values
    assert isinstance(values, Volunteer)
    out: dict[str, Any] = {"uid": uid, "origin": card.origin, **values.to_json()}
    if card.item is not None:
        out["item"] = item_json(state, card.item)
    return out


def item_json(state: GameState, uid: str) -> dict[str, Any]:
    card = state.cards[uid]
    values = card.values
    assert isinstance(values, (Item, Scroll))
    return {"uid": uid, "kind": card.kind, "origin": card.origin, **values.to_json()}


def dragon_json(state: GameState, uid: str) -> dict[str, Any]:
    card = state.cards[uid]
    return {"uid": uid, "origin": card.origin, **card.values.to_json()}


def next_challenge(state: GameState, player: Player) -> dict[str, Any] | None:
    """The Wizard's Challenge the player's next Great Spell must pass (the last spell
    of the game's goal is the Final Spell, Challenge 5: ruling 14)."""
    done = len(player.returned)
    if done >= state.options.spells:
        return None
    if done + 1 == state.options.spells:
        return {"number": 5, "final": True, "tests": [["magic", FINAL_TARGET], ["guild", FINAL_TARGET]],
                "house": False}
    challenge = state.options.data.challenge(done + 1)
    return {"number": challenge.number, "final": False, "name": challenge.name,
            "tests": [list(t) for t in challenge.tests], "house": challenge.house}


def player_json(state: GameState, player: Player) -> dict[str, Any]:
    card = player.card
    data = state.options.data
    run = player.run
    final = player.final
    return {
        "seat": player.seat,
        "card": card.to_json() if card else None,
        "attributes": {
            a: {"base": player.base.get(a, 0), "effective": player.effective(a),
                "top": card.top[a] if card else None}
            for a in ATTRIBUTES
        },
        "modifiers": dict(player.modifiers),
        "dollars": player.dollars,
        "spells": [
            {"id": s, "name": data.spells[s], "returned": s in player.returned} for s in (card.spells if card else ())
        ],
        "returned": list(player.returned),
        "pox": player.pox,
        "injuries": player.injuries,
        "curses": list(player.curses),
        "ailments": player.ailments,
        "volunteers": len(player.hand),
        "scrolls": [_price(state.cards[u]) for u in player.scrolls],
        "items": [_price(state.cards[u]) for u in player.items],
        "saboteurs": len(player.planted),
        "fire_water": player.fire_water,
        "forced_home": player.forced_home,
        "fire_water_on": len(player.fire_water_on),
        "place": player.place,
        "miss": player.miss,
        "move": MOVE_WITH_POX if player.pox else MOVE,
        "guild_house_ready": guild_house_ready(state, player),
        "dealt": list(player.dealt),
        "ready": card is not None and len(player.dealt) == 2,
        "next_challenge": next_challenge(state, player),
        "run": None if run is None else {
            "spell": run.spell,
            "spell_name": data.spells[run.spell],
            "challenge": run.challenge,
            "runners": [volunteer_json(state, u) for u in run.runners],
            "route": list(run.route),
            "stage": run.stage,
            "passed": list(run.passed),
        },
        "final": None if final is None else {
            "spell": final.spell, "spell_name": data.spells[final.spell], "passed": list(final.passed),
        },
    }


def guild_house_ready(state: GameState, player: Player) -> bool:
    """Whether the Guild House pays (and sells points) this turn, or the player's next:
    not on two of the player's own turns running (ruling 9)."""
    turn = state.turn
    mine = turn is not None and turn.seat == player.seat
    # the next turn played: after those still to miss (each one of the player's turns)
    upcoming = own_turn(state, player) + (0 if mine else 1 + (player.miss if state.options.letter else 0))
    if player.sent_home == upcoming:
        return False  # forced back there by a Fate card or another player
    return player.house_turn is None or player.house_turn < upcoming - 1


def _price(card: Card) -> int | None:
    values = card.values
    assert isinstance(values, (Item, Scroll))
    return values.price


def pending_json(state: GameState, pending: Pending) -> dict[str, Any]:
    """A pending step as everyone may see it: a test with its exact chance; a private
    choice without its choices."""
    out: dict[str, Any] = {"kind": pending.kind, "seats": list(pending.seats)}
    if pending.kind == "test":
        out["test"] = rolls.spec_of(state, pending).to_json(state.options.cap_eights)
    for key in ("deck", "card", "price", "target", "roll", "quadrant", "forced", "answered", "purpose"):
        if key in pending.data and key != "purpose":
            out[key] = pending.data[key]
    return out


def turn_json(state: GameState) -> dict[str, Any] | None:
    turn = state.turn
    if turn is None:
        return None
    player = state.players[turn.seat]
    if state.pending:  # the answer belongs to the step under way
        step = "stop" if turn.stopped else "pass" if turn.began else "start"
    elif not turn.began and not turn.stopped:
        step = "start"
    elif turn.stopped is None:
        step = "move"
    else:
        step = "free"
    return {
        "seat": turn.seat,
        "number": player.turns,
        "game_turn": turn.number,
        "step": step,
        "began": turn.began,
        "planted": turn.planted,
        "recalled": turn.recalled,
        "stopped": turn.stopped,
        "guild_house": turn.house,
        "move": MOVE_WITH_POX if player.pox else MOVE,
    }


def decks_json(state: GameState) -> dict[str, Any]:
    out = {}
    for deck in DECKS:
        pile = state.display[deck]
        top = pile[-1] if pile else None
        out[deck] = {
            "face_up": volunteer_json(state, top) if top is not None else None,
            "face_up_known": top is not None,
            "face_up_cards": len(pile),
            "left": state.deck_left[deck],
            "discards": len(state.discards[deck]),
        }
    return out


def build_view(state: GameState, seat: str | None, can_undo: bool) -> dict[str, Any]:
    data = state.options.data
    taken = {p.card.id: p.seat for p in state.players.values() if p.card is not None}
    view: dict[str, Any] = {
        "game": "guards",
        "options": state.options.public_json(),
        "phase": state.phase,
        "seats": list(state.seats),
        "turn": turn_json(state),
        "pending": [pending_json(state, p) for p in state.pending],
        "players": [player_json(state, state.players[s]) for s in state.seats],
        "decks": decks_json(state),
        "supply": dict(state.supply),
        "fate": {"left": state.fate_left, "used": state.fate_used},
        "dragons": {q: dragon_json(state, u) for q, u in state.dragons.items()},
        "dragon_pool": 4 - len(state.dragons),
        "lock": state.lock,
        "last_roll": dict(state.last_roll) if state.last_roll else None,
        "start_rolls": [dict(r) for r in state.start_rolls],
        "challenges": [
            {"number": c.number, "name": c.name, "tests": [list(t) for t in c.tests], "house": c.house}
            for c in data.challenges
        ],
        "spells": dict(data.spells),
        "guild_cards": [
            {**card.to_json(), "taken_by": taken.get(card.id)} for card in data.guild_cards.values()
        ],
        "board": {"clockwise": list(data.clockwise), "blocks": dict(data.blocks)},
        "quadrants": list(QUADRANTS),
        "over": state.over,
        "winners": list(state.winners),
        "ending": state.ending,
        "ranking": list(state.ranking),
        "you": None,
    }
    if seat is not None:
        view["you"] = private_json(state, seat, can_undo)
    return view


def private_json(state: GameState, seat: str, can_undo: bool) -> dict[str, Any]:
    player = state.players[seat]
    cap = state.options.cap_eights
    return {
        "seat": seat,
        "can_undo": can_undo,
        "hand": [volunteer_json(state, u) for u in player.hand],
        "scrolls": [item_json(state, u) for u in player.scrolls],
        "items": [item_json(state, u) for u in player.items],
        "saboteurs": [
            {"quadrant": q, "card": volunteer_json(state, u)} for q, u in sorted(player.planted.items())
        ],
        "markers": [q for q in QUADRANTS if q not in player.planted],
        "points": sum(1 for p in state.pending if p.kind == "point" and seat in p.seats),
        # the exact chance of a plain test of each attribute for every target, for the
        # phone's forms (a Scroll's target typed in, a Guild test)
        "chances": {a: dice.chance_table("plain", player.effective(a), cap) for a in ATTRIBUTES},
    }
