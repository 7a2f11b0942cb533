"""Who may do what: seat tokens, the table PIN, and refusing requests from other sites.

* A seat's token is 144 random bits, handed once to the device that claims the seat
  and kept there. The companion keeps only its SHA-256 digest (in memory and in the
  saves), so a copied database seats nobody.
* The table PIN (six digits) guards what only the table may do: start or end a game,
  free a seat, press the table screen's tower buttons, open another table, and every
  saved-game operation. It is shown on the table screen and printed in the terminal.
  It is kept in the companion's memory only, made afresh at every start and never
  written to the saves: a stored digest of six digits would be undone by trying all
  million, so a file read or copied off the box would still open the table. A new
  PIN at each start costs the owner nothing (the terminal, the service's log and the
  companion's own screen show it) and ends any guessing that went before.
  A table page opened on the companion's own machine (loopback, addressed by a
  loopback name) by the companion's own user or the user at the machine's display
  (web/local_peer.py) is handed the PIN; any other device, and any other user of the
  machine, must type it. Wrong guesses are
  throttled for every client, the companion's own machine included, per device and
  for all devices together (``PinGuard``), so six digits cannot be tried through, not
  even by a client that keeps changing its address: at most ``DAY_FAILURES`` wrong PINs
  in any 24 hours from all other devices together, however many addresses they use.
* The table page on the companion's own screen is also handed the screen key, 144
  random bits made afresh at every start, and sends it with its requests: with it the
  page's controls work whatever the PIN locks say, so a program that guesses PINs from
  the companion's own machine (any loopback address is the same device) never locks
  the table's own screen out. A key that long cannot be guessed, so it needs no lock.
* State-changing requests that a browser marks as coming from another site
  (``Sec-Fetch-Site``) or whose ``Origin`` is not this server are refused, so a page
  elsewhere cannot make a visitor's browser act here. Clients that are not browsers
  send neither header and are unaffected.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from web.errors import ApiError

PIN_DIGITS = 6
PIN_HEADER = "X-Table-Pin"
SCREEN_KEY_HEADER = "X-Screen-Key"
TOKEN_BYTES = 18
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}

# Wrong PINs from one device: this many are free, then each further one locks that
# device out for LOCK_SECONDS, doubled per further failure up to LOCK_MAX_SECONDS.
FREE_FAILURES = 5
LOCK_SECONDS = 30.0
LOCK_MAX_SECONDS = 3600.0
# Wrong PINs from all devices together: this many are free, then each further one locks
# every device but the companion's own screen out, for as long as above; a client that
# changes its address for every guess gets no more. The count starts again only after
# QUIET_SECONDS without a wrong PIN, measured from the last one: far longer than the
# longest lock, so waiting out each lock never makes the guesses free again.
ALL_FREE_FAILURES = 20
QUIET_SECONDS = 24 * 3600.0
# And never more than this many wrong PINs in any DAY_SECONDS from all devices together:
# once they are spent, every device but the companion's own screen waits until the
# oldest of them is a day old. The own screen (the owner at the box, with the PIN the
# companion printed) keeps its way in, throttled as a device of its own.
DAY_FAILURES = 35
DAY_SECONDS = 24 * 3600.0
DEVICES_KEPT = 4096  # the devices whose wrong PINs are remembered, most recent first


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def screen_key_matches(key: str, given: str | None) -> bool:
    """Whether ``given`` is the companion's screen key (compared in constant time)."""
    return bool(given) and len(given or "") <= 64 and secrets.compare_digest(key, given or "")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(digest: str, token: str | None) -> bool:
    """Whether ``token`` is the one ``digest`` was made from (in constant time)."""
    if not token or len(token) > 256:
        return False
    return secrets.compare_digest(digest, token_digest(token))


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def is_loopback_address(address: str | None) -> bool:
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def is_own_screen(remote_addr: str | None, host: str | None) -> bool:
    """A request from this machine's own browser, addressed to it by a loopback name.

    Both are needed: the address proves the browser runs here, and the name keeps out
    a page elsewhere that points its own domain name at 127.0.0.1 (DNS rebinding).
    """
    if not is_loopback_address(remote_addr) or not host:
        return False
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return name.lower() in LOOPBACK_NAMES


