"""Clacks: the rules engine for the Discworld board game by Backspindle Games."""

from engine.clacks.actions import (
    Action,
    Discard,
    EndTurn,
    Move,
    PlayFault,
    PlayJacquard,
    ResumeClock,
    Swap,
    TimeUp,
    Transmit,
    action_from_json,
)
from engine.clacks.data import check_path, load_components
from engine.clacks.events import Event
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import Seat
from engine.clacks.state import Options

__all__ = [
    "Action",
    "ClacksGame",
    "Discard",
    "EndTurn",
    "Event",
    "Move",
    "Options",
    "PlayFault",
    "PlayJacquard",
    "ResumeClock",
    "Seat",
    "Swap",
    "TimeUp",
    "Transmit",
    "action_from_json",
    "check_path",
    "load_components",
]
