"""Events: what happened, in public terms. Klackers hides nothing from the players, but
events never carry the seed or the state of the dice generator either."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str
    seat: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, **self.data}


def event(kind: str, seat: str | None = None, **data: Any) -> Event:
    return Event(kind, seat, data)
