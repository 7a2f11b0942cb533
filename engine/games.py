"""The games this box plays, registered behind engine.core.interface."""

from engine.clacks.session import ClacksModule
from engine.clacks.trainer_session import TrainerModule
from engine.clockman.module import ClockmanModule
from engine.core.interface import register
from engine.guards.module import GuardsModule
from engine.klackers.module import KlackersModule

register(ClacksModule())
register(TrainerModule())
register(KlackersModule())
register(ClockmanModule())
register(GuardsModule())
