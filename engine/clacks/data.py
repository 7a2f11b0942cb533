"""Loading and validating the component data files.

One validator serves both `clacks check-data` and the engine: it collects every problem
it finds, each naming the file and the entry, instead of stopping at the first. Reading
the files is kept apart from checking their text, so the checks stay pure.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable, Collection
from functools import cache
from pathlib import Path
from typing import Any

from engine.clacks.components import (
    SYMBOL_NAMES,
    Card,
    CardDesign,
    CardEffect,
    ComponentSet,
    Jacquard,
    JacquardDesign,
    Route,
)
from engine.clacks.effects import (
    CANCEL_NAMES,
    CARD_EFFECTS,
    COMPETITIVE_EFFECTS,
    NOT_IN_JUNIOR,
    TIMINGS,
    CardNames,
    Context,
    EffectSpec,
    Lamps,
    Timing,
)
from engine.clacks.geometry import Shape, lamp_index, shape_from_rows, shape_size
from engine.core import data_files
from engine.core.errors import DataError
from engine.core.validate import Problems, did_you_mean, parse_files, unknown_name, whole

ALPHABET_FILE = "alphabet.toml"
LAYOUT_FILE = "layout.toml"
WORDS_FILE = "words.toml"
CZECH_WORDS_FILE = "words_cs.toml"
JACQUARDS_FILE = "jacquards.toml"
FAULTS_FILE = "faults.toml"
INCIDENTS_FILE = "incidents.toml"
LOGS_FILE = "logs.toml"
ROUTES_FILE = "routes.toml"

JACQUARD_TOTAL = 48
FAULT_TOTAL = 12
INCIDENT_TOTAL = 8
LOG_TOTAL = 8
FACE_UP_JACQUARDS = 2
ROUTE_IDS = ("easy", "hard")
ROUTE_TOWERS = 12  # tower locations on each route; the last is Genua
FINAL_TOWER = "Genua"
WORD_TOTAL = 36
WORD_LENGTH = 5
COST_RANGE = (1, 3)

# The keys each file, entry and table may hold: anything else is a misspelling that
# would otherwise be ignored (a misspelt `faults` leaves the game with no Fault stamps).
FILE_KEYS = {
    ALPHABET_FILE: ("symbols",),
    LAYOUT_FILE: ("rows",),
    WORDS_FILE: ("words",),
    CZECH_WORDS_FILE: ("words",),
    JACQUARDS_FILE: ("jacquard",),
    FAULTS_FILE: ("fault",),
    INCIDENTS_FILE: ("face_up", "incident"),
    LOGS_FILE: ("log",),
    ROUTES_FILE: ("route",),
}
JACQUARD_KEYS = ("id", "name", "holes", "cost", "count", "faults")
CARD_KEYS = ("id", "name", "text", "count", "effect", "params")
FAULT_MEANINGS = ("night_shift", "junior")
MEANING_KEYS = ("effect", "params", "text")
ROUTE_KEYS = ("id", "name", "track", "towers", "fault_towers")


def plain_letters(text: str) -> str:
    """Upper-case A-Z with diacritics removed, as the Czech rulebook sends them (Á -> A)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).upper()


def parse_pattern(text: str) -> int | None:
    digits = text.replace(" ", "")
    if len(digits) != 6 or any(ch not in "01" for ch in digits):
        return None
    return int(digits, 2)


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


# A table's language -> the file of its own Clacks Cards (English's is the list for any
# language without its own, and the only one a component set must have).
WORD_LIST_FILES = {"en": WORDS_FILE, "cs": CZECH_WORDS_FILE}


def _check_words(docs: dict[str, Any], problems: Problems) -> dict[str, tuple[str, ...]]:
    """Each word list by language, from the documents of the files that are there."""
    lists: dict[str, tuple[str, ...]] = {}
    for language, file in WORD_LIST_FILES.items():
        if (doc := docs.get(file)) is not None:
            lists[language] = _check_word_list(doc.get("words"), file, problems)
    return lists


def _spellings(docs: dict[str, Any]) -> dict[str, str]:
    """Every listed word whose printed form differs from the plain letters it is sent
    as (KOCAR -> KOČÁR), checked or not: a word the checks refuse is never dealt."""
    spellings: dict[str, str] = {}
    for file in WORD_LIST_FILES.values():
        doc = docs.get(file)
        words = doc.get("words") if isinstance(doc, dict) else None
        for word in words if isinstance(words, list) else ():
            if isinstance(word, str) and plain_letters(word) != word.upper():
                spellings[plain_letters(word)] = word.upper()
    return spellings


