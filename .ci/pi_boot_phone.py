"""The phone of the boot test (.ci/pi_boot.py), run by the emulated box's own python3
inside the phone's network namespace, where the only way out is the simulated radio that
joined the box's hotspot. Standard library only; each command prints one JSON object.

  checks DNS                 the phones' connectivity checks: each name resolved by the
                             box's DNS server DNS (from the DHCP lease), each page fetched
                             from the address it gave, its answer as the phone's OS expects
  resolve NAME DNS           NAME by the box's DNS, else by multicast DNS on the link (as
                             phones resolve a .local name)
  play JOIN_URL DNS          opens the join address, claims the seat whose turn it is and
                             plays its first legal action; prints the acknowledgement and
                             the game's log as acknowledged
  rejoin JOIN_URL DNS SEAT TOKEN
                             opens the join address again and reads the game with the
                             seat's token; prints the seat it sees itself in and the log
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import random
import socket
import struct
import sys
from typing import Any
from urllib.parse import urlsplit

MDNS = ("224.0.0.251", 5353)
# (name, path, status, what the body must hold): Android's and Apple's own checks
CHECKS = (
    ("connectivitycheck.gstatic.com", "/generate_204", 204, ""),
    ("clients3.google.com", "/generate_204", 204, ""),
    ("captive.apple.com", "/hotspot-detect.html", 200, "Success"),
)


def _skip_name(data: bytes, at: int) -> int:
    while data[at]:
        if data[at] >= 0xC0:  # a pointer ends the name
            return at + 2
        at += data[at] + 1
    return at + 1


def query(name: str, server: tuple[str, int]) -> list[str]:
    """The A records for ``name`` from ``server`` (empty if it gives none in 6 s)."""
    ident = random.randrange(1, 65536)
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.rstrip(".").split("."))
    packet = struct.pack(">6H", ident, 0x0100, 1, 0, 0, 0) + labels + b"\0" + b"\0\1\0\1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2)
        for _ in range(3):
            sock.sendto(packet, server)
            try:
                data = sock.recv(4096)
            except TimeoutError:
                continue
            if struct.unpack(">H", data[:2])[0] != ident:
                continue
            questions, answers = struct.unpack(">2H", data[4:8])
            at = 12
            for _ in range(questions):
                at = _skip_name(data, at) + 4
            found = []
            for _ in range(answers):
                at = _skip_name(data, at)
                kind, _, _, length = struct.unpack(">HHIH", data[at : at + 10])
                at += 10
                if kind == 1 and length == 4:
                    found.append(socket.inet_ntoa(data[at : at + 4]))
                at += length
            return found
    return []


def resolve(name: str, dns: str) -> dict[str, Any]:
    try:
        return {"name": name, "addresses": [str(ipaddress.ip_address(name))], "by": "address"}
    except ValueError:
        pass
    found = query(name, (dns, 53))
    if found:
        return {"name": name, "addresses": found, "by": f"DNS {dns}"}
    return {"name": name, "addresses": query(name, MDNS), "by": "multicast DNS"}


def fetch(
    address: str, host: str, method: str, path: str, body: Any = None, **headers: str
) -> tuple[int, str]:
    """``method path`` at ``address`` (port 80, or the one in ``host``), sent to ``host``."""
    port = int(host.rsplit(":", 1)[1]) if ":" in host else 80
    connection = http.client.HTTPConnection(address, port, timeout=60)
    sent = {"Host": host, **headers}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    connection.request(method, path, data, sent)
    answer = connection.getresponse()
    text = answer.read().decode("utf-8", "replace")
    connection.close()
    return answer.status, text


def fail(message: str, **details: Any) -> None:
    print(json.dumps({"ok": False, "error": message, **details}))
    sys.exit(1)


def checks(dns: str) -> None:
    seen = []
    for name, path, status, holds in CHECKS:
        addresses = query(name, (dns, 53))
        if not addresses:
            fail(f"the box's DNS ({dns}) does not answer {name}")
        got, text = fetch(addresses[0], name, "GET", path)
        seen.append(f"{name}{path} -> {addresses[0]}: {got}")
        if got != status or holds not in text:
            fail(f"http://{name}{path} answered {got} {text[:80]!r}, not {status}", seen=seen)
    print(json.dumps({"ok": True, "checks": seen}))


def _server(join_url: str, dns: str) -> tuple[str, str, str, dict[str, Any]]:
    """The box's address, the Host to send, the table's code and how the name resolved."""
    parts = urlsplit(join_url)
    host = parts.hostname or ""
    found = resolve(host, dns)
    if not found["addresses"]:
        fail(f"{host} (the join address's host) could not be resolved", resolved=found)
    return found["addresses"][0], parts.netloc, parts.path.rstrip("/").rsplit("/", 1)[-1], found


def play(join_url: str, dns: str) -> None:
    address, host, code, resolved = _server(join_url, dns)
    status, _ = fetch(address, host, "GET", urlsplit(join_url).path)
    if status != 200:
        fail(f"the join page {join_url} answered {status}")
    status, text = fetch(address, host, "GET", f"/api/rooms/{code}")
    state = json.loads(text)
    seat = state["active"][0]
    status, text = fetch(
        address, host, "POST", f"/api/rooms/{code}/seats/{seat}", {"name": "Phone"}
    )
    if status != 200:
        fail(f"claiming the seat {seat} answered {status} {text[:200]}")
    token = json.loads(text)["token"]
    status, text = fetch(
        address, host, "GET", f"/api/rooms/{code}/seats/{seat}/legal", **{"X-Seat-Token": token}
    )
    legal = json.loads(text)
    action = legal["actions"][0]
    status, text = fetch(
        address,
        host,
        "POST",
        f"/api/rooms/{code}/seats/{seat}/actions",
        {"action": action, "revision": legal["revision"]},
        **{"X-Seat-Token": token},
    )
    if status != 200:
        fail(f"the move answered {status} {text[:200]}")
    ack = json.loads(text)
    _, log = fetch(address, host, "GET", f"/api/rooms/{code}/log")
    print(
        json.dumps(
            {
                "ok": True,
                "resolved": resolved,
                "code": code,
                "seat": seat,
                "token": token,
                "action": action,
                "acknowledged": ack,
                "log": json.loads(log),
            }
        )
    )


def rejoin(join_url: str, dns: str, seat: str, token: str) -> None:
    address, host, code, resolved = _server(join_url, dns)
    status, _ = fetch(address, host, "GET", urlsplit(join_url).path)
    if status != 200:
        fail(f"the join page {join_url} answered {status}")
    status, text = fetch(
        address, host, "GET", f"/api/rooms/{code}?seat={seat}", **{"X-Seat-Token": token}
    )
    you = (json.loads(text).get("view") or {}).get("you") or {}
    _, log = fetch(address, host, "GET", f"/api/rooms/{code}/log")
    print(
        json.dumps(
            {"ok": True, "resolved": resolved, "seat": you.get("seat"), "log": json.loads(log)}
        )
    )


def main(argv: list[str]) -> None:
    command, *rest = argv
    if command == "checks":
        checks(*rest)
    elif command == "resolve":
        found = resolve(*rest)
        print(json.dumps({"ok": bool(found["addresses"]), **found}))
    elif command == "play":
        play(*rest)
    elif command == "rejoin":
        rejoin(*rest)
    else:
        fail(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
