"""Saboteurs: planting, recalling, and striking at a Spell Run; Ambush combat.

Planting is tried at the beginning of one's turn: a Brethren Volunteer (with one Item if
wished), a Guild test of 5, and the Saboteur goes face down in a quadrant, with the
player's marker for it: one Saboteur a quadrant. Where it is stays on its owner's phone.
A Saboteur comes back to the hand only in its owner's turn, and not to be planted again
that turn. Once a Spell Run is announced, its opponents may neither plant nor move one
until the runner's next turn (ruling 10).

When runners pass through quadrants, every opponent with a Saboteur planted anywhere is
asked (so the question itself gives nothing away) whether one of theirs on the route
strikes. Strikes are made quadrant by quadrant along the route; several in one quadrant
make Guild tests and only the highest strikes, ties rolling again (scenario 13).

- **Alter Allegiance:** a runner picked at random (by the companion's die) makes a
  Loyalty test of 7; failing, it goes over to the attacker with its Item (ruling 11).
- **Ambush:** the runner's player picks who faces the Saboteur; the combat's steps in
  the rulebook's order: the attacker's magic, the defender's magic (each casts Scrolls or
  uses Items, then says done), then an open Brawl roll against an open Toughness roll, a hit only when greater (ruling 5); a miss gives the
  defender one counter-attack, the same way round the other way.

A Saboteur that wins may be planted again at once, in secret and without a test, but it
does not strike the same run again.
"""

from __future__ import annotations

from typing import Any

from engine.guards import dice, rolls
from engine.guards.actions import Action
from engine.guards.common import (
    back_to_hand,
    discard_volunteer,
    handlers,
    other_seats,
    own,
    put,
    require_pending,
    require_turn,
)
from engine.guards.errors import SaboteurRule, SaboteursLocked, TurnNotBegun
from engine.guards.events import Event, ev
from engine.guards.gate import final_rolls, skill_of, to_gate
from engine.guards.state import Combat, GameState, Pending

PLANT_TARGET = 5
LOYALTY_TARGET = 7
METHODS = ("alter", "ambush")


def locked_by(state: GameState, seat: str) -> str | None:
    """The opponent whose Spell Run, announced this round, keeps ``seat``'s Saboteurs
    where they are, if any."""
    announcers = state.locks if state.options.letter else [state.lock] if state.lock else []
    return next((s for s in announcers if s != seat), None)


def require_unlocked(state: GameState, seat: str) -> None:
    announcer = locked_by(state, seat)
    if announcer is not None:
        raise SaboteursLocked(seat=announcer)


