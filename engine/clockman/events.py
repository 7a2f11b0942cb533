"""Events: what happened, in public terms. An event never carries the seed, the dice
generator, the order of the symbol deck, a symbol card a player drew or the words a
player noted on a face-down event card."""

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
