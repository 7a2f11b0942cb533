"""Reading a game's directory of data files, shared by the games whose data is TOML
texts validated together (each game's own module says what the files must hold)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from engine.core.errors import DataError


def shipped_path(game: str) -> Path:
    """Where the data files shipped with the engine for ``game`` live."""
    return Path(str(resources.files("engine") / "data" / game))


def read_texts(path: Path, names: Iterable[str]) -> dict[str, str]:
    """The text of each file of ``names`` that ``path`` holds (a missing one is left for
    validation to name); DataError for one that is there but cannot be read."""
    texts: dict[str, str] = {}
    for name in names:
        try:
            texts[name] = (path / name).read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as exc:
            raise DataError([f"{name}: cannot be read ({exc})"]) from exc
    return texts


def read_file(path: Path) -> str:
    """The text of one data file, wherever it lies (a box's own layout); DataError
    naming it when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise DataError([f"{path}: cannot be read ({reason})"]) from exc


def check_directory(
    path: Path,
    title: str,
    names: Iterable[str],
    validate: Callable[[dict[str, str], str], tuple[Any, list[str]]],
) -> list[str]:
    """Every problem with the data files of ``title`` in ``path``."""
    if not path.is_dir():
        return [f"{path}: not a directory of {title} data files"]
    try:
        texts = read_texts(path, names)
    except DataError as exc:
        return exc.problems
    return validate(texts, str(path))[1]
