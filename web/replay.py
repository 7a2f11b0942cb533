"""The replay viewer: a finished game, step by step, on the table screen and the lamps.

Each step is rebuilt by replaying the log's first ``step`` actions through the game's
own ``GameModule.replay``, so the viewer needs to know nothing of any game's rules, and
it shows only what the table itself could see (``Session.view(None)``): no hand, no bag,
no action list.
"""

from __future__ import annotations

from engine.core.interface import JSON, LampFrame, Session, game_module
from web.store import GameRecord


class ReplayViewer:
    def __init__(self, record: GameRecord, names: dict[str, str]) -> None:
        self.record = record
        self.names = dict(names)
        self.module = game_module(record.game)
        self.steps = len(record.actions)
        self.step = -1
        self.session: Session = self.module.replay(record.log())
        self.finished = self.session.over
        self.result = self.session.result()
        self.go(0)

    def go(self, step: int) -> None:
        step = max(0, min(self.steps, step))
        if step == self.step:
            return
        log = {**self.record.header, "actions": self.record.actions[:step]}
        self.session = self.module.replay(log)
        self.step = step

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
            "over": self.session.over,
            "result": self.result,
        }
