"""Actions: small immutable values, one per thing a player (or the table clock) can do.

Every action names the seat that takes it. ``at`` is the time of the action on the
table's clock, in seconds; only Clacks Express reads it, and the engine never reads a
clock itself. Lamps travel as board masks inside the engine and as lamp names in JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.clacks.geometry import LAMP_NAMES, SEAT_LIST, Seat, lamps_of, mask_of
from engine.core.action_json import typed_action
from engine.core.errors import MalformedAction

_FIELD_NAMES: dict[str, tuple[str, ...]] = {}


def _field_names(cls: type[Action]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls.TYPE)
    if names is None:
        names = _FIELD_NAMES[cls.TYPE] = tuple(f.name for f in dataclasses.fields(cls))
    return names


@dataclass(frozen=True)
class Action:
    TYPE: ClassVar[str] = ""
    OPTIONAL: ClassVar[tuple[str, ...]] = ("at",)
    seat: Seat | None
    at: float | None = field(default=None, kw_only=True)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if value is None and name in ("at", "tower", "target", "word"):
                continue
            if name in ("seat", "to_seat"):
                out[name] = value.label if value is not None else None
            elif name == "lamps":
                out[name] = lamps_of(value)
            else:
                out[name] = value
        return out

    def describe(self) -> str:
        who = self.seat.label.capitalize() if self.seat else "The table"
        return f"{who}: {self.TYPE.replace('_', ' ')}"


@dataclass(frozen=True)
class Move(Action):
    """Move your pawn to a tower selector button of your colour."""

    TYPE: ClassVar[str] = "move"
    tower: str = ""


@dataclass(frozen=True)
class PlayJacquard(Action):
    """Play a Jacquard from your hand, flipping the lamps it covers."""

    TYPE: ClassVar[str] = "play_jacquard"
    jacquard: str = ""
    lamps: int = 0


@dataclass(frozen=True)
class PlayFault(Action):
    """Play a Fault Report (any time, by any holder, as the card allows)."""

    TYPE: ClassVar[str] = "play_fault"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("at", "lamps", "tower")
    card: str = ""
    lamps: int = 0
    tower: str | None = None


@dataclass(frozen=True)
class Transmit(Action):
    """Claim the next symbol of your message; ends your turn. In the competitive game
    it is sent from your pawn's tower (``tower``, if given, must be that one); in the
    co-op, solitaire and junior games from ``tower``, any tower of your colour, or when
    None from the first of your towers that shows the symbol."""

    TYPE: ClassVar[str] = "transmit"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("at", "tower")
    tower: str | None = None


@dataclass(frozen=True)
class Swap(Action):
    """Co-op: discard a Jacquard from your hand and lift the Jacquard and the card in a
    swap slot ("incident-1", "incident-2", "log-1", "log-2")."""

    TYPE: ClassVar[str] = "swap"
    jacquard: str = ""
    slot: str = ""


@dataclass(frozen=True)
class EndTurn(Action):
    """End your turn without transmitting (or end a sabotage attempt)."""

    TYPE: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class TimeUp(Action):
    """The table's clock says the current turn's time has run out (Clacks Express)."""

    TYPE: ClassVar[str] = "time_up"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("at", "seat")


@dataclass(frozen=True)
class ResumeClock(Action):
    """The table resumes a timed game after the companion was down: the turn's clock
    did not run for ``paused`` seconds, so its deadline moves on by as much."""

    TYPE: ClassVar[str] = "resume_clock"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("at", "seat")
    paused: float = 0.0


@dataclass(frozen=True)
class Discard(Action):
    """Discard a Jacquard because your time ran out before you played one."""

    TYPE: ClassVar[str] = "discard"
    jacquard: str = ""


ACTION_TYPES: dict[str, type[Action]] = {}
ACTION_FIELDS: dict[str, set[str]] = {}  # the fields each type takes


def register_action(cls: type[Action]) -> type[Action]:
    ACTION_TYPES[cls.TYPE] = cls
    ACTION_FIELDS[cls.TYPE] = {f.name for f in dataclasses.fields(cls)}
    return cls


for _cls in (Move, PlayJacquard, PlayFault, Transmit, EndTurn, TimeUp, ResumeClock, Discard, Swap):
    register_action(_cls)


def lamp_mask(name: str, lamps: list[str]) -> int:
    """The lamps named in the field ``name`` as a mask; a name that is no lamp is refused."""
    unknown = [lamp for lamp in lamps if lamp not in LAMP_NAMES]
    if unknown:
        raise MalformedAction(reason="unknown_lamp", field=name, lamp=unknown[0])
    return mask_of(lamps)


def _seat(name: str, value: Any) -> Seat | None:
    if value is None and name == "seat":  # the table's own actions name no seat
        return None
    try:
        return Seat.parse(value)
    except ValueError:
        raise MalformedAction(reason="unknown_seat", seat=str(value), seats=SEAT_LIST) from None


def _lamps(name: str, value: Any) -> int:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MalformedAction(reason="lamp_list", field=name)
    mask = lamp_mask(name, value)
    if len(set(value)) != len(value):
        raise MalformedAction(reason="lamp_twice", field=name)
    return mask


def _at(name: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise MalformedAction(reason="seconds", field=name)
    return float(value)


def _paused(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e9:
        raise MalformedAction(reason="seconds_or_more", field=name)
    return float(value)


def _str(name: str, value: Any) -> str:
    if not isinstance(value, str) or len(value) > 64:
        raise MalformedAction(reason="short_text", field=name)
    return value


def _optional_str(name: str, value: Any) -> str | None:
    return None if value is None else _str(name, value)


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(reason="whole_number", field=name)
    return value


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise MalformedAction(reason="boolean", field=name, value=str(value))
    return value


Convert = Callable[[str, Any], Any]
# fields read the same in every action, by name; the rest by their declared type
_BY_NAME: dict[str, Convert] = {
    "seat": _seat,
    "to_seat": _seat,
    "lamps": _lamps,
    "at": _at,
    "paused": _paused,
}
_BY_TYPE: dict[str, Convert] = {
    "str": _str,
    "str | None": _optional_str,
    "int": _int,
    "bool": _bool,
}


def _convert(name: str, value: Any, expected: Any) -> Any:
    convert = _BY_NAME.get(name) or _BY_TYPE.get(expected)
    return value if convert is None else convert(name, value)


def action_from_json(data: object) -> Action:
    """Parse an action from its JSON form; raises MalformedAction with a clear message."""
    data, kind = typed_action(data, ACTION_FIELDS)
    cls = ACTION_TYPES[kind]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        if name in data:
            kwargs[name] = _convert(name, data[name], f.type)
        elif name not in cls.OPTIONAL:
            raise MalformedAction(reason="missing_field", type=kind, field=name)
    if "seat" not in kwargs:
        kwargs["seat"] = None
    return cls(**kwargs)
