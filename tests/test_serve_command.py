"""`clacks serve` as a user starts it: prints where to go and a QR code, then answers,
with the exchange board wired in (the simulator on this machine)."""

from __future__ import annotations

import json
import re
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from serve_process import serve_process


@contextmanager
def serving(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, str, str]]:
    """`clacks serve` on a free port, its saves in a directory of its own: (its output up
    to "Ctrl+C", base address, room code)."""
    with (
        tempfile.TemporaryDirectory(prefix="clacks-serve-") as saves,
        serve_process(Path(saves), *args, env=env) as served,
    ):
        yield served.text, served.base, served.code


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.loads(answer.read())


def test_serve_prints_the_address_and_a_qr_code_and_answers(tmp_path: Path) -> None:
    no_file = {"CLACKS_CONFIG": str(tmp_path / "none.toml")}  # the stock settings
    with serving(env=no_file) as (text, base, code):
        assert "▀" in text or "█" in text  # the QR code, drawn with block characters
        with urllib.request.urlopen(f"{base}/join/{code}", timeout=5) as page:
            assert page.status == 200 and code in page.read().decode()
        # the simulated exchange is attached: its status and its lamps reach the table
        hardware = get_json(f"{base}/api/rooms/{code}")["room"]["hardware"]
        assert hardware["leds"]["backend"] == "simulator" and hardware["warnings"] == []
        assert hardware["buttons"]["names"] and hardware["leds"]["running"]
        board = get_json(f"{base}/api/rooms/{code}/board")
        assert len(board["pixels"]) == 16 and board["leds"] == "simulator"


def test_a_led_driver_that_cannot_start_is_a_warning_and_the_table_plays_on(
    tmp_path: Path,
) -> None:
    settings = tmp_path / "config.toml"
    settings.write_text('[leds]\nbackend = "spi"\n')
    with serving("--config", str(settings), "--no-qr") as (text, base, code):
        assert "Warning: LED driver 'spi' unavailable" in text
        hardware = get_json(f"{base}/api/rooms/{code}")["room"]["hardware"]
        assert hardware["leds"]["requested"] == "spi"
        assert hardware["leds"]["backend"] == "simulator"
        assert any("LED driver 'spi' unavailable" in w for w in hardware["warnings"])
        pin = {"X-Table-Pin": re.search(r"Table PIN:\s+(\d+)", text).group(1)}  # type: ignore[union-attr]
        request = urllib.request.Request(
            f"{base}/api/rooms/{code}/game",
            data=json.dumps({"options": {"players": 2}}).encode(),
            headers={"Content-Type": "application/json", **pin},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 201
        press = urllib.request.Request(
            f"{base}/api/rooms/{code}/buttons/b2c2", headers=pin, method="POST"
        )
        with urllib.request.urlopen(press, timeout=5) as answer:
            assert json.loads(answer.read())["revision"] == 2  # the pawn moved


def test_the_names_it_answers_to_and_the_idle_time_of_tables_are_options(tmp_path: Path) -> None:
    with serving("--no-qr", "--allowed-host", "clacks.lan", "--table-idle", "0.0005") as (
        text,
        base,
        code,
    ):
        port = base.rsplit(":", 1)[1]
        for name, status in (("clacks.lan", 200), ("evil.example", 400)):
            request = urllib.request.Request(
                f"{base}/api/rooms/{code}", headers={"Host": f"{name}:{port}"}
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as answer:
                    assert answer.status == status
            except urllib.error.HTTPError as refused:
                assert refused.code == status == 400
                assert json.loads(refused.read())["error"] == "unknown_host"
        # a table opened and left alone closes by itself (here after under two seconds)
        pin = re.search(r"Table PIN:\s+(\d+)", text).group(1)  # type: ignore[union-attr]
        opened = urllib.request.Request(
            f"{base}/api/rooms", method="POST", headers={"X-Table-Pin": pin}
        )
        with urllib.request.urlopen(opened, timeout=5) as answer:
            other = json.loads(answer.read())["code"]
        deadline = time.monotonic() + 15
        while True:
            try:
                get_json(f"{base}/api/rooms/{other}")
            except urllib.error.HTTPError as gone:
                assert gone.code == 404
                break
            assert time.monotonic() < deadline, "the idle table never closed"
            time.sleep(0.2)
        assert get_json(f"{base}/api/rooms/{code}")["room"]["code"] == code
