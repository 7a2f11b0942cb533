"""The replay viewer: a finished game, step by step, on the table screen and the lamps.

``TableReplay`` is a table's side of it: showing a saved game (the game on the table is
put away first), stepping through it and closing it.

Each step is rebuilt by replaying the log's first ``step`` actions through the game's
own ``GameModule.replay``, so the viewer needs to know nothing of any game's rules, and
it shows only what the table itself could see (``Session.view(None)``): no hand, no bag,
no action list. What each step did is read from the game's log (web/game_log.py), the
same steps the table's log shows during a game, in their public redaction.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.interface import JSON, LampFrame, Session
from web.errors import ApiError
from web.game_log import GameLog
from web.store import DamagedGame, GameRecord
from web.table_state import Publish, TableState


class ReplayViewer:
    def __init__(self, record: GameRecord, names: dict[str, str]) -> None:
        self.record = record
        self.names = dict(names)
        self.log = GameLog(record.game, record.header, record.actions)
        self.steps = len(record.actions)
        self.step = -1
        self.events: list[JSON] = []
        self.session: Session = self.log.session_at(self.steps)
        self.finished = self.session.over
        self.result = self.session.result()
        self.go(0)

    def go(self, step: int) -> None:
        step = max(0, min(self.steps, step))
        if step == self.step:
            return
        self.events = self.log.steps[step].seen_by(None)["events"] if step else []
        self.session = self.log.session_at(step)
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
            "events": self.events,
            "over": self.session.over,
            "result": self.result,
        }


class TableReplay:
    """The replay viewer at one table: None while the table shows its own game."""

    def __init__(self, table: TableState, put_away: Callable[[], None], publish: Publish) -> None:
        """``put_away()`` takes the table's game off it (saved first) to make way for the
        viewer; ``publish`` shows every page the step on show."""
        self.table = table
        self.put_away = put_away
        self.publish = publish
        self.viewer: ReplayViewer | None = None

    @property
    def showing(self) -> bool:
        return self.viewer is not None

    def show(self, game_id: int, step: int | None = None) -> JSON:
        """Step through a finished saved game on the table screen and the lamps; the
        game on the table, if any, is put away (saved) first."""
        table = self.table
        with table.lock:
            try:
                record, names = table.store.load(game_id)
                viewer = ReplayViewer(record, names)
            except KeyError:
                raise ApiError(404, "unknown_save", "There is no such saved game") from None
            except DamagedGame as exc:
                raise ApiError(409, "damaged_save", f"That saved game is damaged: {exc}") from None
            except Exception as exc:  # the rows are there but do not replay
                table.store.mark_damaged(game_id, f"it cannot be replayed: {exc}")
                raise ApiError(409, "damaged_save", f"That saved game is damaged: {exc}") from None
            if not viewer.finished:
                raise ApiError(
                    409, "not_finished", "Only a finished game can be replayed; resume this one"
                )
            self.put_away()
            self.viewer = viewer
            viewer.go(step if step is not None else 0)
            self.publish([])
            return self._json()

    def step(self, step: int) -> JSON:
        table = self.table
        with table.lock:
            if self.viewer is None:
                raise ApiError(409, "no_replay", "No replay is showing on this table")
            self.viewer.go(step)
            self.publish([])
            return self._json()

    def close(self) -> JSON:
        table = self.table
        with table.lock:
            if self.viewer is not None:
                self.viewer = None
                self.publish([])
            return {"revision": table.revision}

    def _json(self) -> JSON:
        assert self.viewer is not None
        return {"step": self.viewer.step, "steps": self.viewer.steps}
