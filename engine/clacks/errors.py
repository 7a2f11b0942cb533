"""Typed refusals for Clacks. Each has a stable ``rule`` code and is raised with the
values its sentence needs (a ``reason`` naming the case); the words are the catalogues'
``rule.<code>`` in every language. Codes that mean the same as in other games (whose
turn, game over, undo) are shared with them."""

from __future__ import annotations

from engine.core.errors import GameIsOver as GameIsOver
from engine.core.errors import IllegalAction
from engine.core.errors import NothingToUndo as NothingToUndo
from engine.core.errors import NotYourTurn as NotYourTurn


class BadPlacement(IllegalAction):
    rule = "bad_placement"


class StressLimit(IllegalAction):
    rule = "stress_limit"


class WrongColour(IllegalAction):
    rule = "wrong_colour"


class TowerOccupied(IllegalAction):
    rule = "tower_occupied"


class MoveNotAllowed(IllegalAction):
    rule = "move_not_allowed"


class MustChangeTower(IllegalAction):
    rule = "must_change_tower"


class WrongPattern(IllegalAction):
    rule = "wrong_pattern"


class PatternNotFresh(IllegalAction):
    rule = "pattern_not_fresh"


class JacquardRequired(IllegalAction):
    rule = "jacquard_required"


class MoveStrandsHand(IllegalAction):
    """A move that would leave too little stress for the cheapest Jacquard in hand. The
    hand is the mover's secret, so the public form says neither which card nor its cost."""

    rule = "move_strands_hand"

    def public(self) -> IllegalAction:
        return MoveStrandsHand(
            reason="public",
            tower=self.params.get("tower"),
            cost=self.params.get("cost"),
            left=self.params.get("left"),
        )


class NotOnTower(IllegalAction):
    rule = "not_on_tower"


class CardTiming(IllegalAction):
    rule = "card_timing"


class CardTarget(IllegalAction):
    rule = "card_target"


class TimeRules(IllegalAction):
    rule = "time"


class WrongPhase(IllegalAction):
    rule = "wrong_phase"


class BadOptions(IllegalAction):
    rule = "bad_options"


class OptionOutOfRange(BadOptions):
    """A numeric option outside the range the schema states (engine.core.options)."""

    rule = "option_range"


class SwapNotAllowed(IllegalAction):
    rule = "swap_not_allowed"


class JacquardLimit(IllegalAction):
    rule = "jacquard_limit"


class LiftedNotPlayed(IllegalAction):
    """The Jacquard lifted from a swap slot must be played first. An Operator's Log's
    Jacquard is the lifter's secret, so the public form names no card."""

    rule = "lifted_not_played"

    def public(self) -> IllegalAction:
        return LiftedNotPlayed(reason="public")
