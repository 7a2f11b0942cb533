"""Loading and validating the component data files.

One validator serves both `clacks check-data` and the engine: it collects every problem
it finds, each naming the file and the entry, instead of stopping at the first. Reading
the files is kept apart from checking their text, so the checks stay pure.
"""

from __future__ import annotations

import hashlib
import tomllib
import unicodedata
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.clacks.components import (
    SYMBOL_NAMES,
    Card,
    CardDesign,
    ComponentSet,
    Jacquard,
    JacquardDesign,
)
from engine.clacks.effects import COMPETITIVE_EFFECTS, TIMINGS, EffectSpec, Timing
from engine.clacks.geometry import Shape, shape_from_rows, shape_size
from engine.core.errors import DataError

ALPHABET_FILE = "alphabet.toml"
LAYOUT_FILE = "layout.toml"
WORDS_FILE = "words.toml"
JACQUARDS_FILE = "jacquards.toml"
FAULTS_FILE = "faults.toml"

JACQUARD_TOTAL = 48
FAULT_TOTAL = 12
WORD_TOTAL = 36
WORD_LENGTH = 5
COST_RANGE = (1, 3)


class Problems:
    """Collects problems, each prefixed with the file and entry it concerns."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, file: str, entry: str | None, message: str) -> None:
        where = f"{file}: {entry}" if entry else file
        self.items.append(f"{where}: {message}")


def plain_letters(text: str) -> str:
    """Upper-case A-Z with diacritics removed, as the Czech rulebook sends them (Á -> A)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).upper()


def parse_pattern(text: str) -> int | None:
    digits = text.replace(" ", "")
    if len(digits) != 6 or any(ch not in "01" for ch in digits):
        return None
    return int(digits, 2)


def _parse_toml(texts: dict[str, str], name: str, problems: Problems) -> dict[str, Any] | None:
    text = texts.get(name)
    if text is None:
        problems.add(name, None, "file is missing")
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.add(name, None, f"not valid TOML ({exc})")
        return None


def _check_alphabet(doc: dict[str, Any], problems: Problems) -> dict[str, int]:
    file = ALPHABET_FILE
    symbols = doc.get("symbols")
    if not isinstance(symbols, dict):
        problems.add(file, None, "needs a [symbols] table")
        return {}
    alphabet: dict[str, int] = {}
    seen: dict[int, str] = {}
    for name, text in symbols.items():
        if name not in SYMBOL_NAMES:
            problems.add(file, name, "unknown symbol; symbols are A to Z, SPACE and END")
            continue
        pattern = parse_pattern(text) if isinstance(text, str) else None
        if pattern is None:
            problems.add(file, name, f'pattern {text!r} is not three pairs of 0/1 like "00 10 01"')
            continue
        if pattern == 0:
            problems.add(
                file, name, "pattern is all dark, which no reader could tell from no signal"
            )
        if pattern in seen:
            problems.add(
                file,
                name,
                f"duplicate letter pattern: {text} is already the pattern of {seen[pattern]}",
            )
            continue
        seen[pattern] = name
        alphabet[name] = pattern
    missing = [s for s in SYMBOL_NAMES if s not in symbols]
    if missing:
        problems.add(
            file,
            None,
            f"wrong count: {len(symbols)} symbols, needs 28; missing {', '.join(missing)}",
        )
    return alphabet


def _check_layout(doc: dict[str, Any], problems: Problems) -> int:
    rows = doc.get("rows")
    if not isinstance(rows, list) or len(rows) != 4:
        problems.add(LAYOUT_FILE, "rows", "needs exactly 4 rows of 4 lamps")
        return 0
    board = 0
    for i, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != 4 or any(ch not in "X." for ch in row):
            problems.add(
                LAYOUT_FILE, f"row {4 - i}", f"{row!r} must be 4 characters of X (on) or . (off)"
            )
            continue
        for col, ch in enumerate(row):
            if ch == "X":
                board |= 1 << ((3 - i) * 4 + col)
    return board


def _check_words(doc: dict[str, Any], problems: Problems) -> tuple[str, ...]:
    words = doc.get("words")
    if not isinstance(words, list):
        problems.add(WORDS_FILE, None, "needs a words = [...] list")
        return ()
    result: list[str] = []
    for word in words:
        if not isinstance(word, str):
            problems.add(WORDS_FILE, repr(word), "is not a string")
            continue
        plain = plain_letters(word)
        if len(plain) != WORD_LENGTH or not plain.isascii() or not plain.isalpha():
            problems.add(WORDS_FILE, word, f"must be {WORD_LENGTH} letters A to Z")
            continue
        if plain in result:
            problems.add(WORDS_FILE, word, "duplicate word")
            continue
        result.append(plain)
    if len(words) != WORD_TOTAL:
        problems.add(WORDS_FILE, None, f"wrong count: {len(words)} words, needs {WORD_TOTAL}")
    return tuple(result)


