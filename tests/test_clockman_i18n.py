"""Every refusal, event and word of Clockman can be said in both languages: the rule
codes and each of their reasons, every event kind the engine makes (with the variants
the pages pick), the kinds, effects, buttons, goals and endings, and the house pose
names, whose English words are the data file's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from refusals import assert_every_refusal_said, refusal_rules

from engine.clockman import errors
from engine.clockman.actions import EFFECTS
from engine.clockman.data import BUTTON_MEANINGS, load_data
from engine.clockman.state import CARD_KINDS
from web.i18n import LANGUAGES, catalog
from web.messages import placeholders

ENGINE = Path(__file__).parent.parent / "engine" / "clockman"
SOURCES = {path: path.read_text() for path in ENGINE.glob("*.py")}


def event_kinds() -> set[str]:
    found: set[str] = set()
    for text in SOURCES.values():
        found |= set(re.findall(r'Event\.of\(\s*"(\w+)"', text))
    return found


def reasons_by_rule() -> dict[str, set[str]]:
    """For each refusal class raised with a ``reason``, the reasons it is raised with."""
    rules = refusal_rules(errors)
    found: dict[str, set[str]] = {}
    for text in SOURCES.values():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                if isinstance(func, ast.Name) and func.id in rules:
                    for keyword in node.exc.keywords:
                        if keyword.arg == "reason" and isinstance(keyword.value, ast.Constant) \
                                and isinstance(keyword.value.value, str):
                            found.setdefault(rules[func.id], set()).add(keyword.value.value)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_clockman_refusal_and_each_reason_can_be_said(language: str) -> None:
    messages = catalog(language)
    assert_every_refusal_said(errors, messages)
    reasons = reasons_by_rule()
    assert len(reasons) >= 8
    for rule, said in reasons.items():
        text = messages[f"rule.{rule}"]
        if "{reason, select," not in text:
            continue  # one sentence fits every reason
        branches = set(re.findall(r"(?:select,|\})\s*(\w+) \{", text))
        assert said <= branches, (rule, said - branches)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_clockman_event_and_word_can_be_said(language: str) -> None:
    messages = catalog(language)
    kinds = event_kinds()
    assert len(kinds) > 40
    # said with a variant of their own: by the reason, with a label, set aside, by card
    split = {
        "forfeited": ("stays", "too_high", "no_card", "needs_one"),
        "game_won": ("centre", "centre_checked", "centre_confirmed", "last_player"),
    }
    for kind in kinds:
        if kind in split:
            assert {f"clockman.event.{kind}.{r}" for r in split[kind]} <= set(messages)
        else:
            assert f"clockman.event.{kind}" in messages, kind
    for key in (
        "event_drawn.labelled",
        "card_played.labelled",
        "digit_taken.pending",
        "blockade_passed.event",
    ):
        assert f"clockman.event.{key}" in messages
    words = [f"clockman.kind.{k}" for k in CARD_KINDS] + [
        f"clockman.kind.{k}.long" for k in CARD_KINDS
    ]
    words += [f"clockman.effect.{e}" for e in EFFECTS]
    words += [f"clockman.button.{m}" for m in BUTTON_MEANINGS] + [
        f"clockman.button.{m}.short" for m in BUTTON_MEANINGS
    ]
    words += [f"clockman.goal.{g}" for g in ("enter", "win", "pass", "advance")]
    words += [f"clockman.inspect.{k}" for k in CARD_KINDS]
    words += [f"clockman.over.{r}" for r in split["game_won"]]
    words += [f"choice.{c}" for c in ("transfer", "hamster", "robbery", "swap")]
    words += [f"choice.{c}.about" for c in ("transfer", "hamster", "robbery", "swap")]
    words += [f"choice.hamster.{h}" for h in ("off", "on", "extended")]
    assert set(words) <= set(messages)


def test_the_pose_names_are_the_house_datas_and_czech_has_its_own() -> None:
    english, czech = catalog("en"), catalog("cs")
    for pose in load_data().poses:
        assert english[f"clockman.pose.{pose.id}"] == pose.name
        assert czech[f"clockman.pose.{pose.id}"] and czech[f"clockman.pose.{pose.id}"] != pose.name


def test_counts_are_plurals_and_german_terms_are_translated() -> None:
    for language in LANGUAGES:
        for key, text in catalog(language).items():
            if not key.startswith(("clockman.", "rule.clockman", "choice.")):
                continue
            for name in (
                "count",
                "cards",
                "held",
                "misplayed",
                "limit",
                "played",
                "zeros",
                "jokers",
                "lifts",
            ):
                if f"{{{name}}}" in text:
                    raise AssertionError(f"{language} {key}: {name} is a count but not a plural")
            assert "(s)" not in text and "(a)" not in text, key
            for german in (
                "Hamster",
                "Raub",
                "Tausch",
                "Übertragung",
                "Zielgerade",
                "sofort",
                "verdeckt",
            ):
                assert german not in text, (language, key, german)
    assert placeholders(catalog("cs")["clockman.on_board"]) == placeholders(
        catalog("en")["clockman.on_board"]
    )
