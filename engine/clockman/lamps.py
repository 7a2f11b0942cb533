"""Clockman on the box's sixteen lamps (engine/data/clockman/box.toml).

The turn view:

- rows 1-2: the die as a bar of one to six lamps once rolled; while the player must
  roll, all six glow in the accent colour;
- rows 3-4: the active player's date key 0 1 0 1 2 0 0 0, one lamp per digit: lit when
  held, blinking when held but not yet transferred (Übertragungsregel), in the accent
  colour when a joker stands in, dark while missing.

The race view (chosen on a phone): one column per seat (a = South, b = West, c = North,
d = East), lit from row 1 up to the circle the piece is on; a piece on the final
straight glows in the accent colour over the whole column, a winner's column is lit.
"""

from __future__ import annotations

from engine.clockman.data import ClockmanData
from engine.clockman.digits import slots
from engine.clockman.options import SEATS
from engine.clockman.state import START, STRAIGHT, ClockmanState
from engine.core.interface import LampFrame

VIEWS = ("turn", "race")


def mask(lamps: tuple[int, ...] | list[int]) -> int:
    return sum(1 << lamp for lamp in lamps)


def turn_frame(state: ClockmanState) -> LampFrame:
    data = state.data
    turn = state.turn
    if turn is None:
        return LampFrame(lit=0, accent=mask(data.date_lamps))
    lit = preview = accent = 0
    if turn.phase == "roll" or turn.die is None:
        accent |= mask(data.die_lamps)
    else:
        lit |= mask(data.die_lamps[: turn.die])
    player = state.players[turn.seat]
    for lamp, shown in zip(
        data.date_lamps, slots(player.date, player.pending, data.date_key), strict=True
    ):
        bit = 1 << lamp
        if shown == "held":
            lit |= bit
        elif shown == "pending":
            preview |= bit
        elif shown == "joker":
            accent |= bit
        elif shown == "joker_pending":
            accent |= bit
            preview |= bit
    return LampFrame(lit=lit, preview=preview, accent=accent)


def race_frame(state: ClockmanState) -> LampFrame:
    lit = accent = 0
    for column, seat in enumerate(SEATS):
        player = state.players.get(seat)
        if player is None or player.status == "out" or player.ring == START:
            continue
        whole = sum(1 << (row * 4 + column) for row in range(4))
        if player.status == "won":
            lit |= whole
        elif player.ring == STRAIGHT:
            accent |= whole
        else:
            lit |= sum(1 << (row * 4 + column) for row in range(player.ring))
    return LampFrame(lit=lit, accent=accent)


def die_mask(data: ClockmanData) -> int:
    return mask(data.die_lamps)
