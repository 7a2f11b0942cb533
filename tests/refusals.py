"""Shared by the tests that hold a game's refusals and events to its words: every refusal
the game's rules can raise, read from its errors module, and every event kind they make,
read from their source."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from engine.core.errors import IllegalAction
from web.refusals import in_english


def refusal_rules(errors: ModuleType) -> dict[str, str]:
    """Each refusal class in ``errors``, by class name: the rule id it names."""
    return {
        cls.__name__: cls.rule
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, IllegalAction)
    }



def assert_every_refusal_said(errors: ModuleType, messages: Iterable[str], *known: str) -> None:
    """Every refusal in ``errors`` (``known`` among them) has its words among the catalog's
    ``messages``."""
    rules = set(refusal_rules(errors).values())
    assert set(known) <= rules
    assert {f"rule.{rule}" for rule in rules} <= set(messages)

@contextmanager
def raises_in_words(error: type[BaseException], match: str) -> Iterator[pytest.ExceptionInfo[BaseException]]:
    """Like ``pytest.raises(error, match=...)``, with ``match`` found in the words a person
    reads: a refusal's, from its catalogue entry in English, as the server and CLI say it."""
    with pytest.raises(error) as caught:
        yield caught
    words = in_english(caught.value)
    assert re.search(match, words), f"{match!r} not in {words!r}"


def event_kinds(game: str, maker: str) -> set[str]:
    """Every event kind ``engine/<game>`` makes, named where it calls ``maker("kind", ...)``."""
    folder = Path(__file__).parent.parent / "engine" / game
    pattern = re.compile(rf'\b{maker}\(\s*"(\w+)"')
    return {kind for path in folder.glob("*.py") for kind in pattern.findall(path.read_text())}
