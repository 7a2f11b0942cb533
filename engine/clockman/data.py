"""Clockman's data files (engine/data/clockman/*.toml): loaded, validated, explained.

Four files: ``components.toml`` (the rulebook's counts: digits, symbol cards, the date
key), ``board.toml`` (house values: passage fields per Whytooki ring, for the set-up),
``poses.toml`` (house values: the five Whytooki poses' labels and names) and ``box.toml``
(the lamps and buttons). A file flagged ``house = true`` holds values the rulebook does
not give; the pages say so wherever they show them.

One validator serves both `clacks check-data` and the engine: it collects every problem,
each naming the file and the entry, instead of stopping at the first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from engine.core import data_files
from engine.core.box import BUTTONS, LAMP_NAMES, lamp_index
from engine.core.errors import DataError
from engine.core.validate import Problems, house_flag, parse_files, whole, whole_in

COMPONENTS_FILE = "components.toml"
BOARD_FILE = "board.toml"
POSES_FILE = "poses.toml"
BOX_FILE = "box.toml"
FILES = (COMPONENTS_FILE, BOARD_FILE, POSES_FILE, BOX_FILE)

REAL_DIGITS = ("0", "1", "2")
JOKER = "X"
LIFT = "L"
DIGIT_CARDS = (*REAL_DIGITS, JOKER, LIFT)
CIRCLES = 4  # the board's four concentric circles
SEAT_LIMIT = 4  # the box has four sides
BUTTON_MEANINGS = (
    "roll",
    "symbol",
    "event",
    "digit",
    "blockade",
    "lift",
    "knock",
    "transfer",
    "plain",
    "forfeit",
    "end_turn",
    "undo",
)
NAME_MAX = 30

FILE_KEYS: dict[str, tuple[str, ...]] = {
    COMPONENTS_FILE: (
        "house",
        "players",
        "die_faces",
        "date_key",
        "symbol_cards_per_pose",
        "event_cards",
        "whytookis",
        "straights",
        "straight_fields",
        "digits",
        "circles",
    ),
    BOARD_FILE: ("house", "ring"),
    POSES_FILE: ("house", "figures_per_pose", "pose"),
    BOX_FILE: ("house", "lamps", "buttons"),
}


@dataclass(frozen=True)
class Ring:
    """The Whytookis between circle ``inner - 1`` and circle ``inner``."""

    outer: int
    passages: int

    @property
    def inner(self) -> int:
        return self.outer + 1


@dataclass(frozen=True)
class Pose:
    id: str
    name: str


@dataclass(frozen=True)
class ClockmanData:
    players: tuple[int, int]
    die_faces: int
    date_key: str
    symbol_cards_per_pose: int
    event_cards: int
    whytookis: int
    straights: int
    straight_fields: int
    digits: dict[str, int]  # cards in the box, jokers and lifts included
    circles: dict[str, int]  # the circle each real digit lies on
    rings: tuple[Ring, ...]
    poses: tuple[Pose, ...]
    figures_per_pose: int
    die_lamps: tuple[int, ...]
    date_lamps: tuple[int, ...]
    buttons: tuple[tuple[str, str], ...]
    house_files: tuple[str, ...]
    source: str

    @cached_property
    def need(self) -> dict[str, int]:
        """How many of each real digit a complete date key holds."""
        counts = Counter(self.date_key)
        return {d: counts[d] for d in REAL_DIGITS}

    @property
    def pose_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.poses)

    def circle_digit(self, circle: int) -> str | None:
        """The real digit whose fields lie on ``circle``, if any."""
        return next((d for d, c in self.circles.items() if c == circle), None)

    def meaning(self, button: str) -> str | None:
        return dict(self.buttons).get(button)

    def button_for(self, meaning: str) -> str | None:
        return next((b for b, m in self.buttons if m == meaning), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "die_faces": self.die_faces,
            "date_key": self.date_key,
            "need": self.need,
            "symbol_cards_per_pose": self.symbol_cards_per_pose,
            "event_cards": self.event_cards,
            "whytookis": self.whytookis,
            "straights": self.straights,
            "straight_fields": self.straight_fields,
            "digits": dict(self.digits),
            "circles": dict(self.circles),
            "rings": [{"between": [r.outer, r.inner], "passages": r.passages} for r in self.rings],
            "poses": [{"id": p.id, "name": p.name} for p in self.poses],
            "figures_per_pose": self.figures_per_pose,
            "lamps": {
                "die": [LAMP_NAMES[i] for i in self.die_lamps],
                "date": [LAMP_NAMES[i] for i in self.date_lamps],
            },
            "buttons": dict(self.buttons),
            "house_files": list(self.house_files),
        }


def _lamps(value: object, entry: str, count: int, file: str, problems: Problems) -> list[int]:
    if not isinstance(value, list) or len(value) != count:
        problems.add(file, entry, f'must list {count} lamps, like "a1", not {value!r}')
        return []
    found = []
    for name in value:
        try:
            found.append(lamp_index(str(name)) if isinstance(name, str) else -1)
        except ValueError as exc:
            problems.add(file, entry, str(exc))
    if -1 in found:
        problems.add(file, entry, f'lamps are named like "a1", not {value!r}')
        return []
    return found


def _whole_per_digit(
    value: object,
    digits: tuple[str, ...],
    bounds: tuple[int, int],
    keys_rule: str,
    bounds_rule: str,
    file: str,
    key: str,
    problems: Problems,
) -> dict[str, int] | None:
    """A table with a whole number from ``bounds`` for each of ``digits`` and nothing else,
    in the digits' order; None, with the broken rule among the problems, if it is not."""
    low, high = bounds
    if not isinstance(value, dict) or set(value) != set(digits):
        problems.add(file, key, f"{keys_rule}, not {value!r}")
        return None
    if not all(whole(n) and low <= n <= high for n in value.values()):
        problems.add(file, key, f"{bounds_rule}, not {value!r}")
        return None
    return {d: value[d] for d in digits}


