"""`clacks serve`'s ready time counts from exec: a process that waits before asking is
told at least that wait, and no more than it lived."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from web.process_age import seconds_since_exec

ROOT = Path(__file__).resolve().parent.parent
TICK_S = 0.01  # the kernel's clock tick: the start time's resolution


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc on this system")
def test_the_age_counts_from_exec_interpreter_start_included() -> None:
    before = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import time; time.sleep(0.4)\n"
            "from web.process_age import seconds_since_exec\n"
            "print(seconds_since_exec())",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    lived = time.monotonic() - before
    age = float(result.stdout)
    assert 0.4 - TICK_S <= age <= lived + TICK_S


def test_a_command_name_with_brackets_and_spaces_is_read_past(tmp_path: Path) -> None:
    (tmp_path / "self").mkdir()
    fields = ["S", *(["0"] * 18), "1500", *(["0"] * 30)]  # starttime: 1500 ticks
    (tmp_path / "self" / "stat").write_text(f"42 (clacks (x) y) {' '.join(fields)}\n")
    (tmp_path / "uptime").write_text("20.00 30.00\n")
    assert seconds_since_exec(tmp_path) == pytest.approx(20.0 - 1500 / os.sysconf("SC_CLK_TCK"))
    assert seconds_since_exec(tmp_path / "missing") is None