def _int_field(
    entry: dict[str, Any], key: str, file: str, name: str, problems: Problems
) -> int | None:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        problems.add(file, name, f"{key} must be a whole number, got {value!r}")
        return None
    return value


def _entries(
    doc: dict[str, Any], key: str, file: str, problems: Problems
) -> list[tuple[str, dict[str, Any]]]:
    """The [[key]] entries with their ids; duplicate or missing ids are reported."""
    raw = doc.get(key)
    if not isinstance(raw, list):
        problems.add(file, None, f"needs [[{key}]] entries")
        return []
    seen: set[str] = set()
    result = []
    for index, entry in enumerate(raw, start=1):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str) or not ident:
            problems.add(file, f"entry {index}", "needs an id")
            continue
        if ident in seen:
            problems.add(file, ident, "duplicate id")
            continue
        seen.add(ident)
        result.append((ident, entry))
    return result


def _check_holes(holes: object, ident: str, problems: Problems) -> Shape | None:
    file = JACQUARDS_FILE
    if not isinstance(holes, list) or not holes or not all(isinstance(r, str) for r in holes):
        problems.add(file, ident, 'holes must be a list of strings like ["X.", "XX"]')
        return None
    if any(ch not in "X." for row in holes for ch in row):
        problems.add(file, ident, "holes may only use X (hole) and . (no hole)")
        return None
    shape = shape_from_rows(holes)
    if not shape:
        problems.add(file, ident, "pattern has no holes")
        return None
    height, width = shape_size(shape)
    if max(height, width) > 4:
        problems.add(
            file,
            ident,
            f"pattern does not fit the 4x4 exchange: it is {height} rows by {width} columns",
        )
        return None
    return shape


def _check_jacquards(doc: dict[str, Any], problems: Problems) -> dict[str, Jacquard]:
    file = JACQUARDS_FILE
    cards: dict[str, Jacquard] = {}
    total = 0
    for ident, entry in _entries(doc, "jacquard", file, problems):
        count = _int_field(entry, "count", file, ident, problems)
        if count is not None and count > 0:
            total += count  # counted even when the entry is broken, so one fault is one problem
        shape = _check_holes(entry.get("holes"), ident, problems)
        ok = shape is not None
        cost = _int_field(entry, "cost", file, ident, problems)
        if cost is not None and not COST_RANGE[0] <= cost <= COST_RANGE[1]:
            problems.add(
                file, ident, f"cost {cost} is out of range {COST_RANGE[0]}-{COST_RANGE[1]}"
            )
            ok = False
        faults = entry.get("faults", 0)
        if count is not None and count < 1:
            problems.add(file, ident, f"count {count} must be at least 1")
            ok = False
        if not isinstance(faults, int) or faults < 0 or (count is not None and faults > count):
            problems.add(file, ident, f"faults {faults!r} must be between 0 and count ({count})")
            ok = False
        if not ok or shape is None or cost is None or count is None:
            continue
        design = JacquardDesign(ident, str(entry.get("name", ident)), shape, cost, count, faults)
        for copy in range(1, count + 1):
            card_id = f"{ident}-{copy}"
            cards[card_id] = Jacquard(card_id, design, fault=copy <= faults)
    if total != JACQUARD_TOTAL and "jacquard" in doc:
        problems.add(
            file,
            None,
            f"wrong count: the copies add up to {total} Jacquards, needs {JACQUARD_TOTAL}",
        )
    return cards


