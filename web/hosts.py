"""The names and addresses the companion answers to, so that a web page elsewhere cannot
reach it under a name of its own (DNS rebinding).

A page at ``evil.example`` that points its own name at the companion's address makes
the visitor's browser send requests the companion could not tell from its own pages'
(same origin, matching ``Origin``) but for the name in their ``Host`` header. So only the
companion's own names are answered: ``localhost`` and the loopback addresses, its host
name (and that name under ``.local``, as mDNS announces it), every address of its own
network interfaces (looked at again when an address it does not know is asked for: a
DHCP lease may change), the host of the address it prints for the phones, and the names
configured (``clacks serve --allowed-host``). Anything else is refused with
``400 unknown_host`` before the request is read any further. A request without a
``Host`` header comes from no browser and is not refused for that.

One exception: the names of the phones' connectivity checks, which the box's DNS leads
to it while its hotspot is on (firmware/connectivity_checks.py), are let through for
exactly the paths checked under each, and for nothing else of the companion.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from firmware.connectivity_checks import paths_by_name
from web.errors import ApiError

LOOK_AGAIN_SECONDS = 10.0  # the interfaces' addresses are read at most this often
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def host_name(host: str) -> str:
    """The name or address in a ``Host`` header: no port, no brackets, no final dot."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


class HostAllowList:
    def __init__(self, extra: Iterable[str] = (), public_url: str | None = None) -> None:
        """``extra`` names (or addresses) are answered too, and the host of ``public_url``."""
        hostname = socket.gethostname().lower()
        short = hostname.split(".", 1)[0]
        self.names = {"localhost", hostname, short, f"{short}.local"}
        self.names |= {host_name(name) for name in extra if name.strip()}
        if public_url:
            self.names.add(host_name(urlsplit(public_url).netloc))
        self.checks = paths_by_name()
        self._lock = threading.Lock()
        self._addresses = own_addresses()
        self._looked = time.monotonic()

    def allows(self, host: str | None, path: str = "") -> bool:
        """``path``: the request's, which a connectivity check's name is allowed for
        when it is that check's."""
        if host is None:
            return True
        name = host_name(host)
        if name in self.names:
            return True
        if name in self.checks:
            return path in self.checks[name]
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return False
        if address.is_loopback or address in self._addresses:
            return True
        with self._lock:
            if time.monotonic() - self._looked >= LOOK_AGAIN_SECONDS:
                self._addresses = own_addresses()
                self._looked = time.monotonic()
        return address in self._addresses

    def refusal(self, host: str | None, path: str = "") -> ApiError | None:
        if self.allows(host, path):
            return None
        return ApiError(
            400,
            "unknown_host",
            "This companion does not answer to that name; open it by its own name or "
            "address (or start it with --allowed-host for another name)",
            host=(host or "")[:100],
        )


def own_addresses() -> set[IPAddress]:
    """Every address of this machine's network interfaces (and its host name's)."""
    found: set[IPAddress] = set()
    for text in (*_proc_ipv4(), *_proc_ipv6(), *_resolved()):
        with contextlib.suppress(ValueError):
            found.add(ipaddress.ip_address(text.split("%", 1)[0]))
    return found


def _proc_ipv4() -> list[str]:
    """The local IPv4 addresses Linux routes to this machine (/proc/net/fib_trie)."""
    addresses: list[str] = []
    with contextlib.suppress(OSError):
        last = ""
        for line in Path("/proc/net/fib_trie").read_text().splitlines():
            text = line.strip()
            if text.startswith("|--"):
                last = text[3:].strip()
            elif text.startswith("/32 host LOCAL") and last:
                addresses.append(last)
    return addresses


def _proc_ipv6() -> list[str]:
    addresses: list[str] = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            digits = line.split()[0] if line.split() else ""
            if len(digits) == 32:
                addresses.append(":".join(digits[i : i + 4] for i in range(0, 32, 4)))
    return addresses


def _resolved() -> list[str]:
    """Where this machine's own name leads (elsewhere than Linux, the only source)."""
    with contextlib.suppress(OSError):
        return [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)]
    return []
