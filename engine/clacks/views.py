"""Per-seat views: what one seat (or a spectator) may see of the state.

Built field by field from an allow-list, never by copying the state and deleting what is
secret, so nothing hidden (other hands, bag or deck order, the seed or the generator, the
undo history) can slip into a view when the state grows new fields.
"""

from __future__ import annotations

from typing import Any

from engine.clacks.components import Card, ComponentSet, Jacquard
from engine.clacks.effects import COMPETITIVE_EFFECTS
from engine.clacks.geometry import Seat, lamps_of
from engine.clacks.state import ClacksState

RECENT = 6  # the top of the face-up discard pile shown with a view


def jacquard_json(card: Jacquard) -> dict[str, Any]:
    return {
        "id": card.id,
        "design": card.design.id,
        "name": card.design.name,
        "cost": card.cost,
        "fault": card.fault,
        "holes": card.design.picture(),
    }


def card_json(card: Card) -> dict[str, Any]:
    spec = COMPETITIVE_EFFECTS.get(card.design.effect)
    return {
        "id": card.id,
        "design": card.design.id,
        "name": card.design.name,
        "text": card.design.text,
        "effect": card.design.effect,
        "when": card.design.when.value,
        "target": spec.target.value if spec else "none",
        "params": dict(card.design.params),
    }


# Options that mean something in each mode; the rest are left out of views.
MODE_OPTIONS = {
    "competitive": (
        "mode",
        "seats",
        "express",
        "long_message",
        "quick",
        "turn_seconds",
        "start_time",
        "stress_limit",
        "hand_size",
    ),
    "coop": ("mode", "seats", "route", "long_distance", "night_shift"),
    "solitaire": ("mode", "seats", "route", "night_shift"),
    "junior": ("mode", "seats", "route"),
}


def public_options(state: ClacksState) -> dict[str, Any]:
    """The options that matter in this mode (players' words are shown separately)."""
    options = state.options.to_json()
    return {k: options[k] for k in MODE_OPTIONS[state.options.mode]}


def spelled_words(state: ClacksState, components: ComponentSet, words: list[str]) -> list[str]:
    """``words`` as written: as the players typed them (ŘEKA) for their own words, as
    the cards print them (KOČÁR) for dealt ones; the lamps spell the plain letters."""
    typed = state.options.spelled(words)
    return typed if typed is not None else [components.spelled(w) for w in words]


def hints_allowed(state: ClacksState) -> bool:
    """Whether a hint feature may help this game's players (not in Long Distance)."""
    return state.options.hints_allowed


def table_json(state: ClacksState) -> dict[str, Any]:
    """What every mode's view opens with: the game, its mode and options, the board."""
    return {
        "game": "clacks",
        "mode": state.options.mode,
        "options": public_options(state),
        "hints_allowed": hints_allowed(state),
        "board": state.board,
        "lit": lamps_of(state.board),
    }


def message_json(state: ClacksState, components: ComponentSet, seat: Seat) -> dict[str, Any]:
    """What every mode's view tells of a player sending a message of their own."""
    player = state.players[seat]
    return {
        "seat": seat.label,
        "colour": seat.colour.value,
        "words": list(player.words),
        # as written (KOČÁR, a typed ŘEKA), beside the letters the lamps spell
        "spelled": spelled_words(state, components, player.words),
        "message": list(player.message),
        "progress": player.progress,
        "next_symbol": player.next_symbol,
    }


def build_view(
    state: ClacksState,
    components: ComponentSet,
    seat: Seat | None,
    can_undo: bool = False,
    deadline: float | None = None,
) -> dict[str, Any]:
    turn = state.turn
    players = []
    for s in state.order:
        p = state.players[s]
        players.append(
            {
                **message_json(state, components, s),
                "pawn": p.pawn,
                "must_leave": p.must_leave,
                "sabotaged": p.sabotaged,
                "finished": p.finished,
                "hand_count": len(p.hand),
                "fault_count": len(p.faults),
                "last_turn_stress": p.last_turn_stress,
            }
        )
    view: dict[str, Any] = {
        **table_json(state),
        "players": players,
        "dwarf": state.dwarf,
        "dwarf_seat": state.options.dwarf_seat.label if state.options.dwarf_seat else None,
        "turn": {
            "seat": turn.seat.label,
            "number": turn.number,
            "round": turn.round,
            "phase": turn.phase,
            "stress_spent": turn.stress_spent,
            "stress_limit": turn.stress_limit,
            "stress_left": turn.stress_limit - turn.stress_spent,
            "jacquards_played": turn.jacquards_played,
            "can_move": turn.can_move,
            # where the pawn stood when the turn began: the Deep Dwarf goes there on a move
            "start_tower": turn.start_tower,
            "flipped": lamps_of(turn.flipped),
            "started_at": turn.started_at if state.options.express else None,
            "deadline": deadline,
        },
        "sabotage": None
        if state.sabotage is None
        else {"target": state.sabotage.target.label, "tower": state.sabotage.tower},
        "bag_count": len(state.bag),
        "discard_count": len(state.discard),
        "recently_played": [
            jacquard_json(components.jacquards[j]) for j in state.discard[-RECENT:][::-1]
        ],
        "fault_deck_count": len(state.fault_deck),
        "finishers": [s.label for s in state.finishers],
        "winner": state.winner.label if state.winner else None,
        "winners": [s.label for s in state.winners],
        "end_reason": state.end_reason,
        "you": None,
    }
    if seat is not None and seat in state.players:
        me = state.players[seat]
        view["you"] = {
            "seat": seat.label,
            "hand": [jacquard_json(components.jacquards[j]) for j in me.hand],
            "faults": [card_json(components.faults[f]) for f in me.faults],
            "can_undo": can_undo,
        }
    return view
