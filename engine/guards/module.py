"""How the box starts, replays and describes Guards! Guards! (engine.core.interface)."""

from __future__ import annotations

from engine.core.companion_lesson import companion_script
from engine.core.data_check import DataCheck
from engine.core.interface import JSON, GameModule, Session
from engine.core.one_mode import one_mode_options, one_mode_tutorial_start
from engine.core.tutorial import replay_lesson_or_game
from engine.guards import data, dice
from engine.guards.cards import ATTRIBUTES, DECKS, SKILLS
from engine.guards.data import QUADRANTS, shipped_data
from engine.guards.errors import BadOptions
from engine.guards.game import GAME, GuardsGame
from engine.guards.lamps import BUTTONS, block_lamps
from engine.guards.options import (
    DEFAULT_SEATS,
    FULL_GAME_SPELLS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS,
    SPELLS_RANGE,
    VARIANTS,
    GuardsOptions,
)
from engine.guards.session import GuardsSession
from engine.guards.tutorial import SCRIPTS, GuardsLesson, new_lesson


class GuardsModule(GameModule):
    name = GAME
    title = "Guards! Guards!"

    def api_notes(self) -> dict[str, str]:
        return {
            "actions": "the reports the phone's forms fill in, each form as the legal "
            "actions list it; see docs/guards.md",
        }

    def data_check(self) -> DataCheck:
        return DataCheck(self.title, data.FILES, data.default_data_path, data.check_path)

    def new(self, options: JSON, seed: int, now: float = 0.0) -> Session:
        """Options as in ``GuardsOptions.from_json``, plus the lobby's ``mode``; or
        ``tutorial`` (a name in ``engine.guards.tutorial``) for the guided first game,
        whose deal and set-up are its own."""
        if isinstance(options, dict) and "tutorial" in options:
            return _tutorial(options)
        data = one_mode_options(options, GAME, BadOptions)
        return GuardsSession(GuardsGame.new(GuardsOptions.from_json(data), seed))

    def replay(self, log: JSON) -> Session:
        return replay_lesson_or_game(
            log,
            SCRIPTS,
            self.title,
            lambda game: GuardsSession(GuardsGame.replay(game)),
            GuardsLesson,
        )

    def options_schema(self) -> JSON:
        return {
            "game": self.name,
            "modes": [
                {
                    "id": GAME,
                    "title": self.title,
                    "players": sorted(DEFAULT_SEATS),
                    "variants": list(VARIANTS),
                    "default_seats": {str(n): list(s) for n, s in DEFAULT_SEATS.items()},
                    "choices": {"spells": SPELLS_RANGE.schema(FULL_GAME_SPELLS)},
                }
            ],
            "modes_order": [GAME],
            # every option with its range or allowed values; ``data`` replaces the house
            # tables with an owner's, checked like the data files
            "options": {
                "mode": {"choices": [GAME], "default": GAME},
                "players": {"type": "integer", "min": MIN_PLAYERS, "max": MAX_PLAYERS},
                "seats": {"choices": list(SEATS), "distinct": True},
                "spells": SPELLS_RANGE.schema(FULL_GAME_SPELLS),
                **{name: {"type": "bool", "default": False} for name in VARIANTS},
                "data": {"type": "data tables", "checked_as": "engine/data/guards/*.toml"},
                # the guided first game (engine.guards.tutorial): with it, no other option
                "tutorial": {"choices": list(SCRIPTS)},
            },
        }

    def reference(self) -> JSON:
        data = shipped_data()
        return {
            "game": GAME,
            "seats": list(SEATS),
            "quadrants": list(QUADRANTS),
            "decks": list(DECKS),
            "attributes": list(ATTRIBUTES),
            "skills": list(SKILLS),
            "sides": dice.SIDES,
            "blocks": {q: [f"{'abcd'[i % 4]}{i // 4 + 1}" for i in range(16) if block_lamps(b) >> i & 1]
                       for q, b in data.blocks.items()},
            "buttons": dict(BUTTONS),
        }

    def tutorial_start(self, mode: str | None = None) -> JSON | None:
        return one_mode_tutorial_start(self.name, SCRIPTS, mode)


def _tutorial(options: JSON) -> Session:
    """The guided first game: the lesson's own seats, deal and set-up, and nothing else."""
    return new_lesson(companion_script(options, SCRIPTS, GAME, BadOptions))
