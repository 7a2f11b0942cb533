"""Message texts: ICU placeholders, plural forms by CLDR's rules, the same on the server
and in the pages."""

from __future__ import annotations

from typing import Any

import pytest

from web.i18n import LANGUAGES, catalog
from web.messages import (
    MessageSyntaxError,
    format_message,
    parse,
    placeholders,
    plural_branches,
    plural_category,
)

STEPS_CS = "{steps, plural, one {# krok} few {# kroky} other {# kroků}}"
COUNTS = (0, 1, 2, 3, 5, 21)


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "0 kroků"), (1, "1 krok"), (2, "2 kroky"), (4, "4 kroky"), (5, "5 kroků"),
     (21, "21 kroků"), (22, "22 kroků")],
)
def test_czech_plurals_follow_cldr(count: int, expected: str) -> None:
    assert format_message("cs", STEPS_CS, {"steps": count}) == (expected, False)


def test_exact_branches_win_over_categories_and_select_picks_by_value() -> None:
    text = "{n, plural, =0 {no chips} one {# chip} other {# chips}} for {who, select, team {the team} other {{who}}}"
    assert format_message("en", text, {"n": 0, "who": "team"})[0] == "no chips for the team"
    assert format_message("en", text, {"n": 1, "who": "Ann"})[0] == "1 chip for Ann"
    assert format_message("en", text, {"n": 7, "who": "Bob"})[0] == "7 chips for Bob"


def test_a_missing_value_is_reported_and_left_visible() -> None:
    assert format_message("en", "{seat} draws {n, plural, one {# card} other {# cards}}", {"seat": "Ann"}) == (
        "Ann draws {n}",
        True,
    )
    assert format_message("en", "{n, plural, one {# card} other {# cards}}", {"n": "many"}) == (
        "# cards",
        True,
    )


def test_a_number_with_a_fraction_is_written_as_its_language_writes_it() -> None:
    hint = catalog("cs")["hints.k_score"]
    assert format_message("cs", hint, {"expected": 11.1})[0].endswith("se součtem 11,1.")
    assert format_message("en", "on {expected}.", {"expected": 11.1})[0] == "on 11.1."
    # whole numbers as they are: no grouping of step numbers or years
    assert format_message("cs", "{n} {y}", {"n": 12000, "y": 2000})[0] == "12000 2000"
    assert format_message("cs", "{n, plural, one {# bod} other {# bodu}}", {"n": 1.5})[0] == "1,5 bodu"


@pytest.mark.parametrize(
    "text",
    ["{n, plural, one {x}}", "{n, plural, one {x} other {y}", "a } b", "{n, choose, other {x}}",
     "{n, plural, lots {x} other {y}}", "{}"],
)
def test_malformed_texts_are_refused_with_the_place(text: str) -> None:
    with pytest.raises(MessageSyntaxError, match="at character"):
        parse(text)


def test_placeholders_and_branches_are_found_inside_choices() -> None:
    text = "{seat}: {n, plural, one {# step by {who}} other {# steps}}"
    assert placeholders(text) == {"seat", "n", "who"}
    assert plural_branches(text) == [("n", {"one", "other"})]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_text_is_a_well_formed_message(language: str) -> None:
    for key, text in catalog(language).items():
        try:
            parse(text)
        except MessageSyntaxError as exc:  # pragma: no cover - the message names the key
            raise AssertionError(f"{language} {key}: {exc}") from exc


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_has_the_forms_its_language_picks(language: str) -> None:
    picked = {plural_category(language, n) for n in range(0, 200)}
    for key, text in catalog(language).items():
        for name, branches in plural_branches(text):
            missing = picked - branches
            assert not missing, f"{language} {key}: {{{name}}} lacks {sorted(missing)}"


def sample_params(text: str, count: float) -> dict[str, Any]:
    counted = {name for name, _ in plural_branches(text)}
    return {name: count if name in counted else f"<{name}>" for name in placeholders(text)}


@pytest.mark.browser
def test_the_pages_format_every_catalog_text_as_the_server_does(browser: Any, server: Any) -> None:
    for language in LANGUAGES:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url(f"/table/{server.code}?lang={language}"))
        page.wait_for_function("() => typeof Clacks !== 'undefined'")
        cases = [
            (key, params, format_message(language, text, params)[0])
            for key, text in catalog(language).items()
            for params in [sample_params(text, n) for n in (*COUNTS, 11.1)]
        ]
        # a value with a fraction: "11,1" in Czech on both sides, "11.1" in English
        hint = catalog(language)["hints.k_score"]
        cases.append(
            ("hints.k_score", {"expected": 11.1}, format_message(language, hint, {"expected": 11.1})[0])
        )
        said = page.evaluate(
            "cases => cases.map(([key, params]) => Clacks.t(key, params))", [c[:2] for c in cases]
        )
        wrong = [(key, expected, got) for (key, _, expected), got in zip(cases, said, strict=True) if expected != got]
        assert not wrong, wrong[:5]
        context.close()
