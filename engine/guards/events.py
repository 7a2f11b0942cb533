"""Events: what happened, in public terms. An event never carries what a player holds
privately (which Volunteer was dealt, a Saboteur's quadrant, a Scroll's name before it
is cast) nor the seed or the state of the dice generator."""

from __future__ import annotations

from engine.core.events import Event
from engine.core.events import event as ev

__all__ = ["Event", "ev"]
