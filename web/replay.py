"""The replay viewer: a finished game, step by step, on the table screen and the lamps.

Each step is rebuilt by replaying the log's first ``step`` actions through the game's
own ``GameModule.replay``, so the viewer needs to know nothing of any game's rules, and
it shows only what the table itself could see (``Session.view(None)``): no hand, no bag,
no action list. What the step's action did is told in the public events it raised
when played, raised again by applying it to the step before.
"""

from __future__ import annotations

from engine.core.errors import EngineError
from engine.core.interface import JSON, LampFrame, Session, game_module
from web.store import GameRecord


class ReplayViewer:
    def __init__(self, record: GameRecord, names: dict[str, str]) -> None:
        self.record = record
        self.names = dict(names)
        self.module = game_module(record.game)
        self.steps = len(record.actions)
        self.step = -1
        self.events: list[JSON] = []
        self.session: Session = self.module.replay(record.log())
        self.finished = self.session.over
        self.result = self.session.result()
        self.go(0)

    def go(self, step: int) -> None:
        step = max(0, min(self.steps, step))
        if step == self.step:
            return
        self.events = self._events_of(step)
        self.session = self._replayed(step)
        self.step = step

    def _replayed(self, step: int) -> Session:
        return self.module.replay({**self.record.header, "actions": self.record.actions[:step]})

    def _events_of(self, step: int) -> list[JSON]:
        if step == 0:
            return []
        action = self.record.actions[step - 1]
        before = self._replayed(step - 1)
        # as the table applied it: from the seat it names (None: the table's own), or the
        # one seat to act in a game whose actions name none; at its own time
        acting = before.active_seats
        seat = action.get("seat") if "seat" in action or not acting else acting[0]
        at = action.get("at")
        try:
            return before.apply(
                seat if isinstance(seat, str) else None,
                action,
                float(at) if isinstance(at, (int, float)) else 0.0,
            )
        except (EngineError, ValueError, TypeError):
            return []  # a game whose actions cannot be told apart this way shows none

    def lamps(self) -> LampFrame:
        return self.session.lamps()

    def to_json(self, frame_json: JSON) -> JSON:
        """What the table shows at this step; ``frame_json`` is the step's lamps."""
        return {
            "save": self.record.id,
            "game": self.record.game,
            "step": self.step,
            "steps": self.steps,
            "seats": [{"id": s.id, "colour": s.colour} for s in self.session.seats],
            "names": self.names,
            "view": self.session.view(None),
            "lamps": frame_json,
            "active": self.session.active_seats,
            "events": self.events,
            "over": self.session.over,
            "result": self.result,
        }
