"""The catalogs' words: every count said with the plural form CLDR picks for it, no
"(s)"-style plurals, symbols set apart, the Czech edition's own terms, and Czech
sentences about players that never need the player's gender."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from shared_seeds import seed_text

from web.i18n import LANGUAGES, catalog
from web.messages import (
    format_message,
    parse,
    placeholders,
    placeholders_chosen,
    plural_branches,
    plural_category,
)

COUNTS = (0, 1, 2, 3, 5, 21)
HAND_ROLLED = re.compile(r"\w\((?:s|es|y|ů|i|a|e|u|ové)\)")


def branch_phrases(language: str) -> dict[str, set[str]]:
    """Each phrase that follows ``#`` in a plural branch of the catalog (to the end of the
    branch), with the plural categories whose branches use it: the catalog's own table of
    which form goes with which count."""
    table: dict[str, set[str]] = defaultdict(set)

    def walk(parts: tuple[object, ...]) -> None:
        for part in parts:
            for key, branch in getattr(part, "branches", ()):
                if getattr(part, "kind", "") == "plural" and not key.startswith("="):
                    for index, piece in enumerate(branch):
                        if type(piece).__name__ == "_Hash" and index + 1 < len(branch):
                            after = branch[index + 1]
                            if isinstance(after, str) and after.strip():
                                table[after.strip()].add(key)
                walk(branch)

    for text in catalog(language).values():
        walk(parse(text))
    return table


def forms_by_word(language: str) -> dict[str, set[str]]:
    """The same table by each phrase's first word."""
    table: dict[str, set[str]] = defaultdict(set)
    for phrase, categories in branch_phrases(language).items():
        table[phrase.split()[0]] |= categories
    return table


# The values that name someone or something (a player, a deck, a card, a tower) and are
# never a number, so a counted word after one ("{names} turns", "the {deck} card") is no
# count that escaped its plural.
NAMING_VALUES = frozenset(
    {"name", "names", "seat", "current", "winner", "target", "to", "deck", "what", "card",
     "tower", "dragon", "quadrant", "curse"}
)


