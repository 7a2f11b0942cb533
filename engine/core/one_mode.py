"""The lobby's options for a game with one mode: ``mode`` may name it, or be left out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.interface import JSON


def one_mode_options(options: object, game: str, bad_options: type[IllegalAction]) -> dict[str, Any]:
    """``options`` without their ``mode``; ``bad_options`` (the game's own refusal) when
    they are not a JSON object or name another mode."""
    if not isinstance(options, dict):
        raise bad_options(reason="not_object")
    data = dict(options)
    mode = data.pop("mode", game)
    if mode != game:
        raise bad_options(reason="other_mode", mode=str(mode))
    return data


def one_mode_tutorial_start(
    game: str, lessons: Iterable[str], mode: str | None, one_mode: str | None = None
) -> JSON | None:
    """How the first of ``lessons`` (the game's guided first games, by name) starts, for
    the game's one mode, ``one_mode``, named after the game unless given (None: the
    game's first); None for any other mode."""
    if mode not in (None, one_mode or game):
        return None
    return {"game": game, "options": {"tutorial": next(iter(lessons))}}
