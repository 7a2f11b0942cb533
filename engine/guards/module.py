"""How the box starts, replays and describes Guards! Guards! (engine.core.interface)."""

from __future__ import annotations

from typing import Any

from engine.core.companion_lesson import CompanionModule
from engine.core.data_check import DataCheck
from engine.core.interface import JSON, Session
from engine.core.tutorial import Script
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


class GuardsModule(CompanionModule):
    name = GAME
    title = "Guards! Guards!"
    scripts = SCRIPTS
    lesson = GuardsLesson
    bad_options = BadOptions

    def api_notes(self) -> dict[str, str]:
        return {
            "actions": "the reports the phone's forms fill in, each form as the legal "
            "actions list it; see docs/guards.md",
        }

    def data_check(self) -> DataCheck:
        return DataCheck(self.title, data.FILES, data.default_data_path, data.check_path)

    def new_game(self, options: dict[str, Any], seed: int) -> Session:
        """Options as in ``GuardsOptions.from_json`` (the lobby's ``mode`` taken off); a
        ``tutorial`` (a name in ``engine.guards.tutorial``) is the guided first game,
        ``new_lesson``, whose deal and set-up are its own."""
        return GuardsSession(GuardsGame.new(GuardsOptions.from_json(options), seed))

    def replay_game(self, log: JSON) -> Session:
        return GuardsSession(GuardsGame.replay(log))

    def new_lesson(self, script: Script) -> Session:
        """The guided first game: the lesson's own seats, deal and set-up, and nothing else."""
        return new_lesson(script)

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
