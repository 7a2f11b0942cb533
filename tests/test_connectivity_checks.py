"""The phones' connectivity checks answered by the real server over HTTP, under the names
the box's DNS leads to it while the hotspot is on, and nothing else of the companion
under those names."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest
from live_server import LiveServer

from firmware.connectivity_checks import APPLE_SUCCESS, CHECKS, check_names


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    running = LiveServer()
    yield running
    running.close()


def ask(server: LiveServer, host: str, path: str, method: str = "GET") -> tuple[int, str, dict[str, str]]:
    port = int(server.base.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers={"Host": host, "User-Agent": "Dalvik/2.1.0"})
        answer = connection.getresponse()
        return answer.status, answer.read().decode(), dict(answer.getheaders())
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("host", "path", "status", "body"),
    [
        ("connectivitycheck.gstatic.com", "/generate_204", 204, ""),
        ("clients3.google.com", "/generate_204", 204, ""),
        ("connectivitycheck.android.com", "/generate_204", 204, ""),
        ("www.google.com", "/gen_204", 204, ""),
        ("captive.apple.com", "/hotspot-detect.html", 200, APPLE_SUCCESS),
        ("www.apple.com", "/library/test/success.html", 200, APPLE_SUCCESS),
        ("www.msftconnecttest.com", "/connecttest.txt", 200, "Microsoft Connect Test"),
        ("www.msftncsi.com", "/ncsi.txt", 200, "Microsoft NCSI"),
        ("detectportal.firefox.com", "/success.txt", 200, "success\n"),
        ("CAPTIVE.apple.com.:80", "/hotspot-detect.html", 200, APPLE_SUCCESS),
    ],
)
def test_each_check_gets_the_answer_its_os_expects(
    server: LiveServer, host: str, path: str, status: int, body: str
) -> None:
    got, text, headers = ask(server, host, path)
    assert (got, text) == (status, body)
    assert headers.get("Cache-Control") == "no-store"
    assert ask(server, host, path, "HEAD")[0] == status


def test_every_check_listed_is_answered(server: LiveServer) -> None:
    for check in CHECKS:
        for name in check.names:
            assert ask(server, name, check.path)[0] == check.status, (name, check.path)


@pytest.mark.parametrize("name", check_names())
def test_under_a_checks_name_nothing_else_of_the_companion_answers(
    server: LiveServer, name: str
) -> None:
    for path in ("/", f"/join/{server.code}", f"/table/{server.code}", "/api/openapi.json",
                 "/generate_204x", "/hotspot-detect.html/", "/static/table.js"):  # fmt: skip
        if any(path == c.path and name in c.names for c in CHECKS):
            continue
        status, text, _ = ask(server, name, path)
        assert status == 400 and json.loads(text)["error"] == "unknown_host", (name, path)
    # another check's path under this name is refused too
    other = [c.path for c in CHECKS if name not in c.names]
    status, _, _ = ask(server, name, other[0])
    assert status == 400


def test_under_the_companions_own_name_a_check_path_is_nothing(server: LiveServer) -> None:
    host = server.base.split("//", 1)[1]
    assert ask(server, host, "/generate_204")[0] == 404
    assert ask(server, host, "/hotspot-detect.html")[0] == 404
    assert ask(server, host, "/")[0] in (200, 302)  # the companion itself
