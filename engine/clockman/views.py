"""What a seat (or the table) may see of a Clockman game.

Public: every piece's ring, every date key and the digits set aside, how many symbol
cards each player holds, the event cards lying in front of each player (a face-down
card's note only to its holder), the Whytooki set-up, the deck counts, the digit cards
left on the board, the trade on offer and what the game waits for. Private to a seat:
its symbol hand, its notes on face-down cards, and what its next roll can do. Never
shown: the seed, the dice generator, the order of the symbol deck, the undo
bookkeeping. The view is built field by field from an allow-list, never by copying the
state, so a field added to the state later stays private until it is added here. The
one exception is the turn, all of it public: it is shown as it is saved (``Turn``
says so where its fields are).
"""

from __future__ import annotations

from typing import Any

from engine.clockman.digits import JOKER, complete, may_take, missing, slots, spares, surplus
from engine.clockman.state import START, STRAIGHT, ClockmanState, Player
from engine.core import serial

# What everyone sees of a knock made more of: not the victim's protections, which the
# victim shows only when defending.
PUBLIC_HIT = ("hitter", "victim", "stage", "choices")


def _public(values: dict[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    return {key: values[key] for key in allowed}


def _player(state: ClockmanState, player: Player, own: bool) -> dict[str, Any]:
    need = state.need
    held = player.holdings
    return {
        "seat": player.seat,
        "ring": player.ring,
        "field": player.field,
        "furthest": player.furthest,
        "status": player.status,
        "slots": slots(player.date, player.pending, state.data.date_key),
        "date": dict(player.date),
        "pending": dict(player.pending),
        "spares": spares(held, need),
        "surplus": surplus(held, need),
        "complete": complete(player.date, need),
        "missing": missing(player.date, need),
        "symbols": sum(player.hand.values()),
        "cards": [
            {
                "id": c.id,
                "kind": c.kind,
                "label": c.label if own or c.kind == "open" else "",
            }
            for c in player.cards
        ],
        "straight_pose": state.straights[player.seat],
    }


def next_roll(state: ClockmanState, player: Player) -> dict[str, Any] | None:
    """What each face of the next roll does for ``player``, where the companion knows
    (from the start field, on the final straight), with the exact chance of each goal;
    on the circles what the player can do with the fields the die may reach (the board
    says which faces reach them)."""
    faces = list(range(1, state.data.die_faces + 1))
    sides = len(faces)
    if not player.in_play:
        return None
    if player.ring == START:
        return {
            "where": "start",
            "faces": {str(f): "enter" for f in faces},
            "goals": [{"goal": "enter", "faces": faces, "chance": [sides, sides]}],
        }
    if player.ring == STRAIGHT:
        last = state.data.straight_fields
        if player.field == last:
            outcome = {str(f): "win" if f == 1 else "stay" for f in faces}
            return {
                "where": "straight",
                "faces": outcome,
                "goals": [{"goal": "win", "faces": [1], "chance": [1, sides]}],
            }
        exact = last - player.field
        card = bool(player.hand.get(state.straights[player.seat]))
        outcome = {}
        for f in faces:
            if f < exact:
                outcome[str(f)] = "advance"
            elif f == exact:
                outcome[str(f)] = "pass" if card else "stay"
            else:
                outcome[str(f)] = "stay"
        passing = [exact] if card else []
        forward = [f for f in faces if f < exact]
        return {
            "where": "straight",
            "faces": outcome,
            "goals": [
                {"goal": "pass", "faces": passing, "chance": [len(passing), sides]},
                {"goal": "advance", "faces": forward, "chance": [len(forward), sides]},
            ],
            "pose": state.straights[player.seat],
            "has_card": card,
        }
    ring = player.ring
    poses = sorted(set(state.rings[ring - 1])) if ring < len(state.rings) + 1 else []
    digit = state.data.circle_digit(ring)
    held = player.holdings
    allowance = state.options.allowance
    takeable = [
        d for d in ([digit] if digit else []) + [JOKER] if may_take(held, d, state.need, allowance)
    ]
    return {
        "where": "circle",
        "ring": ring,
        "sides": sides,
        "whytookis": poses,
        "may_pass": [p for p in poses if player.hand.get(p)],
        "may_take": takeable,
        "straight": ring == len(state.rings) + 1 and complete(player.date, state.need),
    }


def build_view(state: ClockmanState, seat: str | None, can_undo: bool) -> dict[str, Any]:
    turn = state.turn
    data = state.data
    hit, offer, check = state.hit, state.offer, state.check
    view: dict[str, Any] = {
        "game": "clockman",
        "options": state.options.to_json(),
        "house_files": list(data.house_files),
        "order": list(state.order),
        "opening": [dict(r) for r in state.opening],
        "players": [_player(state, p, p.seat == seat) for p in state.players.values()],
        "turn": None if turn is None else turn.to_json(),
        "whytookis": {
            "rings": [
                {"between": [r.outer, r.inner], "passages": r.passages, "poses": list(poses)}
                for r, poses in zip(data.rings, state.rings, strict=True)
            ],
            "straights": {s: state.straights[s] for s in state.options.seats},
        },
        "decks": {"symbols": len(state.deck), "events": state.event_deck()},
        "supply": dict(state.supply),
        "hit": None if hit is None else _public(serial.to_json(hit), PUBLIC_HIT),
        "offer": None if offer is None else offer.to_json(),
        "check": None if check is None else check.to_json(),
        "over": state.over,
        "winners": list(state.winners),
        "reason": state.reason,
        "you": None,
    }
    if seat is not None and seat in state.players:
        player = state.players[seat]
        view["you"] = {
            "seat": seat,
            "can_undo": can_undo,
            "hand": dict(sorted(player.hand.items())),
            "next_roll": next_roll(state, player),
        }
    return view
