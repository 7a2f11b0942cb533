"""Shared by the tests that hold a game's refusals to its words: every refusal the game's
rules can raise, read from its errors module."""

from __future__ import annotations

from types import ModuleType

from engine.core.errors import IllegalAction


def refusal_rules(errors: ModuleType) -> dict[str, str]:
    """Each refusal class in ``errors``, by class name: the rule id it names."""
    return {
        cls.__name__: cls.rule
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, IllegalAction)
    }
