"""The connectivity checks phones and laptops make when they join a Wi-Fi network, and
the answers that tell them the network works.

A phone on the box's own network (which leads nowhere else) would otherwise find the
network has no internet: Android then sends the web over mobile data, the join address
with it, and an iPhone opens a sign-in sheet. While the hotspot is on, the box's DNS
answers these names with the box's own address (firmware/hotspot.py) and the companion
answers these paths under these names, and nothing else under them (web/hosts.py).
"""

from __future__ import annotations

from dataclasses import dataclass

APPLE_SUCCESS = "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"


@dataclass(frozen=True)
class Check:
    names: tuple[str, ...]
    path: str
    status: int
    body: str = ""
    content_type: str = "text/plain"


CHECKS: tuple[Check, ...] = (
    # Android (AOSP's NetworkMonitor and its fallbacks; Chrome OS and Chrome alike)
    Check(
        (
            "connectivitycheck.gstatic.com",
            "connectivitycheck.android.com",
            "clients1.google.com",
            "clients3.google.com",
            "play.googleapis.com",
            "www.google.com",
            "connectivitycheck.platform.hicloud.com",  # Huawei phones without Google's
        ),
        "/generate_204",
        204,
    ),
    Check(("www.google.com", "clients1.google.com"), "/gen_204", 204),
    # iPhone, iPad and Mac
    Check(
        ("captive.apple.com", "www.apple.com"),
        "/hotspot-detect.html",
        200,
        APPLE_SUCCESS,
        "text/html",
    ),
    Check(
        ("captive.apple.com", "www.apple.com"),
        "/library/test/success.html",
        200,
        APPLE_SUCCESS,
        "text/html",
    ),
    # Windows
    Check(("www.msftconnecttest.com",), "/connecttest.txt", 200, "Microsoft Connect Test"),
    Check(("www.msftncsi.com",), "/ncsi.txt", 200, "Microsoft NCSI"),
    # Firefox, and desktop Linux's NetworkManager
    Check(("detectportal.firefox.com",), "/success.txt", 200, "success\n"),
    Check(("nmcheck.gnome.org",), "/check_network_status.txt", 200, "NetworkManager is online\n"),
)

# Windows also resolves this name and expects this address back (not the box's)
WINDOWS_DNS_CHECK = ("dns.msftncsi.com", "131.107.255.255")


def check_names() -> list[str]:
    """Every name a check is made under, each once, in the order above."""
    return list(dict.fromkeys(name for check in CHECKS for name in check.names))


def paths_by_name() -> dict[str, frozenset[str]]:
    """For each name, the paths checked under it: all the companion answers there."""
    paths: dict[str, set[str]] = {}
    for check in CHECKS:
        for name in check.names:
            paths.setdefault(name, set()).add(check.path)
    return {name: frozenset(found) for name, found in paths.items()}


def answer(name: str, path: str) -> Check | None:
    """The check made as ``path`` under ``name``, or None when there is none."""
    for check in CHECKS:
        if path == check.path and name in check.names:
            return check
    return None


def dnsmasq_lines(address: str) -> list[str]:
    """The DNS answers of NetworkManager's dnsmasq while the hotspot is up: each check's
    name (and the names under it) leads to the box at ``address``."""
    lines = [f"address=/{name}/{address}" for name in check_names()]
    name, expected = WINDOWS_DNS_CHECK
    lines.append(f"address=/{name}/{expected}")
    return lines