def plant(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    if turn.began or turn.stopped:
        raise TurnNotBegun(reason="plant")
    if turn.planted:
        raise SaboteurRule(reason="one_attempt")
    if turn.recalled:
        raise SaboteurRule(reason="recalled")
    require_unlocked(state, seat)
    card = own(state, seat, action["card"], "volunteer")
    values = state.volunteer(card.uid)
    if not values.brethren:
        raise SaboteurRule(reason="not_brethren", card=values.name)
    quadrant = action["quadrant"]
    player = state.players[seat]
    if quadrant in player.planted:
        raise SaboteurRule(reason="one_marker", quadrant=quadrant)
    item = own(state, seat, action["item"], "item").uid if action["item"] is not None else None
    turn.planted = True
    base = player.effective("guild")
    spec = rolls.TestSpec("plant", "plain", seat, base, PLANT_TARGET, (("guild", base),))
    _rolled, passed, events = rolls.make(state, spec)
    if not passed:
        return [*events, ev("plant_failed", seat)]
    put(state, card.uid, f"planted:{seat}:{quadrant}")
    if item is not None:
        put(state, item, f"carried:{seat}")
        card.item = item
    return [*events, ev("planted", seat, saboteurs=len(player.planted))]


def recall(state: GameState, action: Action) -> list[Event]:
    seat = action.seat
    assert seat is not None
    turn = require_turn(state, seat)
    require_unlocked(state, seat)
    card = own(state, seat, action["card"], "volunteer", where="planted")
    back_to_hand(state, seat, card.uid)
    turn.recalled = True
    return [ev("recalled", seat, saboteurs=len(state.players[seat].planted))]


def planted_quadrant(state: GameState, uid: str) -> str | None:
    place = state.cards[uid].place
    return place.split(":")[2] if place.startswith("planted:") else None


# --------------------------------------------------------------------- the window


def pool(state: GameState, target: str) -> list[str]:
    """The Volunteers a strike may reach: a run's runners, or those with the Final Spell."""
    player = state.players[target]
    if player.run is not None:
        return list(player.run.runners)
    return list(player.hand)


def open_window(state: GameState, target: str, kind: str, route: list[str]) -> list[Event]:
    state.raid = {"target": target, "kind": kind, "route": list(route)}
    state.strikes = []
    asked = [s for s in other_seats(state, target) if state.players[s].planted] if route else []
    player = state.players[target]
    if player.run is not None:
        player.run.stage = "window" if asked else "strikes"
    if not asked:
        return arrive(state)
    state.pending.append(Pending("window", asked, {"target": target}))
    return [ev("sabotage_window", target, asked=asked)]


def can_strike(state: GameState, seat: str) -> list[str]:
    """``seat``'s Saboteurs on the route that have not struck at this run."""
    raid = state.raid
    assert raid is not None
    done = {s["card"] for s in state.strikes}
    run = state.players[raid["target"]].run
    struck = set(run.struck) if run is not None else set()
    return [uid for q, uid in state.players[seat].planted.items()
            if q in raid["route"] and uid not in done and uid not in struck]


def strike(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "window")
    seat = action.seat
    assert seat is not None
    card = own(state, seat, action["card"], "volunteer", where="planted")
    if action["method"] not in METHODS:
        raise SaboteurRule(reason="method", method=str(action["method"]))
    if card.uid not in can_strike(state, seat):
        raise SaboteurRule(reason="not_on_route", card=state.volunteer(card.uid).name)
    state.strikes.append({"seat": seat, "card": card.uid, "method": action["method"],
                          "quadrant": planted_quadrant(state, card.uid)})
    if not can_strike(state, seat):
        pending.seats.remove(seat)
    return close_window(state, pending)


def let_pass(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "window")
    assert action.seat is not None
    pending.seats.remove(action.seat)
    return [ev("let_pass", action.seat), *close_window(state, pending)]


def close_window(state: GameState, pending: Pending) -> list[Event]:
    if pending.seats:
        return []
    state.pending.remove(pending)
    raid = state.raid
    assert raid is not None
    target = state.players[raid["target"]]
    if target.run is not None:
        target.run.stage = "strikes"
    events: list[Event] = []
    ordered: list[dict[str, Any]] = []
    for quadrant in raid["route"]:
        here = [s for s in state.strikes if s["quadrant"] == quadrant]
        if len(here) > 1:
            winner, contest = contest_in(state, quadrant, here)
            events += contest
            here = [winner]
        ordered += here
    state.strikes = ordered
    return events + carry_on(state)


def contest_in(state: GameState, quadrant: str, strikes: list[dict[str, Any]]) -> tuple[dict[str, Any], list[Event]]:
    """Several Saboteurs in one quadrant: Guild tests, the highest strikes; only those
    tied for the highest roll again."""
    rounds: list[dict[str, int]] = []
    contenders = list(strikes)
    while True:
        totals = {}
        for s in contenders:
            face = dice.roll_die(state.rng)
            totals[s["seat"]] = 0 if face == 1 else state.players[s["seat"]].effective("guild") + face
        rounds.append(totals)
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s["seat"]] == best]
        if len(contenders) == 1:
            return contenders[0], [ev("saboteurs_contest", contenders[0]["seat"], quadrant=quadrant,
                                      rounds=rounds)]


def carry_on(state: GameState) -> list[Event]:
    """The next strike, or the runners go on to the Gate."""
    raid = state.raid
    assert raid is not None
    target = raid["target"]
    while state.strikes:
        chosen = state.strikes.pop(0)
        if planted_quadrant(state, chosen["card"]) != chosen["quadrant"] or not pool(state, target):
            continue
        return begin_strike(state, chosen)
    return arrive(state)


def arrive(state: GameState) -> list[Event]:
    raid = state.raid
    assert raid is not None
    target = raid["target"]
    state.raid = None
    if raid["kind"] == "run":
        return to_gate(state, target)
    return final_rolls(state, target)


