"""What a seat (or the table) may see of a Klackers match.

Klackers has no hands: every player's numbers, the dice and the chips are on the table.
What must never leave the engine is the seed and the state of the dice generator (with
them the next rolls could be foretold), and the undo bookkeeping. So the view is built
field by field from an allow-list, never by copying the state, and a field added to the
state later stays private until it is added here.
"""

from __future__ import annotations

from typing import Any

from engine.klackers.numbers import (
    ALL_STANDING,
    combinations,
    numbers_of,
    one_die_allowed,
    total,
)
from engine.klackers.state import KlackersState


def build_view(state: KlackersState, seat: str | None, can_undo: bool) -> dict[str, Any]:
    turn = state.turn
    rnd = state.round
    players = []
    for player in state.players.values():
        players.append(
            {
                "seat": player.seat,
                "standing": list(numbers_of(player.standing)),
                "down": list(numbers_of(ALL_STANDING & ~player.standing)),
                "standing_total": total(player.standing),
                "score": player.score,
                "chips": player.chips,
                "rounds_won": player.rounds_won,
                "klacks": player.klacks,
            }
        )
    turn_view: dict[str, Any] | None = None
    if turn is not None:
        standing = state.players[turn.seat].standing
        turn_view = {
            "seat": turn.seat,
            "phase": turn.phase,
            "dice": list(turn.dice),
            "total": turn.roll_total if turn.dice else None,
            "rolls": turn.rolls,
            "pulls": [list(p) for p in turn.pulls],
            "one_die_allowed": turn.phase == "roll" and one_die_allowed(standing),
            "combinations": [list(numbers_of(c)) for c in combinations(standing, turn.roll_total)]
            if turn.phase == "pull"
            else [],
        }
    view: dict[str, Any] = {
        "game": "klackers",
        "options": state.options.to_json(),
        "players": players,
        "round": {
            "number": rnd.number,
            "value": rnd.value,
            "order": list(rnd.order),
            "played": rnd.played,
            "klackers": list(rnd.klackers),
        },
        "turn": turn_view,
        "opening": [dict(r) for r in state.opening],
        "results": [r.to_json() for r in state.results],
        "over": state.over,
        "winners": list(state.winners),
        "you": None,
    }
    if seat is not None and seat in state.players:
        view["you"] = {"seat": seat, "can_undo": can_undo}
    return view
