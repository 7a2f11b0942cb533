"""Events: what happened, in public terms.

An event's public part (``to_json``) never carries hidden information (which Jacquards
or Fault Reports were drawn, bag or deck order), so it may be shown to every seat and
spectator as it is. What one seat alone may know of it (the cards it drew itself) is
kept apart, in ``private``, for that seat's eyes only.
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
    # seat -> what only that seat may read of the event (which cards it drew); never in
    # ``to_json``, which is public
    private: dict[Seat, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat.label if self.seat else None, **self.data}

    def telling(self, seat: Seat, **details: Any) -> Event:
        """The same event, with ``details`` only ``seat`` may read."""
        return Event(self.kind, self.seat, self.data, {**self.private, seat: details})


def event(kind: str, seat: Seat | None = None, **data: Any) -> Event:
    return Event(kind, seat, data)
