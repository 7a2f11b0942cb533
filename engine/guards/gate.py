"""The Start Gate: runners arriving there, the skills they bring, and Volunteers who must
join them.

Both a Spell Run (runs.py) and the Saboteurs' strikes on the way (sabotage.py) end here,
and the end of a turn (turns.py) checks that no Volunteer recruited during a run was kept
back, so these sit below all three.
"""

from __future__ import annotations

from engine.guards import rolls
from engine.guards.cards import Item
from engine.guards.errors import SendAtOnce
from engine.guards.events import Event, ev
from engine.guards.state import GameState, Turn

GATE_RUNNERS = 6
FINAL_TESTS = ("magic", "guild")


def item_bonus(state: GameState, runner: str, skill: str) -> int:
    card = state.cards[runner]
    if card.item is None:
        return 0
    values = state.cards[card.item].values
    assert isinstance(values, Item)
    return (values.bonus or {}).get(skill, 0)


def skill_of(state: GameState, uid: str, skill: str) -> int:
    return state.volunteer(uid).skill(skill) + item_bonus(state, uid, skill)


def to_gate(state: GameState, seat: str) -> list[Event]:
    """The runners left reach the Start Gate: the challenge's next test is rolled."""
    player = state.players[seat]
    run = state.run_of(seat)
    if not run.runners:
        player.run = None
        return [ev("run_failed", seat, reason="no_runners")]
    run.stage = "gate"
    rolls.ask(state, "challenge", seat)
    return [ev("runners_at_gate", seat, runners=len(run.runners))]


def final_rolls(state: GameState, seat: str) -> list[Event]:
    player = state.players[seat]
    final = state.final_of(seat)
    if not player.hand:
        return [ev("final_failed", seat, reason="no_volunteer")]
    final.at_gate = True
    left = [a for a in FINAL_TESTS if a not in final.passed]
    if state.options.letter:
        # "first rolling ... Magic ... and then roll again ... Guild": both rolls are made
        # (those not passed yet), whatever the first gives
        rolls.ask(state, "final", seat, left=left)
    else:
        rolls.ask(state, "final", seat)
    return []


def unsent(state: GameState, turn: Turn) -> list[str]:
    """Volunteers recruited this turn while runners wait at the Gate and not yet sent:
    "Any Volunteers recruited in this way must be sent immediately to assist in
    completing the Spell Run" (as many as the Gate has room for). Handed the turn, not a
    seat: it is asked only in its player's own turn (ending it, sending more runners, the
    forms for both), so no other seat's turn and no turn at all can reach it."""
    player = state.players[turn.seat]
    run = player.run
    if not state.options.letter or run is None or run.stage != "gate":
        return []
    room = GATE_RUNNERS - len(run.runners)
    return [u for u in turn.recruited if u in player.hand][:max(room, 0)]


def require_sent(state: GameState, turn: Turn, sending: list[str] | None = None) -> None:
    left = [u for u in unsent(state, turn) if u not in (sending or [])]
    if left:
        names = ", ".join(state.volunteer(u).name or "?" for u in left)
        raise SendAtOnce(names=names)