def _check_word_list(words: object, where: str, problems: Problems) -> tuple[str, ...]:
    if not isinstance(words, list):
        problems.add(where, None, "needs a words = [...] list")
        return ()
    result: list[str] = []
    for word in words:
        if not isinstance(word, str):
            problems.add(where, repr(word), "is not a string")
            continue
        plain = plain_letters(word)  # the alphabet has no diacritics: Á is sent as A
        if len(plain) != WORD_LENGTH or not plain.isascii() or not plain.isalpha():
            problems.add(where, word, f"must be {WORD_LENGTH} letters A to Z (diacritics allowed)")
            continue
        if plain in result:
            problems.add(where, word, "duplicate word")
            continue
        result.append(plain)
    if len(words) != WORD_TOTAL:
        problems.add(where, None, f"wrong count: {len(words)} words, needs {WORD_TOTAL}")
    return tuple(result)


def _int_field(
    entry: dict[str, Any], key: str, file: str, name: str, problems: Problems
) -> int | None:
    value = entry.get(key)
    if not whole(value):
        problems.add(file, name, f"{key} must be a whole number, got {value!r}")
        return None
    return value


def _entries(
    doc: dict[str, Any],
    key: str,
    file: str,
    problems: Problems,
    known: Collection[str],
    exempt: Collection[str] = (),
) -> list[tuple[str, dict[str, Any]]]:
    """The [[key]] entries with their ids; duplicate or missing ids and keys not in
    ``known`` are reported."""
    raw = doc.get(key)
    if not isinstance(raw, list):
        problems.add(file, None, f"needs [[{key}]] entries")
        return []
    seen: set[str] = set()
    result = []
    for index, entry in enumerate(raw, start=1):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(entry, dict):
            label = ident if isinstance(ident, str) and ident else f"entry {index}"
            problems.unknown_keys(entry, known, file, label, exempt)
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
    for ident, entry in _entries(doc, "jacquard", file, problems, JACQUARD_KEYS):
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
    extra_check: Callable[[str, dict[str, Any], Problems], dict[str, Any] | None] | None = None,
    context: Context | None = None,
    extra_keys: tuple[str, ...] = (),
) -> dict[str, Card]:
    """Validate [[key]] card designs against an effect vocabulary; returns the cards by id.
    ``context`` says where the cards' effects are applied, for vocabularies that care;
    ``extra_keys`` are the entry keys that ``extra_check`` reads."""
    cards: dict[str, Card] = {}
    count_total = 0
    # `when` on a card applied when revealed has its own problem, below
    known = (*CARD_KEYS, *extra_keys) if context is not None else (*CARD_KEYS, "when", *extra_keys)
    for ident, entry in _entries(doc, key, file, problems, known, exempt=("when",)):
        ok = True
        effect = entry.get("effect")
        spec = effects.get(effect) if isinstance(effect, str) else None
        if spec is None:
            problems.add(file, ident, unknown_name("effect name", effect, effects))
            ok = False
        when = entry.get("when", "any")
        if context is not None and "when" in entry:
            problems.add(
                file,
                ident,
                f"{context.description} is applied when revealed; `when` does not apply",
            )
            ok = False
        elif when not in TIMINGS:
            problems.add(file, ident, unknown_name("timing", when, TIMINGS))
            ok = False
        params = entry.get("params", {})
        if not isinstance(params, dict):
            problems.add(file, ident, "params must be a table")
            params, ok = {}, False
        if spec is not None:
            if context is not None and spec.contexts and context not in spec.contexts:
                problems.add(
                    file, ident, f"effect {effect} cannot be used on {context.description}"
                )
                ok = False
            ok = _check_params(spec, params, file, ident, problems) and ok
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
            count_total += count  # counted even when the entry is broken: one fault, one problem
        if not ok or count is None or not isinstance(effect, str) or extra is None:
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


