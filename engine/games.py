"""The games this box plays: the one place a game is registered.

engine.core never imports this module; the web app, the firmware and the CLI look games up
here by name.
"""

from engine.clacks.session import ClacksModule
from engine.clacks.trainer_session import TrainerModule
from engine.clockman.module import ClockmanModule
from engine.core.interface import GameModule
from engine.guards.module import GuardsModule
from engine.klackers.module import KlackersModule

_REGISTRY: dict[str, GameModule] = {
    module.name: module
    for module in (ClacksModule(), TrainerModule(), KlackersModule(), ClockmanModule(), GuardsModule())
}


DEFAULT_GAME = ClacksModule.name  # the game a request that names none means, and the box's own


def game_module(name: str) -> GameModule:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; games are {', '.join(sorted(_REGISTRY))}") from None


def game_modules() -> dict[str, GameModule]:
    return dict(_REGISTRY)
