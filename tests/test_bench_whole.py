"""`clacks bench --quick --json` as a user runs it: every section (not the minutes-long
load test) in one run, each playing from the seat whose turn it is."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from clacks.bench import ON_REQUEST, SECTIONS

# a figure each section prints, by section
SECTION_FIGURES = {
    "engine": "engine_actions_per_s",
    "modes": "modes_junior_games_per_s",
    "klackers": "klackers_matches_per_s",
    "web": "web_action_to_pages_p50_ms",
    "hardware": "button_to_frame_p50_ms",
    "solver": "solver_p50_ms",
}


@pytest.mark.slow  # every section's own run, about a minute
def test_the_whole_quick_bench_prints_every_sections_figures() -> None:
    assert set(SECTION_FIGURES) <= {name for name, _ in SECTIONS if name not in ON_REQUEST}
    done = subprocess.run(
        [sys.executable, "-m", "clacks.cli", "bench", "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    for section, figure in SECTION_FIGURES.items():
        assert isinstance(figures.get(figure), int | float), (section, figure)
    assert figures["web_pages_open"] == 11
