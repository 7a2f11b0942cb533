"""Which user of this machine a loopback connection comes from, and whether it is one
whose browser may be the companion's own screen.

Every program on the machine can reach the companion over loopback, other users' too
(on a shared machine under ``./run``, or anyone logged in to the Pi over SSH). Only the
companion's own user, and the user at the machine's own display (logind's ``seat0``:
the Pi's desktop, whose browser shows the table on the TV), count as its own screen;
the kernel's socket table (``/proc/net/tcp``, ``tcp6``) says whose a connection is.
Where that cannot be told (no such table, a connection already gone), it is nobody's.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

SOCKET_TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
DISPLAY_SEAT = Path("/run/systemd/seats/seat0")  # logind's account of the machine's display
ESTABLISHED = "01"


def _address(field: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    """An address of the kernel's socket table (hex, each 32-bit word in the machine's
    byte order, then the port) as an address and a port."""
    host, port = field.split(":")
    raw = bytes.fromhex(host)
    words = [raw[i : i + 4] for i in range(0, len(raw), 4)]
    packed = b"".join(word[::-1] if sys.byteorder == "little" else word for word in words)
    found = ipaddress.ip_address(packed)
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped, int(port, 16)
    return found, int(port, 16)


def connection_user(remote_addr: str | None, remote_port: object) -> int | None:
    """The user id owning the client's end of a connection from ``remote_addr`` port
    ``remote_port`` on this machine (None: not found)."""
    try:
        wanted = (ipaddress.ip_address(remote_addr or ""), int(str(remote_port)))
    except ValueError:
        return None
    if isinstance(wanted[0], ipaddress.IPv6Address) and wanted[0].ipv4_mapped is not None:
        wanted = (wanted[0].ipv4_mapped, wanted[1])
    for table in SOCKET_TABLES:
        try:
            lines = table.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 7 and fields[3] == ESTABLISHED and _address(fields[1]) == wanted:
                return int(fields[7])
    return None


def display_user() -> int | None:
    """The user at the machine's own display, if logind keeps one."""
    try:
        text = DISPLAY_SEAT.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key == "ACTIVE_UID" and value.isdigit():
            return int(value)
    return None


def is_own_user(remote_addr: str | None, remote_port: object) -> bool:
    """Whether a loopback connection comes from the companion's own user or the user at
    the machine's own display."""
    user = connection_user(remote_addr, remote_port)
    return user is not None and user in (os.geteuid(), display_user())
