"""How the box starts, replays and describes Clockman (engine.core.interface)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.clockman import data
from engine.clockman.data import load_data
from engine.clockman.errors import BadOptions
from engine.clockman.game import GAME, ClockmanGame
from engine.clockman.options import DEFAULT_SEATS, HAMSTER, SEATS, ClockmanOptions
from engine.clockman.session import ClockmanSession
from engine.clockman.tutorial import OPTIONS as TUTORIAL_OPTIONS
from engine.clockman.tutorial import SCRIPTS
from engine.clockman.tutorial import SEED as TUTORIAL_SEED
from engine.core.companion_lesson import CompanionLesson, CompanionModule
from engine.core.data_check import DataCheck
from engine.core.interface import JSON, Session
from engine.core.tutorial import Script


class ClockmanModule(CompanionModule):
    name = GAME
    title = "Clockman"
    scripts = SCRIPTS
    lesson = CompanionLesson
    bad_options = BadOptions

    def api_notes(self) -> dict[str, str]:
        return {
            "actions": "roll, the landing reports, end_turn, play, defend, take, offer, "
            "accept, decline, withdraw, inspect, confirm, revoke; see docs/clockman.md",
        }

    def data_check(self) -> DataCheck:
        return DataCheck(
            self.title, data.FILES, data.default_data_path, data.check_path, _house_values
        )

    def new_game(self, options: dict[str, Any], seed: int) -> Session:
        """Options as in ``ClockmanOptions.from_json`` (the lobby's ``mode``, Clockman's
        one, taken off); a ``tutorial`` (a name in ``engine.clockman.tutorial``) is the
        guided first game, ``new_lesson``, whose deal is its own."""
        return ClockmanSession(ClockmanGame.new(ClockmanOptions.from_json(options), seed))

    def replay_game(self, log: JSON) -> Session:
        return ClockmanSession(ClockmanGame.replay(log))

    def new_lesson(self, script: Script) -> Session:
        """The guided first game: the lesson's own seats and deal, and nothing else."""
        game = ClockmanGame.new(ClockmanOptions.from_json(TUTORIAL_OPTIONS), TUTORIAL_SEED)
        return CompanionLesson(ClockmanSession(game), script)

    def options_schema(self) -> JSON:
        flag = {"type": "bool", "values": [False, True], "default": False}
        return {
            "game": self.name,
            "modes": [
                {
                    "id": GAME,
                    "title": "Clockman",
                    "players": sorted(DEFAULT_SEATS),
                    "variants": [],
                    "default_seats": {str(n): list(s) for n, s in DEFAULT_SEATS.items()},
                    # the rulebook's four optional rules (section 7), each with its values
                    "choices": {
                        "transfer": dict(flag),
                        "hamster": {"choices": list(HAMSTER), "default": "off"},
                        "robbery": dict(flag),
                        "swap": dict(flag),
                    },
                }
            ],
            "modes_order": [GAME],
            # every option with its allowed values
            "options": {
                "mode": {"choices": [GAME], "default": GAME},
                "players": {
                    "type": "integer",
                    "min": min(DEFAULT_SEATS),
                    "max": max(DEFAULT_SEATS),
                },
                "seats": {"choices": list(SEATS), "distinct": True},
                "transfer": {"type": "bool", "default": False},
                "hamster": {"choices": list(HAMSTER), "default": "off"},
                "robbery": {"type": "bool", "default": False},
                "swap": {"type": "bool", "default": False},
                # the guided first game (engine.clockman.tutorial): with it, no other option
                "tutorial": {"choices": list(SCRIPTS)},
            },
        }

    def reference(self) -> JSON:
        data = load_data()
        return {"game": GAME, "seats": list(SEATS), **data.to_json()}


def _house_values(path: Path) -> str:
    """A valid set's report names the files that change the printed values."""
    return f" (house values: {', '.join(load_data(path).house_files) or 'none'})"
