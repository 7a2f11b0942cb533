"""The hotspot's keyfile read by NetworkManager's own keyfile parser (libnm, through its
GObject bindings in the system's Python: Debian's gir1.2-nm-1.0 and python3-gi), for
network names and passwords holding every character a keyfile treats specially."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.hotspot import (
    ADDRESS,
    CONNECTION,
    PASSWORD_LENGTHS,
    SSID_MAX_BYTES,
    Settings,
    keyfile_text,
)

READER = r"""
import json, sys
import gi
gi.require_version("NM", "1.0")
from gi.repository import GLib, NM

found = []
for path in sys.argv[1:]:
    keyfile = GLib.KeyFile()
    keyfile.load_from_file(path, GLib.KeyFileFlags.NONE)
    profile = NM.keyfile_read(
        keyfile, "/etc/NetworkManager/system-connections", NM.KeyfileHandlerFlags.NONE,
        None, None,
    )
    profile.verify()
    connection = profile.get_setting_connection()
    wifi = profile.get_setting_wireless()
    security = profile.get_setting_wireless_security()
    ipv4 = profile.get_setting_ip4_config()
    address = ipv4.get_address(0)
    found.append({
        "id": connection.get_id(),
        "uuid": connection.get_uuid(),
        "type": connection.get_connection_type(),
        "interface": connection.get_interface_name(),
        "autoconnect": connection.get_autoconnect(),
        "priority": connection.get_autoconnect_priority(),
        "ssid": list(wifi.get_ssid().get_data()),
        "mode": wifi.get_mode(),
        "band": wifi.get_band(),
        "key_mgmt": security.get_key_mgmt(),
        "psk": security.get_psk(),
        "proto": [security.get_proto(i) for i in range(security.get_num_protos())],
        "pairwise": [security.get_pairwise(i) for i in range(security.get_num_pairwise())],
        "group": [security.get_group(i) for i in range(security.get_num_groups())],
        "ipv4": ipv4.get_method(),
        "address": f"{address.get_address()}/{address.get_prefix()}",
        "ipv6": profile.get_setting_ip6_config().get_method(),
    })
print(json.dumps(found))
"""


def system_python_with_libnm() -> str:
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3 to load libnm's bindings in")
    probe = 'import gi; gi.require_version("NM", "1.0"); from gi.repository import NM'
    if subprocess.run([python, "-c", probe], capture_output=True).returncode != 0:
        pytest.skip("NetworkManager's libnm bindings are not installed: sudo apt install "
                    "gir1.2-nm-1.0 python3-gi")  # fmt: skip
    return python


def networks() -> list[Settings]:
    """Names and passwords with what a keyfile escapes or splits on, and random ones."""
    chosen = [
        Settings("Mended Drum", "gnuterrypratchett"),
        Settings('Čtvrť; "Bar" 12;', " a\\b;#c d "),
        Settings("12;34;", "        "),
        Settings("[connection]", "=\\s\\n\\t;;[x]"),
        Settings(" leading and trailing ", "\\" * 63),
        Settings("ž" * 16, "~" * 8),
    ]
    pick = random.Random(31)
    printable = [chr(c) for c in range(0x20, 0x7F)]
    for _ in range(40):
        name = "".join(pick.choice([*printable, "č", "ř", "ü"]) for _ in range(pick.randint(1, 12)))
        size = pick.randint(PASSWORD_LENGTHS.start, PASSWORD_LENGTHS.stop - 1)
        chosen.append(Settings(name, "".join(pick.choice(printable) for _ in range(size))))
    assert all(len(n.ssid.encode()) <= SSID_MAX_BYTES for n in chosen)
    return chosen


def test_network_manager_reads_the_keyfile_as_written(tmp_path: Path) -> None:
    python = system_python_with_libnm()
    written = networks()
    paths = []
    for number, settings in enumerate(written):
        path = tmp_path / f"{number}.nmconnection"
        path.write_text(keyfile_text(settings, "wlan0", f"0b7e9a34-1d55-4b6c-9f61-{number:012d}"))
        paths.append(str(path))
    done = subprocess.run([python, "-c", READER, *paths], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    for number, (settings, read) in enumerate(zip(written, json.loads(done.stdout), strict=True)):
        assert read == {
            "id": CONNECTION,
            "uuid": f"0b7e9a34-1d55-4b6c-9f61-{number:012d}",
            "type": "802-11-wireless",
            "interface": "wlan0",
            "autoconnect": True,
            "priority": 100,
            "ssid": list(settings.ssid.encode()),
            "mode": "ap",
            "band": "bg",
            "key_mgmt": "wpa-psk",
            "psk": settings.password,
            "proto": ["rsn"],
            "pairwise": ["ccmp"],
            "group": ["ccmp"],
            "ipv4": "shared",
            "address": f"{ADDRESS}/24",
            "ipv6": "ignore",
        }, settings
