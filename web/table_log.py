"""What of a table's log its pages are sent: the steps a page lacks with every snapshot,
and the pages of older steps it asks for (web/game_log.py derives the steps).

While the replay viewer is on, the log is the replayed game's, up to the step shown.
"""

from __future__ import annotations

from engine.core.interface import JSON
from web.game_log import GameLog
from web.replay import ReplayViewer

LOG_SENT_ON_CONNECT = 60  # the latest steps a page gets when it (re)connects
FEED_MAX = 200  # the most steps since its own last action a seat's page gets then


def log_for_page(
    game_log: GameLog | None,
    viewer: ReplayViewer | None,
    log_since: int,
    seat: str | None,
    since: int | None,
) -> JSON:
    """The log's steps a page of ``seat`` lacks after change ``since``: the new ones,
    or, for a fresh page (or a game put on the table at change ``log_since`` or later,
    or the replay viewer), the latest ones (for a seat, from its own last action on)
    with ``log_reset``. ``log_last`` is the last step now: a page drops any it holds
    beyond it (an action taken back)."""
    if viewer is not None:
        steps = viewer.log.page(None, viewer.step + 1, LOG_SENT_ON_CONNECT)
        return {"log_steps": steps, "log_last": viewer.step, "log_reset": True}
    if game_log is None:
        return {"log_steps": [], "log_last": None, "log_reset": True}
    if since is not None and since >= log_since:
        return {
            "log_steps": game_log.since(seat, since),
            "log_last": game_log.last,
            "log_reset": False,
        }
    count = LOG_SENT_ON_CONNECT
    own = game_log.last_own(seat) if seat is not None else None
    if own is not None:
        count = min(FEED_MAX, max(count, game_log.last - own + 1))
    steps = game_log.page(seat, None, count)
    return {"log_steps": steps, "log_last": game_log.last, "log_reset": True}


def older_steps(
    game_log: GameLog | None,
    viewer: ReplayViewer | None,
    seat: str | None,
    before: int | None,
    limit: int,
) -> tuple[list[JSON], int | None]:
    """Up to ``limit`` steps before step ``before``, oldest first, as ``seat`` may read
    them, and the last step there is."""
    if viewer is not None:
        end = viewer.step + 1 if before is None else min(before, viewer.step + 1)
        return viewer.log.page(None, end, limit), viewer.step
    if game_log is not None:
        return game_log.page(seat, before, limit), game_log.last
    return [], None