def check_card_designs(
    doc: dict[str, Any],
    key: str,
    file: str,
    effects: dict[str, EffectSpec],
    total: int,
    problems: Problems,
    extra_check: Callable[[str, dict[str, Any], Problems], dict[str, Any]] | None = None,
) -> dict[str, Card]:
    """Validate [[key]] card designs against an effect vocabulary; returns the cards by id."""
    cards: dict[str, Card] = {}
    count_total = 0
    for ident, entry in _entries(doc, key, file, problems):
        ok = True
        effect = entry.get("effect")
        spec = effects.get(effect) if isinstance(effect, str) else None
        if spec is None:
            problems.add(
                file, ident, f"unknown effect name {effect!r}; known: {', '.join(sorted(effects))}"
            )
            ok = False
        when = entry.get("when", "any")
        if when not in TIMINGS:
            problems.add(file, ident, f"unknown timing {when!r}; known: {', '.join(TIMINGS)}")
            ok = False
        params = entry.get("params", {})
        if not isinstance(params, dict):
            problems.add(file, ident, "params must be a table")
            params, ok = {}, False
        if spec is not None:
            for pname, ptype in spec.params.items():
                value = params.get(pname)
                if not isinstance(value, ptype) or (ptype is int and isinstance(value, bool)):
                    problems.add(
                        file, ident, f"effect {effect} needs params.{pname} ({ptype.__name__})"
                    )
                    ok = False
                elif ptype is int and isinstance(value, int) and not 1 <= value <= 16:
                    problems.add(file, ident, f"params.{pname} = {value} is out of range 1-16")
                    ok = False
            for pname in params:
                if pname not in spec.params:
                    problems.add(file, ident, f"effect {effect} takes no parameter {pname!r}")
                    ok = False
        count = _int_field(entry, "count", file, ident, problems)
        if count is not None and count < 1:
            problems.add(file, ident, f"count {count} must be at least 1")
            ok = False
        if not isinstance(entry.get("text"), str) or not entry.get("text"):
            problems.add(file, ident, "needs the card's text")
            ok = False
        extra = extra_check(ident, entry, problems) if extra_check else {}
        if extra is None:
            ok = False
        if count is not None and count > 0:
            count_total += count
        if not ok or count is None or not isinstance(effect, str):
            continue
        design = CardDesign(
            ident,
            str(entry.get("name", ident)),
            entry["text"],
            count,
            effect,
            Timing(when),
            dict(params),
            dict(extra),
        )
        for copy in range(1, count + 1):
            card_id = f"{ident}-{copy}"
            cards[card_id] = Card(card_id, design)
    if count_total != total and key in doc:
        problems.add(
            file, None, f"wrong count: the copies add up to {count_total} cards, needs {total}"
        )
    return cards


FILES = (ALPHABET_FILE, LAYOUT_FILE, WORDS_FILE, JACQUARDS_FILE, FAULTS_FILE)


def validate_texts(
    texts: dict[str, str], source: str = "<memory>"
) -> tuple[ComponentSet | None, list[str]]:
    """Check the data files' texts; returns the component set (if sound) and every problem."""
    problems = Problems()
    docs = {name: _parse_toml(texts, name, problems) for name in FILES}
    alphabet = _check_alphabet(d, problems) if (d := docs[ALPHABET_FILE]) is not None else {}
    layout = _check_layout(d, problems) if (d := docs[LAYOUT_FILE]) is not None else 0
    words = _check_words(d, problems) if (d := docs[WORDS_FILE]) is not None else ()
    jacquards = _check_jacquards(d, problems) if (d := docs[JACQUARDS_FILE]) is not None else {}
    faults = (
        check_card_designs(d, "fault", FAULTS_FILE, COMPETITIVE_EFFECTS, FAULT_TOTAL, problems)
        if (d := docs[FAULTS_FILE]) is not None
        else {}
    )
    if problems.items:
        return None, problems.items
    digest = hashlib.sha256(
        "\0".join(f"{name}\0{texts[name]}" for name in FILES).encode()
    ).hexdigest()[:16]
    return (
        ComponentSet(alphabet, layout, words, jacquards, faults, source, digest),
        [],
    )


def read_texts(path: Path) -> dict[str, str]:
    texts: dict[str, str] = {}
    for name in FILES:
        file = path / name
        try:
            texts[name] = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as exc:
            texts[name] = ""
            raise DataError([f"{name}: cannot be read ({exc})"]) from exc
    return texts


def default_data_path() -> Path:
    return Path(str(resources.files("engine") / "data" / "clacks"))


def check_path(path: Path | None = None) -> list[str]:
    """Every problem with the data files in ``path`` (the shipped set when None)."""
    path = path or default_data_path()
    if not path.is_dir():
        return [f"{path}: not a directory of Clacks data files"]
    try:
        texts = read_texts(path)
    except DataError as exc:
        return exc.problems
    return validate_texts(texts, str(path))[1]


def load_components(path: Path | None = None) -> ComponentSet:
    """The component set in ``path`` (the shipped house set when None); raises DataError."""
    if path is None:
        return _shipped()
    problems = check_path(path)
    if problems:
        raise DataError(problems)
    components, problems = validate_texts(read_texts(path), str(path))
    assert components is not None
    return components


@cache
def _shipped() -> ComponentSet:
    path = default_data_path()
    components, problems = validate_texts(read_texts(path), "house set")
    if components is None:
        raise DataError(problems)
    return components
