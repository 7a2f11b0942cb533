"""Events: what happened, in public terms, as a game reports it after each action.

A game's own events module says what its events may never carry (hidden hands, the
seed, the state of the generator); the rules that make them keep to that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str
    seat: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, kind: str, seat: str | None = None, **data: Any) -> Event:
        return cls(kind, seat, data)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, **self.data}


def event(kind: str, seat: str | None = None, **data: Any) -> Event:
    return Event(kind, seat, data)
