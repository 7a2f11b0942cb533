"""Spell Runs, the Wizards' Challenges and the Final Spell.

On a Spell tile of one of their Great Spells a player sends up to four Volunteers (one
Item each) back to their Start Gate through the quadrants they announce; from then until
that player's next turn no opponent may plant or move a Saboteur (ruling 10). Opponents
with Saboteurs may strike on the way (sabotage.py). Runners that reach the Gate face the
next Wizard's Challenge: the sum of their Streetwise (1), Toughness (2), Loyalty (3), or
Brawl and then Streetwise (4), plus an open roll, against the challenge's target (house
values: challenges.toml). A pass returns the Spell: $5, an Attribute point, the runners
and their Items discarded. A fail ends the turn; the runners wait at the Gate, and next
turn the player tries again, adding Volunteers up to six in all (a half of Challenge 4
already passed stands: ruling 13).

The last Great Spell of the game's goal (ruling 14) is collected in person: the turn ends
there; the player walks back with at least one Volunteer and at the Gate rolls Magic,
then Guild, each against 9, both whatever the first gives; a failed one alone is tried
again on the next turn. A Volunteer recruited while runners wait at the Gate is sent to
them before the turn ends ("must be sent immediately").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import IllegalAction
from engine.guards import dice, rolls
from engine.guards.actions import Action
from engine.guards.common import (
    discard_volunteer,
    handlers,
    mark_began,
    own,
    put,
    require_turn,
)
from engine.guards.errors import RunRule, SpellRule, TooManyRunners
from engine.guards.events import Event, ev
from engine.guards.gate import (
    FINAL_TESTS,
    GATE_RUNNERS,
    require_sent,
    skill_of,
)
from engine.guards.recruiting import require_no_dragon, require_stop
from engine.guards.sabotage import open_window
from engine.guards.state import Final, GameState, Player, Run, Turn
from engine.guards.turns import check_win, finish_turn, grant_point

FIRST_RUNNERS = 4
RETURN_PAY = 5
FINAL_TARGET = 9


def is_final(state: GameState, player: Player) -> bool:
    return len(player.returned) + 1 == state.options.spells


def require_spell(state: GameState, player: Player, spell: object) -> str:
    assert player.card is not None
    if spell not in player.card.spells:
        raise SpellRule(reason="not_yours", spell=str(spell), seat=player.seat)
    assert isinstance(spell, str)
    if spell in player.returned:
        raise SpellRule(reason="returned", spell=spell)
    if player.run is not None or player.final is not None:
        raise RunRule(reason="under_way")
    return spell


def equip(state: GameState, seat: str, runners: list[str], items: dict[str, str] | None) -> list[tuple[str, str]]:
    """Check the Items given to runners (each the player's own, one a runner)."""
    pairs = []
    for runner, item in (items or {}).items():
        if runner not in runners:
            raise RunRule(reason="item_alone")
        card = own(state, seat, item, "item")
        pairs.append((runner, card.uid))
    return pairs


def sent_out(state: GameState, seat: str, uids: list[str], items: dict[str, str] | None, most: int,
             none: IllegalAction, too_many: Callable[[int], IllegalAction]) -> tuple[list[str], list[tuple[str, str]]]:
    """The Volunteers a player sends out together (to a Spell Run or at a Dragon): their
    own, at least one (else ``none``), at most ``most`` (else ``too_many`` of the count),
    with the Items they carry (``equip``)."""
    sent = [own(state, seat, uid, "volunteer").uid for uid in uids]
    if not sent:
        raise none
    if len(sent) > most:
        raise too_many(len(sent))
    return sent, equip(state, seat, sent, items)


def carry(state: GameState, seat: str, pairs: list[tuple[str, str]]) -> None:
    for runner, item in pairs:
        put(state, item, f"carried:{seat}")
        state.cards[runner].item = item


def _spell_to_collect(state: GameState, action: Action) -> tuple[str, Turn, Player, str]:
    """The seat in turn at a stop, the player, and the Great Spell they go for: theirs to
    collect, in a quadrant with no Dragon."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    require_stop(turn)
    player = state.players[seat]
    spell = require_spell(state, player, action["spell"])
    require_no_dragon(state, action["quadrant"], "great_spell")
    return seat, turn, player, spell


def spell_run(state: GameState, action: Action) -> list[Event]:
    seat, turn, player, spell = _spell_to_collect(state, action)
    if is_final(state, player):
        raise SpellRule(reason="final_in_person")
    runners, pairs = sent_out(
        state, seat, action["runners"], action["items"], FIRST_RUNNERS, RunRule(reason="send_one"),
        lambda count: TooManyRunners(reason="set_out", runners=count, most=FIRST_RUNNERS))
    route = list(action["route"] or [])
    # checks done
    turn.stopped = "spell"
    mark_began(turn)
    player.run = Run(spell, len(player.returned) + 1, [], route)
    for uid in runners:
        put(state, uid, f"run:{seat}")
    carry(state, seat, pairs)
    state.lock = seat
    if state.options.letter and seat not in state.locks:
        state.locks.append(seat)  # two Spell Runs announced in one round freeze both ways
    events = [ev("run_announced", seat, spell=spell, route=route, challenge=player.run.challenge,
                 runners=[state.volunteer(u).name for u in runners])]
    return events + open_window(state, seat, "run", route)


def challenge_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    seat = context["seat"]
    run = state.run_of(seat)
    challenge = state.options.data.challenge(run.challenge)
    index = next(i for i in range(len(challenge.tests)) if i not in run.passed)
    skill, target = challenge.tests[index]
    parts = tuple((state.volunteer(u).name, skill_of(state, u, skill)) for u in run.runners)
    return rolls.TestSpec("challenge", "open", seat, sum(v for _, v in parts), target, parts,
                          house=challenge.house,
                          extra={"challenge": run.challenge, "test": index, "attribute": skill,
                                 "name": challenge.name})


def after_challenge(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                    context: dict[str, Any]) -> list[Event]:
    seat = spec.seat
    run = state.run_of(seat)
    if not passed:
        return finish_turn(state, "challenge")
    run.passed.append(spec.extra["test"])
    challenge = state.options.data.challenge(run.challenge)
    if len(run.passed) < len(challenge.tests):
        rolls.ask(state, "challenge", seat)
        return []
    return returned(state, seat)


def returned(state: GameState, seat: str) -> list[Event]:
    player = state.players[seat]
    run = state.run_of(seat)
    for uid in list(run.runners):
        discard_volunteer(state, uid)
    player.run = None
    player.returned.append(run.spell)
    player.dollars += RETURN_PAY
    if state.lock == seat and not state.options.letter:
        state.lock = None  # the first reading lifted the lock with the return
    events = [ev("spell_returned", seat, spell=run.spell, challenge=run.challenge, dollars=RETURN_PAY,
                 spells=len(player.returned))]
    won = check_win(state, seat)
    if won:
        return events + won
    return events + grant_point(state, seat)


def reattempt(state: GameState, action: Action) -> list[Event]:
    """Next turn: the runners at the Gate try again, with more from the hand if sent."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    player = state.players[seat]
    run = player.run
    if run is None or run.stage != "gate":
        raise RunRule(reason="none_at_gate")
    added = [own(state, seat, uid, "volunteer").uid for uid in action["runners"] or []]
    if len(run.runners) + len(added) > GATE_RUNNERS:
        raise TooManyRunners(reason="gate", there=len(run.runners), added=len(added), most=GATE_RUNNERS)
    require_sent(state, turn, added)
    pairs = equip(state, seat, added, action["items"])
    for uid in added:
        put(state, uid, f"run:{seat}")
    carry(state, seat, pairs)
    rolls.ask(state, "challenge", seat)
    return [ev("reattempt", seat, added=len(added), runners=len(run.runners))]


# --------------------------------------------------------------------- the Final Spell


def collect_final(state: GameState, action: Action) -> list[Event]:
    seat, turn, player, spell = _spell_to_collect(state, action)
    if not is_final(state, player):
        raise SpellRule(reason="only_final")
    if not player.hand:
        raise RunRule(reason="final_alone")
    turn.stopped = "spell"
    mark_began(turn)
    player.final = Final(spell)
    return [ev("final_collected", seat, spell=spell), *finish_turn(state, "final")]


def at_gate(state: GameState, action: Action) -> list[Event]:
    """Back at the Start Gate with the Final Spell (or there again to try the failed
    roll): opponents' Saboteurs in the quadrants passed may strike first."""
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    player = state.players[seat]
    final = player.final
    if final is None:
        raise RunRule(reason="no_final")
    if not final.at_gate:
        require_stop(turn)
    if not player.hand:
        raise RunRule(reason="gate_alone")
    route = list(action["route"] or [])
    if final.at_gate and route:
        raise RunRule(reason="at_gate")
    turn.stopped = "gate"
    mark_began(turn)
    events = [ev("at_gate", seat, route=route)]
    return events + open_window(state, seat, "final", route)


def final_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    seat = context["seat"]
    player = state.players[seat]
    final = state.final_of(seat)
    left = context.get("left")
    attribute = left[0] if left else next(a for a in FINAL_TESTS if a not in final.passed)
    value = player.effective(attribute)
    return rolls.TestSpec("final", "open", seat, value, FINAL_TARGET, ((attribute, value),),
                          extra={"challenge": 5, "attribute": attribute})


def after_final(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                context: dict[str, Any]) -> list[Event]:
    seat = spec.seat
    player = state.players[seat]
    final = state.final_of(seat)
    attribute = spec.extra["attribute"]
    if passed:
        final.passed.append(attribute)
    left = context.get("left")
    if left is not None and len(left) > 1:
        rolls.ask(state, "final", seat, left=left[1:])
        return []
    if len(final.passed) < len(FINAL_TESTS):
        if not passed or left is not None:
            # "If either roll fails, they must wait and re-attempt only the failed roll
            # on their next turn"
            return [ev("final_waits", seat, left=[a for a in FINAL_TESTS if a not in final.passed]),
                    *finish_turn(state, "challenge")]
        rolls.ask(state, "final", seat)
        return []
    player.final = None
    player.returned.append(final.spell)
    events = [ev("spell_returned", seat, spell=final.spell, challenge=5, dollars=0, spells=len(player.returned))]
    return events + check_win(state, seat)


rolls.purpose("challenge", challenge_spec, after_challenge)
rolls.purpose("final", final_spec, after_final)

HANDLERS = handlers(spell_run, reattempt, collect_final, at_gate)
