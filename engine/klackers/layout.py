"""Klackers on the box's lamps and buttons, from engine/data/klackers/layout.toml, read
and checked as every game's data is (engine/core/validate.py).

The layout says which lamp shows each number and which four lamps are the dice row,
and gives each of the twelve buttons a meaning: a number (mark it for the pull), "roll",
"roll_one" or "pull". ``frame`` turns a match into the lamps to light:

- the nine numbers of the player who has the dice: lit while standing, dark once down;
  numbers marked for the pull with their buttons blink (the frame's preview);
- the dice row: glowing in the accent colour while the player must roll; once the dice
  are down, the roll's total in binary (first lamp 8, then 4, 2, 1), lit;
- once the match is over, every number lamp glows in the accent colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.core import data_files
from engine.core.box import BUTTONS, LAMP_NAMES, lamp_index
from engine.core.errors import DataError
from engine.core.interface import LampFrame
from engine.core.validate import Problems, parse_files, parse_toml
from engine.klackers.game import GAME
from engine.klackers.numbers import ALL_STANDING, NUMBERS, numbers_of
from engine.klackers.state import KlackersState

FILE = "layout.toml"
FILES = (FILE,)  # a Klackers data directory holds its layout alone
SECTIONS = ("numbers", "dice", "buttons")
DEFAULT_PATH = data_files.shipped_path(GAME) / FILE
CONTROLS = ("roll", "roll_one", "pull")
MEANINGS = tuple(str(n) for n in NUMBERS) + CONTROLS
DICE_LAMPS = 4  # totals run to 12: four binary digits


@dataclass(frozen=True)
class BoardLayout:
    numbers: tuple[int, ...]  # lamp index of 1..9
    dice: tuple[int, ...]  # lamp indices of the dice row, highest bit first
    buttons: tuple[tuple[str, str], ...]  # (button, meaning)

    def number_lamps(self, numbers_mask: int) -> int:
        """The lamp mask showing the numbers in a 9-bit numbers mask."""
        return sum(1 << self.numbers[n - 1] for n in numbers_of(numbers_mask))

    @property
    def dice_mask(self) -> int:
        return sum(1 << lamp for lamp in self.dice)

    def dice_lamps(self, roll: int) -> int:
        """The dice row lamps lit for ``roll`` in binary."""
        width = len(self.dice)
        return sum(1 << lamp for i, lamp in enumerate(self.dice) if roll >> (width - 1 - i) & 1)

    def meaning(self, button: str) -> str | None:
        return dict(self.buttons).get(button)

    def button_for(self, meaning: str) -> str | None:
        return next((b for b, m in self.buttons if m == meaning), None)

    def frame(self, state: KlackersState, marked: int = 0) -> LampFrame:
        turn = state.turn
        if turn is None:
            return LampFrame(lit=0, accent=self.number_lamps(ALL_STANDING))
        standing = state.players[turn.seat].standing
        lit = self.number_lamps(standing)
        if turn.phase == "roll":
            return LampFrame(lit=lit, accent=self.dice_mask)
        return LampFrame(
            lit=lit | self.dice_lamps(turn.roll_total),
            preview=self.number_lamps(marked & standing),
        )

    def to_data(self) -> dict[str, Any]:
        """The layout as its file has it (``layout_from_data`` reads it back)."""
        return {
            "numbers": {str(n): LAMP_NAMES[self.numbers[n - 1]] for n in NUMBERS},
            "dice": {"lamps": [LAMP_NAMES[i] for i in self.dice]},
            "buttons": dict(self.buttons),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "numbers": {str(n): LAMP_NAMES[self.numbers[n - 1]] for n in NUMBERS},
            "dice": [LAMP_NAMES[i] for i in self.dice],
            "buttons": dict(self.buttons),
        }


def _lamp(
    value: object, where: str, used: dict[str, str], file: str | None, problems: Problems
) -> int:
    """The lamp ``value`` names at ``where``; -1 with the problem added."""
    if not isinstance(value, str) or value not in LAMP_NAMES:
        problems.add(file, where, f"{value!r} is not a lamp (a1 to d4)")
    elif value in used:
        problems.add(file, where, f"lamp {value} is already {used[value]}")
    else:
        used[value] = where
        return lamp_index(value)
    return -1


def _numbers(
    numbers: object, used: dict[str, str], file: str | None, problems: Problems
) -> tuple[int, ...]:
    if not isinstance(numbers, dict):
        problems.add(file, None, "[numbers] is missing: the lamp of each number 1 to 9")
        return ()
    for key in numbers:
        if key not in MEANINGS[:9]:
            problems.add(file, f"numbers.{key}", "the numbers are 1 to 9")
    lamps = []
    for n in NUMBERS:
        if str(n) not in numbers:
            problems.add(file, f"numbers.{n}", "is missing")
        else:
            lamps.append(_lamp(numbers[str(n)], f"numbers.{n}", used, file, problems))
    return tuple(lamps)


def _dice(
    dice: object, used: dict[str, str], file: str | None, problems: Problems
) -> tuple[int, ...]:
    lamps = dice.get("lamps") if isinstance(dice, dict) else None
    if not isinstance(lamps, list) or len(lamps) != DICE_LAMPS:
        problems.add(file, "dice.lamps", f"must list {DICE_LAMPS} lamps (the total in binary)")
        return ()
    return tuple(_lamp(v, f"dice.lamps[{i}]", used, file, problems) for i, v in enumerate(lamps))


def _buttons(buttons: object, file: str | None, problems: Problems) -> tuple[tuple[str, str], ...]:
    if not isinstance(buttons, dict):
        problems.add(file, None, "[buttons] is missing: what each button does")
        return ()
    meant: dict[str, str] = {}
    for button, meaning in buttons.items():
        where = f"buttons.{button}"
        if button not in BUTTONS:
            problems.add(file, where, f"no such button ({', '.join(BUTTONS)})")
        if not isinstance(meaning, str) or meaning not in MEANINGS:
            problems.add(
                file, where, f"{meaning!r} is not a number 1-9 or one of {', '.join(CONTROLS)}"
            )
        elif meaning in meant:
            problems.add(file, where, f"{meaning} is already on {meant[meaning]}")
        else:
            meant[meaning] = button
    return tuple((str(b), str(m)) for b, m in buttons.items())


def check_layout(
    doc: object, file: str | None, problems: Problems, base: BoardLayout | None = None
) -> BoardLayout | None:
    """The layout a layout file's table (or the settings file's [klackers.layout]) holds,
    the sections it leaves out taken from ``base`` if given; None with every mistake
    added to ``problems``, each naming ``file`` and its entry."""
    if not isinstance(doc, dict):
        problems.add(file, None, "the layout must be a table")
        return None
    if base is not None:
        doc = {**base.to_data(), **doc}
    before = len(problems.items)
    problems.unknown_keys(doc, SECTIONS, file, kind="section")
    used: dict[str, str] = {}  # lamp name: the entry that took it
    numbers = _numbers(doc.get("numbers"), used, file, problems)
    dice = _dice(doc.get("dice"), used, file, problems)
    buttons = _buttons(doc.get("buttons"), file, problems)
    if len(problems.items) > before:
        return None
    return BoardLayout(numbers=numbers, dice=dice, buttons=buttons)


def layout_problems(data: object) -> list[str]:
    """Every mistake in a layout table, each naming the key it concerns."""
    problems = Problems()
    check_layout(data, None, problems)
    return problems.items


def layout_from_data(data: object) -> BoardLayout:
    problems = Problems()
    layout = check_layout(data, None, problems)
    if layout is None:
        raise DataError(problems.items)
    return layout


def validate_texts(
    texts: dict[str, str], source: str = "<memory>"
) -> tuple[BoardLayout | None, list[str]]:
    """Check a data directory's layout file (``clacks check-data``, as every game's data
    is checked); the layout if sound, and every problem found."""
    problems = Problems()
    docs = parse_files(texts, FILES, problems)
    layout = check_layout(docs[FILE], FILE, problems) if FILE in docs else None
    return (layout, []) if layout is not None else (None, problems.items)


def default_data_path() -> Path:
    return data_files.shipped_path(GAME)


def check_path(path: Path | None = None) -> list[str]:
    """Every problem with the Klackers data files in ``path`` (the shipped set when None)."""
    where = path or default_data_path()
    return data_files.check_directory(where, "Klackers", FILES, validate_texts)


def load_layout(path: Path | None = None, base: BoardLayout | None = None) -> BoardLayout:
    """The layout in the file ``path`` (default: the shipped one), the sections it leaves
    out taken from ``base`` if given; DataError naming every problem, or the file, when
    it cannot be used."""
    if path is None:
        return default_layout()
    return _read(path, base)


@cache
def default_layout() -> BoardLayout:
    return _read(default_data_path() / FILE)


def _read(path: Path, base: BoardLayout | None = None) -> BoardLayout:
    problems = Problems()
    doc = parse_toml(str(path), data_files.read_file(path), problems)
    layout = check_layout(doc, str(path), problems, base) if doc is not None else None
    if layout is None:
        raise DataError(problems.items)
    return layout
