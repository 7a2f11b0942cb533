"""Every answer carries the security headers, and the pages live with their policy in a
real browser: the table screen and a phone run a game with the simulated board's lamps
and the QR code, nothing is refused, and no other site can frame a page."""

from __future__ import annotations

import http.client
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_support import PHONE, TV, Page
from live_server import LiveServer
from serve_process import serve_process
from test_web_log_browser import two_players_on_the_table
from web_client import EventStream

from web.app import CONTENT_SECURITY_POLICY

HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def headers_of(base: str, path: str) -> tuple[int, dict[str, str]]:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, dict(response.getheaders())


def test_every_kind_of_answer_carries_the_security_headers(server: LiveServer) -> None:
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    paths = [
        "/",
        f"/table/{server.code}",
        f"/join/{server.code}",
        f"/qr/{server.code}",
        "/static/js/common.js",
        f"/api/rooms/{server.code}",
        "/api/rooms/NONE",  # a refusal
        "/no/such/page",
    ]
    for path in paths:
        status, headers = headers_of(server.base, path)
        assert status < 500, path
        assert headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY, path
        for name, value in HEADERS.items():
            assert headers.get(name) == value, (path, name, headers.get(name))
    stream = EventStream(server.base, f"/api/rooms/{server.code}/stream")
    try:
        assert stream.status == 200
        head = stream.raw.split(b"\r\n\r\n", 1)[0].decode()
        assert "frame-ancestors 'none'" in head and "X-Frame-Options: DENY" in head
    finally:
        stream.sock.close()


@pytest.fixture
def elsewhere() -> Iterator[str]:
    """Another web site (another loopback address) whose page frames whatever its
    ``?src=`` names."""

    class Framing(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            src = self.path.split("src=", 1)[1] if "src=" in self.path else ""
            body = f'<!doctype html><iframe id="framed" src="{src}"></iframe>'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Framing)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.2:{site.server_address[1]}"
    finally:
        site.shutdown()
        site.server_close()


# Sixteen lamps drawn, in more than one colour: what the policy must let through.
LAMPS_IN_COLOURS = """() => {
  const colours = [...document.querySelectorAll("#led-grid .led")]
    .map((n) => getComputedStyle(n).backgroundColor);
  return colours.length === 16 && colours.every((c) => c !== "") && new Set(colours).size > 1;
}"""


def test_the_pages_live_with_their_policy_and_no_site_frames_them(
    browser: Any, tmp_path: Path, elsewhere: str
) -> None:
    table = Page(browser, "table", **TV)
    phone = Page(browser, "phone", **PHONE)
    try:
        with serve_process(tmp_path) as served:
            players = two_players_on_the_table(served, table, f"/table/{served.code}")
            phone.page.goto(f"{served.base}/join/{served.code}")
            players.play(4)
            # the QR code image loaded, and the lamps took their colours from the stream
            # under the policy (inline styles set through the style object): waited for as
            # read, since the stream's frames and the page's drawing run at their own pace
            table.page.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0")
            table.page.wait_for_function(LAMPS_IN_COLOURS)
            # framed by another site: the browser refuses to show the page
            framing = Page(browser, "framing", **TV)
            try:
                framing.page.goto(f"{elsewhere}/?src={served.base}/table/{served.code}")
                framing.page.wait_for_timeout(500)
                frame = framing.page.frame_locator("#framed")
                assert frame.locator("#room-code").count() == 0
                # the browser's own error page stands in; its inline images are base64,
                # where four random letters can occur, so read only what a person sees
                shown = framing.page.frames[-1]
                seen = shown.evaluate("document.body ? document.body.innerText : ''")
                assert served.code not in seen and served.pin not in seen, seen
            finally:
                framing.context.close()
            for page in (table, phone):
                assert page.errors == [], (page.name, page.errors)
    finally:
        table.context.close()
        phone.context.close()
