"""Typed refusals for Clockman. Each has a stable ``rule`` code and is raised with the
values its sentence needs (a ``reason`` naming the case); the words are the catalogues'
``rule.<code>`` in every language. Codes that mean the same as in the other games (whose
turn, game over, undo) are shared with them."""

from __future__ import annotations

from engine.core.errors import GameIsOver as GameIsOver
from engine.core.errors import IllegalAction
from engine.core.errors import NothingToUndo as NothingToUndo
from engine.core.errors import NotYourTurn as NotYourTurn


class BadOptions(IllegalAction):
    rule = "clockman_options"


class WrongMoment(IllegalAction):
    """A report or play that does not fit this moment of the turn (a landing before the
    roll, a second roll, ending the turn before reporting the landing)."""

    rule = "clockman_wrong_moment"


class WrongCircle(IllegalAction):
    """A field the player's circle does not have (a 1 on the second circle, a lift on the
    innermost circle, a Whytooki on the straight)."""

    rule = "clockman_wrong_circle"


class DigitNotAllowed(IllegalAction):
    """A digit the date key cannot take (a sixth 0 without the Hamster rule)."""

    rule = "clockman_digit_not_allowed"


class SupplyEmpty(IllegalAction):
    """No card of that kind left on the board or in the deck."""

    rule = "clockman_supply_empty"


class NoMatchingCard(IllegalAction):
    """A Whytooki hit without a symbol card of its pose (or the event card named)."""

    rule = "clockman_no_matching_card"


class UnknownPose(IllegalAction):
    rule = "clockman_unknown_pose"


class DateIncomplete(IllegalAction):
    """The final straight with an incomplete (or untransferred) date key."""

    rule = "clockman_date_incomplete"


class CannotKnock(IllegalAction):
    """A knock the board does not allow: the player is not on the same circle, is on the
    straight, at the start, or is the knocker."""

    rule = "clockman_cannot_knock"


class RuleNotInPlay(IllegalAction):
    """A report that only one of the optional rules allows (a transfer field, a trade)."""

    rule = "clockman_rule_not_in_play"


class EventLimit(IllegalAction):
    """A fourth event card in one turn (the Anzahlregel)."""

    rule = "clockman_event_limit"


class NoEffectOnStraight(IllegalAction):
    """An event card's effect on a player on the final straight (the Zielgeradenregel)."""

    rule = "clockman_no_effect_on_straight"


class BadTrade(IllegalAction):
    """A trade offer that cannot be made or accepted as it stands."""

    rule = "clockman_bad_trade"


class NotYourOffer(IllegalAction):
    """Accepting or declining an offer made to someone else: no veto for the others."""

    rule = "clockman_not_your_offer"


class AwaitingAnswer(IllegalAction):
    """Something else while the game waits for one player's answer (a defence, a choice
    of digit, the check of a winner's cards)."""

    rule = "clockman_awaiting_answer"


class BadCheck(IllegalAction):
    """An inspection or verdict that does not fit the winner's cards or the moment."""

    rule = "clockman_bad_check"


class ChooseOnPhone(IllegalAction):
    """A button press that could mean more than one thing (which pose, which player)."""

    rule = "clockman_choose_on_phone"
