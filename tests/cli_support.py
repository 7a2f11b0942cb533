"""Shared by the command-line tests: `clacks simulate --json` run in this process, its
figures read back from what it printed."""

from __future__ import annotations

import json

import pytest

from clacks.cli import main


def simulated(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    """The figures `clacks simulate --json` with ``args`` prints; it must succeed."""
    assert main(["simulate", "--json", *args]) == 0
    figures: dict[str, object] = json.loads(capsys.readouterr().out)
    return figures
