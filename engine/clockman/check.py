"""The Prüfungsregel: once a winner reaches the Clockman field, the others may ask to see
the event cards still lying face down in front of them. If any should have been laid
face up or played at once, the win may be revoked; a revoked winner is out, and play
goes on while two players remain (ruling 9), else the last one wins.

A winner with no face-down card wins at once. Otherwise any other player still in the
game answers: ``confirm`` (no inspection), or ``inspect`` with the kind each face-down
card turned out to be; if one was misplayed, any of them may ``revoke`` the win or
``confirm`` it.
"""

from __future__ import annotations

from engine.clockman.actions import Action
from engine.clockman.errors import BadCheck, GameIsOver, NotYourTurn
from engine.clockman.events import Event
from engine.clockman.state import Check, ClockmanState, Player
from engine.clockman.turns import finish, next_in_play, start_turn


def reached_centre(state: ClockmanState, player: Player) -> list[Event]:
    player.status = "won"
    events = [Event.of("reached_centre", player.seat)]
    hidden = tuple(c.id for c in player.cards if c.kind == "hidden")
    if not hidden:
        return events + finish(state, [player.seat], "centre")
    state.check = Check(player.seat, hidden)
    state.offer = None
    return [*events, Event.of("check_asked", player.seat, cards=len(hidden))]


def _require_check(state: ClockmanState, seat: str) -> Check:
    if state.turn is None:
        raise GameIsOver(reason="over")
    check = state.check
    if check is None:
        raise BadCheck(reason="nobody")
    if seat == check.winner or not state.players[seat].in_play:
        raise NotYourTurn(reason="check", current=check.winner)
    return check


def inspect(state: ClockmanState, action: Action) -> list[Event]:
    check = _require_check(state, action.seat)
    if check.stage != "check":
        raise BadCheck(reason="inspected")
    kinds = action.texts("kinds")
    if len(kinds) != len(check.cards):
        raise BadCheck(reason="count", cards=len(check.cards))
    misplayed = sum(kind != "hidden" for kind in kinds)
    winner = state.players[check.winner]
    labels = {c.id: c.label for c in winner.cards}
    shown = [
        {"card": c, "kind": k, "label": labels.get(c, "")}
        for c, k in zip(check.cards, kinds, strict=True)
    ]
    events = [
        Event.of("inspected", action.seat, winner=check.winner, cards=shown, misplayed=misplayed)
    ]
    if not misplayed:
        return events + finish(state, [check.winner], "centre_checked")
    state.check = Check(check.winner, check.cards, "verdict", kinds)
    return events


def confirm(state: ClockmanState, action: Action) -> list[Event]:
    check = _require_check(state, action.seat)
    events = [Event.of("win_confirmed", action.seat, winner=check.winner)]
    reason = "centre" if check.stage == "check" else "centre_confirmed"
    return events + finish(state, [check.winner], reason)


def revoke(state: ClockmanState, action: Action) -> list[Event]:
    check = _require_check(state, action.seat)
    if check.stage != "verdict":
        raise BadCheck(reason="not_inspected")
    winner = state.players[check.winner]
    winner.status = "out"
    state.check = None
    events = [Event.of("win_revoked", check.winner, by=action.seat)]
    left = [p.seat for p in state.players.values() if p.in_play]
    if len(left) < 2:
        return events + finish(state, left, "last_player")
    turn = state.turn
    assert turn is not None
    following = next_in_play(state, check.winner)
    assert following is not None
    return events + start_turn(state, following, turn.number + 1)
