"""Message catalogs: every word a page shows comes from ``web/i18n/<lang>/*.json``.

One catalog per language, merged from one file for the pages and one per game (events,
rule refusals, rules text), the names and texts of Clacks' cards and Jacquard designs
(``cards.json``) and the map routes' names and tower locations (``routes.json``), both keyed
by the data files' ids. The same catalogs serve the server's templates and, as JSON,
the pages' scripts; ``{name}`` marks a value filled in from an event or an error.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "cs")
DEFAULT_LANGUAGE = "en"
CATALOG_DIR = Path(__file__).parent / "i18n"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


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
    text = catalog(language).get(key) or catalog(DEFAULT_LANGUAGE).get(key, key)
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def best_language(requested: str | None, accept: list[str]) -> str:
    """``requested`` if we have it, else the first of the browser's languages we have."""
    if requested in LANGUAGES:
        return requested
    for candidate in accept:
        base = candidate.split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE
