"""The values printed on the cards the companion reckons with, and their checks.

The same checks read an owner's catalogue (engine/data/guards/*.toml) and the values a
player types on a phone the first time a card is touched: each problem names the field
and the allowed range. A Scroll's or Item's values may be known only in part (bought
face down: only the price is shown), so those fields are optional until used.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

DECKS = ("lords_ladies", "man_beast", "shades_shadows")
SKILLS = ("loyalty", "streetwise", "brawl", "toughness")  # a Volunteer's
ATTRIBUTES = ("magic", "guild", "charm")  # a player's, on the Guild Card
FLAGS = ("brethren", "wanted", "infectious", "fate")
NAME_MAX = 60

# field: (lowest, highest)
VOLUNTEER_RANGES: dict[str, tuple[int, int]] = {
    "charm": (1, 20),
    "bribe": (0, 30),
    "loyalty": (0, 12),
    "streetwise": (0, 12),
    "brawl": (0, 12),
    "toughness": (0, 12),
    "luggage": (0, 20),
    "dollars": (0, 20),
    "scrolls": (0, 3),
    "items": (0, 3),
    "anti_magic": (0, 3),
}
BONUS_RANGE = (-3, 3)
ITEM_BONUS_RANGE = (-5, 5)
PRICE_RANGE = (0, 30)
SCROLL_TARGET_RANGE = (1, 30)
DRAGON_RANGES = {"toughness": (1, 60), "brawl": (1, 30)}


def _fields(card: object) -> dict[str, Any]:
    out = {f.name: getattr(card, f.name) for f in fields(card)}  # type: ignore[arg-type]
    return {k: dict(v) if isinstance(v, dict) else v for k, v in out.items()}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Checker:
    """Collects the problems of one card's values, each naming its field."""

    def __init__(self, data: object, known: tuple[str, ...]) -> None:
        self.problems: list[str] = []
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        if not isinstance(data, dict):
            self.problems.append("the card's values must be a table of fields")
        for key in self.data:
            if key not in known:
                self.problems.append(f"unknown field {key!r} (fields: {', '.join(known)})")

    def name(self) -> str:
        value = self.data.get("name")
        if not isinstance(value, str) or not value.strip() or len(value.strip()) > NAME_MAX:
            self.problems.append(f"name must be text of 1 to {NAME_MAX} characters")
            return ""
        cleaned = "".join(ch for ch in value.strip() if ch.isprintable())
        return cleaned

    def number(self, key: str, span: tuple[int, int], default: int | None = 0) -> int:
        value = self.data.get(key, default)
        low, high = span
        if value is None and default is None:
            self.problems.append(f"{key} is missing (a whole number from {low} to {high})")
            return low
        if not _whole(value) or not low <= value <= high:  # type: ignore[operator]
            self.problems.append(f"{key} must be a whole number from {low} to {high}, not {value!r}")
            return low
        assert isinstance(value, int)
        return value

    def optional(self, key: str, span: tuple[int, int]) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.number(key, span)

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            self.problems.append(f"{key} must be true or false, not {value!r}")
            return False
        return value

    def bonuses(self, key: str, names: tuple[str, ...], span: tuple[int, int]) -> dict[str, int]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            self.problems.append(f"{key} must be a table of {', '.join(names)}")
            return {}
        out: dict[str, int] = {}
        for name, amount in value.items():
            if name not in names:
                self.problems.append(f"{key}.{name}: not one of {', '.join(names)}")
            elif not _whole(amount) or not span[0] <= amount <= span[1]:
                self.problems.append(
                    f"{key}.{name} must be a whole number from {span[0]} to {span[1]}, not {amount!r}"
                )
            elif amount:
                out[name] = amount
        return out


