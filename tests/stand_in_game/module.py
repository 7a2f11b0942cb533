"""The stand-in's game module: Klackers' rules, its own name and words for the API."""

from __future__ import annotations

from engine.klackers.module import KlackersModule

NAME = "stand-in"


class StandInModule(KlackersModule):
    name = NAME
    title = "Stand-in"

    def api_notes(self) -> dict[str, str]:
        return {"actions": "roll and pull, as in Klackers", "hint": "as in Klackers"}
