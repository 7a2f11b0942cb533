"""Actions: the reports players make and the answers they give, as checked values.

An action is ``{"type": ..., "seat": ..., <fields>}``. ``action_from_json`` checks its
shape (known type, known fields of the right kinds) and nothing else: whether the rules
allow it now is the rules' business. Every type, with its fields, is in ``SCHEMAS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import MalformedAction
from engine.guards.cards import ATTRIBUTES, DECKS, NAME_MAX
from engine.guards.data import QUADRANTS
from engine.guards.options import SEATS

UID_MAX = 60
LIST_MAX = 12

# field kinds: seat, quadrant, quadrants, deck, attribute, int, bool, text, uid, uids,
# values (a card's typed values), items (runner -> Item), points (attribute -> number)
F = dict[str, tuple[str, bool]]  # field -> (kind, required)
Check = Callable[[Any], str | None]  # a value -> what it must be, or None when it is
SCHEMAS: dict[str, F] = {
    # set-up
    "choose_guild": {"card": ("uid", True), "values": ("values", False)},
    "dealt": {"deck": ("deck", True), "card": ("uid", False), "values": ("values", False)},
    # dice and answers
    "roll": {},
    "decline": {},
    "end_turn": {},
    "stop_game": {},
    # trackers (a Fate card, a Scroll's effect, a Guild Ability's effect)
    "adjust": {"attribute": ("attribute", False), "dollars": ("int", False), "by": ("int", False),
               "lasting": ("bool", False)},
    "ailment": {"curse": ("text", False), "cured": ("bool", False)},
    "miss_turn": {},
    "discard": {"card": ("uid", True)},
    "pay": {"to": ("seat", True), "dollars": ("int", True)},
    "spend_point": {"attribute": ("attribute", True)},
    # recruiting
    "recruit": {"deck": ("deck", True), "source": ("text", True), "quadrant": ("quadrant", True),
                "card": ("uid", False), "values": ("values", False)},
    "recruit_extra": {"source": ("text", True), "card": ("uid", False), "values": ("values", False)},
    "reveal": {"card": ("uid", False), "values": ("values", False)},
    "tavern": {"quadrant": ("quadrant", True)},
    "tavern_volunteer": {"deck": ("deck", True), "card": ("uid", False), "values": ("values", False)},
    "bribe": {},
    # places
    "guild_house": {"collect": ("bool", False), "points": ("points", False)},
    "buy": {"kind": ("text", True), "price": ("int", True), "quadrant": ("quadrant", True),
            "name": ("text", False), "card": ("uid", False)},
    "hospital": {},
    "luggage_hit": {"target": ("seat", False)},
    "arrested": {"target": ("seat", False)},
    "sent_home": {"target": ("seat", False)},
    "turn_in": {"cards": ("uids", True)},
    "pox": {"other": ("seat", True)},
    # Spell Runs and the Final Spell
    "spell_run": {"spell": ("text", True), "quadrant": ("quadrant", True), "runners": ("uids", True),
                  "items": ("items", False), "route": ("quadrants", False)},
    "reattempt": {"runners": ("uids", False), "items": ("items", False)},
    "collect_final": {"spell": ("text", True), "quadrant": ("quadrant", True)},
    "at_gate": {"route": ("quadrants", False)},
    # Saboteurs and combat
    "plant": {"card": ("uid", True), "quadrant": ("quadrant", True), "item": ("uid", False)},
    "recall": {"card": ("uid", True)},
    "strike": {"card": ("uid", True), "method": ("text", True)},
    "let_pass": {},
    "pick_runner": {"card": ("uid", True)},
    "replant": {"quadrant": ("quadrant", True)},
    # magic
    "cast": {"scroll": ("uid", True), "target": ("seat", False), "values": ("values", False)},
    "use_item": {"item": ("uid", True), "values": ("values", False)},
    "describe": {"card": ("uid", True), "values": ("values", True)},
    "guild_ability": {"target": ("seat", True)},
    "fire_water": {"target": ("seat", False), "exploded": ("bool", False)},
    # Dragons
    "summon": {"quadrant": ("quadrant", True), "discard": ("uid", True), "dragon": ("uid", False),
               "values": ("values", False)},
    "call": {},
    "dragon_card": {"dragon": ("uid", False), "values": ("values", False)},
    "fight_dragon": {"quadrant": ("quadrant", True), "cards": ("uids", True), "items": ("items", False)},
    "send": {"cards": ("uids", True), "items": ("items", False)},
    "dragon_flies": {"quadrant": ("quadrant", True)},
}  # fmt: skip


@dataclass(frozen=True)
class Action:
    type: str
    seat: str | None
    args: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.args.get(key)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, **self.args}

    @property
    def TYPE(self) -> str:  # the name the shared replay helper reads
        return self.type


def _member(allowed: tuple[str, ...], expected: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in allowed else expected

    return check


def _quadrants(value: Any) -> str | None:
    if not isinstance(value, list) or len(value) > len(QUADRANTS) or any(q not in QUADRANTS for q in value):
        return "quadrants"
    return None if len(set(value)) == len(value) else "quadrants_once"


def _int(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not -99 <= value <= 99:
        return "int"
    return None


def _bool(value: Any) -> str | None:
    return None if isinstance(value, bool) else "bool"


def _text(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > NAME_MAX:
        return "text"
    return None


def _is_uid(value: Any) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= UID_MAX


def _uid(value: Any) -> str | None:
    return None if _is_uid(value) else "uid"


def _uids(value: Any) -> str | None:
    if not isinstance(value, list) or len(value) > LIST_MAX or not all(map(_is_uid, value)):
        return "uids"
    return None if len(set(value)) == len(value) else "uids_once"


def _values(value: Any) -> str | None:
    return None if isinstance(value, dict) and len(value) <= 30 else "values"


def _items(value: Any) -> str | None:
    if (
        not isinstance(value, dict)
        or len(value) > LIST_MAX
        or not all(isinstance(k, str) and isinstance(v, str) and len(k) <= UID_MAX and len(v) <= UID_MAX
                   for k, v in value.items())
    ):
        return "items"
    return None if len(set(value.values())) == len(value) else "items_once"


def _points(value: Any) -> str | None:
    if not isinstance(value, dict) or any(
        k not in ATTRIBUTES or isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 2
        for k, v in value.items()
    ):
        return "points"
    return None


# field kind -> the case (``expected`` in rule.malformed_action) a value of it fails,
# when it does
_CHECKS: dict[str, Check] = {
    "seat": _member(SEATS, "seat"),
    "quadrant": _member(QUADRANTS, "quadrant"),
    "quadrants": _quadrants,
    "deck": _member(DECKS, "deck"),
    "attribute": _member(ATTRIBUTES, "attribute"),
    "int": _int,
    "bool": _bool,
    "text": _text,
    "uid": _uid,
    "uids": _uids,
    "values": _values,
    "items": _items,
    "points": _points,
}
# the values a field of a kind may take, named where it must be one of them
FIELD_CHOICES = {
    "seat": ", ".join(SEATS),
    "quadrant": ", ".join(QUADRANTS),
    "deck": ", ".join(DECKS),
    "attribute": ", ".join(ATTRIBUTES),
}


def _check(kind: str, name: str, value: Any) -> Any:
    problem = _CHECKS[kind](value)
    if problem is not None:
        raise MalformedAction(reason="guards_field", field=name, expected=problem, choices=FIELD_CHOICES.get(kind, ""), most=NAME_MAX, value=repr(value)[:40])
    return value


def action_from_json(data: object, seat: str | None = None) -> Action:
    """An action from JSON; ``seat`` fills in a missing ``"seat"`` (the URL's seat)."""
    if not isinstance(data, dict):
        raise MalformedAction(reason="not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise MalformedAction(reason="unknown_type", type=str(kind)[:40], types=", ".join(SCHEMAS))
    schema = SCHEMAS[kind]
    unknown = set(data) - set(schema) - {"type", "seat"}
    if unknown:
        raise MalformedAction(reason="unknown_fields", type=kind, fields=", ".join(sorted(map(str, unknown)))[:100])
    who = data.get("seat", seat)
    if who is not None and who not in SEATS:
        raise MalformedAction(reason="unknown_seat", seat=str(who)[:20], seats=", ".join(SEATS))
    args: dict[str, Any] = {}
    for name, (field_kind, required) in schema.items():
        if name not in data or data[name] is None:
            if required:
                raise MalformedAction(reason="missing_field", type=kind, field=name)
            continue
        args[name] = _check(field_kind, name, data[name])
    return Action(kind, who, args)


