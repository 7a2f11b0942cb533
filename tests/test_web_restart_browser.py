"""The table screen on the companion's own display across a restart, in a real browser
and a real `clacks serve` stopped and started again on the same port: each start makes
a new table PIN and screen key, so the page, handed the old ones, loads again to be
handed the new the first time the companion refuses them, and its controls work as
before, with nothing to type."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from browser_support import TV, Page
from serve_process import serve_process
from web_client import call

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_own_screen_gets_the_new_pin_after_a_restart(browser: Any, tmp_path: Path) -> None:
    port = str(free_port())
    own = Page(browser, "table", **TV)
    table = own.page
    try:
        with serve_process(tmp_path, "--host", "127.0.0.1", "--port", port, "--no-qr") as first:
            body = {"options": {"players": 2}}
            assert (
                call(first.base, "POST", f"/api/rooms/{first.code}/game", body, pin=first.pin)[0]
                == 201
            )
            table.goto(f"{first.base}/")
            table.wait_for_selector("#open-controls")
            assert table.evaluate("document.body.dataset.pin") == first.pin
        with serve_process(tmp_path, "--host", "127.0.0.1", "--port", port, "--no-qr") as again:
            assert again.pin != first.pin and again.base == first.base
            # the first control that needs the PIN is refused the old one: the page loads
            # again, handed the new one
            table.click("#open-controls")
            table.click("#open-saves")
            table.wait_for_function(f"() => document.body.dataset.pin === '{again.pin}'")
            assert table.query_selector("#pin-input") is None
            table.click("#open-controls")
            table.click("#open-saves")
            table.wait_for_selector("#saves li.save")
            assert own.errors == []
    finally:
        own.context.close()
