"""Who may do what, over real HTTP: requests from other web sites are refused, the table
page is handed the PIN only on the companion's own screen, wrong PINs are throttled."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
from typing import Any
from urllib.parse import urlsplit

import pytest
from live_server import LiveServer
from test_web_api import claim, start
from web_client import call

from web.errors import ApiError
from web.hosts import own_addresses
from web.local_peer import connection_user
from web.security import (
    ALL_FREE_FAILURES,
    DAY_FAILURES,
    DAY_SECONDS,
    FREE_FAILURES,
    LOCK_MAX_SECONDS,
    PIN_HEADER,
    QUIET_SECONDS,
    SCREEN_KEY_HEADER,
    PinGuard,
    is_own_screen,
    new_token,
    token_digest,
    token_matches,
)


def test_requests_from_other_sites_may_not_change_anything(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south")
    host = server.base.removeprefix("http://")
    path = f"/api/rooms/{server.code}/seats/south/actions"
    move = {"action": {"type": "move", "tower": "b2c2"}}
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": f"http://{host}", "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ):
        status, body = call(server.base, "POST", path, move, token=token, headers=headers)
        assert status == 403 and body["error"] == "cross_site", headers
    status, body = call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/seats/west",
        {},
        headers={"Origin": "http://x"},
    )
    assert status == 403
    assert server.room.revision == 1 and "west" not in server.room.seats.claims
    # reading is not refused, and the page's own requests go through
    status, _ = call(
        server.base, "GET", f"/api/rooms/{server.code}", headers={"Origin": "http://x"}
    )
    assert status == 200
    same = {"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"}
    assert call(server.base, "POST", path, move, token=token, headers=same)[0] == 200


def test_the_table_page_gets_the_pin_only_on_the_companions_own_screen(
    server: LiveServer,
) -> None:
    port = server.base.rsplit(":", 1)[1]
    page = f"/table/{server.code}"
    status, own = call(server.base, "GET", page, headers={"Host": f"127.0.0.1:{port}"})
    assert status == 200 and f'data-pin="{server.pin}"' in own
    status, local = call(server.base, "GET", page, headers={"Host": f"localhost:{port}"})
    assert f'data-pin="{server.pin}"' in local
    # a name that the companion answers to from elsewhere does not get it
    own_name = socket.gethostname().split(".")[0]
    status, named = call(server.base, "GET", page, headers={"Host": f"{own_name}.local:{port}"})
    assert status == 200 and server.pin not in named and 'data-pin=""' in named
    assert server.hub.screen_key in own and server.hub.screen_key not in named
    assert is_own_screen("127.0.0.1", "[::1]:8000") and is_own_screen("::1", "localhost")
    assert not is_own_screen("192.168.1.7", "localhost:8000")
    assert not is_own_screen("127.0.0.1", "clacks.local")


# A request from another user of this machine: url, Host and headers in, status and body out.
AS_ANOTHER_USER = """
import json, sys, urllib.error, urllib.request
url, host, headers = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
asked = urllib.request.Request(url, headers={"Host": host, **headers})
try:
    with urllib.request.urlopen(asked) as answer:
        print(answer.status, answer.read().decode())
except urllib.error.HTTPError as refused:
    print(refused.code, refused.read().decode())
