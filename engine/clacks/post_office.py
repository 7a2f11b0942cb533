"""The Ankh-Morpork Post Office marker on its track to Genua, and how the race ends.

The marker moves as soon as stress is spent (the Czech rulebook: "each stress point
spent immediately moves the postman"), so the table sees it advance Jacquard by
Jacquard. The moment it reaches Genua the team has lost. A message whose END would be
sent on that turn therefore arrives too late: when both arrive on the same turn the
race goes to the Post Office, as both rulebooks say.

Every move is one "post_office_moved" event carrying the steps actually moved (negative
when it goes back), the steps a cap held back and the cause ("stress" for Jacquards,
"lift" for the extra point of an Operator's Log, "card" for card effects), so the
position can be recomputed from the events alone.
"""

from __future__ import annotations

from engine.clacks.events import Event, event
from engine.clacks.mode_state import TeamState
from engine.clacks.state import ClacksState


def _team(state: ClacksState) -> TeamState:
    team = state.team
    assert team is not None, "only the co-op and solitaire games have a Post Office"
    return team


def advance(state: ClacksState, steps: int, cause: str) -> list[Event]:
    """Move the Post Office ``steps`` towards Genua, as far as this turn's cap allows."""
    team = _team(state)
    if steps <= 0 or state.over:
        return []
    allowed = steps
    if team.turn_cap is not None:
        allowed = max(0, min(steps, team.turn_cap - team.turn_steps))
    moved = min(allowed, team.track - team.post_office)
    team.post_office += moved
    team.turn_steps += moved
    events = [
        event(
            "post_office_moved",
            None,
            steps=moved,
            held=steps - allowed,
            cause=cause,
            position=team.post_office,
            track=team.track,
        )
    ]
    if team.post_office >= team.track:
        lose(state, events)
    return events


def delay(state: ClacksState, steps: int) -> list[Event]:
    """Send the Post Office back ``steps``, never behind Ankh-Morpork."""
    team = _team(state)
    moved = min(steps, team.post_office)
    team.post_office -= moved
    return [
        event(
            "post_office_moved",
            None,
            steps=-moved,
            held=0,
            cause="card",
            position=team.post_office,
            track=team.track,
        )
    ]


def lose(state: ClacksState, events: list[Event]) -> None:
    team = _team(state)
    team.result = "lost"
    state.end_reason = "post_office_arrived"
    events.append(event("race_lost", None, reason=state.end_reason))


def win(state: ClacksState, events: list[Event]) -> None:
    team = _team(state)
    team.result = "won"
    state.end_reason = "message_delivered"
    events.append(event("race_won", None, reason=state.end_reason))
