"""The first reading of an action sent as JSON, the same for every game: a JSON object
with a known ``type``, and no field that type does not take."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol, TypeVar

from engine.core.errors import MalformedAction, NotYourTurn


def typed_action(data: object, fields: Mapping[str, Collection[str]]) -> tuple[dict[str, Any], str]:
    """``data`` and its type, once it is an object of one of the types in ``fields``
    with none but that type's fields (and ``type``, ``seat``); MalformedAction saying
    what is wrong otherwise (the known types among its values)."""
    if not isinstance(data, dict):
        raise MalformedAction(reason="not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise MalformedAction(reason="unknown_type", type=str(kind), types=", ".join(sorted(fields)))
    unknown = set(data) - set(fields[kind]) - {"type", "seat"}
    if unknown:
        raise MalformedAction(reason="unknown_fields", type=kind, fields=", ".join(sorted(unknown)))
    return data, kind


class SeatAction(Protocol):
    @property
    def seat(self) -> str | None: ...


Sent = TypeVar("Sent", bound=SeatAction)


def sent_by(seat: str | None, action: object, parse: Callable[[object, str], Sent]) -> Sent:
    """``action`` read by ``parse`` as ``seat`` sends it; NotYourTurn when the table
    sends it (the table plays no seat) or it is sent for another seat than its sender."""
    if seat is None:
        raise NotYourTurn(reason="table")
    parsed = parse(action, seat)
    if parsed.seat != seat:
        raise NotYourTurn(reason="sender", target=parsed.seat, seat=seat)
    return parsed
