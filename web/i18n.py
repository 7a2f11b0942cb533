"""Message catalogs: every word a page shows comes from ``web/i18n/<lang>/*.json``.

One catalog per language, merged from one file for the pages and one per game (events,
rule refusals, rules text), the names and texts of Clacks' cards and Jacquard designs
(``cards.json``) and the map routes' names and tower locations (``routes.json``), both keyed
by the data files' ids. The same catalogs serve the server's templates and, as JSON,
the pages' scripts. A text marks the values filled in from an event or an error as
``{name}``, and says counts with ICU plural placeholders (``web.messages``), so each
language picks its own plural forms by CLDR's rules.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from web.messages import format_message

LANGUAGES = ("en", "cs")
DEFAULT_LANGUAGE = "en"
CATALOG_DIR = Path(__file__).parent / "i18n"


@cache
def catalog(language: str) -> dict[str, str]:
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for {language!r}; languages are {', '.join(LANGUAGES)}")
    merged: dict[str, str] = {}
    for path in sorted((CATALOG_DIR / language).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


@cache
def catalog_json(language: str) -> str:
    return json.dumps(catalog(language), ensure_ascii=False, separators=(",", ":"))


def translate(language: str, key: str, **params: object) -> str:
    """The message ``key`` in ``language`` (English if that catalog lacks it)."""
    text = catalog(language).get(key)
    if not text:
        language, text = DEFAULT_LANGUAGE, catalog(DEFAULT_LANGUAGE).get(key, key)
    return format_message(language, text, params)[0]


def best_language(requested: str | None, accept: list[str]) -> str:
    """``requested`` if we have it, else the first of the browser's languages we have."""
    if requested in LANGUAGES:
        return requested
    for candidate in accept:
        base = candidate.split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE
