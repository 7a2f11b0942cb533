"""A bounded amount of search work, counted in steps, that its caller may cancel.

A hint or a bot's decision searches within a ``WorkBudget``: every unit of work it does
(a state of the search, a table entry it looks at) is counted, and once the allowance is
spent the search stops and keeps the best it found so far. The count is part of the
engine's deterministic work, never a clock, so the same position gives the same answer
on any machine.

Time belongs to the caller: one that no longer wants the answer (a bot whose time is
up, a game deleted meanwhile) says so through ``cancelled``, which the budget asks now
and then; the search then raises ``SearchCancelled`` and its thread is free at once.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.errors import EngineError

Cancelled = Callable[[], bool]
CHECK_EVERY = 1024  # steps between two questions to ``cancelled``


class SearchCancelled(EngineError):
    """The caller cancelled the search; nothing it found is wanted."""


class WorkBudget:
    """``limit`` steps of search; ``cancelled`` (optional) returns True once the caller
    has given up on the answer."""

    __slots__ = ("_cancelled", "_next_check", "limit", "spent")

    def __init__(self, limit: int, cancelled: Cancelled | None = None) -> None:
        if limit < 1:
            raise ValueError(f"a work budget needs at least 1 step, not {limit}")
        self.limit = limit
        self.spent = 0
        self._cancelled = cancelled
        self._next_check = CHECK_EVERY

    @property
    def exhausted(self) -> bool:
        return self.spent > self.limit

    def spend(self, steps: int = 1) -> bool:
        """Count ``steps`` of work: True while they fit in the budget, False once it is
        spent (the search stops there). Raises SearchCancelled if the caller has given up."""
        self.spent += steps
        if self.spent >= self._next_check:
            self._next_check = self.spent + CHECK_EVERY
            self.check()
        return not self.exhausted

    def take(self, steps: int) -> int:
        """Spend up to ``steps`` at once and say how many fit in what is left (a loop of
        ``steps`` equal steps then runs that many)."""
        fitting = max(0, min(steps, self.limit - self.spent))
        self.spend(steps if fitting == steps else fitting + 1)
        return fitting

    def check(self) -> None:
        """Raise SearchCancelled if the caller has given up on the answer."""
        if self._cancelled is not None and self._cancelled():
            raise SearchCancelled("the search was cancelled by its caller")