def rendered(language: str, text: str, count: int) -> str:
    """The text with every value but a name set to ``count``: a count written as a plain
    ``{name}`` before a counted noun shows up as a wrong form."""
    values: dict[str, object] = {
        name: "Ada" if name in NAMING_VALUES else count for name in placeholders(text)
    }
    return format_message(language, text, values)[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_count_takes_the_form_cldr_picks(language: str) -> None:
    table = forms_by_word(language)
    phrases = branch_phrases(language)
    assert table, "the catalog says no count as a plural"
    wrong: list[str] = []
    for key, text in catalog(language).items():
        for count in COUNTS:
            said = rendered(language, text, count)
            if HAND_ROLLED.search(said):
                wrong.append(f"{key} [{count}]: {said}")
            category = plural_category(language, count)
            for word in re.findall(rf"(?<![\w.,]){count} ([\w-]+)", said):
                picked = table.get(word)
                if picked is not None and category not in picked:
                    wrong.append(f"{key} [{count}, {category}]: {word!r} in {said!r}")
            for after in re.finditer(rf"(?<![\w.,]){count} ", said):
                # the longest phrase the catalog counts that follows: "symbol" is one
                # symbol, but "symbol cards" are many cards
                rest = said[after.end() :]
                found = [p for p in phrases if re.match(rf"{re.escape(p)}(?![\w-])", rest)]
                if found:
                    phrase = max(found, key=len)
                    if category not in phrases[phrase]:
                        wrong.append(f"{key} [{count}, {category}]: {phrase!r} in {said!r}")
    assert not wrong, "\n".join(wrong[:20])


def test_the_plural_forms_are_the_ones_cldr_picks() -> None:
    en = forms_by_word("en")
    assert en["Jacquard"] == {"one"} and en["Jacquards"] == {"other"}
    assert branch_phrases("en")["stress point"] == {"one"}
    cs = forms_by_word("cs")
    assert cs["bod"] == {"one"} and cs["body"] == {"few"} and cs["bodů"] == {"other"}
    assert cs["děrný"] == {"one"} and cs["děrné"] == {"few"} and cs["děrných"] >= {"other"}
    assert cs["krok"] == {"one"} and cs["kroky"] == {"few"} and cs["kroků"] == {"other"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_count_is_left_bare_before_a_counted_word(language: str) -> None:
    """A plain ``{value}`` followed by a word that the catalog counts with plural forms
    ("{cost} stress", "{count} Jacquards") is a count that escaped its plural."""
    counted = set(forms_by_word(language))
    bare = [
        f"{key}: {text}"
        for key, text in catalog(language).items()
        for value, word in re.findall(r"\{(\w+)\} ([\w-]+)", text)
        if word in counted and value not in NAMING_VALUES
    ]
    assert not bare, "\n".join(bare)


SYMBOL_VALUES = ("symbol", "shown", "needed", "answer", "character")


@pytest.mark.parametrize("language", LANGUAGES)
def test_symbols_are_set_apart_in_quotes(language: str) -> None:
    quotes = {"en": ("“", "”"), "cs": ("„", "“")}[language]
    for key, text in catalog(language).items():
        counts = {name for name, _ in plural_branches(text)}
        # each case of the text (a refusal's reasons) that says a symbol
        for chosen in [{"reason": r} for r in reasons(text)] or [{}]:
            if not (set(SYMBOL_VALUES) & placeholders_chosen(text, chosen)[0]) - counts:
                continue
            for count in ("A", "K"):
                values = {**dict.fromkeys(placeholders(text), count), **chosen}
                said = format_message(language, text, values)[0]
                assert f"{quotes[0]}{count}{quotes[1]}" in said, f"{language} {key}: {said}"


def reasons(text: str) -> list[str]:
    """The cases of a refusal's sentence: its ``reason`` select's branches."""
    return [
        case
        for part in parse(text)
        if getattr(part, "name", None) == "reason"
        for case, _ in getattr(part, "branches", ())
    ]


def test_a_czech_letter_never_reads_as_a_word() -> None:
    text = catalog("cs")["hints.partial"]
    said = format_message("cs", text, {"symbol": "A", "tower": "b2c2", "wrong": 2, "cost": 3})[0]
    assert said.startswith("„A“ v tomto tahu odeslat nelze")
    space = format_message("cs", catalog("cs")["clacks.transmit"], {"symbol": "SPACE"})[0]
    assert space == "Odeslat „MEZERA“"


# The Czech edition's words (clacks-rules-cs.txt), each with the English words whose
# texts must use it and the stems every inflected form of it keeps.
CZECH_TERMS: list[tuple[str, re.Pattern[str], tuple[str, ...]]] = [
    ("děrné štítky", re.compile(r"\bJacquards?\b"), ("štít",)),
    ("body zátěže", re.compile(r"\bstress\b"), ("zátěž",)),
    ("Hlášení o výpadku", re.compile(r"Fault Report"), ("o výpadku",)),
    ("ikona výpadku", re.compile(r"Fault stamp"), ("ikon",)),
    ("Hlášení o události", re.compile(r"Incident Report"), ("o událost",)),
    ("Záznamníky operátora", re.compile(r"Operator's Log"), ("Záznamník",)),
    ("semaforové karty", re.compile(r"Clacks Cards?"), ("semaforov",)),
    ("semaforová ústředna", re.compile(r"\b[Ee]xchange\b"), ("ústředn",)),
    ("kontrolky výběru věže", re.compile(r"tower button|{colour} button|start button"), ("kontrol",)),
    ("hlubinný trpaslík", re.compile(r"Deep Dwarf"), ("hlubinn",)),
    ("pošťák", re.compile(r"Post Office"), ("pošťák", "Poštovní úřad")),
    ("Genova", re.compile(r"\bGenua\b"), ("Genov",)),
    ("karta semaforové abecedy", re.compile(r"Clacks alphabet|the alphabet"), ("semaforov",)),
    ("Klikačský expres", re.compile(r"Clacks Express"), ("Klikačsk",)),
    ("Nouzová oprava", re.compile(r"Emergency Repair"), ("Nouzov",)),
    ("Klikačový technik", re.compile(r"Clacks Technician"), ("Klikačov",)),
]
# The words the Czech pages used before, which the edition does not.
NOT_THE_EDITIONS = re.compile(
    r"[Žž]akár|\b[Ss]tres|[Pp]oruch|\bClacks\b|tlačítk\w* věže|startovní tlačítk|Expres\b"
)


def test_czech_texts_use_the_czech_editions_terms() -> None:
    english, czech = catalog("en"), catalog("cs")
    missing: list[str] = []
    for key, text in english.items():
        if key.startswith(("klackers.", "game.klackers", "mode.klackers")) or key not in czech:
            continue
        for term, english_words, stems in CZECH_TERMS:
            if english_words.search(text) and not any(s.lower() in czech[key].lower() for s in stems):
                missing.append(f"{key}: {term!r} missing from {czech[key]!r}")
    assert not missing, "\n".join(missing)
    assert czech["game.clacks"] == "Semafory"
    old = [
        f"{key}: {text}"
        for key, text in czech.items()
        if NOT_THE_EDITIONS.search(format_message("cs", text, dict.fromkeys(placeholders(text), 5))[0])
    ]
    assert not old, "\n".join(old)


# One word for one thing across every Czech catalog (the table screen of one game must
# not call the box or a bot otherwise than another's): the term, and the others it had.
ONE_TERM = (
    ("bot", re.compile(r"\bbot", re.IGNORECASE), re.compile(r"robot", re.IGNORECASE)),
    ("krabice", re.compile(r"krabic", re.IGNORECASE), re.compile(r"krabičk|krabičc", re.IGNORECASE)),
    # a tap on the phone: "klepněte" in every step of every lesson and game
    ("klepnout", re.compile(r"klepn", re.IGNORECASE), re.compile(r"ťukn|ťukat", re.IGNORECASE)),
)


def test_each_thing_has_one_czech_word_in_every_catalog() -> None:
    czech = catalog("cs")
    for term, used, others in ONE_TERM:
        assert any(used.search(text) for text in czech.values()), term
        other = [f"{key}: {text}" for key, text in czech.items() if others.search(text)]
        assert not other, f"{term}, not:\n" + "\n".join(other)


def flat(text: str) -> str:
    return " ".join(text.split()).lower()


def rulebook() -> str | None:
    """The Czech rulebook beside the checkout (the project's shared references), if any."""
    text = seed_text("clacks-rules-cs.txt")
    return flat(text) if text is not None else None


QUOTES = Path(__file__).parent / "data" / "clacks-rules-cs-quotes.txt"


def rulebook_quotes() -> list[str]:
    lines = QUOTES.read_text(encoding="utf-8").splitlines()
    return [flat(line) for line in lines if line.strip() and not line.startswith("#")]


def test_the_czech_terms_are_the_rulebooks() -> None:
    quoted = " | ".join(rulebook_quotes())
    for term, _, _ in CZECH_TERMS:
        assert term.lower() in quoted, f"{term!r} is in no line quoted from the rulebook"
    assert "semafory" in quoted


def test_the_quotations_are_the_rulebooks_words() -> None:
    text = rulebook()
    if text is None:
        pytest.skip("the Czech rulebook is not beside this checkout (its quotations are)")
    missing = [quote for quote in rulebook_quotes() if quote not in text]
    assert not missing, "\n".join(missing)


PERSON = re.compile(r"\{(?:seat|name|current|target|names|to)\}")
# l-participles (past tense), whose ending would have to follow the player's gender
PAST = re.compile(r"\b\w+(?:al|il|el|ěl|ul|yl|ál|íl)[aioy]?\b")
NOT_VERBS = {"dál", "cíl", "kouzel", "posel", "chvíli"}  # nouns that end like participles
NOT_ABOUT_PLAYERS = re.compile(r"byl to znak")  # the symbol's gender, not a player's


def test_czech_sentences_about_players_need_no_gender() -> None:
    gendered: list[str] = []
    for key, text in catalog("cs").items():
        if not PERSON.search(text) and "jste" not in text:
            continue  # players are named through values; "jste" is the player addressed
        said = format_message("cs", text, dict.fromkeys(placeholders(text), 5))[0]
        for sentence in re.split(r"[.;:!?]", NOT_ABOUT_PLAYERS.sub("", said)):
            for word in PAST.findall(sentence):
                    if word.lower() not in NOT_VERBS:
                        gendered.append(f"{key}: {word!r} in {text!r}")
    assert not gendered, "\n".join(gendered)
