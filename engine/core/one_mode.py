"""The lobby's options for a game with one mode: ``mode`` may name it, or be left out."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction


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
