"""Who plays: the checks a game's options make of its seats, and of options given as JSON.

A game states its seats (in the order play passes), how many may play and the seats a
count of players takes; bad seats are refused with the game's own ``BadOptions``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.errors import IllegalAction


@dataclass(frozen=True)
class Seating:
    seats: tuple[str, ...]  # every seat, in the order play passes
    defaults: Mapping[int, tuple[str, ...]]  # the seats a count of players takes
    min_players: int
    max_players: int
    error: type[IllegalAction]  # the game's BadOptions

    def for_players(self, players: object) -> tuple[str, ...]:
        """The seats ``players`` (a count) take."""
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or players not in self.defaults
        ):
            raise self._wrong_count(players)
        return self.defaults[players]

    def check(self, seats: object, in_play_order: bool = False) -> tuple[str, ...]:
        """``seats`` once known to be this game's, each once, as many as may play; with
        ``in_play_order`` sorted into the order play passes, whatever order they came in."""
        if not isinstance(seats, tuple) or not all(isinstance(s, str) for s in seats):
            raise self.error(reason="seats_list")
        unknown = [s for s in seats if s not in self.seats]
        if unknown:
            raise self.error(reason="unknown_seat", seat=unknown[0], seats=", ".join(self.seats))
        if len(set(seats)) != len(seats):
            raise self.error(reason="seat_twice")
        if not self.min_players <= len(seats) <= self.max_players:
            raise self._wrong_count(len(seats))
        return tuple(s for s in self.seats if s in seats) if in_play_order else seats

    def read_json(self, data: object, names: Collection[str]) -> dict[str, Any]:
        """Options given as JSON, as keyword arguments once ``seats_from_json`` has read
        their seats: ``names`` and nothing else, except ``players``."""
        if not isinstance(data, dict):
            raise self.error(reason="not_object")
        unknown = sorted(set(data) - set(names) - {"players"})
        if unknown:
            raise self.error(reason="unknown_options", options=", ".join(unknown))
        return dict(data)

    def seats_from_json(self, kwargs: dict[str, Any]) -> None:
        """Replace the JSON's ``seats`` (a list) or ``players`` (a count: the seats it
        takes) in ``kwargs`` by the seats."""
        counted = "players" in kwargs
        players = kwargs.pop("players", None)
        if "seats" in kwargs:
            if not isinstance(kwargs["seats"], list):
                raise self.error(reason="seats_list")
            kwargs["seats"] = tuple(kwargs["seats"])
            if counted and players != len(kwargs["seats"]):
                raise self.error(reason="players_seats")
        elif counted:
            kwargs["seats"] = self.for_players(players)

    def _wrong_count(self, players: object) -> IllegalAction:
        return self.error(
            reason="players", min=self.min_players, max=self.max_players, players=str(players)
        )
