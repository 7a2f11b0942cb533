"""Every message the pages and the server can show has words in both languages.

The pages' literal keys are checked in tests/test_web_i18n.py. Here: the keys made from
values the engine and the server give (a refusal's rule, an API error's code, what a
Guards! Guards! player is asked, every game's variants and seats). Whatever is left, a
key no catalog has, the pages say on the console and every browser test fails on it
(tests/browser_support.py), so no raw key reaches a page unnoticed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.games import game_modules
from web.i18n import LANGUAGES, catalog

ROOT = Path(__file__).parent.parent
ENGINE = "\n".join(p.read_text() for p in sorted((ROOT / "engine").rglob("*.py")))
SERVER = "\n".join(p.read_text() for p in sorted((ROOT / "web").glob("*.py")))


def _said(messages: dict[str, str], code: str) -> bool:
    return f"rule.{code}" in messages or f"api.{code}" in messages


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_the_engine_or_the_server_gives_can_be_said(language: str) -> None:
    messages = catalog(language)
    rules = set(re.findall(r'\brule(?:: ClassVar\[str\])? = "(\w+)"', ENGINE))
    codes = set(re.findall(r'ApiError\(\s*\d+,\s*"(\w+)"', SERVER))
    assert len(rules) > 50 and len(codes) > 30
    assert sorted(c for c in rules | codes if not _said(messages, c)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_everything_a_guards_player_is_asked_or_waits_for_can_be_said(language: str) -> None:
    messages = catalog(language)
    kinds = set(re.findall(r'Pending\("(\w+)"', ENGINE)) - {"test"}  # a test: its roll
    assert {"start", "bribe", "dragon"} <= kinds
    missing = [
        k
        for k in sorted(kinds)
        for key in (f"guards.ask.{k}", f"guards.waiting.{k}")
        if key not in messages
    ]
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_games_modes_variants_and_seats_can_be_said(language: str) -> None:
    messages = catalog(language)
    missing = []
    for name, module in game_modules().items():
        schema = module.options_schema()
        missing += [f"game.{name}"] if f"game.{name}" not in messages else []
        for mode in schema.get("modes", []):
            missing += [f"mode.{mode['id']}"] if f"mode.{mode['id']}" not in messages else []
            for variant in mode.get("variants", []):
                missing += [
                    k
                    for k in (f"variant.{variant}", f"variant.{variant}.about")
                    if k not in messages
                ]
            for seats in mode.get("default_seats", {}).values():
                missing += [f"seat.{s}" for s in seats if f"seat.{s}" not in messages]
    assert sorted(set(missing)) == []


# The informal "ty": its pronouns and the second person singular of verbs (bereš, máš,
# hraješ, můžeš; not the formal "váš" nor "náš"); "ti" only as a pronoun before a verb, not "ti, kdo" (those who).
INFORMAL = re.compile(
    r"\b(?!váš\b|náš\b)(?:tvůj|tvoje?|tvého|tvému|tvém|tvým|tvá|tvou|tvé|tvých|tvými|tebe|tobě|tebou|"
    r"jsi|[a-zěščřžýáíéůúňťď]+(?:eš|íš|áš))\b|\bti (?!,|kdo)",
    re.IGNORECASE,
)


def test_czech_speaks_to_players_in_one_register_the_formal_vy() -> None:
    informal = {
        key: found.group(0)
        for key, text in catalog("cs").items()
        if (found := INFORMAL.search(text))
    }
    assert informal == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lessons_steps_can_be_said(language: str) -> None:
    """Each mode's guided first game: every step's words and its rule, the end and the
    button into the real game."""
    from engine.core.tutorial import TutorialSession

    messages = catalog(language)
    missing = []
    taught = set()
    for name, module in game_modules().items():
        for start in module.tutorial_starts().values():
            session = module.new(start["options"], 0)
            assert isinstance(session, TutorialSession)
            taught.add(name)
            script = session.script
            keys = [k for step in script.steps for k in (step.key, f"{step.key}.rule")]
            keys += [script.finished_key, script.next_label["key"]]
            words = [w["key"] for step in script.steps for w in step.words.values() if "key" in w]
            missing += [k for k in keys + words if k not in messages]
    # every game that offers Learn to play has its lessons' words checked here
    assert taught == {name for name, m in game_modules().items() if m.tutorial_start()}
    assert missing == []
