"""How the box starts, replays and describes Klackers (engine.core.interface)."""

from __future__ import annotations

from typing import Any

from engine.core.interface import JSON, GameModule
from engine.klackers.errors import BadOptions
from engine.klackers.game import GAME, KlackersGame
from engine.klackers.layout import BoardLayout, default_layout
from engine.klackers.numbers import NUMBERS, ONE_DIE_LIMIT, TWO_DICE
from engine.klackers.options import (
    DEFAULT_SEATS,
    JSON_RANGES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS,
    VARIANTS,
    KlackersOptions,
)
from engine.klackers.rules import HUGHIE_LIMIT
from engine.klackers.session import KlackersSession


class KlackersModule(GameModule):
    name = GAME
    title = "Klackers"

    def __init__(self) -> None:
        self.layout = default_layout()

    def use_layout(self, layout: BoardLayout | None) -> None:
        """Play on this box's own layout (None: the shipped one). The companion sets it
        from its settings file before any game starts; games started or replayed from
        then on light their numbers, and read their buttons, by it."""
        self.layout = layout or default_layout()

    def new(self, options: JSON, seed: int, now: float = 0.0) -> KlackersSession:
        """Options as in ``KlackersOptions.from_json``, plus the lobby's ``mode``
        (Klackers has one, ``klackers``)."""
        if not isinstance(options, dict):
            raise BadOptions("options must be a JSON object")
        data = dict(options)
        mode = data.pop("mode", GAME)
        if mode != GAME:
            raise BadOptions(f"Klackers has one mode, {GAME!r}, not {mode!r}")
        return KlackersSession(KlackersGame.new(KlackersOptions.from_json(data), seed), self.layout)

    def replay(self, log: JSON) -> KlackersSession:
        return KlackersSession(KlackersGame.replay(log), self.layout)

    def options_schema(self) -> JSON:
        return {
            "game": self.name,
            "modes": [
                {
                    "id": "klackers",
                    "title": "Klackers",
                    "players": sorted(DEFAULT_SEATS),
                    "variants": list(VARIANTS),
                    "default_seats": {str(n): list(s) for n, s in DEFAULT_SEATS.items()},
                    "choices": {
                        "rounds": JSON_RANGES["rounds"].schema(KlackersOptions.rounds),
                        "target": JSON_RANGES["target"].schema(0),
                    },
                    "match": "at most `rounds` rounds, or until a player holds `target` "
                    "chips; 0 for either means none, not both",
                }
            ],
            "modes_order": ["klackers"],
            # every option with its range or allowed values; rounds and target take 0
            # (or null) for none, not both
            "options": {
                "mode": {"choices": [GAME], "default": GAME},
                "players": {"type": "integer", "min": MIN_PLAYERS, "max": MAX_PLAYERS},
                "seats": {"choices": list(SEATS), "distinct": True},
                **{name: {"type": "bool", "default": False} for name in VARIANTS},
                "rounds": JSON_RANGES["rounds"].schema(KlackersOptions.rounds),
                "target": JSON_RANGES["target"].schema(0),
            },
        }

    def reference(self) -> JSON:
        return klackers_reference(self.layout)


def klackers_reference(layout: BoardLayout | None = None) -> dict[str, Any]:
    return {
        "game": GAME,
        "numbers": list(NUMBERS),
        "seats": list(SEATS),
        "one_die_limit": ONE_DIE_LIMIT,
        "hughie_limit": HUGHIE_LIMIT,
        "two_dice": {str(t): float(p) for t, p in TWO_DICE},
        "layout": (layout or default_layout()).to_json(),
    }
