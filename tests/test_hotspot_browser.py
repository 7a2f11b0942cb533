"""The table screen's Wi-Fi QR code, read off the screen by a camera's decoder, with the
hotspot turned on by the real `clacks hotspot on` against a fake `nmcli`."""

from __future__ import annotations

import http.client
import io
import socket
from pathlib import Path
from typing import Any

import pytest
from browser_support import BOX, SCREENSHOTS, TEXT_SIZES, TV, Page, read_one
from fake_nmcli import install
from live_server import LiveServer
from test_hotspot import unescape_wifi

from clacks.cli import main

SSID = 'Mended Drum; "Bar":2'  # every character the WIFI: format reserves
PASSWORD = "gnu,terry:pratchett\\"


def decode(page: Any, css: str) -> list[str]:
    import zxingcpp
    from PIL import Image

    page.wait_for_function(
        "css => { const img = document.querySelector(css); return img.complete && img.naturalWidth > 0; }",
        arg=css,
    )
    picture = Image.open(io.BytesIO(page.locator(css).screenshot()))
    return [result.text for result in zxingcpp.read_barcodes(picture)]


def table_page_as_another_machine(server: LiveServer) -> str:
    """The table page asked for by the box's own name, as a phone or laptop asks for it."""
    port = int(server.base.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        name = socket.gethostname()
        connection.request("GET", f"/table/{server.code}", headers={"Host": f"{name}:{port}"})
        answer = connection.getresponse()
        assert answer.status == 200
        return answer.read().decode()
    finally:
        connection.close()


def open_table(tv: Page, server: LiveServer) -> None:
    """The table screen with a game set up, its new-game dialog closed."""
    tv.page.goto(server.url("/"))
    tv.page.click("dialog button[type=submit]")
    tv.wait_revision(1)


def test_the_table_screen_shows_the_wifi_qr_beside_the_join_qr(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = install(tmp_path / "bin", monkeypatch)
    state = tmp_path / "state"
    arguments = ["on", "--ssid", SSID, "--password", PASSWORD]
    assert main(["hotspot", "--data-dir", str(state), *arguments]) == 0
    server = LiveServer(data_dir=state)
    tv = Page(browser, "tv", **TV)
    try:
        page = tv.page
        open_table(tv, server)
        wifi = decode(page, "img.wifi-qr")
        assert len(wifi) == 1 and unescape_wifi(wifi[0]) == {"T": "WPA", "S": SSID, "P": PASSWORD}
        assert page.inner_text("#wifi-ssid") == SSID

        # the next scan opens the table at the box's address on its own network
        port = server.base.rsplit(":", 1)[1]
        join = f"http://10.42.0.1:{port}/join/{server.code}"
        assert decode(page, "img.qr") == [join]
        assert page.inner_text("#short-url") == f"10.42.0.1:{port}/join"

        # beside each other, inside the join panel, and readable from the sofa
        wifi_box = read_one(page, "img.wifi-qr", BOX)
        join_box = read_one(page, "img.qr", BOX)
        panel = read_one(page, "aside.join", BOX)
        assert wifi_box[2] <= join_box[0] and abs(wifi_box[1] - join_box[1]) < 2
        assert panel[0] <= wifi_box[0] and join_box[2] <= panel[2]
        assert min(page.evaluate(TEXT_SIZES))[0] >= 28
        assert tv.errors == []
        if SCREENSHOTS:
            page.locator("aside.join").screenshot(path=f"{SCREENSHOTS}/table-wifi-qr.png")

        # a page anyone on a network with the box can fetch never carries the password
        elsewhere = table_page_as_another_machine(server)
        assert "wifi-qr" not in elsewhere and "pratchett" not in elsewhere
        assert "10.42.0.1" in elsewhere  # the join address still is the hotspot's
        assert len([c for c in fake.calls() if c[0] == "nmcli"]) > 0
    finally:
        tv.context.close()
        server.close()


def test_no_wifi_qr_while_the_hotspot_is_off(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path / "bin", monkeypatch)
    state = tmp_path / "state"
    assert main(["hotspot", "--data-dir", str(state), "on", "--password", PASSWORD]) == 0
    assert main(["hotspot", "--data-dir", str(state), "off"]) == 0
    server = LiveServer(data_dir=state)
    tv = Page(browser, "tv", **TV)
    try:
        open_table(tv, server)
        assert tv.page.locator("img.wifi-qr").count() == 0
        assert decode(tv.page, "img.qr") == [server.url(f"/join/{server.code}")]
    finally:
        tv.context.close()
        server.close()
