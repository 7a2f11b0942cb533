"""Events: what happened, in public terms. An event never carries what a player holds
privately (which Volunteer was dealt, a Saboteur's quadrant, a Scroll's name before it
is cast) nor the seed or the state of the dice generator."""

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


def ev(kind: str, seat: str | None = None, **data: Any) -> Event:
    return Event(kind, seat, data)
