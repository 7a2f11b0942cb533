"""Previews: the lamps a seat's pending placement would flip, or the lamps of a hint it
asked for, shown on every screen and on the board until the game changes; or only on
the seat's own phone where the game says a preview would show a secret
(``Session.previews_shared``: in Long Distance, the shape of a card in a hidden hand).

Hints are the table's setting (``hints``: may phones ask for them, where the game's
rules allow); a hint is the game's plan for the seat, from the seat's own view, and its
lamps are shown like a placement's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.interface import (
    HINT_FORBIDDEN,
    HINT_NOT_YOUR_TURN,
    HINT_NOTHING_TO_DO,
    JSON,
    LampFrame,
)
from web.errors import ApiError, saved_or_refused
from web.table_state import Publish, TableState


def _lamp_names(mask: int) -> list[int]:
    return [i for i in range(16) if mask >> i & 1]


def frame_json(frame: LampFrame) -> JSON:
    """A lamp frame as lamp indices (bit ``row * 4 + col``), the same for every game."""
    return {
        "lit": _lamp_names(frame.lit),
        "preview": _lamp_names(frame.preview),
        "accent": _lamp_names(frame.accent),
    }


@dataclass
class Preview:
    seat: str
    frame: LampFrame
    hint: bool = False  # the lamps of a hint the seat asked for, not of its own placement

    def to_json(self) -> JSON:
        return {"seat": self.seat, **frame_json(self.frame), "hint": self.hint}


class Previews:
    def __init__(
        self,
        table: TableState,
        authorize: Callable[[str, str | None], None],
        publish: Publish,
    ) -> None:
        """``authorize(seat, token)`` refuses a token that does not hold ``seat``;
        ``publish`` shows a preview, or its end, on every page."""
        self.table = table
        self.authorize = authorize
        self.publish = publish
        self.current: Preview | None = None
        self.hints = False  # the table's setting: phones may ask for hints

    def board_frame(self, frame: LampFrame) -> LampFrame:
        """The game's lamps ``frame`` with the preview shown over them."""
        preview = self.current
        if preview is None:
            return frame
        # a hint also picks out where it leads (its tower, in Clacks)
        accent = frame.accent | (preview.frame.accent if preview.hint else 0)
        return LampFrame(frame.lit, preview.frame.preview, accent)

    def show(self, seat: str, token: str | None, action: Any) -> JSON:
        """The lamps ``action`` would flip, for the seat's phone, and on every screen and
        the board where the game shares previews."""
        table = self.table
        with table.lock:
            self.authorize(seat, token)
            session = table.require_session()
            try:
                frame = session.preview(seat, action)
            except (ValueError, TypeError):
                frame = None
            self._share(Preview(seat, frame) if frame is not None else None)
            return {"frame": frame_json(frame) if frame is not None else None}

    def _share(self, preview: Preview | None) -> None:
        """Show ``preview`` (None: none) on every screen and the board, if the game
        allows it; a preview only its seat may see is answered to that seat alone."""
        table = self.table
        session = table.require_session()
        if preview is not None and not session.previews_shared():
            preview = None
        if preview is None and self.current is None:
            return
        self.current = preview
        self.publish([])

    def clear(self, seat: str, token: str | None) -> None:
        table = self.table
        with table.lock:
            self.authorize(seat, token)
            if self.current is not None and self.current.seat == seat:
                self.current = None
                self.publish([])

    def set_hints(self, allowed: bool) -> JSON:
        """The table's setting: may phones ask for hints (where the game's rules allow)."""
        table = self.table
        with table.lock:
            with saved_or_refused():
                table.store.set_hints(table.code, allowed)
            self.hints = allowed
            self.publish([])
            return {"hints": self.hints}

    def hint(self, seat: str, token: str | None) -> JSON:
        """A hint for ``seat`` (its token): the game's plan, shown on every screen and the
        lamps as a preview. Only the seat's own plan, from its own view."""
        table = self.table
        with table.lock:
            self.authorize(seat, token)
            session = table.require_session()
            if not self.hints:
                raise ApiError(
                    409, "hints_off", "Hints are off at this table; the table can turn them on"
                )
            # a game whose options forbid hints says so in every view (Long Distance)
            if session.view(seat).get("hints_allowed") is False:
                raise ApiError(409, "hints_forbidden", "The rules of this game allow no hints")
            plan = session.hint(seat)
            if plan is None:
                raise no_hint(session.no_hint_reason(seat))
            frame = session.hint_lamps(seat)
            if frame is not None:
                self._share(Preview(seat, frame, hint=True))
            return {
                "revision": table.revision,
                "hint": plan,
                "frame": frame_json(frame) if frame is not None else None,
            }


NO_HINT = {
    HINT_NOT_YOUR_TURN: "There is no hint for you now: it is not your turn",
    HINT_NOTHING_TO_DO: "There is no hint for you now: nothing is left for you to do this turn",
    HINT_FORBIDDEN: "The rules of this game allow no hints",
}


def no_hint(reason: str) -> ApiError:
    """Why a seat has no hint, as the game says (``Session.no_hint_reason``)."""
    if reason == HINT_FORBIDDEN:
        return ApiError(409, "hints_forbidden", NO_HINT[reason])
    reason = reason if reason in NO_HINT else HINT_NOTHING_TO_DO
    return ApiError(409, "no_hint", NO_HINT[reason], reason=reason)
