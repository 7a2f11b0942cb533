"""Events: what happened, in public terms.

Events never carry hidden information (which Jacquards or Fault Reports were drawn, bag
or deck order), so every event may be shown to every seat and spectator as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.clacks.geometry import Seat


@dataclass(frozen=True)
class Event:
    kind: str
    seat: Seat | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat.label if self.seat else None, **self.data}


def event(kind: str, seat: Seat | None = None, **data: Any) -> Event:
    return Event(kind, seat, data)
