"""What one hostile device can hold of the transport, over real HTTP through waitress:
large bodies are refused before they are read and nothing is spooled to the disk; a
request trickled a byte at a time is cut off at a deadline it cannot push back; hogging
addresses, however many, leave room for a table's devices."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from urllib.parse import urlsplit

import pytest
from live_server import LiveServer
from test_web_bots import wait_for
from web_client import call

from clacks.attacks import (
    Slowloris,
    attacker_address,
    big_body,
    pin_guess,
    refused_before_body,
)
from web.server import CONNECTION_LIMIT
from web.server_channel import (
    BODY_LIMIT_BYTES,
    CONNECTIONS_PER_DEVICE,
    IMPORT_LIMIT_BYTES,
    SPARE_CONNECTIONS,
)

MEGABYTE = 1024 * 1024


def address(server: LiveServer) -> tuple[str, int]:
    parts = urlsplit(server.base)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def temporary_files() -> list[str]:
    """The files this process holds open in the temporary directory (waitress spools a
    large body to an unlinked one there)."""
    where = os.path.realpath(tempfile.gettempdir())
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(where + "/"):
            held.append(target)
    return held


def test_a_300_mb_body_is_refused_before_1_mb_is_read_and_nothing_is_spooled(
    server: LiveServer,
) -> None:
    host, port = address(server)
    path = f"/api/rooms/{server.code}/seats/south"
    # refused by its Content-Length alone: no byte of the body was sent
    assert refused_before_body(host, port, path, 300_000_000) == 413
    # the replay import, which may send a larger file, no less
    imports = f"/api/rooms/{server.code}/saves"
    assert refused_before_body(host, port, imports, IMPORT_LIMIT_BYTES + 1) == 413
    assert refused_before_body(host, port, path, BODY_LIMIT_BYTES + 1) == 413
    # a client that asks to go on first is told no, not "100 Continue"
    with socket.create_connection((host, port), timeout=5) as asking:
        asking.sendall(
            f"POST {imports} HTTP/1.1\r\nHost: {host}:{port}\r\nExpect: 100-continue\r\n"
            f"Content-Length: 300000000\r\n\r\n".encode()
        )
        assert asking.recv(4096).startswith(b"HTTP/1.1 413")
    before = temporary_files()
    outcomes = []
    seen_files: list[str] = []

    def attack(n: int, chunked: bool) -> None:
        outcomes.append(
            big_body(host, port, path, 300_000_000, source=attacker_address(n), chunked=chunked)
        )

    attackers = [threading.Thread(target=attack, args=(n, n % 2 == 1)) for n in range(4)]
    for attacker in attackers:
        attacker.start()
    while any(attacker.is_alive() for attacker in attackers):
        seen_files += [f for f in temporary_files() if f not in before]
        time.sleep(0.01)
    assert len(outcomes) == 4
    for outcome in outcomes:
        # what the connection took: what the server read, plus the kernel's buffers
        assert outcome.sent < MEGABYTE, outcome
        assert outcome.status in (413, None), outcome  # answered, or cut off mid-send
    assert any(outcome.status == 413 for outcome in outcomes)
    assert seen_files == []
    # the table goes on
    assert call(server.base, "GET", f"/api/rooms/{server.code}")[0] == 200


def test_a_body_just_over_the_api_limit_gets_the_apis_own_answer(server: LiveServer) -> None:
    status, body = call(
        server.base, "POST", f"/api/rooms/{server.code}/seats/south", raw=b"{" + b" " * 20_000
    )
    assert status == 413 and body["error"] == "request_entity_too_large"


def trickle_until_closed(host: str, port: int, give_up: float) -> tuple[float, int]:
    """One connection from an address of its own, sending a request a byte every 0.2 s:
    how long until the server closed it (``give_up`` if it did not), and the bytes sent."""
    sock = socket.create_connection((host, port), source_address=("127.0.0.99", 0))
    sock.settimeout(0.2)
    started = time.monotonic()
    sent = 0
    request = Slowloris.REQUEST
    try:
        while time.monotonic() - started < give_up:
            try:
                sock.send(request[sent % len(request) : sent % len(request) + 1])
                sent += 1
                if sock.recv(4096) == b"":
                    break
            except TimeoutError:
                continue
            except OSError:
                break
    finally:
        sock.close()
    return time.monotonic() - started, sent


def test_a_trickled_request_is_cut_off_at_its_deadline_while_phones_are_served() -> None:
    server = LiveServer(request_seconds=1.5)
    host, port = address(server)
    devices = [attacker_address(n) for n in range(4)]
    # four devices, each far more connections than it may hold, each sending a byte a
    # connection every 0.3 s: what once took the table down for minutes
    slowloris = Slowloris(host, port, devices, per_device=64, interval=0.3).start()
    try:
        wait_for(lambda: slowloris.opened >= 4 * CONNECTIONS_PER_DEVICE)
        statuses = []
        for _ in range(20):
            statuses.append(call(server.base, "GET", f"/api/rooms/{server.code}")[0])
            time.sleep(0.05)
        assert statuses == [200] * 20
        held = [
            sum(
                getattr(c, "device", None) == device
                for c in list(server.server.active_channels.values())
            )
            for device in devices
        ]
        assert max(held) <= CONNECTIONS_PER_DEVICE, held
        # a request trickled a byte at a time is closed at its deadline, however many
        # bytes keep coming (the main loop looks at least once a second)
        lasted, sent = trickle_until_closed(host, port, give_up=10.0)
        assert lasted < 10.0 and sent >= 3, (lasted, sent)
    finally:
        slowloris.stop()
        server.close()


def test_many_hogging_addresses_still_leave_room_for_the_tables_devices(
    server: LiveServer,
) -> None:
    host, port = address(server)
    # enough addresses that their shares together would pass waitress's limit, where it
    # stops accepting anyone
    devices = [attacker_address(n) for n in range(CONNECTION_LIMIT // CONNECTIONS_PER_DEVICE + 2)]
    assert len(devices) * CONNECTIONS_PER_DEVICE > CONNECTION_LIMIT
    slowloris = Slowloris(host, port, devices, per_device=CONNECTIONS_PER_DEVICE, interval=0.5)
    slowloris.start()
    try:
        wait_for(lambda: slowloris.opened >= CONNECTION_LIMIT)
        time.sleep(1.0)
        open_ones = [c for c in list(server.server.active_channels.values()) if not c.given_up]
        assert len(open_ones) <= CONNECTION_LIMIT - SPARE_CONNECTIONS + 1
        # five phones of the table, each from an address of its own, are all served
        for n in range(5):
            phone = f"127.0.0.{10 + n}"
            status = pin_guess(host, port, server.code, server.pin, phone)
            assert status == 200, (phone, status)
        assert call(server.base, "GET", f"/api/rooms/{server.code}")[0] == 200
    finally:
        slowloris.stop()


@pytest.mark.parametrize("chunked", [False, True])
def test_attack_helpers_never_leave_loopback(chunked: bool) -> None:
    with pytest.raises(ValueError, match="loopback"):
        big_body("192.0.2.1", 80, "/", 10, chunked=chunked)
    with pytest.raises(ValueError, match="loopback"):
        Slowloris("192.0.2.1", 80, ["127.0.0.2"], 1).start()
