"""Klackers: the "shut the box" dice game by Michael Lynagh, on the same box as Clacks."""

from engine.klackers.actions import Action, Pull, Roll, action_from_json
from engine.klackers.events import Event
from engine.klackers.game import KlackersGame
from engine.klackers.options import KlackersOptions

__all__ = [
    "Action",
    "Event",
    "KlackersGame",
    "KlackersOptions",
    "Pull",
    "Roll",
    "action_from_json",
]
