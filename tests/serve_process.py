"""`clacks serve` as its own process, started the way a user starts it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple


class Served(NamedTuple):
    text: str  # what it printed up to "Ctrl+C"
    base: str  # its address on loopback
    code: str  # the main table's room code
    pin: str  # the table PIN


@contextmanager
def serve_process(
    data_dir: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[Served]:
    """`clacks serve` on a free port with its saves in ``data_dir``, until the block ends;
    it must then stop cleanly."""
    command = [sys.executable, "-m", "clacks.cli", "serve", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--data-dir", str(data_dir), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    try:
        yield ready(process)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert process.returncode in (0, -15)


def ready(process: subprocess.Popen[str]) -> Served:
    """What `clacks serve` printed until it was ready, with its address, code and PIN."""
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or "Ctrl+C" not in lines[-1]:
        line = process.stdout.readline()
        assert line, "".join(lines)
        lines.append(line)
    text = "".join(lines)
    found = re.search(r"Phones join:\s+http://[\d.]+:(\d+)/join/([A-Z]{4})", text)
    pin = re.search(r"Table PIN:\s+(\d{6})", text)
    assert found and pin, text
    port, code = found.groups()
    return Served(text, f"http://127.0.0.1:{port}", code, pin.group(1))
