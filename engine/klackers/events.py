"""Events: what happened, in public terms. Klackers hides nothing from the players, but
events never carry the seed or the state of the dice generator either."""

from __future__ import annotations

from engine.core.events import Event as Event
from engine.core.events import event as event