def cross_site_refusal(
    method: str, host: str | None, origin: str | None, fetch_site: str | None
) -> ApiError | None:
    """The refusal for a state-changing request a browser sent on another site's behalf."""
    if method.upper() in SAFE_METHODS:
        return None
    if fetch_site is not None and fetch_site.lower() not in ("same-origin", "none"):
        return ApiError(
            403, "cross_site", "Requests from other web sites may not change this table"
        )
    if origin is not None:
        expected = {f"http://{host}", f"https://{host}"} if host else set()
        if origin.rstrip("/").lower() not in {e.lower() for e in expected}:
            return ApiError(
                403,
                "cross_site",
                "Requests from other web sites may not change this table",
                origin=origin[:100],
            )
    return None


def device_of(address: str | None) -> str:
    """Which device a request comes from, as far as the server can tell: its address,
    or for IPv6 its /64 (a device may take any address in its own network)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return "?"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv6Address) and not ip.is_loopback:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_key(address: str | None) -> str:
    """Whom a request's wrong PINs count against: its device, and one key for every
    loopback address (a program on this machine can take any of 127.0.0.0/8)."""
    device = device_of(address)
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(device).is_loopback:
            return "loopback"
    return device


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


class PinGuard:
    """Checks table PINs and throttles wrong guesses: per device (``client_key``), and
    for all devices together, so neither many devices nor changing addresses buy more
    guesses. While all are locked, the companion's own screen (which is handed the PIN
    and never guesses) still gets in with the right one."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._devices: OrderedDict[str, _Failures] = OrderedDict()
        self._everyone = _Failures()
        self._last_failure: float | None = None
        self._today: deque[float] = deque()  # when the wrong PINs of the last day came
        self._lock = threading.Lock()

    def check(
        self,
        pins: str | tuple[str, ...],
        given: str | None,
        address: str | None,
        own_screen: bool = False,
    ) -> None:
        """Return if ``given`` is the table's PIN (or one of ``pins``); else raise why."""
        key = client_key(address)
        accepted = (pins,) if isinstance(pins, str) else pins
        with self._lock:
            now = self.clock()
            device = self._devices.get(key)
            if device is not None and device.locked_until > now:
                wait = _seconds(device.locked_until - now)
                raise ApiError(
                    429,
                    "pin_locked",
                    f"Too many wrong table PINs from this device; try again in {wait} s",
                    seconds=wait,
                )
            while self._today and now - self._today[0] >= DAY_SECONDS:
                self._today.popleft()
            if len(self._today) >= DAY_FAILURES and not own_screen:
                wait = _seconds(self._today[0] + DAY_SECONDS - now)
                raise ApiError(
                    429,
                    "table_locked",
                    f"Too many wrong table PINs today; the table's controls are locked for "
                    f"{wait} s (the companion's own screen still works, and restarting the "
                    "companion gives a new PIN)",
                    seconds=wait,
                )
            if self._everyone.locked_until > now and not own_screen:
                wait = _seconds(self._everyone.locked_until - now)
                raise ApiError(
                    429,
                    "table_locked",
                    f"Too many wrong table PINs from all devices; the table's controls are "
                    f"locked for {wait} s (the companion's own screen still works)",
                    seconds=wait,
                )
            if not given:
                raise ApiError(
                    403,
                    "pin_required",
                    "Only the table can do this: enter the table PIN "
                    "(shown on the table screen and in the companion's terminal)",
                )
            typed = given.strip().encode()[:64]
            right = [secrets.compare_digest(pin.encode(), typed) for pin in accepted]
            if any(right):
                self._devices.pop(key, None)
                return
            self._failed(key, now)
        raise ApiError(403, "bad_pin", "That is not this table's PIN")

    def _failed(self, key: str, now: float) -> None:
        device = self._devices.pop(key, None) or _Failures()
        self._devices[key] = device  # the most recent last
        while len(self._devices) > DEVICES_KEPT:
            self._devices.popitem(last=False)
        device.count += 1
        if device.count > FREE_FAILURES:
            device.locked_until = now + _lock_seconds(device.count - FREE_FAILURES)
        if self._last_failure is not None and now - self._last_failure >= QUIET_SECONDS:
            self._everyone = _Failures()  # a quiet day: the budget of all devices is whole again
        self._last_failure = now
        self._today.append(now)
        self._everyone.count += 1
        if self._everyone.count > ALL_FREE_FAILURES:
            over = self._everyone.count - ALL_FREE_FAILURES
            self._everyone.locked_until = now + _lock_seconds(over)


def _lock_seconds(over: int) -> float:
    """How long the ``over``-th wrong PIN past the free ones locks out."""
    doubled: float = LOCK_SECONDS * 2 ** min(over - 1, 20)
    return min(doubled, LOCK_MAX_SECONDS)


def _seconds(left: float) -> int:
    return int(left) + 1