def _param_problem(value: object, ptype: type) -> str | None:
    """Why ``value`` is not a valid parameter of type ``ptype``, or None."""
    if ptype is Lamps:
        if not isinstance(value, str) or not value.split():
            return 'must name lamps in one string like "b2 c2"'
        names = value.split()
        for name in names:
            try:
                lamp_index(name)
            except ValueError as exc:
                return str(exc)
        if len(set(names)) != len(names):
            return "names a lamp twice"
        return None
    if ptype is CardNames:
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            return 'must be a list of card ids like ["overload", "nugganites"]'
        if len(set(value)) != len(value):
            return "names a card twice"
        return None
    if not isinstance(value, ptype) or (ptype is int and isinstance(value, bool)):
        return f"({ptype.__name__})"
    if ptype is int and isinstance(value, int) and not 1 <= value <= 16:
        return f"= {value} is out of range 1-16"
    return None


def _check_params(
    spec: EffectSpec, params: dict[str, Any], file: str, ident: str, problems: Problems
) -> bool:
    ok = True
    for pname, ptype in spec.params.items():
        problem = _param_problem(params.get(pname), ptype)
        if problem is None:
            continue
        if problem.startswith("("):
            problems.add(file, ident, f"effect {spec.name} needs params.{pname} {problem}")
        elif problem.startswith("="):
            problems.add(file, ident, f"params.{pname} {problem}")
        else:
            problems.add(file, ident, f"effect {spec.name}: params.{pname} {problem}")
        ok = False
    for pname in params:
        if pname not in spec.params:
            hint = did_you_mean(pname, spec.params)
            problems.add(file, ident, f"effect {spec.name} takes no parameter {pname!r}{hint}")
            ok = False
    return ok


def _check_meaning(
    ident: str, entry: dict[str, Any], key: str, context: Context, problems: Problems
) -> CardEffect | None:
    """A Fault Report's [fault.night_shift] or [fault.junior] table."""
    where = f"{ident}.{key}"
    table = entry.get(key)
    if not isinstance(table, dict):
        problems.add(
            FAULTS_FILE,
            ident,
            f"needs a [fault.{key}] table saying what the card does on {context.description}",
        )
        return None
    effect = table.get("effect")
    spec = CARD_EFFECTS.get(effect) if isinstance(effect, str) else None
    if spec is None:
        problems.add(FAULTS_FILE, where, unknown_name("effect name", effect, CARD_EFFECTS))
        return None
    ok = True
    if context not in spec.contexts:
        problems.add(FAULTS_FILE, where, f"effect {effect} cannot be used on {context.description}")
        ok = False
    params = table.get("params", {})
    if not isinstance(params, dict):
        problems.add(FAULTS_FILE, where, "params must be a table")
        return None
    ok = _check_params(spec, params, FAULTS_FILE, where, problems) and ok
    text = table.get("text")
    if not isinstance(text, str) or not text:
        problems.add(FAULTS_FILE, where, "needs the text read out for this meaning")
        ok = False
    problems.unknown_keys(table, MEANING_KEYS, FAULTS_FILE, where)
    if not ok:
        return None
    assert isinstance(effect, str) and isinstance(text, str)
    return CardEffect(effect, dict(params), text)


def _check_fault_meanings(
    ident: str, entry: dict[str, Any], problems: Problems
) -> dict[str, Any] | None:
    night = _check_meaning(ident, entry, "night_shift", Context.NIGHT_SHIFT, problems)
    junior = _check_meaning(ident, entry, "junior", Context.JUNIOR, problems)
    if night is None or junior is None:
        return None
    if night.effect in NOT_IN_JUNIOR and junior.effect != "nothing":
        problems.add(
            FAULTS_FILE,
            f"{ident}.junior",
            f"a Fault Report whose Night Shift effect is {night.effect} does nothing in the "
            'junior race: its junior effect must be "nothing"',
        )
        return None
    return {"night_shift": night, "junior": junior}


def _check_face_up(
    doc: dict[str, Any], designs: set[str] | None, problems: Problems
) -> tuple[str, ...]:
    """``designs``: the Jacquard design ids listed in jacquards.toml, valid or not (so a
    broken design is one problem, not two); None when that file could not be read."""
    face_up = doc.get("face_up")
    if not isinstance(face_up, list) or not all(isinstance(d, str) for d in face_up):
        problems.add(
            INCIDENTS_FILE,
            "face_up",
            'needs face_up = ["design", "design"]: the Jacquards laid face up on the Incident Reports',
        )
        return ()
    if len(face_up) != FACE_UP_JACQUARDS or len(set(face_up)) != len(face_up):
        problems.add(
            INCIDENTS_FILE,
            "face_up",
            f"names {len(face_up)} design(s); it needs {FACE_UP_JACQUARDS} different Jacquard designs",
        )
        return ()
    if designs is not None:
        unknown = [d for d in face_up if d not in designs]
        if unknown:
            problems.add(
                INCIDENTS_FILE,
                "face_up",
                f"unknown Jacquard design(s) {', '.join(unknown)}; designs are in {JACQUARDS_FILE}",
            )
            return ()
    return tuple(face_up)


