"""The reports a seat can make now, as forms the phone draws.

``legal_forms`` lists each action type the seat may send at this moment with the
choices its fields can take (the seat's own cards, the quadrants free of Dragons...). A
form only narrows the choices: the rules still check the report when it is sent and
refuse it, with the reason, if it does not fit.

A form: ``{"type", "group", "fields": [{"name", "kind", "options"?, ...}]}``. Groups
order the phone's buttons: ``now`` (what the game waits for from this seat), ``setup``,
``pass`` (tiles passed through), ``stop`` (the tile stopped on), ``free`` (any time in
one's turn), ``react`` (in another player's turn), ``track`` (the trackers), ``end``.
"""

from __future__ import annotations

from typing import Any

from engine.guards import rolls
from engine.guards.cards import ATTRIBUTES, Volunteer
from engine.guards.state import GameState

Form = dict[str, Any]


def field(name: str, kind: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, **more}


def form(type_: str, group: str, *fields: dict[str, Any], **more: Any) -> Form:
    return {"type": type_, "group": group, "fields": list(fields), **more}


def deck_candidates(state: GameState, deck: str) -> list[dict[str, Any]]:
    """The Volunteers of ``deck`` the game knows and that may be the one turned over."""
    out = []
    for card in state.cards.values():
        values = card.values
        if card.kind == "volunteer" and card.place == "deck" and isinstance(values, Volunteer) and values.deck == deck:
            out.append({"uid": card.uid, "name": values.name})
    return sorted(out, key=lambda c: c["name"])


def volunteer_field(state: GameState, deck: str | None, name: str = "card") -> dict[str, Any]:
    """Which Volunteer: one the game knows (by uid), or its values typed in."""
    known = deck_candidates(state, deck) if deck else []
    return field(name, "volunteer", deck=deck, known=known)


def own_cards(state: GameState, seat: str, kind: str) -> list[dict[str, Any]]:
    player = state.players[seat]
    uids = {"volunteer": player.hand, "scroll": player.scrolls, "item": player.items}[kind]
    out = []
    for uid in uids:
        values = state.cards[uid].values
        out.append({"uid": uid, "name": getattr(values, "name", None), "price": getattr(values, "price", None)})
    return out


def setup_forms(state: GameState, seat: str) -> list[Form]:
    player = state.players[seat]
    forms: list[Form] = []
    if not player.dealt:
        taken = {p.card.id for s, p in state.players.items() if p.card is not None and s != seat}
        options = [c.id for c in state.options.data.guild_cards.values() if c.id not in taken]
        forms.append(form("choose_guild", "setup", field("card", "guild_card", options=options),
                          field("values", "guild_values", optional=True)))
    if player.card is not None:
        for deck in ("lords_ladies", "man_beast"):
            if deck not in player.dealt:
                forms.append(form("dealt", "setup", field("deck", "fixed", value=deck),
                                  volunteer_field(state, deck)))
    return forms


def pending_forms(state: GameState, seat: str) -> list[Form]:
    """What the game waits for from ``seat``."""
    top = state.top
    if top is None or seat not in top.seats:
        return []
    if top.kind == "test":
        spec = rolls.spec_of(state, top)
        return [form("roll", "now", test=spec.to_json(state.options.cap_eights))]
    if top.kind == "point":
        player = state.players[seat]
        assert player.card is not None
        open_ = [a for a in ATTRIBUTES if player.base[a] < player.card.top[a]]
        return [form("spend_point", "now", field("attribute", "choice", options=open_))]
    return []


def tracker_forms(state: GameState, seat: str) -> list[Form]:
    others = [s for s in state.seats if s != seat]
    return [
        form("adjust", "track", field("dollars", "int", min=-99, max=99, optional=True),
             field("attribute", "choice", options=list(ATTRIBUTES), optional=True),
             field("by", "int", min=-9, max=9, optional=True), field("lasting", "bool", optional=True)),
        form("ailment", "track", field("curse", "text", optional=True), field("cured", "bool", optional=True)),
        form("miss_turn", "track"),
        form("discard", "track", field("card", "choice", options=[
            c["uid"] for k in ("volunteer", "scroll", "item") for c in own_cards(state, seat, k)])),
        form("pay", "track", field("to", "choice", options=others), field("dollars", "int", min=1, max=99)),
    ]


def legal_forms(state: GameState, seat: str) -> list[Form]:
    if state.over:
        return []
    if state.phase == "setup":
        return setup_forms(state, seat)
    if state.phase == "start":
        return [form("roll", "now")]
    forms = pending_forms(state, seat)
    turn = state.turn
    mine = turn is not None and turn.seat == seat and state.top is None
    if mine:
        forms.append(form("end_turn", "end"))
    forms += tracker_forms(state, seat)
    forms.append(form("stop_game", "end"))
    return forms