@dataclass(frozen=True)
class Volunteer:
    name: str
    deck: str
    charm: int
    bribe: int | None  # None: 'X', cannot be bribed
    loyalty: int
    streetwise: int
    brawl: int
    toughness: int
    luggage: int = 0
    bonus: dict[str, int] = field(default_factory=dict)  # magic, guild, charm
    dollars: int = 0
    scrolls: int = 0
    items: int = 0
    anti_magic: int = 0
    brethren: bool = False
    wanted: bool = False
    infectious: bool = False
    fate: bool = False

    FIELDS = (
        "name", "deck", "charm", "bribe", *SKILLS, "luggage", "bonus", "dollars", "scrolls",
        "items", "anti_magic", *FLAGS,
    )  # fmt: skip

    def skill(self, name: str) -> int:
        value: int = getattr(self, name)
        return value

    def to_json(self) -> dict[str, Any]:
        return _fields(self)


@dataclass(frozen=True)
class Scroll:
    name: str | None
    price: int | None  # None: not known (a card given free, as a Volunteer's +1 Scroll)
    target: int | None  # the Magic target, typed when first cast

    FIELDS = ("name", "price", "target")

    def to_json(self) -> dict[str, Any]:
        return _fields(self)


@dataclass(frozen=True)
class Item:
    name: str | None
    price: int | None
    bonus: dict[str, int] | None  # Volunteer skills it adds to; None until typed

    FIELDS = ("name", "price", "bonus")

    def to_json(self) -> dict[str, Any]:
        return _fields(self)


@dataclass(frozen=True)
class Dragon:
    name: str
    toughness: int
    brawl: int

    FIELDS = ("name", "toughness", "brawl")

    def to_json(self) -> dict[str, Any]:
        return _fields(self)


def read_volunteer(data: object, extra: tuple[str, ...] = ()) -> tuple[Volunteer | None, list[str]]:
    """A Volunteer from its fields (``extra`` are keys a file adds, such as ``id``)."""
    check = Checker(data, (*Volunteer.FIELDS, *extra))
    name = check.name()
    deck = check.data.get("deck")
    if deck not in DECKS:
        check.problems.append(f"deck must be one of {', '.join(DECKS)}, not {deck!r}")
    numbers = {
        key: check.number(key, span, None if key in ("charm", *SKILLS) else 0)
        for key, span in VOLUNTEER_RANGES.items()
        if key != "bribe"
    }
    bribe = check.optional("bribe", VOLUNTEER_RANGES["bribe"])
    bonus = check.bonuses("bonus", ATTRIBUTES, BONUS_RANGE)
    flags = {key: check.flag(key) for key in FLAGS}
    if check.problems:
        return None, check.problems
    assert isinstance(deck, str)
    fields: dict[str, Any] = {**numbers, **flags}
    return Volunteer(name=name, deck=deck, bribe=bribe, bonus=bonus, **fields), []


def read_scroll(data: object, extra: tuple[str, ...] = (), need_target: bool = False) -> tuple[Scroll | None, list[str]]:
    check = Checker(data, (*Scroll.FIELDS, *extra))
    name = check.name() if check.data.get("name") is not None else None
    price = check.optional("price", PRICE_RANGE)
    target = check.optional("target", SCROLL_TARGET_RANGE)
    if need_target and target is None and "target" not in check.data:
        check.problems.append(
            f"target is missing (the Magic target, {SCROLL_TARGET_RANGE[0]} to {SCROLL_TARGET_RANGE[1]})"
        )
    if check.problems:
        return None, check.problems
    return Scroll(name or None, price, target), []


def read_item(data: object, extra: tuple[str, ...] = ()) -> tuple[Item | None, list[str]]:
    check = Checker(data, (*Item.FIELDS, *extra))
    name = check.name() if check.data.get("name") is not None else None
    price = check.optional("price", PRICE_RANGE)
    bonus = (
        check.bonuses("bonus", SKILLS, ITEM_BONUS_RANGE) if check.data.get("bonus") is not None else None
    )
    if check.problems:
        return None, check.problems
    return Item(name or None, price, bonus), []


def read_dragon(data: object, extra: tuple[str, ...] = ()) -> tuple[Dragon | None, list[str]]:
    check = Checker(data, (*Dragon.FIELDS, *extra))
    name = check.name()
    numbers = {key: check.number(key, span, None) for key, span in DRAGON_RANGES.items()}
    if check.problems:
        return None, check.problems
    return Dragon(name, **numbers), []