def _listed_ids(doc: dict[str, Any] | None, key: str) -> set[str] | None:
    """The ids of the [[key]] entries as written, valid entries or not (so a broken entry
    is one problem, not a second one wherever it is named); None when the file or its
    entries could not be read."""
    entries = doc.get(key) if doc is not None else None
    if not isinstance(entries, list):
        return None
    return {e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}


def _check_cancel_names(
    decks: list[dict[str, Card]], designs: set[str] | None, problems: Problems
) -> None:
    """Emergency Repair names cards of any deck: check the names exist. ``designs``: the
    card ids listed in the three decks' files; None when one could not be read."""
    for deck, file in zip(decks, (FAULTS_FILE, INCIDENTS_FILE, LOGS_FILE), strict=True):
        seen: set[str] = set()
        for card in deck.values():
            design = card.design
            if design.id in seen:
                continue
            seen.add(design.id)
            main = CardEffect(design.effect, design.params, design.text)
            for key, meaning in [("", main), *design.extra.items()]:
                if not isinstance(meaning, CardEffect) or meaning.effect != "cancel_next":
                    continue
                where = f"{design.id}.{key}" if key else design.id
                names = list(meaning.params["cards"])
                if len(names) != CANCEL_NAMES:
                    problems.add(
                        file,
                        where,
                        f"cancel_next names {len(names)} cards; it needs {CANCEL_NAMES}",
                    )
                unknown = [n for n in names if designs is not None and n not in designs]
                if unknown:
                    problems.add(
                        file,
                        where,
                        f"cancel_next names unknown card(s) {', '.join(unknown)}; it can name "
                        "Fault Reports, Incident Reports and Operator's Logs by id",
                    )


def _check_routes(doc: dict[str, Any], problems: Problems) -> dict[str, Route]:
    file = ROUTES_FILE
    routes: dict[str, Route] = {}
    entries = _entries(doc, "route", file, problems, ROUTE_KEYS)
    for ident, entry in entries:
        if ident not in ROUTE_IDS:
            problems.add(file, ident, f"unknown route; routes are {', '.join(ROUTE_IDS)}")
            continue
        ok = True
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            problems.add(file, ident, "needs a name")
            ok = False
        track = _int_field(entry, "track", file, ident, problems)
        if track is not None and not 1 <= track <= 99:
            problems.add(file, ident, f"track {track} must be 1 to 99 Post Office steps")
            ok = False
        towers = entry.get("towers")
        if not isinstance(towers, list) or not all(isinstance(t, str) and t for t in towers):
            problems.add(file, ident, "towers must be a list of tower location names")
            continue
        if len(towers) != ROUTE_TOWERS:
            problems.add(
                file,
                ident,
                f"wrong count: {len(towers)} tower locations, needs {ROUTE_TOWERS} (the last is {FINAL_TOWER})",
            )
            ok = False
        elif towers[-1] != FINAL_TOWER:
            problems.add(
                file, ident, f"the last tower location must be {FINAL_TOWER}, not {towers[-1]!r}"
            )
            ok = False
        if len(set(towers)) != len(towers):
            problems.add(file, ident, "a tower location is listed twice")
            ok = False
        faults = entry.get("fault_towers")
        if (
            not isinstance(faults, list)
            or not faults
            or not all(whole(n) for n in faults)
            or any(not 1 <= n < ROUTE_TOWERS for n in faults)
            or sorted(set(faults)) != faults
        ):
            problems.add(
                file,
                ident,
                f"fault_towers must list tower numbers in order, each 1 to {ROUTE_TOWERS - 1}, "
                f"like [3, 6, 9]; got {faults!r}",
            )
            ok = False
        if not ok or track is None:
            continue
        assert isinstance(name, str) and isinstance(faults, list)
        routes[ident] = Route(ident, name, track, tuple(towers), tuple(faults))
    listed = {ident for ident, _ in entries}
    for missing in (r for r in ROUTE_IDS if r not in listed and "route" in doc):
        problems.add(file, None, f"the {missing} route is missing")
    return routes


