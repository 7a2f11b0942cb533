"""Which network device the caller's own SSH connection arrives over, so that a command
about to take that device away (the hotspot takes the Wi-Fi) can say so first.

sshd puts the connection's two ends in ``SSH_CONNECTION`` (``SSH_CLIENT`` in older
versions). ``sudo`` clears both from the environment it hands on, so when they are not
in this process's own, the processes it was started from are asked: the login shell
still has them. The device is the one the kernel routes the client's address through
(``ip route get``), which is the device the connection came in on.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware.hotspot import Answer, run_command

LOOK_SECONDS = 5.0
MAX_ANCESTORS = 32
PROC = Path("/proc")


@dataclass(frozen=True)
class SshRoute:
    client: str  # the address the SSH connection comes from
    device: str | None  # the device it arrives over; None: the route could not be read


def client_address(environment: Mapping[str, str]) -> str | None:
    """The client's address in ``SSH_CONNECTION`` ("client port server port") or
    ``SSH_CLIENT`` ("client port port"), or None."""
    for variable in ("SSH_CONNECTION", "SSH_CLIENT"):
        words = environment.get(variable, "").split()
        if words:
            with contextlib.suppress(ValueError):
                return str(ipaddress.ip_address(words[0].split("%", 1)[0]))
    return None


def ancestor_environments() -> list[dict[str, str]]:
    """The environment each process this one was started from began with, nearest first
    (those this user may read: all of them as root, as under sudo)."""
    proc = PROC
    found: list[dict[str, str]] = []
    pid = os.getppid()
    for _ in range(MAX_ANCESTORS):
        if pid <= 1:
            break
        try:
            raw = (proc / str(pid) / "environ").read_bytes()
        except OSError:
            raw = b""
        found.append(
            dict(
                entry.decode("utf-8", "replace").partition("=")[::2]
                for entry in raw.split(b"\0")
                if b"=" in entry
            )
        )
        try:
            stat = (proc / str(pid) / "stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])  # the name may hold spaces
        except (OSError, ValueError, IndexError):
            break
    return found


def caller_ssh_client(
    environment: Mapping[str, str], ancestors: Callable[[], list[dict[str, str]]]
) -> str | None:
    own = client_address(environment)
    if own is not None:
        return own
    for earlier in ancestors():
        found = client_address(earlier)
        if found is not None:
            return found
    return None


def device_towards(address: str, run: Callable[[Sequence[str], float], Answer]) -> str | None:
    """The device the kernel sends packets for ``address`` through (``ip route get``),
    or None when that cannot be read."""
    answer = run(["ip", "-o", "route", "get", address], LOOK_SECONDS)
    if answer.code != 0:
        return None
    words = answer.out.split()
    if "dev" in words[:-1]:
        return words[words.index("dev") + 1]
    return None


def caller_ssh_route(
    environment: Mapping[str, str] | None = None,
    run: Callable[[Sequence[str], float], Answer] = run_command,
) -> SshRoute | None:
    """The caller's SSH connection and the device it arrives over, or None when the
    caller is not on SSH."""
    own = os.environ if environment is None else environment
    client = caller_ssh_client(own, ancestor_environments)
    if client is None:
        return None
    return SshRoute(client, device_towards(client, run))
