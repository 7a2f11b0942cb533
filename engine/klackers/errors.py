"""Typed refusals for Klackers. Each has a stable ``rule`` code and is raised with the
values its sentence needs (a ``reason`` naming the case); the words are the catalogues'
``rule.<code>`` in every language. Codes that mean the same as in other games (whose
turn, game over, undo) are shared with them."""

from __future__ import annotations

from engine.core.errors import GameIsOver as GameIsOver
from engine.core.errors import IllegalAction
from engine.core.errors import NothingToUndo as NothingToUndo
from engine.core.errors import NotYourTurn as NotYourTurn


class BadOptions(IllegalAction):
    rule = "klackers_options"


class OptionOutOfRange(BadOptions):
    """A numeric option outside the range the schema states (engine.core.options)."""

    rule = "option_range"


class RollFirst(IllegalAction):
    """A pull (or a number marked) before the dice have been rolled."""

    rule = "roll_first"


class PullFirst(IllegalAction):
    """A roll while the last roll's total still has to be pulled."""

    rule = "pull_first"


class OneDieNotAllowed(IllegalAction):
    rule = "one_die_not_allowed"


class NotStanding(IllegalAction):
    """A number that is already down (pulled forward earlier this round)."""

    rule = "not_standing"


class WrongSum(IllegalAction):
    rule = "wrong_sum"


class NothingMarked(IllegalAction):
    """The box's pull button pressed with no numbers marked."""

    rule = "nothing_marked"
