from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from live_server import LiveServer


@pytest.fixture
def server() -> Iterator[LiveServer]:
    live = LiveServer()
    try:
        yield live
    finally:
        live.close()
