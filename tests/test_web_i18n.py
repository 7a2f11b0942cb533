"""The message catalogs: both languages say everything, and every word the pages,
the engine's refusals and its events need is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from refusals import refusal_rules

from engine.clacks import errors as clacks_errors
from web.i18n import LANGUAGES, catalog, translate
from web.messages import placeholders

ROOT = Path(__file__).parent.parent
WEB = ROOT / "web"
# Clacks (with its trainer) speaks through the "event." keys; another game has its own
# catalog and prefix, checked by its own tests.
ENGINE_SOURCE = "\n".join(
    p.read_text() for p in sorted((ROOT / "engine").rglob("*.py")) if "klackers" not in p.parts
)
# every event the Clacks engine produces: event("kind", ...) wherever it is made
EVENT_KINDS = sorted(set(re.findall(r'\bevent\(\s*"(\w+)"', ENGINE_SOURCE)))
END_REASONS = sorted(
    set(re.findall(r'end_reason = "(\w+)"', ENGINE_SOURCE))
    | set(re.findall(r'_win\(\s*state,\s*[\w.]+,\s*"(\w+)"', ENGINE_SOURCE))
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
        assert placeholders(text) == placeholders(czech[key]), key
        assert czech[key].strip(), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_pages_use_is_in_the_catalog(language: str) -> None:
    missing = {k for k in used_keys() if "." in k.strip(".") and k not in catalog(language)}
    assert not missing


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_and_event_of_the_engine_can_be_said(language: str) -> None:
    messages = catalog(language)
    rules = set(refusal_rules(clacks_errors).values())
    assert {f"rule.{rule}" for rule in rules} <= set(messages)
    assert {"swapped", "card_revealed", "race_lost", "answered", "trainer_finished"} <= set(
        EVENT_KINDS
    )
    assert {f"event.{kind}" for kind in EVENT_KINDS} <= set(messages)
    assert {"reached_genua", "post_office_arrived", "message_delivered"} <= set(END_REASONS)
    assert {f"clacks.reason.{reason}" for reason in END_REASONS} <= set(messages)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lasting_effect_and_swap_slot_can_be_said(language: str) -> None:
    from engine.clacks.card_effects import EFFECTS
    from engine.clacks.coop import SLOTS_PER_KIND

    messages = catalog(language)
    lasting = {name for name, run in EFFECTS.items() if run.__name__ == "_for_a_round"}
    assert lasting and {f"clacks.effect.{name}" for name in lasting} <= set(messages)
    slots = {f"{kind}-{n}" for kind in ("incident", "log") for n in range(1, SLOTS_PER_KIND + 1)}
    assert {f"clacks.slot.{slot}" for slot in slots} <= set(messages)


def test_translate_fills_values_and_falls_back_to_english() -> None:
    assert translate("cs", "ui.spectators", count=3) == "3 diváci"
    assert translate("cs", "ui.spectators", count=5) == "5 diváků"
    assert (
        translate(
            "en", "rule.stress_limit", reason="move", tower="b2c2", cost=3, left=1, limit=5,
            limit_from="rules",
        )
        == "Moving to b2c2 costs 3 stress points; a turn may spend at most 5 stress points, and "
        "you have 1 left."
    )
    assert translate(
        "cs", "rule.stress_limit", reason="move", tower="b2c2", cost=3, left=1, limit=3,
        limit_from="fault_report",
    ) == (
        "Přesun na věž b2c2 stojí 3 body zátěže; Hlášení o výpadku v tomto tahu snížilo limit "
        "na 3 body zátěže a zbývá vám 1."
    )
    assert translate("cs", "no.such.key") == "no.such.key"


def card_words_of_the_data() -> dict[str, str]:
    """Every card's and Jacquard design's words as the engine's data files give them,
    under the catalog key the pages look them up by."""
    from engine.clacks.data import load_components

    components = load_components()
    words: dict[str, str] = {}
    for deck in (components.faults, components.incidents, components.logs):
        for design in {card.design.id: card.design for card in deck.values()}.values():
            words[f"card.{design.id}.name"] = design.name
            words[f"card.{design.id}.text"] = design.text
            for reading in design.extra:
                words[f"card.{design.id}.{reading}"] = design.meaning(reading).text
    for jacquard in components.jacquards.values():
        words[f"jacquard.{jacquard.design.id}.name"] = jacquard.design.name
    return words


def route_words_of_the_data() -> dict[str, str]:
    """Every map route's name and tower locations as the engine's data files give them,
    under the catalog key the pages look them up by (places by tower number, 1 = the first
    after Ankh-Morpork), and the cities where every route starts and ends."""
    from engine.clacks.data import FINAL_TOWER, load_components
    from engine.clacks.map_views import START

    words = {"route.start": START, "route.finish": FINAL_TOWER}
    for route in load_components().routes.values():
        words[f"route.{route.id}.name"] = route.name
        for number, place in enumerate(route.towers, start=1):
            words[f"route.{route.id}.place.{number}"] = place
    return words


def test_the_english_card_words_are_the_data_files_words() -> None:
    data = card_words_of_the_data()
    english = {k: v for k, v in catalog("en").items() if k.startswith(("card.", "jacquard."))}
    assert len(data) == 85  # 10 Fault designs x 4, 8 Incident + 8 Log x 2, 13 Jacquards
    assert english == data


def test_the_english_route_words_are_the_data_files_words() -> None:
    data = route_words_of_the_data()
    english = {k: v for k, v in catalog("en").items() if k.startswith("route.")}
    assert len(data) == 28  # Ankh-Morpork, Genua, 2 routes x (a name and 12 tower locations)
    assert english == data


def test_every_card_and_route_has_czech_words_of_its_own() -> None:
    czech = catalog("cs")
    for key, text in {**card_words_of_the_data(), **route_words_of_the_data()}.items():
        assert czech.get(key, "").strip(), key
        assert set(re.findall(r"\{(\w+)\}", czech[key])) == set(re.findall(r"\{(\w+)\}", text))
    # the routes and places as the Czech rulebook names them
    assert czech["route.easy.name"].startswith("Snadná cesta")
    assert czech["route.hard.name"].startswith("Obtížná cesta")
    assert czech["route.hard.place.3"] == "Stoské pláně"
    assert czech["route.hard.place.6"] == "Beraní hlavy"
    assert czech["route.easy.place.12"] == czech["route.hard.place.12"] == "Genova"
    assert czech["route.finish"] == "Genova"
    # the names the Czech rulebook gives its cards
    assert czech["card.clacks-technician.name"] == "Klikačový technik"
    assert czech["card.emergency-repair.name"] == "Nouzová oprava"
    assert czech["card.overload.name"] == "Přetížení"
    assert czech["card.character-sabotage.name"] == "Znaková sabotáž"
    assert czech["card.gargoyle-on-shift.name"] == "Chrlič na směně"
    # the Emergency Repair names the cards it cancels by their Czech names
    from engine.clacks.data import load_components

    repair = load_components().card("emergency-repair-1").design.meaning("night_shift")
    cancels = repair.params["cards"]
    assert len(cancels) == 3
    assert all(
        czech[f"card.{c}.name"] in czech["card.emergency-repair.night_shift"] for c in cancels
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_count_keeps_its_numbers_with_their_words_on_one_line(language: str) -> None:
    """"step 7 of 15", "krok 4 z 7": no line ends inside the count, which would leave its
    last number alone on the next (non-breaking spaces tie it, word and numbers)."""
    loose = re.compile(r"\{\w+\}\s(?:of|z)\s\{\w+\}|\b(?:step|krok|Question|Otázka) \{")
    broken = [(k, v) for k, v in catalog(language).items() if loose.search(v.replace("\u00a0", "~"))]
    assert broken == []
    assert "krok\u00a0{number}\u00a0z\u00a0{count}" in catalog("cs")["tutorial.heading"]
