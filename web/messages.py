"""Message texts with values and plurals, the ICU MessageFormat way.

A catalog text is plain words with placeholders:

- ``{name}``: the value ``name``, as it is;
- ``{count, plural, one {# step} other {# steps}}``: one branch chosen by the value's
  CLDR plural category in the text's language (English has ``one``/``other``; Czech has
  ``one``/``few``/``many``/``other``), or by an exact ``=N`` branch, which wins over the
  category; ``#`` in the branch is the number;
- ``{kind, select, fault {...} other {...}}``: one branch chosen by the value itself.

Braces are always syntax (the catalogs need no literal braces), so apostrophes are plain
text, unlike ICU's quoting. The plural categories come from Babel's copy of CLDR, the
same rules a browser's ``Intl.PluralRules`` uses (``web/static/js/common.js`` formats
the same texts in the pages), so a count reads the same on the server and on a page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from babel import Locale
from babel.numbers import format_decimal

PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class MessageSyntaxError(ValueError):
    """A catalog text that is not a well-formed message; names the text and the place."""


@dataclass(frozen=True)
class _Arg:
    name: str


@dataclass(frozen=True)
class _Choice:
    name: str
    kind: str  # "plural" or "select"
    branches: tuple[tuple[str, tuple[object, ...]], ...]


@dataclass(frozen=True)
class _Hash:
    pass


Part = str | _Arg | _Choice | _Hash


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, why: str) -> MessageSyntaxError:
        return MessageSyntaxError(f"{why} at character {self.at} of {self.text!r}")

    def message(self, in_plural: bool, nested: bool) -> tuple[Part, ...]:
        parts: list[Part] = []
        literal: list[str] = []
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "}":
                if not nested:
                    raise self.fail("unmatched '}'")
                break
            if char == "{":
                if literal:
                    parts.append("".join(literal))
                    literal = []
                parts.append(self.placeholder())
                continue
            if char == "#" and in_plural:
                if literal:
                    parts.append("".join(literal))
                    literal = []
                parts.append(_Hash())
                self.at += 1
                continue
            literal.append(char)
            self.at += 1
        if nested and self.at >= len(self.text):
            raise self.fail("a branch is not closed with '}'")
        if literal:
            parts.append("".join(literal))
        return tuple(parts)

    def word(self) -> str:
        self.skip_space()
        start = self.at
        while self.at < len(self.text) and (
            self.text[self.at].isalnum() or self.text[self.at] in "_=-"
        ):
            self.at += 1
        if start == self.at:
            raise self.fail("a name was expected")
        return self.text[start : self.at]

    def skip_space(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def expect(self, char: str) -> None:
        self.skip_space()
        if self.at >= len(self.text) or self.text[self.at] != char:
            raise self.fail(f"{char!r} was expected")
        self.at += 1

    def placeholder(self) -> Part:
        self.expect("{")
        name = self.word()
        self.skip_space()
        if self.at < len(self.text) and self.text[self.at] == "}":
            self.at += 1
            return _Arg(name)
        self.expect(",")
        kind = self.word()
        if kind not in ("plural", "select"):
            raise self.fail(f"unknown placeholder kind {kind!r} (plural or select)")
        self.expect(",")
        branches: list[tuple[str, tuple[object, ...]]] = []
        while True:
            self.skip_space()
            if self.at < len(self.text) and self.text[self.at] == "}":
                self.at += 1
                break
            key = self.word()
            if kind == "plural" and not (key in PLURAL_CATEGORIES or _is_exact(key)):
                raise self.fail(f"{key!r} is not a plural category or =N")
            self.expect("{")
            branches.append((key, self.message(kind == "plural", nested=True)))
            self.at += 1  # the branch's closing brace
        if "other" not in dict(branches):
            raise self.fail(f"{{{name}, {kind}}} needs an 'other' branch")
        return _Choice(name, kind, tuple(branches))


def _is_exact(key: str) -> bool:
    return key.startswith("=") and key[1:].lstrip("-").isdigit()


@cache
def parse(text: str) -> tuple[Part, ...]:
    """The parts of a message; MessageSyntaxError if it is not well formed."""
    return _Parser(text).message(in_plural=False, nested=False)


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def plural_category(language: str, number: float) -> str:
    """CLDR's plural category of ``number`` in ``language`` (``one``, ``few``, ``other``...)."""
    return str(_locale(language).plural_form(number))


