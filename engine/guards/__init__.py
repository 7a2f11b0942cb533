"""Guards! Guards! (Backspindle Games): the companion that rolls the dice, referees the
tests and keeps the Guild Cards, while the board and the pieces stay on the table.
Rules, rulings and what players report: docs/guards.md."""

from engine.guards.actions import Action, action_from_json
from engine.guards.game import GuardsGame
from engine.guards.options import GuardsOptions

__all__ = ["Action", "GuardsGame", "GuardsOptions", "action_from_json"]
