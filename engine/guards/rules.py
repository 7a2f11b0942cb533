"""Every action's handler, and applying one: the rules' single entry point.

``apply`` checks that the action is one the acting seat may make at all, hands it to its
handler and returns the public events. A handler raises an IllegalAction subclass (the
state unchanged) or changes the state and says what happened.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.guards import dragons, magic, places, recruiting, rolls, runs, sabotage, setup, turns
from engine.guards.actions import Action
from engine.guards.common import Handler, require_pending, require_playing
from engine.guards.errors import GameIsOver, NotNow, NotYourTurn
from engine.guards.events import Event
from engine.guards.state import GameState, Pending

HANDLERS: dict[str, Handler] = {}


def handles(*names: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = handler
        return handler

    return register


@handles("roll")
def roll(state: GameState, action: Action) -> list[Event]:
    if state.phase == "start":
        return setup.roll_for_start(state, action)
    require_playing(state)
    pending = require_pending(state, action.seat, "test")
    return rolls.answer(state, pending)


HANDLERS.update(
    {
        "choose_guild": setup.choose_guild,
        "dealt": setup.dealt,
        "end_turn": turns.end_turn,
        "stop_game": turns.stop_game,
        "adjust": turns.adjust,
        "ailment": turns.ailment,
        "miss_turn": turns.miss_turn,
        "discard": turns.discard,
        "pay": turns.pay,
        "spend_point": turns.spend_point,
    }
)
SECTIONS = (recruiting, places, runs, sabotage, magic, dragons)
Decline = Callable[[GameState, Pending, Action], list[Event]]
DECLINES: dict[str, Decline] = {}
DECLINES["point"] = turns.forfeit_point
for section in SECTIONS:
    HANDLERS.update(section.HANDLERS)
    DECLINES.update(getattr(section, "DECLINES", {}))


@handles("decline")
def decline(state: GameState, action: Action) -> list[Event]:
    """No to what the game offers this seat: a Bribe, an extra recruit, a re-plant..."""
    require_playing(state)
    top = state.top
    if top is None or top.kind not in DECLINES:
        raise NotNow(reason="nothing_offered")
    pending = require_pending(state, action.seat, top.kind)
    return DECLINES[pending.kind](state, pending, action)


def apply(state: GameState, action: Action) -> list[Event]:
    if state.phase == "over":
        raise GameIsOver(reason="over")
    if action.seat is None or action.seat not in state.players:
        raise NotYourTurn(reason="players_only")
    handler = HANDLERS.get(action.type)
    if handler is None:
        raise NotYourTurn(reason="not_yet", action=action.type)
    events = handler(state, action)
    state.steps += 1
    return events