def _components(doc: dict[str, Any], problems: Problems) -> dict[str, Any]:
    file = COMPONENTS_FILE
    out: dict[str, Any] = {}
    players = doc.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(whole(n) for n in players)
        or not 2 <= players[0] <= players[1] <= SEAT_LIMIT
    ):
        problems.add(
            file, "players", f"must be [fewest, most] within 2 to {SEAT_LIMIT}, not {players!r}"
        )
    else:
        out["players"] = (players[0], players[1])
    for key, low, high in (
        ("die_faces", 2, 6),
        ("symbol_cards_per_pose", 1, 99),
        ("event_cards", 1, 999),
        ("whytookis", 1, 99),
        ("straights", SEAT_LIMIT, SEAT_LIMIT),
        ("straight_fields", 2, 6),
    ):
        out[key] = whole_in(doc.get(key), low, high, file, key, problems)
    date_key = doc.get("date_key")
    if not isinstance(date_key, str) or not date_key or any(c not in REAL_DIGITS for c in date_key):
        problems.add(
            file, "date_key", f"must be the date's digits, each 0, 1 or 2, not {date_key!r}"
        )
    else:
        out["date_key"] = date_key
    digits = _whole_per_digit(
        doc.get("digits"),
        DIGIT_CARDS,
        (0, 99),
        f"must count each of {', '.join(DIGIT_CARDS)} and nothing else",
        "each count must be a whole number from 0 to 99",
        file,
        "digits",
        problems,
    )
    if digits is not None:
        out["digits"] = digits
    circles = _whole_per_digit(
        doc.get("circles"),
        REAL_DIGITS,
        (1, CIRCLES),
        f"must give the circle of each of {', '.join(REAL_DIGITS)}",
        f"each circle must be 1 to {CIRCLES}",
        file,
        "circles",
        problems,
    )
    if circles is not None and len(set(circles.values())) != len(circles):
        problems.add(file, "circles", "two digits lie on the same circle")
    elif circles is not None:
        out["circles"] = circles
    if "date_key" in out and "digits" in out and "players" in out:
        need = Counter(out["date_key"])
        most = out["players"][1]
        for digit in REAL_DIGITS:
            if out["digits"][digit] < need[digit] * most:
                problems.add(
                    file,
                    f"digits.{digit}",
                    f"{out['digits'][digit]} cards cannot complete {most} date keys "
                    f"of {need[digit]} each",
                )
    return out


