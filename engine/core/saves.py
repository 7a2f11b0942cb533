"""Reading saved games back: the checks every game's JSON formats share."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol, TypeVar

from engine.core import serial
from engine.core.errors import IllegalAction, SerializationError
from engine.core.rng import seed_from_hex, seed_to_hex


class Replayable(Protocol):
    def apply(self, action: Any) -> object: ...


G = TypeVar("G", bound=Replayable)
A = TypeVar("A")


def check_header(data: object, game: str, fmt: int | Collection[int], noun: str) -> dict[str, Any]:
    """The saved object, once it is known to be this game's, in a format this version
    reads (``fmt``: the one format, or every format it reads)."""
    formats = [fmt] if isinstance(fmt, int) else sorted(fmt)
    if not isinstance(data, dict):
        raise SerializationError(f"a saved {noun} must be a JSON object")
    if data.get("game") != game:
        raise SerializationError(
            f"this is not a {game.capitalize()} {noun} (game = {data.get('game')!r})"
        )
    found = data.get("format")
    if isinstance(found, bool) or found not in formats:
        readable = " and ".join(str(f) for f in formats)
        raise SerializationError(f"unknown save format {found!r}; this version reads {readable}")
    return data


def seed_json(seed: int, legacy: bool = False) -> int | str:
    """A game's seed as its save holds it: hexadecimal digits (a 256-bit number is beyond
    what a browser's JSON keeps exactly), or for a game saved before the HMAC_DRBG
    generator (``legacy``) the whole number it always had."""
    return seed if legacy else seed_to_hex(seed)


def saved_with_seed(state: Any) -> dict[str, Any]:
    """A game state's JSON (``serial.to_json``) with its seed as ``seed_json`` writes it
    for the state's generator (``state.rng``)."""
    out = serial.to_json(state)
    out["seed"] = seed_json(state.seed, state.rng.legacy)
    return out


def seed_from_json(value: object, legacy: bool | None = None) -> int:
    """A seed ``seed_json`` wrote: hexadecimal digits, or with ``legacy`` (or either,
    when None) a whole number; SerializationError for anything else."""
    if legacy is not False and isinstance(value, int) and not isinstance(value, bool):
        return value
    if legacy is True:
        raise SerializationError("seed must be a whole number in this save format")
    try:
        return seed_from_hex(value)
    except ValueError as exc:
        raise SerializationError(str(exc)) from None


def read_seed(data: dict[str, Any], legacy: bool = False) -> int:
    """The log's seed, in the form its format gives it (see ``seed_json``)."""
    return seed_from_json(data.get("seed"), legacy)


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
