"""How long ago this process was started: what a person waits for from typing the
command to the first page, interpreter start and imports included.

Read from the kernel's record of the process (/proc/self/stat's start time, in clock
ticks since boot, against /proc/uptime), so it counts from exec, before Python ran a
line; None where there is no /proc.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def seconds_since_exec(proc: Path = Path("/proc")) -> float | None:
    try:
        stat = (proc / "self" / "stat").read_text()
        uptime = float((proc / "uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    # the command name (field 2) may hold spaces and brackets: count from its end
    fields = stat[stat.rindex(")") + 2 :].split()
    try:
        started_ticks = int(fields[19])  # field 22, starttime
    except (IndexError, ValueError):
        return None
    return max(0.0, uptime - started_ticks / os.sysconf("SC_CLK_TCK"))


def ready_after(started: float) -> str:
    """How long the person waited: from exec (interpreter start and imports included)
    where the kernel says, else from when serving began to be set up."""
    since_exec = seconds_since_exec()
    if since_exec is not None:
        return f"{since_exec:.1f} s after it was started"
    return f"{(time.perf_counter() - started) * 1000:.0f} ms after setting up began"
