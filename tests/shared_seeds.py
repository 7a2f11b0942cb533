"""The project's shared references beside the checkout (the rulebooks the tests quote),
found the same way by every test that reads one."""

from __future__ import annotations

from pathlib import Path


def seed_text(name: str) -> str | None:
    """The shared reference file ``name`` (``shared/seeds/`` in a folder above the
    checkout), or None where the checkout stands alone."""
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "seeds" / name
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    return None
