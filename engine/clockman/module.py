"""How the box starts, replays and describes Clockman (engine.core.interface)."""

from __future__ import annotations

from pathlib import Path

from engine.clockman import data
from engine.clockman.data import load_data
from engine.clockman.errors import BadOptions
from engine.clockman.game import GAME, ClockmanGame
from engine.clockman.options import DEFAULT_SEATS, HAMSTER, SEATS, ClockmanOptions
from engine.clockman.session import ClockmanSession
from engine.core.data_check import DataCheck
from engine.core.interface import JSON, GameModule
from engine.core.one_mode import one_mode_options


class ClockmanModule(GameModule):
    name = GAME
    title = "Clockman"

    def data_check(self) -> DataCheck:
        return DataCheck(
            self.title, data.FILES, data.default_data_path, data.check_path, _house_values
        )

    def new(self, options: JSON, seed: int, now: float = 0.0) -> ClockmanSession:
        """Options as in ``ClockmanOptions.from_json``, plus the lobby's ``mode``
        (Clockman has one, ``clockman``)."""
        data = one_mode_options(options, GAME, self.title, BadOptions)
        return ClockmanSession(ClockmanGame.new(ClockmanOptions.from_json(data), seed))

    def replay(self, log: JSON) -> ClockmanSession:
        return ClockmanSession(ClockmanGame.replay(log))

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
                "players": {"type": "integer", "min": min(DEFAULT_SEATS), "max": max(DEFAULT_SEATS)},
                "seats": {"choices": list(SEATS), "distinct": True},
                "transfer": {"type": "bool", "default": False},
                "hamster": {"choices": list(HAMSTER), "default": "off"},
                "robbery": {"type": "bool", "default": False},
                "swap": {"type": "bool", "default": False},
            },
        }

    def reference(self) -> JSON:
        data = load_data()
        return {"game": GAME, "seats": list(SEATS), **data.to_json()}


def _house_values(path: Path) -> str:
    """A valid set's report names the files that change the printed values."""
    return f" (house values: {', '.join(load_data(path).house_files) or 'none'})"