FILES = (
    ALPHABET_FILE,
    LAYOUT_FILE,
    WORDS_FILE,
    JACQUARDS_FILE,
    FAULTS_FILE,
    INCIDENTS_FILE,
    LOGS_FILE,
    ROUTES_FILE,
)
# Files a component set may leave out: another language's Clacks Cards. They are outside
# the set's digest, so adding one changes nothing for a game saved without it; a game
# dealt from one records a digest that covers it too (``ComponentSet.digest_for``).
OPTIONAL_FILES = (CZECH_WORDS_FILE,)


def validate_texts(
    texts: dict[str, str], source: str = "<memory>"
) -> tuple[ComponentSet | None, list[str]]:
    """Check the data files' texts; returns the component set (if sound) and every problem."""
    problems = Problems()
    parsed = parse_files(texts, (*FILES, *OPTIONAL_FILES), problems, optional=OPTIONAL_FILES)
    for name, table in parsed.items():
        problems.unknown_keys(table, FILE_KEYS[name], name)
    docs: dict[str, dict[str, Any] | None] = {name: parsed.get(name) for name in FILES}
    docs |= {name: parsed.get(name) for name in OPTIONAL_FILES if name in texts}
    alphabet = _check_alphabet(d, problems) if (d := docs[ALPHABET_FILE]) is not None else {}
    layout = _check_layout(d, problems) if (d := docs[LAYOUT_FILE]) is not None else 0
    word_lists = _check_words(docs, problems)
    words = word_lists.get("en", ())
    spellings = _spellings(docs)
    jacquards = _check_jacquards(d, problems) if (d := docs[JACQUARDS_FILE]) is not None else {}
    faults = (
        check_card_designs(
            d,
            "fault",
            FAULTS_FILE,
            COMPETITIVE_EFFECTS,
            FAULT_TOTAL,
            problems,
            extra_check=_check_fault_meanings,
            extra_keys=FAULT_MEANINGS,
        )
        if (d := docs[FAULTS_FILE]) is not None
        else {}
    )
    incidents: dict[str, Card] = {}
    face_up: tuple[str, ...] = ()
    if (d := docs[INCIDENTS_FILE]) is not None:
        incidents = check_card_designs(
            d,
            "incident",
            INCIDENTS_FILE,
            CARD_EFFECTS,
            INCIDENT_TOTAL,
            problems,
            context=Context.INCIDENT,
        )
        face_up = _check_face_up(d, _listed_ids(docs[JACQUARDS_FILE], "jacquard"), problems)
    logs = (
        check_card_designs(
            d, "log", LOGS_FILE, CARD_EFFECTS, LOG_TOTAL, problems, context=Context.LOG
        )
        if (d := docs[LOGS_FILE]) is not None
        else {}
    )
    deck_files = ((FAULTS_FILE, "fault"), (INCIDENTS_FILE, "incident"), (LOGS_FILE, "log"))
    cards: set[str] | None = set()
    for file, key in deck_files:
        ids = _listed_ids(docs[file], key)
        cards = cards | ids if cards is not None and ids is not None else None
    _check_cancel_names([faults, incidents, logs], cards, problems)
    routes = _check_routes(d, problems) if (d := docs[ROUTES_FILE]) is not None else {}
    if problems.items:
        return None, problems.items
    digest = _digest(texts, FILES)
    digests = {
        language: _digest(texts, (*FILES, file))
        for language, file in WORD_LIST_FILES.items()
        if file in OPTIONAL_FILES and file in texts
    }
    return (
        ComponentSet(
            alphabet,
            layout,
            words,
            jacquards,
            faults,
            source,
            digest,
            incidents=incidents,
            logs=logs,
            routes=routes,
            face_up=face_up,
            word_lists=word_lists,
            list_digests=digests,
            spellings=spellings,
        ),
        [],
    )


def _digest(texts: dict[str, str], names: tuple[str, ...]) -> str:
    joined = "\0".join(f"{name}\0{texts[name]}" for name in names)
    return hashlib.sha256(joined.encode()).hexdigest()[:16]


def read_texts(path: Path) -> dict[str, str]:
    return data_files.read_texts(path, (*FILES, *OPTIONAL_FILES))


def default_data_path() -> Path:
    return data_files.shipped_path("clacks")


def check_path(path: Path | None = None) -> list[str]:
    """Every problem with the data files in ``path`` (the shipped set when None)."""
    return data_files.check_directory(
        path or default_data_path(), "Clacks", (*FILES, *OPTIONAL_FILES), validate_texts
    )


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
