"""The DNS answers `clacks hotspot on` leaves for NetworkManager's dnsmasq, given to a real
dnsmasq started as NetworkManager starts it for a shared network (its own options, then
``--conf-dir`` of ``dnsmasq-shared.d``; src/core/dnsmasq/nm-dnsmasq-manager.c), with no
upstream server, as on the box's own network: each check's name leads to the box."""

from __future__ import annotations

import random
import shutil
import socket
import struct
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_nmcli import install

from clacks.cli import main
from firmware import hotspot as hotspot_module
from firmware.connectivity_checks import check_names


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ask_a(port: int, name: str) -> tuple[int, list[str]]:
    """One A query (RFC 1035): the answer's RCODE and its addresses."""
    ident = random.randrange(1 << 16)
    question = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    query = struct.pack(">HHHHHH", ident, 0x0100, 1, 0, 0, 0) + question + struct.pack(">HH", 1, 1)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
        client.settimeout(3)
        client.sendto(query, ("127.0.0.1", port))
        reply = client.recv(512)
    got, flags, _, answers = struct.unpack(">HHHH", reply[:8])
    assert got == ident
    at = 12 + len(question) + 4
    found = []
    for _ in range(answers):
        at += 2 if reply[at] & 0xC0 == 0xC0 else reply.index(b"\0", at) + 1 - at
        kind, _, _, size = struct.unpack(">HHIH", reply[at : at + 10])
        at += 10
        if kind == 1:
            found.append(socket.inet_ntoa(reply[at : at + size]))
        at += size
    return flags & 0xF, found


@pytest.fixture
def dnsmasq(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    program = shutil.which("dnsmasq", path="/usr/sbin:/usr/bin:/sbin:/bin")
    if program is None:
        pytest.skip("dnsmasq is not installed (NetworkManager's dnsmasq-base)")
    install(tmp_path / "bin", monkeypatch)
    assert main(["hotspot", "--data-dir", str(tmp_path / "state"), "on", "--password", "gnuterry"]) == 0
    port = free_port()
    running = subprocess.Popen(
        [
            program,
            "--conf-file=/dev/null",
            "--no-hosts",
            "--keep-in-foreground",
            "--bind-interfaces",
            "--listen-address=127.0.0.1",
            f"--port={port}",
            "--no-resolv",  # no upstream: the box's network leads nowhere else
            f"--pid-file={tmp_path / 'dnsmasq.pid'}",
            f"--conf-dir={hotspot_module.NM_CONFIG_DIR / 'dnsmasq-shared.d'}",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                ask_a(port, "localhost")
                break
            except OSError:
                assert running.poll() is None, running.stderr.read() if running.stderr else ""
                assert time.monotonic() < deadline
                time.sleep(0.05)
        yield port
    finally:
        running.terminate()
        running.wait(timeout=10)


def test_the_checks_names_lead_to_the_box_and_nothing_else_does(dnsmasq: int) -> None:
    for name in check_names():
        assert ask_a(dnsmasq, name) == (0, ["10.42.0.1"]), name
    assert ask_a(dnsmasq, "www.connectivitycheck.gstatic.com") == (0, ["10.42.0.1"])
    # Windows' own DNS check gets the address it expects
    assert ask_a(dnsmasq, "dns.msftncsi.com") == (0, ["131.107.255.255"])
    # every other name is not the box's to answer: no address
    rcode, found = ask_a(dnsmasq, "example.com")
    assert found == [] and rcode != 0
