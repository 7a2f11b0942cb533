"""No file the companion serves or runs holds a merge's conflict markers: a browser
would stop at the first one with a syntax error and the page would stay blank."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("engine", "firmware", "web", "clacks", "tests", "docs", "hardware", "systemd", ".ci")
SUFFIXES = {".py", ".js", ".css", ".html", ".json", ".toml", ".md", ".sh", ".service", ".txt"}
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)


def test_no_file_holds_conflict_markers() -> None:
    found = [
        str(path.relative_to(ROOT))
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in SUFFIXES
        and path.is_file()
        and MARKER.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, f"conflict markers in: {', '.join(found)}"
