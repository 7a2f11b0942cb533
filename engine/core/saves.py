"""Reading saved games back: the checks every game's JSON formats share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from engine.core.errors import IllegalAction, SerializationError


class Replayable(Protocol):
    def apply(self, action: Any) -> object: ...


G = TypeVar("G", bound=Replayable)
A = TypeVar("A")


def check_header(data: object, game: str, fmt: int, noun: str) -> dict[str, Any]:
    """The saved object, once it is known to be this game's, in a format this version reads."""
    if not isinstance(data, dict):
        raise SerializationError(f"a saved {noun} must be a JSON object")
    if data.get("game") != game:
        raise SerializationError(
            f"this is not a {game.capitalize()} {noun} (game = {data.get('game')!r})"
        )
    if data.get("format") != fmt:
        raise SerializationError(
            f"unknown save format {data.get('format')!r}; this version reads {fmt}"
        )
    return data


def read_seed(data: dict[str, Any]) -> int:
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SerializationError("seed must be a whole number")
    return seed


def read_actions(raw: object, parse: Callable[[object], A]) -> list[A]:
    """Parse a list of actions; a malformed one raises SerializationError naming its place."""
    if not isinstance(raw, list):
        raise SerializationError("actions must be a list")
    actions = []
    for index, item in enumerate(raw):
        try:
            actions.append(parse(item))
        except IllegalAction as exc:
            raise SerializationError(
                f"action {index + 1} of the log cannot be read: {exc}"
            ) from exc
    return actions


def apply_all(game: G, actions: Sequence[Any]) -> G:
    """Apply a log to a fresh game; an action the rules refuse raises SerializationError."""
    for index, action in enumerate(actions):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise SerializationError(
                f"action {index + 1} of the log ({action.TYPE}) is illegal on replay: {exc}"
            ) from exc
    return game
