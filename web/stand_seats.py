"""The one rule for seats at a convention stand (README, "Running a convention stand").

At a stand a visitor may do with a seat only what playing it needs:

* take a free seat, or a seat the box's bot plays (the bot hands it over), but never a
  seat a lesson's own scripted opponent plays;
* move their own seat to another device;
* leave their own seat: where the game has bots, the box's bot takes it back (the one
  it took over from, else the stand's own level), so no seat of such a game is ever
  left with neither a person nor a bot. A seat taken over from a bot is left, too, once
  no page of it has been open for ``ABSENT_SECONDS`` (web/seats.py): a visitor keeps the
  bot out only while they play.

Everything else a request can do to a seat (free someone else's seat, give a seat to a
bot or take one from it) is the table's control, which nobody has at a stand: it is
refused as ``stand_mode``, PIN or not. Every seat route asks ``refusal`` before it acts,
and leaving asks ``bot_after_leaving``; nothing else decides.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import Enum

from web.errors import ApiError


class SeatRequest(Enum):
    """What a request asks of a seat."""

    TAKE = "take"  # claim a seat (or rename your own)
    MOVE = "move"  # move your own seat to another device (a ticket, and taking it)
    LEAVE = "leave"  # give up your own seat
    FREE = "free"  # the table lets someone else go from a seat
    BOT = "bot"  # the table seats a bot, or changes its level


PLAYING = {SeatRequest.TAKE, SeatRequest.MOVE, SeatRequest.LEAVE}


def stand_mode(why: str) -> ApiError:
    return ApiError(
        403,
        "stand_mode",
        f"This companion runs a convention stand: {why}; choose a game on your phone from "
        "the stand's own choices",
    )


def refusal(request: SeatRequest, seat: str, lesson_bots: Collection[str]) -> ApiError | None:
    """Why a stand refuses ``request`` for ``seat`` (None: the stand allows it, and the
    seat's own checks follow: a seat a person holds stays theirs). ``lesson_bots`` are
    the seats a lesson's scripted opponent plays."""
    if request not in PLAYING:
        return stand_mode("its seats are the visitors' and the box's, never the table's to give")
    if request is SeatRequest.TAKE and seat in lesson_bots:
        return stand_mode("the lesson's opponent plays this seat, and its script needs it")
    return None


def stand_level(levels: Sequence[str]) -> str:
    """The level the stand's bots play: neither the weakest nor the strongest."""
    return levels[len(levels) // 2]


def bot_after_leaving(levels: Sequence[str], lesson: bool, handed_over: str | None) -> str | None:
    """Who plays a seat its visitor left: the bot the visitor took it over from, else a
    bot of the stand's level; None in a lesson (it ends with its learner) and in a game
    without bots (the seat waits for the next visitor, as it did before the first)."""
    if lesson or not levels:
        return None
    return handed_over if handed_over in levels else stand_level(levels)
