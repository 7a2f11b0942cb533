"""Actions: a roll, and the reports of what happened on the board, as small values.

Every action is a ``type``, the ``seat`` it comes from, and the type's own fields, read
and checked here so the rules can trust their shape (whether the rules allow them is the
rules' business):

- ``roll``: the companion rolls the die from the game's seeded generator.
- Landing reports, after a roll: ``plain``, ``symbol`` (draw a symbol card), ``event``
  (an event card drawn: ``kind`` now / hidden / open, an optional ``label``, and for a
  card played at once its ``effect`` and ``target``), ``digit`` (``digit`` 0, 1, 2 or X),
  ``blockade`` (a Whytooki of ``pose`` hit; paid with a symbol card, or with the held
  event ``card`` named), ``lift`` (``use`` it, or not), ``transfer``, ``straight`` (onto
  ``field`` of the final straight), ``forfeit``.
- Around the landing: ``knock`` (``victim``), ``outward`` (through a passage outward).
- ``end_turn``; ``play`` (a held event ``card``, its ``effect``, on ``target``).
- Raub: ``defend`` (event cards protecting the ``digit`` and the ``knock``), ``take``
  (the ``digit`` a hitter takes).
- Tausch: ``offer`` (``to``, ``give``, ``get``), ``accept``, ``decline``, ``withdraw``.
- Prüfung: ``inspect`` (the ``kinds`` the winner's face-down cards turned out to be),
  ``confirm``, ``revoke``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.clockman.digits import KEPT
from engine.clockman.options import SEATS
from engine.clockman.state import CARD_KINDS
from engine.core.action_json import typed_action
from engine.core.errors import MalformedAction

EFFECTS = ("board", "circle_in", "circle_out", "symbol_card", "roll_again")
LABEL_MAX = 40
ID_MAX = 12
Value = str | int | bool | tuple[str, ...]


def _text(most: int) -> Callable[[str, object], Value]:
    def read(name: str, value: object) -> Value:
        if not isinstance(value, str) or len(value) > most:
            raise MalformedAction(reason="text_length", field=name, most=most)
        return value.strip()

    return read


def _one_of(choices: tuple[str, ...]) -> Callable[[str, object], Value]:
    def read(name: str, value: object) -> Value:
        if not isinstance(value, str) or value not in choices:
            raise MalformedAction(reason="choice", field=name, choices=", ".join(choices), value=str(value))
        return value

    return read


def _list_of(choices: tuple[str, ...], most: int) -> Callable[[str, object], Value]:
    def read(name: str, value: object) -> Value:
        if (
            not isinstance(value, list)
            or not 1 <= len(value) <= most
            or not all(isinstance(v, str) and v in choices for v in value)
        ):
            raise MalformedAction(reason="choices", field=name, most=most, choices=", ".join(choices), value=str(value))
        return tuple(value)

    return read


def _flag(name: str, value: object) -> Value:
    if not isinstance(value, bool):
        raise MalformedAction(reason="boolean", field=name, value=str(value))
    return value


def _field(name: str, value: object) -> Value:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
        raise MalformedAction(reason="field_number", field=name, value=str(value))
    return value


_seat = _one_of(SEATS)
_card = _text(ID_MAX)
_digit = _one_of(KEPT)
Field = tuple[Callable[[str, object], Value], bool]  # (reader, required)

FIELDS: dict[str, dict[str, Field]] = {
    "roll": {},
    "plain": {},
    "symbol": {},
    "event": {
        "kind": (_one_of(CARD_KINDS), True),
        "label": (_text(LABEL_MAX), False),
        "effect": (_one_of(EFFECTS), False),
        "target": (_seat, False),
    },
    "digit": {"digit": (_digit, True)},
    "blockade": {"pose": (_text(4), True), "card": (_card, False)},
    "lift": {"use": (_flag, False)},
    "transfer": {},
    "straight": {"field": (_field, True)},
    "forfeit": {},
    "knock": {"victim": (_seat, True)},
    "outward": {},
    "end_turn": {},
    "play": {
        "card": (_card, True),
        "effect": (_one_of(EFFECTS), False),
        "target": (_seat, False),
    },
    "defend": {"digit": (_card, False), "knock": (_card, False)},
    "take": {"digit": (_digit, True)},
    "offer": {
        "to": (_seat, True),
        "give": (_list_of(KEPT, 8), True),
        "get": (_list_of(KEPT, 8), True),
    },
    "accept": {},
    "decline": {},
    "withdraw": {},
    "inspect": {"kinds": (_list_of(CARD_KINDS, 99), True)},
    "confirm": {},
    "revoke": {},
}
DEFAULTS: dict[str, dict[str, Value]] = {"lift": {"use": True}, "play": {"effect": "board"}}
LANDINGS = (
    "plain",
    "symbol",
    "event",
    "digit",
    "blockade",
    "lift",
    "transfer",
    "straight",
    "forfeit",
)


@dataclass(frozen=True)
class Action:
    """One action: its ``type``, the ``seat`` it comes from, and its fields."""

    type: str
    seat: str
    params: tuple[tuple[str, Value], ...] = ()

    def get(self, name: str) -> Value | None:
        return dict(self.params).get(name)

    def text(self, name: str) -> str:
        value = self.get(name)
        assert isinstance(value, str), name
        return value

    def maybe_text(self, name: str) -> str | None:
        value = self.get(name)
        return value if isinstance(value, str) and value else None

    def number(self, name: str) -> int:
        value = self.get(name)
        assert isinstance(value, int), name
        return value

    def texts(self, name: str) -> tuple[str, ...]:
        value = self.get(name)
        assert isinstance(value, tuple), name
        return value

    @property
    def TYPE(self) -> str:  # the name the shared replay helper reads
        return self.type

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        for name, value in self.params:
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


def make(action_type: str, seat: str, **params: Any) -> Action:
    """An action from Python values, read as from JSON (tests and the buttons)."""
    return action_from_json({"type": action_type, "seat": seat, **params})


def action_from_json(data: object, seat: str | None = None) -> Action:
    """An action from JSON; ``seat`` fills in a missing ``"seat"`` (the URL's seat)."""
    data, kind = typed_action(data, FIELDS)
    spec = FIELDS[kind]
    who = data.get("seat", seat)
    if not isinstance(who, str) or who not in SEATS:
        raise MalformedAction(reason="unknown_seat", seat=str(who), seats=", ".join(SEATS))
    params: dict[str, Value] = dict(DEFAULTS.get(kind, {}))
    for name, (read, required) in spec.items():
        value = data.get(name)
        if value is None:
            if required:
                raise MalformedAction(reason="missing_field", type=kind, field=name)
            continue
        params[name] = read(name, value)
    for name in ("label", "card"):
        if params.get(name) == "":
            del params[name]
    return Action(kind, who, tuple(sorted(params.items())))
