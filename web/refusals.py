"""A refused action in words, from the catalogues: the engine gives a rule code and its
values, never a sentence, so English and Czech both come from ``rule.<code>``.

This mirrors ``describeError`` in ``web/static/js/common.js``, which says the same on the
pages: lists as their items joined by spaces, seats, cards and places by their names in
the language, and the rule's plain sentence when a value the full one needs is withheld (a refusal told to
the whole table names nothing from a hand).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.errors import IllegalAction
from web.i18n import DEFAULT_LANGUAGE, catalog
from web.messages import format_message

SEAT_PARAMS = ("current", "seat", "target")
# values that are a card's id, said as the card's name in the language
NAMED_PARAMS = {
    "design": "jacquard.{}.name",
    "fault": "card.{}.name",
    "quadrant": "guards.quadrant.{}",
    "deck": "guards.deck.{}",
    "wanted_deck": "guards.deck.{}",
    "attribute": "guards.attribute.{}",
    "spell": "guards.spell.{}",
    "place": "guards.place.{}",
}
# a list of seats, said as their names
SEAT_LISTS = ("players",)


def refusal_words(language: str, rule: str, params: Mapping[str, object]) -> str | None:
    """The catalogue's sentence for ``rule`` in ``language`` with ``params`` filled in,
    or None when the catalogue has none for it."""
    texts = catalog(language)
    values = _sayable(texts, params)
    for key in (f"rule.{rule}", f"api.{rule}"):
        if key not in texts:
            continue
        words, missing = format_message(language, texts[key], values)
        if not missing:
            return words
        if f"{key}.plain" in texts:
            return texts[f"{key}.plain"]
    return None


def _sayable(texts: Mapping[str, str], params: Mapping[str, object]) -> dict[str, object]:
    values: dict[str, object] = {}
    for name, value in params.items():
        if name in SEAT_LISTS and isinstance(value, list | tuple):
            value = ", ".join(texts.get(f"seat.{seat}", str(seat)) for seat in value)
        elif isinstance(value, list | tuple):
            value = " ".join(map(str, value))
        elif name in SEAT_PARAMS and f"seat.{value}" in texts:
            value = texts[f"seat.{value}"]
        elif name in NAMED_PARAMS and NAMED_PARAMS[name].format(value) in texts:
            value = texts[NAMED_PARAMS[name].format(value)]
        values[name] = value
    return values


def in_english(exc: BaseException) -> str:
    """An error as a person reads it in English: a refusal in its catalogue's words, and
    one that another error wraps (a replay refused for its options) in them too."""
    if isinstance(exc, IllegalAction):
        return _refusal_english(exc)
    text = str(exc)
    inner = exc.__cause__ or exc.__context__
    if isinstance(inner, IllegalAction):
        text = text.replace(str(inner), _refusal_english(inner))
    return text


def _refusal_english(exc: IllegalAction) -> str:
    if exc.message is not None:
        return exc.message
    return refusal_words(DEFAULT_LANGUAGE, exc.rule, exc.params) or str(exc)
