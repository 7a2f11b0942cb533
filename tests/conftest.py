from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_support import browser, chromium, pages, playwright  # noqa: F401  (the browser tests' fixtures)
from live_server import LiveServer, companion


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with companion() as live:
        yield live
