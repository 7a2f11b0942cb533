"""Who may do what: seat tokens, the table PIN, and refusing requests from other sites.

* A seat's token is 144 random bits, handed once to the device that claims the seat
  and kept there. The companion keeps only its SHA-256 digest (in memory and in the
  saves), so a copied database seats nobody.
* The table PIN (six digits) guards what only the table may do: start or end a game,
  free a seat, press the table screen's tower buttons, open another table, and every
  saved-game operation. It is shown on the table screen and printed in the terminal.
  A table page opened on the companion's own machine (loopback, addressed by a
  loopback name) is handed the PIN; any other device must type it. Wrong guesses are
  throttled per address, so six digits cannot be tried through over the Wi-Fi.
* State-changing requests that a browser marks as coming from another site
  (``Sec-Fetch-Site``) or whose ``Origin`` is not this server are refused, so a page
  elsewhere cannot make a visitor's browser act here. Clients that are not browsers
  send neither header and are unaffected.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from web.errors import ApiError

PIN_DIGITS = 6
PIN_HEADER = "X-Table-Pin"
TOKEN_BYTES = 18
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}

# Wrong PINs from one address: this many are free, then each further one locks that
# address out for LOCK_SECONDS, doubled per further failure up to LOCK_MAX_SECONDS.
FREE_FAILURES = 5
LOCK_SECONDS = 30.0
LOCK_MAX_SECONDS = 3600.0


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


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


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


class PinGuard:
    """Checks table PINs and throttles wrong guesses per client address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._failures: dict[str, _Failures] = {}
        self._lock = threading.Lock()

    def check(self, pin: str, given: str | None, address: str | None) -> None:
        """Return if ``given`` is the table's ``pin``; else raise the reason."""
        key = address or "?"
        exempt = is_loopback_address(address)  # the table's own screen is never locked out
        with self._lock:
            failures = self._failures.get(key)
            now = self.clock()
            if failures is not None and failures.locked_until > now and not exempt:
                wait = int(failures.locked_until - now) + 1
                raise ApiError(
                    429,
                    "pin_locked",
                    f"Too many wrong table PINs from this device; try again in {wait} s",
                    seconds=wait,
                )
            if not given:
                raise ApiError(
                    403,
                    "pin_required",
                    "Only the table can do this: enter the table PIN "
                    "(shown on the table screen and in the companion's terminal)",
                )
            if secrets.compare_digest(pin.encode(), given.strip().encode()[:64]):
                self._failures.pop(key, None)
                return
            if len(self._failures) > 4096:  # forget old addresses rather than grow forever
                self._failures.clear()
            failures = self._failures.setdefault(key, _Failures())
            failures.count += 1
            if failures.count > FREE_FAILURES and not exempt:
                over = failures.count - FREE_FAILURES - 1
                failures.locked_until = now + min(LOCK_SECONDS * 2**over, LOCK_MAX_SECONDS)
        raise ApiError(403, "bad_pin", "That is not this table's PIN")
