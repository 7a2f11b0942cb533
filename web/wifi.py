"""The box's own Wi-Fi network as the table screen shows it: a QR code a phone joins it
from, and the address the phones reach the companion at on it.

NetworkManager is asked at most every few seconds, however many pages ask: the join QR
is fetched by every page that shows it.
"""

from __future__ import annotations

import base64
import io
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import segno

from firmware.hotspot import Hotspot, Settings, load_settings, wifi_qr_payload

LOOK_AGAIN_SECONDS = 5.0


@dataclass(frozen=True)
class Wifi:
    address: str | None = None  # the companion's address on its hotspot; None: no hotspot up
    settings: Settings | None = None  # what joins it; None: not known to this companion


class WifiLookup:
    def __init__(
        self,
        state_dir: Path,
        hotspot: Hotspot | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.state_dir = state_dir
        self.hotspot = hotspot or Hotspot()
        self.clock = clock
        self._lock = threading.Lock()
        self._looked: float | None = None
        self._wifi = Wifi()

    def now(self) -> Wifi:
        with self._lock:
            if self._looked is None or self.clock() - self._looked >= LOOK_AGAIN_SECONDS:
                self._wifi = self._look()
                self._looked = self.clock()
            return self._wifi

    def _look(self) -> Wifi:
        status = self.hotspot.status()
        if not status.up:
            return Wifi()
        settings = load_settings(self.state_dir)
        if settings is not None and status.ssid not in (None, settings.ssid):
            settings = None  # the connection was changed by hand: the password may be stale
        return Wifi(status.address, settings)


def wifi_qr_data_uri(settings: Settings) -> str:
    """The Wi-Fi QR code as an inline picture, so that no address serves it on its own."""
    buffer = io.BytesIO()
    segno.make(wifi_qr_payload(settings.ssid, settings.password), error="m").save(
        buffer, kind="svg", scale=1, border=2, dark="#000", light="#fff", omitsize=True
    )
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
