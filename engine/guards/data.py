"""The component data of Guards! Guards!: the house set and an owner's own files.

Six files in ``engine/data/guards/`` (or a directory given to ``clacks check-data --game
guards``): the Wizards' Challenges' targets, the eight Great Spells, the eight Guild
Cards, the board's quadrants, and the optional catalogues of Volunteers and of Scrolls,
Items and Dragons. A file's ``house = true`` marks its values as the companion's own
guesses (the rulebook does not print them); the pages say so wherever they are shown.

One validator serves the CLI and the engine and collects every problem, each naming the
file and the entry. A game keeps the tables it was started with in its options, so a
saved game replays the same even after the files change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.core import data_files, serial
from engine.core.errors import DataError
from engine.core.validate import Problems, house_flag, parse_files, whole
from engine.guards.cards import (
    ATTRIBUTES,
    SKILLS,
    Dragon,
    Item,
    Scroll,
    Volunteer,
    read_dragon,
    read_item,
    read_scroll,
    read_volunteer,
)

QUADRANTS = ("fools", "thieves", "assassins", "alchemists")  # also the four Guilds
BLOCKS = ("sw", "se", "nw", "ne")  # the lamps' 2x2 blocks, seen from the South side
FILES = (
    "challenges.toml",
    "spells.toml",
    "guilds.toml",
    "board.toml",
    "volunteers.toml",
    "catalogue.toml",
)
OPTIONAL = ("volunteers.toml", "catalogue.toml")
SPELLS_PER_CARD = 5
GREAT_SPELLS = 8
GUILD_CARDS = 8
CHALLENGES = 4  # the fifth is the rulebook's own (Magic 9 and Guild 9)
ATTRIBUTE_TOP = (1, 20)
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class Challenge:
    number: int
    name: str
    tests: tuple[tuple[str, int], ...]  # (skill, target), in the order they are rolled
    house: bool


@dataclass(frozen=True)
class GuildCard:
    id: str
    name: str
    guild: str
    spells: tuple[str, ...]
    start: dict[str, int]
    top: dict[str, int]
    ability: str
    house: bool

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)


@dataclass(frozen=True)
class GuardsData:
    challenges: tuple[Challenge, ...]
    spells: dict[str, str]  # id -> name
    guild_cards: dict[str, GuildCard]
    clockwise: tuple[str, ...]
    blocks: dict[str, str]
    volunteers: dict[str, Volunteer] = field(default_factory=dict)
    scrolls: dict[str, Scroll] = field(default_factory=dict)
    items: dict[str, Item] = field(default_factory=dict)
    dragons: dict[str, Dragon] = field(default_factory=dict)
    house: dict[str, bool] = field(default_factory=dict)  # file -> house values
    tables: dict[str, Any] = field(default_factory=dict, compare=False)  # as read

    def challenge(self, number: int) -> Challenge:
        return self.challenges[number - 1]

    def to_json(self) -> dict[str, Any]:
        """The tables the data was read from: ``validate_tables`` reads them back."""
        return self.tables


def _entries(table: dict[str, Any], key: str, file: str, problems: Problems) -> list[dict[str, Any]]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.add(file, None, f"[[{key}]] must be a list of tables")
        return []
    return value


def _challenges(table: dict[str, Any], problems: Problems) -> tuple[Challenge, ...]:
    file = "challenges.toml"
    problems.unknown_keys(table, ("house", "challenge"), file)
    house = house_flag(table, file, problems, required=False)
    found: dict[int, Challenge] = {}
    for index, entry in enumerate(_entries(table, "challenge", file, problems)):
        number = entry.get("number")
        where = f"challenge {number}" if isinstance(number, int) else f"challenge #{index + 1}"
        problems.unknown_keys(entry, ("number", "name", "tests"), file, where)
        if not whole(number) or not 1 <= number <= CHALLENGES:
            problems.add(file, where, f"number must be 1 to {CHALLENGES}, not {number!r}")
            continue
        if number in found:
            problems.add(file, where, "is given twice")
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.add(file, where, "name must be text")
            name = ""
        tests = entry.get("tests")
        wanted = 2 if number == 4 else 1
        parsed: list[tuple[str, int]] = []
        if not isinstance(tests, list) or len(tests) != wanted:
            problems.add(file, where, f"tests must list {wanted} test(s) of attribute and target")
        else:
            for i, test in enumerate(tests):
                attribute = test.get("attribute") if isinstance(test, dict) else None
                target = test.get("target") if isinstance(test, dict) else None
                if attribute not in SKILLS:
                    problems.add(file, where, f"tests[{i}].attribute must be one of {', '.join(SKILLS)}, not {attribute!r}")
                elif not whole(target) or not 1 <= target <= 60:
                    problems.add(file, where, f"tests[{i}].target must be a whole number from 1 to 60, not {target!r}")
                else:
                    parsed.append((attribute, target))
        found[number] = Challenge(number, name, tuple(parsed), house)
    missing = [n for n in range(1, CHALLENGES + 1) if n not in found]
    if missing:
        problems.add(file, None, f"challenge(s) {', '.join(map(str, missing))} missing")
    return tuple(found[n] for n in sorted(found))


def _spells(table: dict[str, Any], problems: Problems) -> dict[str, str]:
    file = "spells.toml"
    problems.unknown_keys(table, ("house", "spell"), file)
    house_flag(table, file, problems, required=False)
    spells: dict[str, str] = {}
    for index, entry in enumerate(_entries(table, "spell", file, problems)):
        spell_id = entry.get("id")
        where = f"spell {spell_id}" if isinstance(spell_id, str) else f"spell #{index + 1}"
        problems.unknown_keys(entry, ("id", "name"), file, where)
        if not isinstance(spell_id, str) or not ID_PATTERN.match(spell_id):
            problems.add(file, where, "id must be lower-case letters, digits and dashes")
            continue
        if spell_id in spells:
            problems.add(file, where, "is given twice")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.add(file, where, "name must be text")
            name = spell_id
        spells[spell_id] = name
    if len(spells) != GREAT_SPELLS:
        problems.add(file, None, f"there must be {GREAT_SPELLS} Great Spells, not {len(spells)}")
    return spells


def _guild_cards(table: dict[str, Any], spells: dict[str, str], problems: Problems) -> dict[str, GuildCard]:
    file = "guilds.toml"
    problems.unknown_keys(table, ("house", "guild_card"), file)
    house = house_flag(table, file, problems, required=False)
    cards: dict[str, GuildCard] = {}
    known = ("id", "name", "guild", "spells", "start", "top", "ability")
    for index, entry in enumerate(_entries(table, "guild_card", file, problems)):
        card, card_problems = read_guild_card(entry, spells, house, extra=())
        card_id = entry.get("id")
        where = f"guild card {card_id}" if isinstance(card_id, str) else f"guild card #{index + 1}"
        problems.unknown_keys(entry, known, file, where)
        for problem in card_problems:
            problems.add(file, where, problem)
        if card is None:
            continue
        if card.id in cards:
            problems.add(file, where, "is given twice")
        cards[card.id] = card
    if len(cards) != GUILD_CARDS:
        problems.add(file, None, f"there must be {GUILD_CARDS} Guild Cards, not {len(cards)}")
    return cards


def read_guild_card(
    entry: object, spells: dict[str, str], house: bool, extra: tuple[str, ...] = ("id",)
) -> tuple[GuildCard | None, list[str]]:
    """A Guild Card from a file's entry or a phone's form; the problems otherwise."""
    problems: list[str] = []
    if not isinstance(entry, dict):
        return None, ["a Guild Card must be a table of fields"]
    card_id = entry.get("id")
    if not isinstance(card_id, str) or not ID_PATTERN.match(card_id):
        problems.append("id must be lower-case letters, digits and dashes")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        problems.append("name must be text of 1 to 60 characters")
    guild = entry.get("guild")
    if guild not in QUADRANTS:
        problems.append(f"guild must be one of {', '.join(QUADRANTS)}, not {guild!r}")
    chosen = entry.get("spells")
    if (
        not isinstance(chosen, list)
        or len(chosen) != SPELLS_PER_CARD
        or len(set(map(str, chosen))) != SPELLS_PER_CARD
    ):
        problems.append(f"spells must list {SPELLS_PER_CARD} different Great Spells")
    else:
        for spell in chosen:
            if spell not in spells:
                problems.append(f"unknown spell {spell!r} (spells: {', '.join(spells)})")
    tables: dict[str, dict[str, int]] = {}
    for key in ("start", "top"):
        value = entry.get(key)
        tables[key] = {}
        if not isinstance(value, dict) or set(value) != set(ATTRIBUTES):
            problems.append(f"{key} must give magic, guild and charm")
            continue
        for attribute in ATTRIBUTES:
            number = value[attribute]
            low, high = (0, ATTRIBUTE_TOP[1]) if key == "start" else ATTRIBUTE_TOP
            if not whole(number) or not low <= number <= high:
                problems.append(f"{key}.{attribute} must be a whole number from {low} to {high}, not {number!r}")
            else:
                tables[key][attribute] = number
    if len(tables["start"]) == len(tables["top"]) == len(ATTRIBUTES):
        for attribute in ATTRIBUTES:
            if tables["start"][attribute] > tables["top"][attribute]:
                problems.append(
                    f"start.{attribute} ({tables['start'][attribute]}) is above the top of its "
                    f"table ({tables['top'][attribute]})"
                )
    ability = entry.get("ability")
    if not isinstance(ability, str) or not ability.strip():
        problems.append("ability must name the Guild Ability")
    if problems:
        return None, problems
    assert isinstance(card_id, str) and isinstance(name, str) and isinstance(guild, str)
    assert isinstance(chosen, list) and isinstance(ability, str)
    return (
        GuildCard(card_id, name.strip(), guild, tuple(chosen), tables["start"], tables["top"], ability.strip(), house),
        [],
    )


def _board(table: dict[str, Any], problems: Problems) -> tuple[tuple[str, ...], dict[str, str]]:
    file = "board.toml"
    problems.unknown_keys(table, ("house", "clockwise", "blocks"), file)
    house_flag(table, file, problems, required=False)
    clockwise = table.get("clockwise")
    if not isinstance(clockwise, list) or sorted(map(str, clockwise)) != sorted(QUADRANTS):
        problems.add(file, "clockwise", f"must list the four quadrants once each ({', '.join(QUADRANTS)}), not {clockwise!r}")
        clockwise = list(QUADRANTS)
    blocks = table.get("blocks")
    if not isinstance(blocks, dict) or sorted(blocks) != sorted(QUADRANTS):
        problems.add(file, "blocks", f"must give a lamp block to each of {', '.join(QUADRANTS)}")
        blocks = dict(zip(QUADRANTS, BLOCKS, strict=True))
    elif sorted(map(str, blocks.values())) != sorted(BLOCKS):
        problems.add(file, "blocks", f"must use each block once ({', '.join(BLOCKS)}), not {sorted(blocks.values())}")
        blocks = dict(zip(QUADRANTS, BLOCKS, strict=True))
    return tuple(clockwise), {str(k): str(v) for k, v in blocks.items()}


def _catalogue(
    table: dict[str, Any], key: str, file: str, reader: Any, problems: Problems
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for index, entry in enumerate(_entries(table, key, file, problems)):
        card_id = entry.get("id")
        where = f"{key} {card_id}" if isinstance(card_id, str) else f"{key} #{index + 1}"
        if not isinstance(card_id, str) or not ID_PATTERN.match(card_id):
            problems.add(file, where, "id must be lower-case letters, digits and dashes")
            continue
        if card_id in out:
            problems.add(file, where, "is given twice")
            continue
        values = {k: v for k, v in entry.items() if k != "id"}
        card, card_problems = reader(values)
        for problem in card_problems:
            problems.add(file, where, problem)
        if card is not None:
            out[card_id] = card
    return out


def validate_tables(tables: object) -> tuple[GuardsData | None, list[str]]:
    """The data in ``tables`` (file name -> its TOML table), or every problem in it."""
    problems = Problems()
    if not isinstance(tables, dict):
        return None, ["the data must be a table of files"]
    for name in tables:
        if name not in FILES:
            problems.add(str(name), None, f"unknown data file (files: {', '.join(FILES)})")
    for name in FILES:
        if name not in tables and name not in OPTIONAL:
            problems.add(name, None, "is missing")
    get = {name: tables.get(name, {}) for name in FILES}
    for name, table in get.items():
        if not isinstance(table, dict):
            problems.add(name, None, "must be a table")
            get[name] = {}
    challenges = _challenges(get["challenges.toml"], problems)
    spells = _spells(get["spells.toml"], problems)
    cards = _guild_cards(get["guilds.toml"], spells, problems)
    clockwise, blocks = _board(get["board.toml"], problems)
    volunteers_table = get["volunteers.toml"]
    problems.unknown_keys(volunteers_table, ("house", "volunteer"), "volunteers.toml")
    volunteers = _catalogue(
        volunteers_table, "volunteer", "volunteers.toml", read_volunteer, problems
    )
    catalogue = get["catalogue.toml"]
    problems.unknown_keys(catalogue, ("house", "scroll", "item", "dragon"), "catalogue.toml")
    scrolls = _catalogue(catalogue, "scroll", "catalogue.toml", read_scroll, problems)
    items = _catalogue(catalogue, "item", "catalogue.toml", read_item, problems)
    dragons = _catalogue(catalogue, "dragon", "catalogue.toml", read_dragon, problems)
    if len(dragons) > 4:
        problems.add("catalogue.toml", None, f"the game has 4 Dragons, not {len(dragons)}")
    house = {name: bool(get[name].get("house", False) is True) for name in FILES}
    if problems.items:
        return None, problems.items
    data = GuardsData(
        challenges=challenges,
        spells=spells,
        guild_cards=cards,
        clockwise=clockwise,
        blocks=blocks,
        volunteers=volunteers,
        scrolls=scrolls,
        items=items,
        dragons=dragons,
        house=house,
        tables={name: tables[name] for name in FILES if name in tables},
    )
    return data, []


def default_data_path() -> Path:
    return data_files.shipped_path("guards")


def read_tables(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The TOML tables of the data files in ``path``, and the problems reading them."""
    try:
        texts = data_files.read_texts(path, FILES)
    except DataError as exc:
        return {}, exc.problems
    problems = Problems()
    tables = parse_files(texts, FILES, problems, optional=OPTIONAL)
    return dict(tables), problems.items


def check_path(path: Path | None = None) -> list[str]:
    """Every problem with the Guards! Guards! data files in ``path`` (default: shipped)."""
    path = path or default_data_path()
    if not path.is_dir():
        return [f"{path}: not a directory of Guards! Guards! data files"]
    tables, problems = read_tables(path)
    if problems:
        return problems
    return validate_tables(tables)[1]


def load_data(path: Path | None = None) -> GuardsData:
    """The data in ``path`` (the shipped house set when None); DataError naming every
    problem otherwise."""
    if path is None:
        return shipped_data()
    tables, problems = read_tables(path)
    data, more = validate_tables(tables) if not problems else (None, [])
    if data is None:
        raise DataError(problems + more)
    return data


@cache
def shipped_data() -> GuardsData:
    tables, problems = read_tables(default_data_path())
    data, more = validate_tables(tables) if not problems else (None, [])
    if data is None:
        raise DataError(problems + more)
    return data