def begin_strike(state: GameState, chosen: dict[str, Any]) -> list[Event]:
    raid = state.raid
    assert raid is not None
    target, attacker, saboteur = raid["target"], chosen["seat"], chosen["card"]
    run = state.players[target].run
    if run is not None:
        run.struck.append(saboteur)
    runners = pool(state, target)
    name = state.volunteer(saboteur).name
    if chosen["method"] == "alter":
        runner = runners[state.rng.below(len(runners))]
        rolls.ask(state, "loyalty", target, runner=runner, attacker=attacker, saboteur=saboteur)
        return [ev("alter_allegiance", attacker, target=target, quadrant=chosen["quadrant"], saboteur=name,
                   runner=state.volunteer(runner).name)]
    events = [ev("ambush", attacker, target=target, quadrant=chosen["quadrant"], saboteur=name)]
    if len(runners) == 1:
        return events + start_combat(state, attacker, saboteur, chosen["quadrant"], target, runners[0])
    state.pending.append(Pending("runner", [target], {"attacker": attacker, "saboteur": saboteur,
                                                      "quadrant": chosen["quadrant"]}))
    return events


def loyalty_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    runner = context["runner"]
    value = skill_of(state, runner, "loyalty")
    return rolls.TestSpec("loyalty", "plain", context["seat"], value, LOYALTY_TARGET,
                          ((state.volunteer(runner).name, value),), extra={"card": state.volunteer(runner).name})


def after_loyalty(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                  context: dict[str, Any]) -> list[Event]:
    runner, attacker, target = context["runner"], context["attacker"], context["seat"]
    name = state.volunteer(runner).name
    if passed:
        return [ev("allegiance_held", target, runner=name), *carry_on(state)]
    card = state.cards[runner]
    put(state, runner, f"hand:{attacker}")
    if card.item is not None:
        put(state, card.item, f"hand:{attacker}")  # the Item goes with the Volunteer (ruling 11)
        card.item = None
    events = [ev("allegiance_changed", target, runner=name, to=attacker)]
    return events + offer_replant(state, attacker, context["saboteur"])


def offer_replant(state: GameState, seat: str, saboteur: str) -> list[Event]:
    # the Saboteur's id stays off the public view: it is about to hide again
    state.pending.append(Pending("replant", [seat], {"saboteur": saboteur}))
    return []


def replant(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "replant")
    seat = action.seat
    assert seat is not None
    saboteur = pending.data["saboteur"]
    quadrant = action["quadrant"]
    current = planted_quadrant(state, saboteur)
    player = state.players[seat]
    if quadrant != current and quadrant in player.planted:
        raise SaboteurRule(reason="one_marker", quadrant=quadrant)
    state.pending.remove(pending)
    if quadrant != current:
        put(state, saboteur, f"planted:{seat}:{quadrant}")
    return [ev("replanted", seat), *carry_on(state)]


def decline_replant(state: GameState, pending: Pending, action: Action) -> list[Event]:
    state.pending.remove(pending)
    return carry_on(state)


# --------------------------------------------------------------------- Ambush


def pick_runner(state: GameState, action: Action) -> list[Event]:
    pending = require_pending(state, action.seat, "runner")
    seat = action.seat
    assert seat is not None
    runner = action["card"]
    if runner not in pool(state, seat):
        raise SaboteurRule(reason="own_runner")
    state.pending.remove(pending)
    data = pending.data
    return start_combat(state, data["attacker"], data["saboteur"], data["quadrant"], seat, runner)


def start_combat(state: GameState, attacker: str, saboteur: str, quadrant: str, defender: str,
                 runner: str) -> list[Event]:
    state.combat = Combat(attacker, saboteur, quadrant, defender, runner)
    if state.options.letter:
        # "1. Offensive magic ... 2. Defensive magic ... 3. Offensive Brawl Test": each
        # side may cast Scrolls or use Items, in that order, before the Brawl roll
        state.pending.append(Pending("magic_attack", [attacker], {"quadrant": quadrant}))
    else:
        rolls.ask(state, "attack", attacker)
    return [ev("combat", attacker, target=defender, runner=state.volunteer(runner).name,
               saboteur=state.volunteer(saboteur).name)]


