"""./run mutate's own bookkeeping (tools/mutate.py): how it counts a game's mutants, and
that a mutant listed as equivalent in a game's mutation.toml is flagged once a test kills
it or mutmut no longer makes it, so the list of equivalents stays true."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def mutate_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate_tool", ROOT / "tools" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_listed_equivalent_that_is_killed_or_no_longer_made_is_flagged() -> None:
    tool = mutate_tool()
    listed = {name: "changes nothing" for name in ("lives", "killed", "gone", "loops")}
    scope = tool.GameScope("game", [], [], listed, [])
    codes = {"lives": 0, "killed": 1, "loops": 36, "other": 0, "caught": 3}
    assert tool.stale_equivalents(scope, codes) == {
        "killed": "a test kills it",
        "loops": "a test kills it",
        "gone": "mutmut makes no such mutant now",
    }
    counts, survivors = tool.tally(scope, codes)
    assert survivors == ["other"]  # the one listed that still survives is not a survivor
    assert (counts["equivalent"], counts["killed"], counts["timed out"]) == (1, 2, 1)
