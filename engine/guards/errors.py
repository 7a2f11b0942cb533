"""Typed refusals for Guards! Guards!. Each has a stable ``rule`` code and is raised with
the values its sentence needs (a ``reason`` naming the case); the words are the
catalogues' ``rule.<code>`` in every language. Codes that mean the same in every game
are shared with them."""

from __future__ import annotations

from engine.core.errors import GameIsOver as GameIsOver
from engine.core.errors import IllegalAction
from engine.core.errors import NothingToUndo as NothingToUndo
from engine.core.errors import NotYourTurn as NotYourTurn


class BadOptions(IllegalAction):
    rule = "guards_options"


class OptionOutOfRange(BadOptions):
    """A numeric option outside the range the schema states (engine.core.options)."""

    rule = "option_range"


class BadCard(IllegalAction):
    """Card values typed on a phone that are not a card's (a field out of range)."""

    rule = "guards_bad_card"


class NotNow(IllegalAction):
    """A report that does not fit this moment: another step is awaited first."""

    rule = "guards_not_now"


class SetUpFirst(IllegalAction):
    rule = "guards_set_up_first"


class WaitForOthers(IllegalAction):
    """Someone else must answer first (a roll, a choice)."""

    rule = "guards_wait"


class NotEnoughMoney(IllegalAction):
    rule = "guards_money"


class AttributeLimit(IllegalAction):
    rule = "guards_attribute_limit"


class NotYourCard(IllegalAction):
    rule = "guards_not_your_card"


class CardElsewhere(IllegalAction):
    """A card named as turned over that is somewhere else (a hand, the discards...)."""

    rule = "guards_card_elsewhere"


class WrongDeck(IllegalAction):
    rule = "guards_wrong_deck"


class DragonThere(IllegalAction):
    """A Dragon in the quadrant forbids recruiting, spells, the Guild House and shops."""

    rule = "guards_dragon_there"


class GuildHouseRule(IllegalAction):
    rule = "guards_guild_house"


class CannotBribe(IllegalAction):
    rule = "guards_cannot_bribe"


class StopOnce(IllegalAction):
    """A second 'stop' action in one turn (you stop on one tile)."""

    rule = "guards_stop_once"


class TurnNotBegun(IllegalAction):
    rule = "guards_beginning_only"


class SaboteurRule(IllegalAction):
    rule = "guards_saboteur"


class SaboteursLocked(IllegalAction):
    """After a Spell Run is announced no opponent may plant or move a Saboteur."""

    rule = "guards_saboteurs_locked"


class RunRule(IllegalAction):
    rule = "guards_spell_run"


class TooManyRunners(IllegalAction):
    rule = "guards_runners"


class SendAtOnce(IllegalAction):
    """A Volunteer recruited while runners wait at the Gate, not yet sent to them."""

    rule = "guards_send_at_once"


class SpellRule(IllegalAction):
    rule = "guards_spell"


class MagicRule(IllegalAction):
    rule = "guards_magic"


class Protected(IllegalAction):
    """Nobody in a Hospital or a Watch House uses or is targeted by Magic or abilities."""

    rule = "guards_protected"


class AbilityRule(IllegalAction):
    rule = "guards_ability"


class NothingToCure(IllegalAction):
    rule = "guards_nothing_to_cure"


class PoxRule(IllegalAction):
    rule = "guards_pox"


class DragonRule(IllegalAction):
    rule = "guards_dragon"


class TooManyFighters(IllegalAction):
    rule = "guards_fighters"
