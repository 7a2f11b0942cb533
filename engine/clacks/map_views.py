"""Per-seat views of the games played on the map: co-op, solitaire and the junior race.

Built from an allow-list like views.py. A seat always sees its own hand. In the
standard co-op game hands are open to the whole team (and the table screen), since
the rulebook lets the team look and advise; in Long Distance, and in the junior race,
no view holds another player's hand. Never shown: bag or deck order, the Jacquards face
down on the Operator's Logs, the face-down cards, the seed or the generator.
"""

from __future__ import annotations

from typing import Any

from engine.clacks.card_effects import deck_of, jacquard_limit, ledger_of, surcharge
from engine.clacks.components import ComponentSet, Route
from engine.clacks.effects import Context
from engine.clacks.geometry import Seat, lamps_of
from engine.clacks.mode_state import CardLedger, TeamState
from engine.clacks.state import ClacksState
from engine.clacks.views import jacquard_json, message_json, spelled_words, table_json

START = "Ankh-Morpork"


def route_json(route: Route) -> dict[str, Any]:
    return {
        "id": route.id,
        "name": route.name,
        "track": route.track,
        "towers": list(route.towers),
        "fault_towers": list(route.fault_towers),
    }


def revealed_card_json(components: ComponentSet, card_id: str, context: Context) -> dict[str, Any]:
    """A revealed card as read out: in co-op, Fault Reports in their Night Shift meaning."""
    card = components.card(card_id)
    deck = deck_of(components, card_id)
    meaning = card.design.meaning(context.value if deck == "fault" else deck)
    return {
        "id": card.id,
        "deck": deck,
        "name": card.design.name,
        "text": meaning.text,
        "effect": meaning.effect,
        "params": dict(meaning.params),
    }


def _ledger_json(
    state: ClacksState, components: ComponentSet, ledger: CardLedger, context: Context
) -> dict[str, Any]:
    repair = None
    if ledger.repair is not None:
        card = components.card(ledger.repair)
        repair = {
            "card": card.id,
            "name": card.design.name,
            "cancels": list(card.design.meaning(Context.NIGHT_SHIFT.value).params["cards"]),
        }
    return {
        "revealed": [revealed_card_json(components, c, context) for c in ledger.revealed],
        "effects": [
            {
                "card": e.card,
                "name": components.card(e.card).design.name,
                "effect": e.effect,
                "params": dict(e.params),
                "first_turn": e.first_turn,
                "last_turn": e.last_turn,
                "active": e.active(state.turn.number),
            }
            for e in ledger.lasting
        ],
        "emergency_repair": repair,
    }


def _turn_json(state: ClacksState) -> dict[str, Any]:
    turn = state.turn
    return {
        "seat": turn.seat.label,
        "number": turn.number,
        "round": turn.round,
        "stress_spent": turn.stress_spent,
        "jacquards_played": turn.jacquards_played,
        "jacquard_limit": jacquard_limit(state),
        "flipped": lamps_of(turn.flipped),
    }


def _hand_visible(state: ClacksState, viewer: Seat | None, owner: Seat) -> bool:
    if viewer is owner:
        return True
    return state.team is not None and not state.options.long_distance


def _you(
    state: ClacksState, components: ComponentSet, seat: Seat | None, can_undo: bool
) -> dict[str, Any] | None:
    if seat is None or seat not in state.players:
        return None
    me = state.players[seat]
    you: dict[str, Any] = {
        "seat": seat.label,
        "hand": [jacquard_json(components.jacquards[j]) for j in me.hand],
        "can_undo": can_undo,
    }
    if state.team is not None:
        lifted = state.team.lifted
        you["lifted"] = lifted if seat is state.turn.seat else None
    return you


def build_team_view(
    state: ClacksState, components: ComponentSet, seat: Seat | None, can_undo: bool = False
) -> dict[str, Any]:
    team = state.team
    assert team is not None
    route = components.routes[team.route]
    players = []
    for s in state.order:
        p = state.players[s]
        entry: dict[str, Any] = {
            "seat": s.label,
            "colour": s.colour.value,
            "hand_count": len(p.hand),
            "last_turn_stress": p.last_turn_stress,
        }
        if _hand_visible(state, seat, s):
            entry["hand"] = [jacquard_json(components.jacquards[j]) for j in p.hand]
        players.append(entry)
    turn = _turn_json(state)
    turn.update(
        {
            "stress_surcharge": surcharge(state),
            "swapped": team.swapped,
            "lifted_pending": team.lifted is not None,
            "post_office_steps": team.turn_steps,
            "post_office_cap": team.turn_cap,
        }
    )
    view: dict[str, Any] = {
        **table_json(state),
        "players": players,
        "route": route_json(route),
        "message": {
            "words": list(team.words),
            "spelled": spelled_words(state, components, team.words),
            "symbols": list(team.message),
            "progress": team.progress,
            "next_symbol": team.next_symbol,
            "towers_lit": list(route.towers[: team.progress]),
        },
        "post_office": {
            "position": team.post_office,
            "track": team.track,
            "steps_left": team.track - team.post_office,
            "at": START if team.post_office == 0 else None,
        },
        "stress_total": team.stress_total,
        "slots": [_slot_json(components, team, slot.id) for slot in team.slots],
        **_ledger_json(state, components, team.ledger, Context.NIGHT_SHIFT),
        "turn": turn,
        "bag_count": len(state.bag),
        "discard": [jacquard_json(components.jacquards[j]) for j in state.discard],
        "fault_deck_count": len(state.fault_deck) if state.options.night_shift else None,
        "set_aside_count": len(team.set_aside),
        "result": team.result,
        "winners": [s.label for s in state.winners],
        "end_reason": state.end_reason,
        "you": _you(state, components, seat, can_undo),
    }
    return view


def _slot_json(components: ComponentSet, team: TeamState, slot_id: str) -> dict[str, Any]:
    slot = team.slot(slot_id)
    assert slot is not None
    face_up = slot.kind == "incident" and slot.jacquard is not None
    return {
        "id": slot.id,
        "kind": slot.kind,
        "taken": slot.taken,
        # Incident Reports carry a face-up Jacquard; an Operator's Log's lies face down
        "jacquard": jacquard_json(components.jacquards[slot.jacquard])
        if face_up and slot.jacquard
        else None,
        "lift_cost": 1 if slot.kind == "log" else 0,
    }


def build_junior_view(
    state: ClacksState, components: ComponentSet, seat: Seat | None, can_undo: bool = False
) -> dict[str, Any]:
    race = state.race
    assert race is not None
    players = []
    for s in state.order:
        p = state.players[s]
        route = components.routes[race.routes[s]]
        players.append(
            {
                **message_json(state, components, s),
                "route": route.id,
                "pawn_at": route.towers[p.progress - 1] if p.progress else START,
                "next_fault_tower": next((n for n in route.fault_towers if n > p.progress), None),
                "finished": p.finished,
                "hand_count": len(p.hand),
            }
        )
    return {
        **table_json(state),
        "players": players,
        "routes": {r: route_json(components.routes[r]) for r in sorted(set(race.routes.values()))},
        **_ledger_json(state, components, ledger_of(state), Context.JUNIOR),
        "turn": _turn_json(state),
        "bag_count": len(state.bag),
        "discard": [jacquard_json(components.jacquards[j]) for j in state.discard],
        "fault_deck_count": len(state.fault_deck),
        "winner": state.winner.label if state.winner else None,
        "winners": [s.label for s in state.winners],
        "end_reason": state.end_reason,
        "you": _you(state, components, seat, can_undo),
    }