def sides(combat: Combat) -> tuple[str, str, str, str]:
    """(striking seat, its Volunteer, struck seat, its Volunteer) for the blow under way."""
    if combat.stage in ("attack", "defence"):
        return combat.attacker, combat.saboteur, combat.defender, combat.runner
    return combat.defender, combat.runner, combat.attacker, combat.saboteur


def blow_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    combat = state.combat
    assert combat is not None
    striker, hitter, _struck, victim = sides(combat)
    brawl = skill_of(state, hitter, "brawl")
    toughness = skill_of(state, victim, "toughness")
    return rolls.TestSpec(combat.stage, "open", striker, brawl, 0, ((state.volunteer(hitter).name, brawl),),
                          against=toughness, verdict=False,
                          extra={"card": state.volunteer(hitter).name, "against_card": state.volunteer(victim).name})


def guard_spec(state: GameState, context: dict[str, Any]) -> rolls.TestSpec:
    combat = state.combat
    assert combat is not None
    _striker, _hitter, struck, victim = sides(combat)
    toughness = skill_of(state, victim, "toughness")
    return rolls.TestSpec(combat.stage, "open", struck, toughness, combat.attack_total,
                          ((state.volunteer(victim).name, toughness),), extra={"card": state.volunteer(victim).name})


def after_blow(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
               context: dict[str, Any]) -> list[Event]:
    combat = state.combat
    assert combat is not None
    if rolled.natural == 1:
        return missed(state)
    combat.attack_total = spec.base + rolled.value
    combat.attack_natural = rolled.natural
    combat.stage = "defence" if combat.stage == "attack" else "counter_defence"
    _striker, _hitter, struck, _victim = sides(combat)
    rolls.ask(state, combat.stage, struck)
    return []


def after_guard(state: GameState, spec: rolls.TestSpec, rolled: dice.Roll, passed: bool,
                context: dict[str, Any]) -> list[Event]:
    if passed:  # equal or better: no hit (a natural 1 never holds)
        return missed(state)
    return hit(state)


def missed(state: GameState) -> list[Event]:
    combat = state.combat
    assert combat is not None
    striker = sides(combat)[0]
    if combat.stage in ("attack", "defence"):
        combat.stage = "counter"
        rolls.ask(state, "counter", combat.defender)
        return [ev("blow_missed", striker, counter=True)]
    state.combat = None
    return [ev("blow_missed", striker, counter=False), *carry_on(state)]


def hit(state: GameState) -> list[Event]:
    combat = state.combat
    assert combat is not None
    striker, _hitter, struck, victim = sides(combat)
    state.combat = None
    name = state.volunteer(victim).name
    card = state.cards[victim]
    item = card.item
    card.item = None
    discard_volunteer(state, victim)
    if item is not None:
        put(state, item, f"hand:{striker}")  # the victor takes the defeated one's Item
    events = [ev("defeated", struck, card=name, by=striker, item=item is not None)]
    if striker == combat.attacker:
        return events + offer_replant(state, combat.attacker, combat.saboteur)
    return events + carry_on(state)


rolls.purpose("loyalty", loyalty_spec, after_loyalty)
for blow in ("attack", "counter"):
    rolls.purpose(blow, blow_spec, after_blow)
for guard in ("defence", "counter_defence"):
    rolls.purpose(guard, guard_spec, after_guard)

HANDLERS = handlers(plant, recall, strike, let_pass, replant, pick_runner)
def magic_done(state: GameState, pending: Pending, action: Action) -> list[Event]:
    """A side of a combat has cast what it will: the defender's magic next, then the
    attacker's Brawl roll."""
    combat = state.combat
    assert combat is not None
    state.pending.remove(pending)
    if pending.kind == "magic_attack":
        state.pending.append(Pending("magic_defence", [combat.defender], {"quadrant": combat.quadrant}))
        return [ev("combat_magic_done", combat.attacker, side="attack")]
    rolls.ask(state, "attack", combat.attacker)
    return [ev("combat_magic_done", combat.defender, side="defence")]


DECLINES = {"replant": decline_replant, "magic_attack": magic_done, "magic_defence": magic_done}
