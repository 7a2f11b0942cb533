"""The game's log as people read it, derived from its saved actions.

Step 0 is the game set up; step ``n`` is the ``n``-th saved action, with the seat that
took it (None: the table's own, such as its clock), the public events applying it
raised, and what only one seat was told of it (its own draws: ``Session.apply_told``).
The table's log, a phone's feed and the replay viewer all read the same steps, so a
log is complete after any restart and numbered by step, whatever the page saw before.

Each audience reads its own redaction (``Step.seen_by``), like boardgame.io's
``redactLog``: the table and spectators the public events only, a seat those with its
own private details filled in, never another seat's.

Deriving costs one action per change: a copy of the game (``_reader``), rebuilt from
the saves, follows the saved actions one at a time. The saves change only at their
end (an action more, or one taken back), so an undo rebuilds the copy from the saves
and drops the steps it took back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from engine.core.interface import JSON, Session
from engine.games import game_module

log = logging.getLogger("clacks.web")

PAGE_MAX = 200  # steps one request may ask for


@dataclass(frozen=True)
class Step:
    number: int
    seat: str | None  # who took the action (None: the table itself)
    events: list[JSON]
    # seat -> index of one of ``events`` -> the details only that seat may read
    private: dict[str, dict[int, JSON]] = field(default_factory=dict)
    stamp: int = 0  # the table's change (``seq``) that first told pages of this step

    def seen_by(self, seat: str | None) -> JSON:
        """The step as ``seat`` may read it (None: the table and spectators)."""
        own = self.private.get(seat) if seat is not None else None
        events = self.events
        if own:
            events = [{**e, **own[i], "own": True} if i in own else e for i, e in enumerate(events)]
        return {"step": self.number, "seat": self.seat, "events": events}


class GameLog:
    """The steps of one game, kept in step with its saved actions (``follow``)."""

    def __init__(self, game: str, header: JSON, actions: list[JSON], stamp: int = 0) -> None:
        self.module = game_module(game)
        self.header = header
        self._actions: list[JSON] = []
        self._reader = self.module.replay({**header, "actions": []})
        seats = [s.id for s in self._reader.seats]
        started: JSON = {"kind": "game_started", "seat": None, "seats": seats}
        self.steps: list[Step] = [Step(0, None, [started], stamp=stamp)]
        self.follow(actions, stamp)

    @property
    def last(self) -> int:
        """The number of the last step."""
        return len(self.steps) - 1

    def follow(self, actions: list[JSON], stamp: int) -> None:
        """The saved actions are now ``actions``: take back the steps no longer saved and
        derive the new ones, stamped with ``stamp``."""
        kept = min(len(self._actions), len(actions))
        while kept and self._actions[kept - 1] != actions[kept - 1]:
            kept -= 1
        if kept < len(self._actions):
            del self.steps[kept + 1 :]
            del self._actions[kept:]
            self._reader = self.module.replay({**self.header, "actions": list(self._actions)})
        for action in actions[kept:]:
            self.steps.append(self._derive(len(self.steps), action, stamp))
            self._actions.append(action)

    def _derive(self, number: int, action: JSON, stamp: int) -> Step:
        try:
            told = self._reader.replay_action(action)
        except Exception as exc:  # the game's own replay took it, so this is a bug here
            log.error("step %s of a %s game tells nothing: %s", number, self.module.name, exc)
            self._reader = self.module.replay({**self.header, "actions": [*self._actions, action]})
            return Step(number, None, [], stamp=stamp)
        return Step(number, told.seat, told.events, told.private, stamp)

    # ----------------------------------------------------------------- reading

    def page(self, seat: str | None, before: int | None, limit: int) -> list[JSON]:
        """Up to ``limit`` steps before step ``before`` (None: up to the last), oldest
        first, as ``seat`` may read them."""
        end = len(self.steps) if before is None else max(0, min(before, len(self.steps)))
        start = max(0, end - max(0, min(limit, PAGE_MAX)))
        return [s.seen_by(seat) for s in self.steps[start:end]]

    def since(self, seat: str | None, stamp: int) -> list[JSON]:
        """The steps pages were told of after change ``stamp``, oldest first."""
        start = len(self.steps)
        while start and self.steps[start - 1].stamp > stamp:
            start -= 1
        return [s.seen_by(seat) for s in self.steps[start:]]

    def last_own(self, seat: str) -> int | None:
        """The step of ``seat``'s last action, if it took any."""
        for step in reversed(self.steps):
            if step.seat == seat:
                return step.number
        return None

    def session_at(self, step: int) -> Session:
        """The game as it was after ``step`` (a fresh copy, for the replay viewer)."""
        return self.module.replay({**self.header, "actions": self._actions[:step]})
