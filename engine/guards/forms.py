"""The reports a seat can make now, as forms the phone draws.

``legal_forms`` lists each action type the seat may send at this moment with the
choices its fields can take (the seat's own cards, the quadrants free of Dragons...). A
form only narrows the choices: the rules still check the report when it is sent and
refuse it, with the reason, if it does not fit.

A form: ``{"type", "group", "fields": [{"name", "kind", ...}], ...}``. Groups order the
phone's buttons: ``now`` (what the game waits for from this seat), ``setup``,
``start`` (the beginning of one's turn), ``pass`` (tiles passed through), ``stop`` (the
tile stopped on), ``free`` (any time in one's turn), ``react`` (in another player's
turn), ``track`` (the trackers: what a card's text changed), ``end``. A form whose test
is rolled as it is sent carries the exact chance of passing (``chance`` or a table of
chances by target, ``chances``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.guards import dice, rolls
from engine.guards.cards import ATTRIBUTES, DECKS, Item, Scroll, Volunteer
from engine.guards.common import anti_magic
from engine.guards.data import QUADRANTS
from engine.guards.dragons import BRETHREN_TO_SUMMON, MOST_FIGHTERS, brethren_in_hand, fighters_of
from engine.guards.gate import FINAL_TESTS, GATE_RUNNERS, unsent
from engine.guards.magic import ABILITY_TARGET, FIRE_WATER_GUILD
from engine.guards.runs import FIRST_RUNNERS, is_final
from engine.guards.sabotage import PLANT_TARGET, can_strike, locked_by, pool
from engine.guards.state import GameState, Pending, Player
from engine.guards.views import guild_house_ready

Form = dict[str, Any]


def field(name: str, kind: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, **more}


def form(type_: str, group: str, *fields: dict[str, Any], **more: Any) -> Form:
    return {"type": type_, "group": group, "fields": list(fields), **more}


def chance_json(kind: str, base: int, target: int, cap: bool) -> dict[str, Any]:
    value = dice.chance(kind, base, target, cap)
    return {"chance": str(value), "percent": dice.percent(value), "base": base, "target": target}


# --------------------------------------------------------------------- cards


def deck_candidates(state: GameState, deck: str) -> list[dict[str, Any]]:
    """The Volunteers of ``deck`` the game knows and that may be the one turned over."""
    places = ("deck", "discard") if state.deck_left[deck] <= 0 else ("deck",)
    out = []
    for card in state.cards.values():
        values = card.values
        if (card.kind == "volunteer" and card.place in places and isinstance(values, Volunteer)
                and values.deck == deck):
            out.append({"uid": card.uid, "name": values.name, "charm": values.charm, "bribe": values.bribe})
    return sorted(out, key=lambda c: c["name"])


def volunteer_field(state: GameState, decks: list[str], name: str = "card", face_up: bool = False) -> dict[str, Any]:
    """Which Volunteer: one the game knows (by uid), or its values typed in."""
    return field(name, "volunteer", known={d: deck_candidates(state, d) for d in decks},
                 face_up={d: face_up_of(state, d) for d in decks} if face_up else {})


def face_up_of(state: GameState, deck: str) -> dict[str, Any] | None:
    pile = state.display[deck]
    top = pile[-1] if pile else None
    if top is None:
        return None
    values = state.volunteer(top)
    return {"uid": top, "name": values.name, "charm": values.charm, "bribe": values.bribe}


def card_option(state: GameState, uid: str) -> dict[str, Any]:
    card = state.cards[uid]
    values = card.values
    out: dict[str, Any] = {"uid": uid, "name": getattr(values, "name", None)}
    if isinstance(values, Volunteer):
        out.update({k: getattr(values, k) for k in ("loyalty", "streetwise", "brawl", "toughness", "brethren",
                                                      "wanted", "bribe")})
    elif isinstance(values, (Scroll, Item)):
        out["price"] = values.price
        if isinstance(values, Scroll):
            out["target"] = values.target
        else:
            out["bonus"] = values.bonus
    return out


def options_of(state: GameState, uids: list[str]) -> list[dict[str, Any]]:
    return [card_option(state, u) for u in uids]


def dragon_field(state: GameState) -> dict[str, Any]:
    known = [{"uid": c.uid, "name": c.values.to_json()["name"]} for c in state.cards.values()
             if c.kind == "dragon" and c.place == "pool"]
    typed = sum(1 for c in state.cards.values() if c.kind == "dragon")
    return field("dragon", "dragon", known=known, can_type=typed < 4)


def items_field(state: GameState, player: Player, runners_field: str) -> dict[str, Any]:
    return field("items", "items", runners=runners_field, options=options_of(state, player.items), optional=True)


# --------------------------------------------------------------------- when


def setup_forms(state: GameState, seat: str) -> list[Form]:
    player = state.players[seat]
    forms: list[Form] = []
    if not player.dealt:
        taken = {p.card.id for s, p in state.players.items() if p.card is not None and s != seat}
        options = [c.id for c in state.options.data.guild_cards.values() if c.id not in taken]
        forms.append(form("choose_guild", "setup", field("card", "guild_card", options=options),
                          field("values", "guild_values", optional=True),
                          current=player.card.id if player.card is not None else None))
    if player.card is not None:
        for deck in ("lords_ladies", "man_beast"):
            if deck not in player.dealt:
                forms.append(form("dealt", "setup", field("deck", "fixed", value=deck),
                                  volunteer_field(state, [deck]), deck=deck))
    return forms


def pending_forms(state: GameState, seat: str) -> list[Form]:
    """What the game waits for from ``seat``."""
    top = state.top
    if top is None or seat not in top.seats:
        return []
    answer = _ANSWERS.get(top.kind)
    return [] if answer is None else answer(state, seat, state.players[seat], top)


def _test_roll(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    spec = rolls.spec_of(state, top)
    return [form("roll", "now", test=spec.to_json(state.options.cap_eights))]


def _point(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    assert player.card is not None
    open_ = [a for a in ATTRIBUTES if player.base[a] < player.card.top[a]]
    if not open_:
        return [form("decline", "now", offer="point")]
    return [form("spend_point", "now", field("attribute", "choice", options=open_))]


def _bribe(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    recruiting = state.recruiting
    assert recruiting is not None
    values = state.volunteer(recruiting.card)
    return [form("bribe", "now", price=values.bribe, dollars=player.dollars, card=values.name),
            form("decline", "now", offer="bribe")]


def _recruit_chances(state: GameState, player: Player) -> list[str]:
    return dice.chance_table("recruit", player.effective("charm"), state.options.cap_eights)


def _extra(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    deck = top.data["deck"]
    return [form("recruit_extra", "now", field("source", "choice", options=["display", "deck"]),
                 volunteer_field(state, [deck], face_up=True), deck=deck,
                 chances=_recruit_chances(state, player)),
            form("decline", "now", offer="extra")]


def _reveal(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    deck = top.data["deck"]
    return [form("reveal", "now", volunteer_field(state, [deck]), deck=deck)]


def _tavern(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    return [form("tavern_volunteer", "now", field("deck", "choice", options=list(DECKS)),
                 volunteer_field(state, list(DECKS)), roll=top.data["roll"],
                 chances=_recruit_chances(state, player)),
            form("decline", "now", offer="tavern")]


def _window(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    mine = can_strike(state, seat)
    forms = [form("let_pass", "now", target=top.data["target"])]
    if mine:
        forms.insert(0, form("strike", "now", field("card", "choice", options=options_of(state, mine)),
                             field("method", "choice", options=["alter", "ambush"]), target=top.data["target"]))
    return forms


def _runner(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    return [form("pick_runner", "now", field("card", "choice", options=options_of(state, pool(state, seat))))]


def _replant(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    saboteur = top.data["saboteur"]
    here = next((q for q, u in player.planted.items() if u == saboteur), None)
    free = [q for q in QUADRANTS if q == here or q not in player.planted]
    return [form("replant", "now", field("quadrant", "choice", options=free)),
            form("decline", "now", offer="replant")]


def _muster(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    fight = state.fight
    sent = sum(len(v) for v in fight.sent.values()) if fight else 0
    mine = fighters_of(state, seat)
    forced = bool(top.data.get("forced")) and bool(mine)
    forms = [form("send", "now", field("cards", "cards", options=options_of(state, mine),
                                       min=1 if forced else 0, max=MOST_FIGHTERS - sent),
                  items_field(state, player, "cards"), forced=forced, quadrant=top.data.get("quadrant"))]
    if not forced:
        forms.append(form("decline", "now", offer="muster"))
    return forms


def _dragon(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    field_ = dragon_field(state)
    if top.data.get("unseen"):
        field_ = {**field_, "known": [], "can_type": True}  # the companion drew one not seen yet
    return [form("dragon_card", "now", field_, unseen=bool(top.data.get("unseen")))]


def _magic(state: GameState, seat: str, player: Player, top: Pending) -> list[Form]:
    # the Scrolls and Items are the player's magic forms; this closes the step
    return [form("decline", "now", offer=top.kind)]


# what the game waits for (the kind of its top step) -> the forms that answer it
_ANSWERS: dict[str, Callable[[GameState, str, Player, Pending], list[Form]]] = {
    "test": _test_roll,
    "point": _point,
    "bribe": _bribe,
    "extra": _extra,
    "reveal": _reveal,
    "tavern": _tavern,
    "window": _window,
    "runner": _runner,
    "replant": _replant,
    "muster": _muster,
    "dragon": _dragon,
    "magic_attack": _magic,
    "magic_defence": _magic,
}


def start_forms(state: GameState, seat: str, player: Player) -> list[Form]:
    turn = state.turn
    assert turn is not None
    cap = state.options.cap_eights
    forms: list[Form] = []
    fresh = not turn.began and not turn.stopped
    brethren = brethren_in_hand(state, seat)
    unlocked = locked_by(state, seat) is None
    markers = [q for q in QUADRANTS if q not in player.planted]
    if fresh and not turn.planted and not turn.recalled and not unlocked and brethren and markers:
        # greyed: a tap asks the rules why, with a report they would otherwise take
        forms.append(form("plant", "start", out=True,
                          probe={"type": "plant", "card": brethren[0], "quadrant": markers[0]}))
    if fresh and not turn.planted and not turn.recalled and unlocked and brethren and markers:
        forms.append(form("plant", "start", field("card", "choice", options=options_of(state, brethren)),
                          field("quadrant", "choice", options=markers, secret=True),
                          field("item", "choice", options=options_of(state, player.items), optional=True),
                          **chance_json("plain", player.effective("guild"), PLANT_TARGET, cap)))
    if fresh and not turn.planted and len(brethren) >= BRETHREN_TO_SUMMON:
        free = [q for q in QUADRANTS if q not in state.dragons]
        drawn = () if state.options.letter else (dragon_field(state),)  # the companion draws it
        forms.append(form("summon", "start", field("quadrant", "choice", options=free),
                          field("discard", "choice", options=options_of(state, brethren)), *drawn))
    run = player.run
    if run is not None and run.stage == "gate":
        room = GATE_RUNNERS - len(run.runners)
        must = unsent(state, turn)
        forms.append(form("reattempt", "now" if must else "start",
                          field("runners", "cards", options=options_of(state, player.hand), min=len(must), max=room,
                                must=must),
                          items_field(state, player, "runners"), waiting=len(run.runners)))
    final = player.final
    if final is not None and player.hand and final.at_gate:
        # standing at the Gate already: no route to report, only the roll(s) left to try
        forms.append(form("at_gate", "start", again=True,
                          left=[a for a in FINAL_TESTS if a not in final.passed]))
    elif final is not None and player.hand and turn.stopped is None:
        forms.append(form("at_gate", "start",
                          field("route", "quadrants", options=list(QUADRANTS), optional=True),
                          again=False, left=[a for a in FINAL_TESTS if a not in final.passed]))
    return forms


def pass_forms(state: GameState, seat: str, player: Player) -> list[Form]:
    turn = state.turn
    assert turn is not None and player.card is not None
    forms: list[Form] = []
    if not turn.house and not guild_house_ready(state, player) and player.card.guild not in state.dragons:
        forms.append(form("guild_house", "pass", out=True, probe={"type": "guild_house", "collect": True}))
    if not turn.house and guild_house_ready(state, player) and player.card.guild not in state.dragons:
        forms.append(form("guild_house", "pass", field("collect", "bool"), field("points", "points", price=8,
                                                                                      most=2)))
    open_ = [q for q in QUADRANTS if q not in state.dragons]
    for kind in ("scroll", "item"):
        known = [card_option(state, c.uid) for c in state.cards.values() if c.kind == kind and c.place == "supply"]
        if state.supply[kind] > 0:
            forms.append(form("buy", "pass", field("kind", "fixed", value=kind),
                              field("price", "int", min=0, max=30, default=2),
                              field("quadrant", "choice", options=open_),
                              field("name", "text", optional=True),
                              field("card", "choice", options=known, optional=True), buying=kind))
    wanted = [u for u in player.hand if state.volunteer(u).wanted]
    if wanted:
        forms.append(form("turn_in", "pass", field("cards", "cards", options=options_of(state, wanted), min=1,
                                                   max=len(wanted))))
    others = [s for s in state.seats if s != seat and state.players[s].pox != player.pox]
    if others:
        forms.append(form("pox", "pass", field("other", "choice", options=others)))
    return forms


def stop_forms(state: GameState, seat: str, player: Player) -> list[Form]:
    turn = state.turn
    assert turn is not None and player.card is not None
    if turn.stopped is not None:
        return []
    cap = state.options.cap_eights
    open_ = [q for q in QUADRANTS if q not in state.dragons]
    forms: list[Form] = []
    if open_:
        forms.append(form("recruit", "stop", field("deck", "choice", options=list(DECKS)),
                          field("source", "choice", options=["display", "deck"]),
                          field("quadrant", "choice", options=open_), volunteer_field(state, list(DECKS), face_up=True),
                          chances=dice.chance_table("recruit", player.effective("charm"), cap)))
        forms.append(form("tavern", "stop", field("quadrant", "choice", options=open_)))
    spells = [s for s in player.card.spells if s not in player.returned]
    if open_ and player.run is None and player.final is None and spells and player.hand:
        if is_final(state, player):
            forms.append(form("collect_final", "stop", field("spell", "choice", options=spells),
                              field("quadrant", "choice", options=open_)))
        else:
            forms.append(form("spell_run", "stop", field("spell", "choice", options=spells),
                              field("quadrant", "choice", options=open_),
                              field("runners", "cards", options=options_of(state, player.hand), min=1,
                                    max=FIRST_RUNNERS),
                              items_field(state, player, "runners"),
                              field("route", "quadrants", options=list(QUADRANTS), optional=True),
                              challenge=len(player.returned) + 1))
    if player.ailments:
        forms.append(form("hospital", "stop", cost=player.ailments, dollars=player.dollars))
    return forms


def free_forms(state: GameState, seat: str, player: Player) -> list[Form]:
    forms: list[Form] = []
    if player.planted and locked_by(state, seat) is not None:
        forms.append(form("recall", "free", out=True,
                          probe={"type": "recall", "card": sorted(player.planted.items())[0][1]}))
    if player.planted and locked_by(state, seat) is None:
        forms.append(form("recall", "free", field("card", "choice", options=[
            {**card_option(state, u), "quadrant": q} for q, u in sorted(player.planted.items())])))
    if state.dragons:
        forms.append(form("fight_dragon", "free", field("quadrant", "choice", options=sorted(state.dragons)),
                          field("cards", "cards", options=options_of(state, player.hand), min=1, max=MOST_FIGHTERS),
                          items_field(state, player, "cards")))
        forms.append(form("dragon_flies", "free", field("quadrant", "choice", options=sorted(state.dragons))))
    forms.append(form("call", "free"))
    return forms


def magic_forms(state: GameState, seat: str, player: Player, group: str) -> list[Form]:
    cap = state.options.cap_eights
    turn = state.turn
    forms: list[Form] = []
    if player.protected:
        return forms
    targets = [s for s in state.seats if not state.players[s].protected]
    scrolls = [u for u in player.scrolls if turn is None or u not in turn.cast]
    if scrolls:
        forms.append(form("cast", group, field("scroll", "choice", options=options_of(state, scrolls)),
                          field("target", "choice", options=targets, optional=True),
                          field("values", "scroll_values", optional=True),
                          defence={s: anti_magic(state, s) if s != seat else 0 for s in targets},
                          chances=dice.chance_table("plain", player.effective("magic"), cap)))
    if player.items:
        forms.append(form("use_item", group, field("item", "choice", options=options_of(state, player.items))))
    return forms


def react_forms(state: GameState, seat: str, player: Player) -> list[Form]:
    turn = state.turn
    assert turn is not None
    forms = magic_forms(state, seat, player, "react")
    target = state.players[turn.seat]
    if (not player.protected and not target.protected and state.ability_used.get(seat) != turn.number
            and player.card is not None):
        dry = state.options.letter and player.card.guild == FIRE_WATER_GUILD and player.fire_water <= 0
        forms.insert(0, form("guild_ability", "react", field("target", "fixed", value=turn.seat),
                             ability=player.card.ability, **({"out": True} if dry else {}),
                             **chance_json("plain", player.effective("guild"), ABILITY_TARGET, state.options.cap_eights)))
    return forms


def tracker_forms(state: GameState, seat: str, player: Player) -> list[Form]:
    mine = [u for u in (*player.hand, *player.scrolls, *player.items)]
    doused = [s for s in state.seats if state.players[s].fire_water_on]
    describable = [u for u in (*player.scrolls, *player.items)]
    forms = [
        form("adjust", "track", field("dollars", "int", min=-99, max=99, optional=True),
             field("attribute", "choice", options=list(ATTRIBUTES), optional=True),
             field("by", "int", min=-9, max=9, optional=True), field("lasting", "bool", optional=True)),
        form("ailment", "track", field("curse", "text", optional=True), field("cured", "bool", optional=True)),
        form("luggage_hit", "track", field("target", "choice", options=list(state.seats), optional=True)),
        form("arrested", "track", field("target", "choice", options=list(state.seats), optional=True)),
        form("sent_home", "track", field("target", "choice", options=list(state.seats), optional=True)),
        *([form("fire_water", "track", field("target", "choice", options=doused),
                field("exploded", "bool", optional=True, default=True))] if doused else []),
        form("miss_turn", "track"),
        form("pay", "track", field("to", "choice", options=[s for s in state.seats if s != seat]),
             field("dollars", "int", min=1, max=max(1, player.dollars))),
    ]
    if mine:
        forms.append(form("discard", "track", field("card", "choice", options=options_of(state, mine))))
    if describable:
        forms.append(form("describe", "track", field("card", "choice", options=options_of(state, describable)),
                          field("values", "card_values")))
    return forms


def legal_forms(state: GameState, seat: str) -> list[Form]:
    if state.over:
        return []
    if state.phase == "setup":
        return setup_forms(state, seat)
    if state.phase == "start":
        return [form("roll", "now")]
    player = state.players[seat]
    forms = pending_forms(state, seat)
    turn = state.turn
    assert turn is not None
    free = state.top is None
    if turn.seat == seat:
        if free:
            forms += start_forms(state, seat, player)
            forms += pass_forms(state, seat, player)
            forms += stop_forms(state, seat, player)
            forms += free_forms(state, seat, player)
        forms += magic_forms(state, seat, player, "free")
        if free:
            # greyed out, with the rules' reason, while a recruit must still go to the Gate
            forms.append(form("end_turn", "end", **({"out": True} if unsent(state, turn) else {})))
    else:
        forms += react_forms(state, seat, player)
    forms += tracker_forms(state, seat, player)
    forms.append(form("stop_game", "end"))
    return forms