def _as_number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def format_message(language: str, text: str, params: Mapping[str, object]) -> tuple[str, bool]:
    """``text`` with ``params`` filled in for ``language``, and whether a value was missing
    (a missing simple value stays as ``{name}``; a missing choice stays whole)."""
    missing = False

    def render(parts: tuple[object, ...], number: float | None) -> str:
        nonlocal missing
        out: list[str] = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, _Hash):
                out.append("#" if number is None else _value_text(language, number))
            elif isinstance(part, _Arg):
                value = params.get(part.name)
                if value is None:
                    missing = True
                    out.append("{" + part.name + "}")
                else:
                    out.append(_value_text(language, value))
            elif isinstance(part, _Choice):
                value = params.get(part.name)
                if value is None:
                    missing = True
                    out.append("{" + part.name + "}")
                    continue
                branches = dict(part.branches)
                if part.kind == "select":
                    out.append(render(branches.get(str(value), branches["other"]), number))
                    continue
                count = _as_number(value)
                if count is None:
                    missing = True
                    out.append(render(branches["other"], None))
                    continue
                exact = f"={count:g}"
                chosen = branches.get(exact) or branches.get(plural_category(language, count))
                out.append(render(chosen or branches["other"], count))
        return "".join(out)

    return render(parse(text), None), missing


def _value_text(language: str, value: object) -> str:
    """A value as ``language`` writes it: a number with a fraction through CLDR (a
    decimal comma in Czech: "11,1"), a whole one as it is (no grouping), else its text."""
    number = _as_number(value)
    if number is None:
        return str(value)
    if float(number).is_integer():
        return str(int(number))
    return format_decimal(number, format="#0.##", locale=_locale(language))


def placeholders(text: str) -> set[str]:
    """Every value name a message uses, simple or as a choice."""
    return placeholders_chosen(text, {})[0]


def placeholders_chosen(text: str, chosen: dict[str, str]) -> tuple[set[str], set[str]]:
    """The value names a message uses when each select named in ``chosen`` takes that
    value: only the chosen branch of such a select is read. Also the names of the
    selects in ``chosen`` that have no branch for their value (they would say "other")."""
    names: set[str] = set()
    unmatched: set[str] = set()

    def walk(parts: tuple[object, ...]) -> None:
        for part in parts:
            if isinstance(part, _Arg):
                names.add(part.name)
            elif isinstance(part, _Choice):
                names.add(part.name)
                branches = dict(part.branches)
                if part.kind == "select" and part.name in chosen:
                    if chosen[part.name] not in branches:
                        unmatched.add(part.name)
                    walk(branches.get(chosen[part.name], branches["other"]))
                    continue
                for branch in branches.values():
                    walk(branch)

    walk(parse(text))
    return names, unmatched


def plural_branches(text: str) -> list[tuple[str, set[str]]]:
    """For each plural placeholder of a message, its value name and the categories (and
    ``=N`` keys) it has branches for, so a test can check a language's catalog covers
    every category its plural rule can pick."""
    found: list[tuple[str, set[str]]] = []

    def walk(parts: tuple[object, ...]) -> None:
        for part in parts:
            if isinstance(part, _Choice):
                if part.kind == "plural":
                    found.append((part.name, {key for key, _ in part.branches}))
                for _key, branch in part.branches:
                    walk(branch)

    walk(parse(text))
    return found
