"""Events: what happened, in public terms. An event never carries the seed, the dice
generator, the order of the symbol deck, a symbol card a player drew or the words a
player noted on a face-down event card."""

from __future__ import annotations

from engine.core.events import Event as Event
