"""`clacks serve` as a user starts it: prints where to go and a QR code, then answers."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request


def test_serve_prints_the_address_and_a_qr_code_and_answers() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "clacks.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = []
        while not lines or "Ctrl+C" not in lines[-1]:
            line = process.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        text = "".join(lines)
        found = re.search(r"Phones join:\s+http://[\d.]+:(\d+)/join/([A-Z]{4})", text)
        assert found, text
        port, code = found.groups()
        assert "▀" in text or "█" in text  # the QR code, drawn with block characters
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/join/{code}", timeout=5) as page:
            assert page.status == 200 and code in page.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert process.returncode in (0, -15)