def _exact_entries(
    entries: list[Any], file: str, noun: str, keys: set[str], exactly: str, problems: Problems
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Each entry of a list of tables (its index and its name in problems, "ring 2") that
    has exactly ``keys``; the others are among the problems, as breaking ``exactly``."""
    for index, entry in enumerate(entries):
        where = f"{noun} {index + 1}"
        if isinstance(entry, dict) and set(entry) == keys:
            yield index, where, entry
        else:
            problems.add(file, where, exactly)


def _board(doc: dict[str, Any], problems: Problems) -> tuple[Ring, ...]:
    file = BOARD_FILE
    entries = doc.get("ring")
    if not isinstance(entries, list) or len(entries) != CIRCLES - 1:
        problems.add(
            file, "ring", f"must list the {CIRCLES - 1} Whytooki rings between the circles"
        )
        return ()
    rings = []
    exactly = "must give exactly between = [outer, inner] and passages"
    keys = {"between", "passages"}
    for index, where, entry in _exact_entries(entries, file, "ring", keys, exactly, problems):
        between = entry["between"]
        if between != [index + 1, index + 2]:
            problems.add(
                file, where, f"between must be [{index + 1}, {index + 2}], not {between!r}"
            )
            continue
        passages = entry["passages"]
        if not whole(passages) or not 1 <= passages <= 30:
            problems.add(
                file, where, f"passages must be a whole number from 1 to 30, not {passages!r}"
            )
            continue
        rings.append(Ring(index + 1, passages))
    return tuple(rings)


def _poses(doc: dict[str, Any], problems: Problems) -> tuple[tuple[Pose, ...], int | None]:
    file = POSES_FILE
    per_pose = whole_in(doc.get("figures_per_pose"), 1, 20, file, "figures_per_pose", problems)
    entries = doc.get("pose")
    if not isinstance(entries, list) or not 2 <= len(entries) <= 9:
        problems.add(file, "pose", "must list two to nine poses")
        return (), per_pose
    poses = []
    exactly = "must give exactly an id and a name"
    keys = {"id", "name"}
    for _, where, entry in _exact_entries(entries, file, "pose", keys, exactly, problems):
        ident, name = entry["id"], entry["name"]
        if not isinstance(ident, str) or len(ident) != 1 or not ident.isupper():
            problems.add(file, where, f"id must be one capital letter, not {ident!r}")
            continue
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
            problems.add(file, where, f"name must be 1 to {NAME_MAX} characters, not {name!r}")
            continue
        poses.append(Pose(ident, name))
    ids = [p.id for p in poses]
    for twice in sorted({i for i in ids if ids.count(i) > 1}):
        problems.add(file, f"pose {twice}", "is listed twice")
    return tuple(poses), per_pose


def _box(
    doc: dict[str, Any], faces: int | None, key_length: int, problems: Problems
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[str, str], ...]]:
    file = BOX_FILE
    lamps = doc.get("lamps")
    die: list[int] = []
    date: list[int] = []
    if not isinstance(lamps, dict) or set(lamps) != {"die", "date"}:
        problems.add(file, "lamps", "must give exactly die = [...] and date = [...]")
    else:
        die = _lamps(lamps["die"], "lamps.die", faces or 6, file, problems)
        date = _lamps(lamps["date"], "lamps.date", key_length, file, problems)
        if len(set(die) | set(date)) != len(die) + len(date):
            problems.add(file, "lamps", "a lamp is used twice")
    buttons = doc.get("buttons")
    pairs: list[tuple[str, str]] = []
    if not isinstance(buttons, dict):
        problems.add(file, "buttons", "must map buttons (like b2c2) to what they report")
    else:
        for button, meaning in buttons.items():
            if button not in BUTTONS:
                problems.add(
                    file, f"buttons.{button}", f"no such button; buttons are {', '.join(BUTTONS)}"
                )
            elif meaning not in BUTTON_MEANINGS:
                problems.add(
                    file,
                    f"buttons.{button}",
                    f"unknown meaning {meaning!r}; meanings are {', '.join(BUTTON_MEANINGS)}",
                )
            else:
                pairs.append((button, meaning))
        meanings = [m for _, m in pairs]
        for twice in sorted({m for m in meanings if meanings.count(m) > 1}):
            problems.add(file, "buttons", f"two buttons both mean {twice!r}")
        for needed in ("roll", "plain", "end_turn"):
            if needed not in meanings and pairs:
                problems.add(file, "buttons", f"no button means {needed!r}")
    return tuple(die), tuple(date), tuple(pairs)


def validate_texts(
    texts: dict[str, str], source: str = "<memory>"
) -> tuple[ClockmanData | None, list[str]]:
    """Check the files' texts; returns the data (if sound) and every problem found."""
    problems = Problems()
    docs = parse_files(texts, FILES, problems)
    for name, doc in docs.items():
        problems.unknown_keys(doc, FILE_KEYS[name], name)
    house = tuple(
        name for name, doc in docs.items() if house_flag(doc, name, problems, required=True)
    )
    parts = _components(docs[COMPONENTS_FILE], problems) if COMPONENTS_FILE in docs else {}
    rings = _board(docs[BOARD_FILE], problems) if BOARD_FILE in docs else ()
    poses, per_pose = _poses(docs[POSES_FILE], problems) if POSES_FILE in docs else ((), None)
    die, date, buttons = (
        _box(docs[BOX_FILE], parts.get("die_faces"), len(parts.get("date_key", "")) or 8, problems)
        if BOX_FILE in docs
        else ((), (), ())
    )
    whytookis, straights = parts.get("whytookis"), parts.get("straights")
    if rings and len(rings) == CIRCLES - 1 and whytookis and straights:
        placed = sum(r.passages for r in rings) + straights
        if placed != whytookis:
            problems.add(
                BOARD_FILE,
                "ring",
                f"{placed - straights} passages and {straights} straights place {placed} "
                f"Whytookis; the box has {whytookis}",
            )
    if poses and per_pose and whytookis and per_pose * len(poses) != whytookis:
        problems.add(
            POSES_FILE,
            "figures_per_pose",
            f"{len(poses)} poses of {per_pose} figures make {per_pose * len(poses)} "
            f"Whytookis; the box has {whytookis}",
        )
    if problems.items:
        return None, problems.items
    data = ClockmanData(
        players=parts["players"],
        die_faces=parts["die_faces"],
        date_key=parts["date_key"],
        symbol_cards_per_pose=parts["symbol_cards_per_pose"],
        event_cards=parts["event_cards"],
        whytookis=parts["whytookis"],
        straights=parts["straights"],
        straight_fields=parts["straight_fields"],
        digits=parts["digits"],
        circles=parts["circles"],
        rings=rings,
        poses=poses,
        figures_per_pose=per_pose or 0,
        die_lamps=die,
        date_lamps=date,
        buttons=buttons,
        house_files=house,
        source=source,
    )
    return data, []


def read_texts(path: Path) -> dict[str, str]:
    return data_files.read_texts(path, FILES)


def default_data_path() -> Path:
    return data_files.shipped_path("clockman")


def check_path(path: Path | None = None) -> list[str]:
    """Every problem with the Clockman data files in ``path`` (the shipped set when None)."""
    return data_files.check_directory(
        path or default_data_path(), "Clockman", FILES, validate_texts
    )


def load_data(path: Path | None = None) -> ClockmanData:
    """The Clockman data in ``path`` (the shipped set when None); raises DataError."""
    if path is None:
        return _shipped()
    data, problems = validate_texts(read_texts(path), str(path))
    if data is None:
        raise DataError(problems)
    return data


@cache
def _shipped() -> ClockmanData:
    data, problems = validate_texts(read_texts(default_data_path()), "house set")
    if data is None:
        raise DataError(problems)
    return data
