"""Klackers on the box's lamps and buttons, from engine/data/klackers/layout.toml.

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

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.box import BUTTONS, LAMP_NAMES, lamp_index
from engine.core.errors import DataError
from engine.core.interface import LampFrame
from engine.klackers.numbers import ALL_STANDING, NUMBERS, numbers_of
from engine.klackers.state import KlackersState

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "klackers" / "layout.toml"
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


def layout_problems(data: object) -> list[str]:
    """Every mistake in a layout table, each naming the key it concerns."""
    if not isinstance(data, dict):
        return ["the layout must be a table"]
    problems = [f"unknown section [{k}]" for k in data if k not in ("numbers", "dice", "buttons")]
    used: dict[str, str] = {}

    def lamp(value: object, where: str) -> None:
        if not isinstance(value, str) or value not in LAMP_NAMES:
            problems.append(f"{where}: {value!r} is not a lamp (a1 to d4)")
        elif value in used:
            problems.append(f"{where}: lamp {value} is already {used[value]}")
        else:
            used[value] = where

    numbers = data.get("numbers")
    if not isinstance(numbers, dict):
        problems.append("[numbers] is missing: the lamp of each number 1 to 9")
    else:
        for key in numbers:
            if key not in MEANINGS[:9]:
                problems.append(f"numbers.{key}: the numbers are 1 to 9")
        for n in NUMBERS:
            if str(n) not in numbers:
                problems.append(f"numbers.{n} is missing")
            else:
                lamp(numbers[str(n)], f"numbers.{n}")
    dice = data.get("dice")
    lamps = dice.get("lamps") if isinstance(dice, dict) else None
    if not isinstance(lamps, list) or len(lamps) != DICE_LAMPS:
        problems.append(f"dice.lamps must list {DICE_LAMPS} lamps (the total in binary)")
    else:
        for i, value in enumerate(lamps):
            lamp(value, f"dice.lamps[{i}]")
    buttons = data.get("buttons")
    if not isinstance(buttons, dict):
        problems.append("[buttons] is missing: what each button does")
    else:
        meant: dict[str, str] = {}
        for button, meaning in buttons.items():
            if button not in BUTTONS:
                problems.append(f"buttons.{button}: no such button ({', '.join(BUTTONS)})")
            if not isinstance(meaning, str) or meaning not in MEANINGS:
                problems.append(
                    f"buttons.{button}: {meaning!r} is not a number 1-9 or one of "
                    f"{', '.join(CONTROLS)}"
                )
            elif meaning in meant:
                problems.append(f"buttons.{button}: {meaning} is already on {meant[meaning]}")
            else:
                meant[meaning] = button
    return problems


def layout_from_data(data: object) -> BoardLayout:
    problems = layout_problems(data)
    if problems:
        raise DataError(problems)
    assert isinstance(data, dict)
    return BoardLayout(
        numbers=tuple(lamp_index(data["numbers"][str(n)]) for n in NUMBERS),
        dice=tuple(lamp_index(name) for name in data["dice"]["lamps"]),
        buttons=tuple((str(b), str(m)) for b, m in data["buttons"].items()),
    )


def load_layout(path: Path | None = None) -> BoardLayout:
    """The layout in ``path`` (default: the shipped one); DataError naming every
    problem, or the file, when it cannot be used."""
    if path is None:
        return default_layout()
    return _read(path)


@cache
def default_layout() -> BoardLayout:
    return _read(DEFAULT_PATH)


def _read(path: Path) -> BoardLayout:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError([f"{path}: cannot be read ({exc.strerror or exc})"]) from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError([f"{path}: not valid TOML ({exc})"]) from exc
    try:
        return layout_from_data(data)
    except DataError as exc:
        raise DataError([f"{path}: {p}" for p in exc.problems]) from None
