"""Clockman: the race to 01.01.2000 over four circles, refereed while the board stays on
the table. The players move their pieces and report where they landed."""

from engine.clockman.actions import Action, action_from_json, make
from engine.clockman.events import Event
from engine.clockman.game import ClockmanGame
from engine.clockman.options import ClockmanOptions

__all__ = ["Action", "ClockmanGame", "ClockmanOptions", "Event", "action_from_json", "make"]
