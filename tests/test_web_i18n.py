"""The message catalogs: both languages say everything, and every word the pages,
the engine's refusals and its events need is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.clacks import errors as clacks_errors
from engine.core.errors import IllegalAction
from web.i18n import LANGUAGES, catalog, translate

WEB = Path(__file__).parent.parent / "web"
EVENT_KINDS = re.findall(
    r'^\s+"(\w+)": f?"',
    (Path(__file__).parent.parent / "engine/clacks/session.py").read_text(),
    re.M,
)


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in [*WEB.glob("static/**/*.js"), *WEB.glob("templates/*.html")]:
        keys |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", path.read_text()))
    return keys


def test_both_languages_have_the_same_messages_and_placeholders() -> None:
    english, czech = catalog("en"), catalog("cs")
    assert set(english) == set(czech)
    for key, text in english.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", czech[key])), key
        assert czech[key].strip(), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_pages_use_is_in_the_catalog(language: str) -> None:
    missing = {k for k in used_keys() if "." in k.strip(".") and k not in catalog(language)}
    assert not missing


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_and_event_of_the_engine_can_be_said(language: str) -> None:
    messages = catalog(language)
    rules = {
        cls.rule
        for cls in vars(clacks_errors).values()
        if isinstance(cls, type) and issubclass(cls, IllegalAction)
    }
    assert {f"rule.{rule}" for rule in rules} <= set(messages)
    kinds = [k for k in EVENT_KINDS if k not in ("id", "game")]
    assert len(kinds) > 15
    assert {f"event.{kind}" for kind in kinds} <= set(messages)


def test_translate_fills_values_and_falls_back_to_english() -> None:
    assert translate("cs", "ui.spectators", count=3) == "3 přihlíží"
    assert (
        translate("en", "rule.stress_limit", cost=3, left=1)
        == "That costs 3 stress and you have 1 left."
    )
    assert translate("cs", "no.such.key") == "no.such.key"
