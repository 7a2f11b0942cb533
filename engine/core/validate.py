"""Reading and checking data: the one way every game's data files and the box's settings
are read from TOML and checked.

A checker never stops at the first mistake: it adds each problem to a ``Problems``
with where it is (the file, then the entry, key or index within it) and goes on, so one
run of ``clacks check-data`` or one start of the box names every mistake in the files.
Reading the files stays with the caller (``engine.core.data_files``, the firmware's
settings loader), so everything here is pure.

Why our own and not a library: pydantic (2.x) and msgspec would each give typed
schemas, but most checks here are rules across entries (copies adding up to 48
Jacquards, a Fault Report's junior meaning, passages plus straights making the box's
Whytookis) that a schema library leaves to hand-written validators anyway, and the
messages must say what a player who edits a card file needs to hear. Measured on the
development machine (x86-64, CPython 3.11, three runs of ``/usr/bin/time`` over
``python -c`` defining and filling a one-field model, the machine busy): pydantic 2.13
adds about 0.3 s of CPU and 17.8 MB peak memory to the interpreter's start (13.4 MB,
0.2 s), most of it in ``pydantic.main`` (0.57 s cumulative under ``-X importtime``);
msgspec 0.22 adds about 0.03 s and 3.9 MB. A Pi Zero 2 W runs Python several times
slower on 512 MB shared with the web server, and on a 32-bit Raspberry Pi OS (armv7l)
PyPI has a pydantic-core wheel but no msgspec wheel, so msgspec would be a C build on
the Pi itself. This module needs only the standard library's ``difflib`` and
``tomllib`` (about 0.03 s and 0.8 MB, both loaded by the games already).
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Collection, Iterable
from typing import Any, TypeGuard


class Problems:
    """Every problem found, each prefixed with the file and the entry it concerns."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, file: str | None, entry: str | None, message: str) -> None:
        """``message`` about ``entry`` of ``file``; either may be left out (None or "")."""
        where = ": ".join(part for part in (file, entry) if part)
        self.items.append(f"{where}: {message}" if where else message)

    def unknown_keys(
        self,
        table: dict[str, Any],
        known: Collection[str],
        file: str | None,
        entry: str | None = None,
        exempt: Collection[str] = (),
        kind: str = "key",
    ) -> None:
        """A problem for every key of ``table`` not in ``known`` (a misspelt key would
        otherwise be ignored); ``exempt`` keys have their own, more precise problem."""
        for key in table:
            if key not in known and key not in exempt:
                self.add(file, entry, unknown_name(kind, key, known))


def did_you_mean(name: object, known: Collection[str]) -> str:
    """ "; did you mean 'x'?" naming the one of ``known`` closest to ``name``, if any is close."""
    close = difflib.get_close_matches(name, list(known), n=1) if isinstance(name, str) else []
    return f"; did you mean {close[0]!r}?" if close else ""


def unknown_name(kind: str, name: object, known: Collection[str]) -> str:
    """Says ``name`` is not one of ``known``, suggesting the closest where one is close."""
    hint = did_you_mean(name, known)
    return f"unknown {kind} {name!r}{hint} (known: {', '.join(sorted(known))})"


def whole(value: object) -> TypeGuard[int]:
    """A whole number, as TOML and JSON write one (True is not 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_toml(name: str, text: str, problems: Problems) -> dict[str, Any] | None:
    """The table in ``text`` (the file ``name``), or None with the problem added."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.add(name, None, f"not valid TOML ({exc})")
        return None


def parse_files(
    texts: dict[str, str], names: Iterable[str], problems: Problems, optional: Collection[str] = ()
) -> dict[str, dict[str, Any]]:
    """The table of each of ``names`` that parses; a problem for each that is missing
    (unless ``optional``) or is not TOML."""
    tables: dict[str, dict[str, Any]] = {}
    for name in names:
        text = texts.get(name)
        if text is None:
            if name not in optional:
                problems.add(name, None, "file is missing")
            continue
        table = parse_toml(name, text, problems)
        if table is not None:
            tables[name] = table
    return tables


def whole_in(
    value: object, low: int, high: int, file: str | None, entry: str | None, problems: Problems
) -> int | None:
    """``value`` when it is a whole number from ``low`` to ``high``; None with the problem
    added otherwise."""
    if value is None:
        problems.add(file, entry, "is missing")
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.add(file, entry, f"must be a whole number from {low} to {high}, not {value!r}")
        return None
    return value


def house_flag(table: dict[str, Any], file: str, problems: Problems, *, required: bool) -> bool:
    """A file's ``house`` flag: true when its values are the companion's own, not the
    rulebook's. A file may leave it out unless ``required``."""
    value = table.get("house", None if required else False)
    if not isinstance(value, bool):
        problems.add(file, "house", f"must be true (house values) or false, not {value!r}")
        return False
    return value