"""


NOBODY = 65534


def as_another_user(url: str, host: str, headers: dict[str, str]) -> tuple[int, str]:
    # a Python every user may run (this one may be under root's home)
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    done = subprocess.run(
        [python, "-c", AS_ANOTHER_USER, url, host, json.dumps(headers)],
        user=NOBODY,
        capture_output=True,
        text=True,
        check=True,
    )
    status, _, body = done.stdout.partition(" ")
    return int(status), body


def test_another_user_of_the_machine_is_not_the_companions_own_screen(
    server: LiveServer,
) -> None:
    """On a shared machine every user reaches the companion over loopback: only its own
    user (or the one at the machine's display) is its own screen. Another user's table
    page is handed neither the PIN nor the screen key, and the screen key, were it
    known, opens nothing for them."""
    if os.geteuid() != 0:
        pytest.skip("asking as another user of this machine needs root")
    host = f"localhost:{server.base.rsplit(':', 1)[1]}"
    status, own = call(server.base, "GET", f"/table/{server.code}", headers={"Host": host})
    assert status == 200 and f'data-pin="{server.pin}"' in own  # the companion's user
    status, page = as_another_user(f"{server.base}/table/{server.code}", host, {})
    assert status == 200 and 'data-pin=""' in page, status
    assert server.pin not in page and server.hub.screen_key not in page
    saves = f"{server.base}/api/rooms/{server.code}/saves"
    status, refused = as_another_user(saves, host, {SCREEN_KEY_HEADER: server.hub.screen_key})
    assert status == 403 and json.loads(refused)["error"] == "pin_required", refused
    status, _ = as_another_user(saves, host, {PIN_HEADER: server.pin})
    assert status == 200


@pytest.mark.parametrize(
    ("family", "listen", "connect"),
    [
        (socket.AF_INET, "127.0.0.1", "127.0.0.1"),
        (socket.AF_INET6, "::1", "::1"),
        (socket.AF_INET6, "::", "127.0.0.1"),  # a dual-stack server: ::ffff:127.0.0.1
    ],
)
def test_the_socket_table_names_the_user_of_each_kind_of_loopback_connection(
    family: socket.AddressFamily, listen: str, connect: str
) -> None:
    with socket.socket(family) as server:
        try:
            server.bind((listen, 0))
        except OSError as exc:
            pytest.skip(f"this machine has no {listen} to listen on: {exc}")
        server.listen()
        client_family = socket.AF_INET if "." in connect else socket.AF_INET6
        with socket.socket(client_family) as client:
            client.connect((connect, server.getsockname()[1]))
            accepted, peer = server.accept()
            with accepted:
                assert connection_user(peer[0], peer[1]) == os.geteuid()
    assert connection_user("not an address", 80) is None


def test_a_name_that_is_not_the_companions_gets_nothing() -> None:
    server = LiveServer(allowed_hosts=["clacks.example"])
    try:
        start(server)
        port = server.base.rsplit(":", 1)[1]
        # DNS rebinding: a page at evil.example points its name at the companion, and the
        # browser's requests look same-origin but for the name they are addressed to
        rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        for method, path in (
            ("POST", f"/api/rooms/{server.code}/seats/south"),
            ("GET", f"/api/rooms/{server.code}"),
            ("GET", f"/table/{server.code}"),
            ("GET", f"/api/rooms/{server.code}/stream"),
        ):
            status, body = call(server.base, method, path, {}, headers=rebound)
            assert status == 400 and body["error"] == "unknown_host", (path, body)
        assert server.room.seats.claims == {}
        # its own names and addresses, and the names it was given, are answered
        own_name = socket.gethostname().lower()
        addresses = [str(a) for a in own_addresses()]
        names = ["localhost", "127.0.0.1", "[::1]", own_name, f"{own_name.split('.')[0]}.local"]
        names += ["clacks.example", "CLACKS.example."]
        names += [f"[{a}]" if ":" in a else a for a in addresses if "%" not in a]
        for name in names:
            headers = {"Host": f"{name}:{port}", "Origin": f"http://{name}:{port}"}
            status, body = call(server.base, "GET", f"/api/rooms/{server.code}", headers=headers)
            assert status == 200, (name, body)
        status, body = call(
            server.base,
            "POST",
            f"/api/rooms/{server.code}/seats/south",
            {},
            headers={"Host": f"clacks.example:{port}", "Origin": f"http://clacks.example:{port}"},
        )
        assert status == 200 and body["token"]
    finally:
        server.close()


def test_wrong_pins_lock_a_device_out_for_a_while() -> None:
    now = [1000.0]
    guard = PinGuard(clock=lambda: now[0])
    phone = "192.168.1.50"
    for _ in range(FREE_FAILURES):
        with pytest.raises(ApiError) as wrong:
            guard.check("123456", "000000", phone)
        assert wrong.value.status == 403 and wrong.value.code == "bad_pin"
    with pytest.raises(ApiError):
        guard.check("123456", "000001", phone)  # the first failure past the free ones locks
    with pytest.raises(ApiError) as locked:
        guard.check("123456", "123456", phone)  # even the right PIN, while locked
    assert locked.value.status == 429 and locked.value.code == "pin_locked"
    guard.check("123456", "123456", "192.168.1.51")  # another device is not locked
    now[0] += 31
    guard.check("123456", " 123456 ", phone)
    with pytest.raises(ApiError) as missing:
        guard.check("123456", None, phone)
    assert missing.value.code == "pin_required"


def test_the_companions_own_machine_is_locked_out_like_any_device(server: LiveServer) -> None:
    path = f"/api/rooms/{server.code}/saves"
    for _ in range(FREE_FAILURES + 1):
        status, body = call(server.base, "GET", path, pin="999999x")
        assert status == 403 and body["error"] == "bad_pin"
    status, body = call(server.base, "GET", path, pin=server.pin)  # even the right one
    assert status == 429 and body["error"] == "pin_locked" and body["params"]["seconds"] > 0


def pin_from(server: LiveServer, device: str, pin: str) -> tuple[int, Any]:
    """The list of saved games asked for with ``pin``, from loopback address ``device``."""
    parts = urlsplit(server.base)
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=10, source_address=(device, 0)
    )
    connection.request("GET", f"/api/rooms/{server.code}/saves", headers={"X-Table-Pin": pin})
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    return response.status, body


def test_a_program_on_the_companion_changing_its_loopback_address_is_still_locked_out(
    server: LiveServer,
) -> None:
    # any of 127.0.0.0/8 reaches the companion: every one is the same device
    devices = [f"127.0.0.{n}" for n in range(2, 2 + FREE_FAILURES + 2)]
    for device in devices[: FREE_FAILURES + 1]:
        status, body = pin_from(server, device, "999999")
        assert status == 403 and body["error"] == "bad_pin", (device, body)
    status, body = pin_from(server, devices[-1], server.pin)  # even the right one
    assert status == 429 and body["error"] == "pin_locked", body


def test_changing_address_buys_no_more_guesses() -> None:
    now = [1000.0]
    guard = PinGuard(clock=lambda: now[0])
    # every loopback address is one device, and so is every address of an IPv6 network
    for addresses in (
        [f"127.0.0.{n}" for n in range(2, 10)],
        [f"2001:db8:0:1::{n:x}" for n in range(1, 9)],
    ):
        for address in addresses[: FREE_FAILURES + 1]:
            with pytest.raises(ApiError):
                guard.check("123456", "000000", address)
        with pytest.raises(ApiError) as locked:
            guard.check("123456", "123456", addresses[-1])
        assert locked.value.code == "pin_locked"
    now[0] += 3600 * 2
    guard = PinGuard(clock=lambda: now[0])
    # a new address for every guess: all devices together have a budget, then everyone
    # but the companion's own screen is locked out, for longer each time
    guesses = iter(f"10.0.{n // 250}.{n % 250}" for n in range(10**6))
    for _ in range(ALL_FREE_FAILURES):
        with pytest.raises(ApiError) as wrong:
            guard.check("123456", "000000", next(guesses))
        assert wrong.value.code == "bad_pin"
    with pytest.raises(ApiError):
        guard.check("123456", "000001", next(guesses))
    with pytest.raises(ApiError) as everyone:
        guard.check("123456", "123456", next(guesses))
    assert everyone.value.status == 429 and everyone.value.code == "table_locked"
    first = everyone.value.params["seconds"]
    guard.check("123456", "123456", "127.0.0.1", own_screen=True)
    now[0] += first
    guard.check("123456", "123456", next(guesses))  # the lock is over
    with pytest.raises(ApiError):
        guard.check("123456", "000002", next(guesses))
    with pytest.raises(ApiError) as again:
        guard.check("123456", "123456", next(guesses))
    assert again.value.code == "table_locked" and again.value.params["seconds"] > first
    # over a day from ever new addresses, only a few hundred guesses get through
    tried = 0
    for _ in range(24 * 60):
        now[0] += 60
        for _ in range(100):
            try:
                guard.check("123456", "000003", next(guesses))
            except ApiError as exc:
                tried += exc.code == "bad_pin"
    assert tried < 600, tried


def test_seat_tokens_are_kept_only_as_digests(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south")
    claimed = server.room.seats.claims["south"]
    assert claimed.digest == token_digest(token) and token not in repr(vars(claimed))
    assert token_matches(claimed.digest, token)
    assert not token_matches(claimed.digest, new_token())
    assert not token_matches(claimed.digest, None) and not token_matches(claimed.digest, "x" * 300)
    assert len(token) >= 24


def test_moving_a_seat_gives_the_new_device_its_own_token_and_the_old_one_none(
    server: LiveServer,
) -> None:
    start(server)
    old = claim(server, "south")
    seat = f"/api/rooms/{server.code}/seats/south"
    assert call(server.base, "POST", f"{seat}/move", {}, token="a-guess")[0] == 403
    status, first = call(server.base, "POST", f"{seat}/move", {}, token=old)
    assert status == 200 and first["expires_in"] > 0 and first["ticket"] != old
    # a newer ticket voids the last; the ticket works once, on its own seat only
    status, ticket = call(server.base, "POST", f"{seat}/move", {}, token=old)
    for used, where in ((first, seat), (ticket, f"/api/rooms/{server.code}/seats/north")):
        status, body = call(server.base, "POST", where, {"ticket": used["ticket"]})
        assert status == 403 and body["error"] == "bad_ticket", body
    status, ticket = call(server.base, "POST", f"{seat}/move", {}, token=old)
    assert status == 200
    status, moved = call(server.base, "POST", seat, {"ticket": ticket["ticket"]})
    assert status == 200 and moved["seat"] == "south" and moved["token"] not in (old, ticket)
    move = {"action": {"type": "move", "tower": "b2c2"}}
    status, body = call(server.base, "POST", f"{seat}/actions", move, token=old)
    assert status == 403 and body["error"] == "bad_token"
    assert call(server.base, "POST", f"{seat}/actions", move, token=moved["token"])[0] == 200
    status, body = call(server.base, "POST", seat, {"ticket": ticket["ticket"]})
    assert status == 403 and body["error"] == "bad_ticket"
    # only its digest is kept, and a ticket asked for by a token that lost the seat is void
    assert ticket["ticket"] not in repr(vars(server.room.seats))
    status, stale = call(server.base, "POST", f"{seat}/move", {}, token=moved["token"])
    assert call(server.base, "DELETE", seat, pin=server.pin)[0] == 200
    claim(server, "south")
    status, body = call(server.base, "POST", seat, {"ticket": stale["ticket"]})
    assert status == 403 and body["error"] == "bad_ticket"


def test_waiting_out_every_lock_buys_no_fresh_budget_of_guesses() -> None:
    """An attacker with a new address for every guess, guessing the moment each lock of
    all devices ends, day after day: the budget never resets itself when the lock reaches
    its longest, so a day gets about as many guesses as one device's, not hundreds."""
    now = [1000.0]
    guard = PinGuard(clock=lambda: now[0])
    guesses = iter(f"10.1.{n // 250}.{n % 250}" for n in range(10**6))
    per_day: list[int] = []
    for _day in range(3):
        tried = 0
        day_ends = now[0] + 24 * 3600
        while now[0] < day_ends:
            try:
                guard.check("123456", "000000", next(guesses))
            except ApiError as exc:
                if exc.code == "bad_pin":
                    tried += 1
                    continue
                assert exc.code == "table_locked"
                now[0] += exc.params["seconds"]  # wait out the lock, then guess again
        per_day.append(tried)
    assert per_day[0] <= ALL_FREE_FAILURES + 8 + 24, per_day
    assert all(tried <= 26 for tried in per_day[1:]), per_day
    # the companion's own screen typing the right PIN got in all along
    guard.check("123456", "123456", "127.0.0.1", own_screen=True)
    # only a quiet spell measured from the last wrong PIN makes the budget whole again
    assert QUIET_SECONDS > LOCK_MAX_SECONDS
    now[0] += QUIET_SECONDS
    for _ in range(ALL_FREE_FAILURES):
        with pytest.raises(ApiError) as wrong:
            guard.check("123456", "000000", next(guesses))
        assert wrong.value.code == "bad_pin"


def test_a_thousand_addresses_get_at_most_35_guesses_in_any_day() -> None:
    """An attacker with 1,000 addresses guessing in turn from each, every few seconds or
    the moment a lock ends, for three days on the checker's own clock: in no 24 hours
    are more than 35 PINs compared, and the owner typing the PIN at the companion's own
    screen gets in all along."""
    assert DAY_FAILURES == 35
    now = [1000.0]
    guard = PinGuard(clock=lambda: now[0])
    addresses = [f"10.2.{n // 250}.{n % 250}" for n in range(1000)]
    compared: list[float] = []
    turn = 0
    ends = now[0] + 3 * DAY_SECONDS
    while now[0] < ends:
        address = addresses[turn % len(addresses)]
        turn += 1
        try:
            guard.check("123456", f"{turn % 10**6:06d}", address)
        except ApiError as exc:
            if exc.code == "bad_pin":
                compared.append(now[0])
            else:
                assert exc.code in ("table_locked", "pin_locked"), exc.code
                if exc.code == "table_locked":
                    now[0] += exc.params["seconds"]  # guess again the moment it ends
        now[0] += 5.0
        if turn % 500 == 0:
            guard.check("123456", "123456", "127.0.0.1", own_screen=True)
    assert len(compared) > 60, "the attack ran for three days"
    in_any_day = max(
        sum(1 for t in compared if start <= t < start + DAY_SECONDS) for start in compared
    )
    assert in_any_day <= DAY_FAILURES, in_any_day


def test_the_companions_own_screen_keeps_its_controls_while_its_machine_guesses(
    server: LiveServer,
) -> None:
    port = server.base.rsplit(":", 1)[1]
    status, page = call(server.base, "GET", f"/table/{server.code}")
    assert status == 200
    key = page.split('data-screen-key="', 1)[1].split('"', 1)[0]
    # the guard's clock held still, so the lock outlasts the test on a loaded machine
    # (it would end after LOCK_SECONDS of the test's own time)
    held = server.hub.pins.clock()
    server.hub.pins.clock = lambda: held
    # a program on the companion guesses from loopback addresses until locked out
    for n in range(FREE_FAILURES + 1):
        pin_from(server, f"127.0.0.{40 + n}", "999999")
    status, body = pin_from(server, "127.0.0.50", server.pin)
    assert status == 429 and body["error"] == "pin_locked"
    saves = f"/api/rooms/{server.code}/saves"
    # the table page on the companion's own screen sends its key and is served
    status, body = call(server.base, "GET", saves, headers={"X-Screen-Key": key})
    assert status == 200 and "saves" in body
    assert (
        call(server.base, "POST", f"/api/rooms/{server.code}/pin", headers={"X-Screen-Key": key})[0]
        == 200
    )
    # a wrong key, or the key under a name that is not loopback's, is no way past the lock
    wrong = key[:-1] + ("y" if key.endswith("x") else "x")  # one in 64 keys ends in x
    status, body = call(server.base, "GET", saves, headers={"X-Screen-Key": wrong})
    assert status == 429
    own_name = socket.gethostname().split(".")[0]
    named = {"X-Screen-Key": key, "Host": f"{own_name}.local:{port}"}
    assert call(server.base, "GET", saves, headers=named)[0] == 429
