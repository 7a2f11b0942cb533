"""`clacks hotspot` and `clacks hardware status` run for real against a fake `nmcli` (and
`iw`) first on PATH: what they ask NetworkManager, what they keep, what they say when
NetworkManager fails."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from fake_nmcli import FakeNetworkManager, install
from hypothesis import given
from hypothesis import strategies as st

from clacks.cli import main
from firmware.hotspot import (
    CONNECTION,
    Hotspot,
    HotspotError,
    Settings,
    check_password,
    check_ssid,
    load_settings,
    terse_fields,
    wifi_qr_payload,
)
from web.wifi import LOOK_AGAIN_SECONDS, Wifi, WifiLookup


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeNetworkManager:
    return install(tmp_path / "bin", monkeypatch)


def hotspot(tmp_path: Path, *arguments: str) -> int:
    return main(["hotspot", "--data-dir", str(tmp_path / "state"), *arguments])


def test_on_makes_a_wpa2_access_point_that_comes_back_after_a_reboot(
    fake: FakeNetworkManager, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert hotspot(tmp_path, "on", "--ssid", "Ankh-Morpork Post", "--password", "gnuterry") == 0
    profile = fake.load()["connections"][CONNECTION]
    assert profile["connection.type"] == "wifi"
    assert profile["connection.interface-name"] == "wlan0"
    assert profile["802-11-wireless.ssid"] == "Ankh-Morpork Post"
    assert profile["802-11-wireless.mode"] == "ap"
    assert profile["ipv4.method"] == "shared"
    assert profile["802-11-wireless-security.key-mgmt"] == "wpa-psk"
    assert profile["802-11-wireless-security.psk"] == "gnuterry"
    assert profile["connection.autoconnect"] == "yes"
    assert profile["active"] is True
    assert ["nmcli", "connection", "up", CONNECTION] in fake.calls()
    out = capsys.readouterr().out
    assert "Hotspot: on, network 'Ankh-Morpork Post' on wlan0" in out
    assert "Address: 10.42.0.1" in out and "Password: gnuterry" in out

    # kept for the table screen, readable by its owner only
    kept = tmp_path / "state" / "hotspot.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert json.loads(kept.read_text()) == {"ssid": "Ankh-Morpork Post", "password": "gnuterry"}

    # off: down now and not up again at the next boot
    assert hotspot(tmp_path, "off") == 0
    profile = fake.load()["connections"][CONNECTION]
    assert profile["active"] is False and profile["connection.autoconnect"] == "no"
    assert capsys.readouterr().out == "Hotspot: off\n"

    # on again with nothing given: the same network, changed in place, not added twice
    calls_before = len(fake.calls())
    assert hotspot(tmp_path, "on") == 0
    again = fake.calls()[calls_before:]
    assert not any(call[1:3] == ["connection", "add"] for call in again)
    profile = fake.load()["connections"][CONNECTION]
    assert profile["802-11-wireless.ssid"] == "Ankh-Morpork Post"
    assert profile["802-11-wireless-security.psk"] == "gnuterry"
    assert profile["connection.autoconnect"] == "yes" and profile["active"] is True


def test_the_defaults_are_the_host_name_and_a_fresh_random_password(
    fake: FakeNetworkManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("socket.gethostname", lambda: "clacks.example")
    assert hotspot(tmp_path, "on") == 0
    settings = load_settings(tmp_path / "state")
    assert settings is not None and settings.ssid == "Clacks clacks"
    assert len(settings.password) == 12 and settings.password.isalnum()
    other = tmp_path / "elsewhere"
    assert main(["hotspot", "--data-dir", str(other), "on"]) == 0
    second = load_settings(other)
    assert second is not None and second.password != settings.password


def test_status_counts_the_phones_on_the_kernels_station_list(
    fake: FakeNetworkManager, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert hotspot(tmp_path, "status") == 0
    assert capsys.readouterr().out == "Hotspot: off\n"
    assert hotspot(tmp_path, "on", "--password", "gnuterry") == 0
    fake.change(phones=3)
    capsys.readouterr()
    assert hotspot(tmp_path, "status") == 0
    assert "Phones on it: 3\n" in capsys.readouterr().out
    assert ["iw", "dev", "wlan0", "station", "dump"] in fake.calls()


def test_hardware_status_says_whether_the_hotspot_is_up_and_how_many_phones(
    fake: FakeNetworkManager,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLACKS_CONFIG", str(tmp_path / "none.toml"))
    assert main(["hardware", "status"]) == 0
    assert json.loads(capsys.readouterr().out)["hotspot"]["up"] is False
    assert hotspot(tmp_path, "on", "--password", "gnuterry") == 0
    fake.change(phones=2)
    capsys.readouterr()
    assert main(["hardware", "status"]) == 0
    shown = json.loads(capsys.readouterr().out)["hotspot"]
    assert shown == {
        "up": True,
        "ssid": shown["ssid"],
        "device": "wlan0",
        "address": "10.42.0.1",
        "phones": 2,
        "problem": None,
    }
    assert "gnuterry" not in json.dumps(shown)
    fake.change(running=False)
    assert main(["hardware", "status"]) == 0
    shown = json.loads(capsys.readouterr().out)["hotspot"]
    assert shown["up"] is False and "NetworkManager is not running" in shown["problem"]


@pytest.mark.parametrize(
    ("world", "arguments", "words"),
    [
        ({"running": False}, ["on"], "NetworkManager is not running; start it with: sudo"),
        ({"devices": [["eth0", "ethernet", "connected"]]}, ["on"], "has no Wi-Fi device"),
        (
            {"devices": [["wlan0", "wifi", "unavailable"]]},
            ["on"],
            "wlan0 is unavailable: it is switched off or blocked until a Wi-Fi country is set",
        ),
        (
            {"devices": [["wlan0", "wifi", "unmanaged"]]},
            ["on"],
            "wlan0 is busy: NetworkManager does not manage it",
        ),
        (
            {"activation_fails": True},
            ["on"],
            "nmcli connection up failed (Connection activation failed: 802.1X",
        ),
        ({"denied": True}, ["on"], "Insufficient privileges.); run the command with sudo"),
        ({"running": False}, ["off"], "NetworkManager is not running"),
        ({"running": False}, ["status"], "NetworkManager is not running"),
    ],
)
def test_a_failure_of_network_manager_is_a_clear_message(
    fake: FakeNetworkManager,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    world: dict[str, object],
    arguments: list[str],
    words: str,
) -> None:
    fake.change(**world)
    assert hotspot(tmp_path, *arguments, *(["--password", "gnuterry"] if "on" in arguments else []))
    err = capsys.readouterr().err
    assert err.startswith("clacks hotspot: ") and words in err
    assert "Traceback" not in err
    if arguments == ["on"]:
        # a network that did not come up leaves no password behind for the table screen
        assert load_settings(tmp_path / "state") is None


def test_a_network_manager_that_does_not_answer_is_reported_not_waited_for(
    fake: FakeNetworkManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("firmware.hotspot.LOOK_SECONDS", 0.5)
    fake.change(hangs=True)
    status = Hotspot().status()
    assert not status.up and status.problem == (
        "nmcli general failed (nmcli did not answer in 0.5 s)"
    )


def test_an_owner_s_command_waits_for_a_network_manager_still_starting_where_a_page_would_not(
    fake: FakeNetworkManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after a boot NetworkManager answers late: the table screen's quick look
    reports it, and `clacks hotspot on` waits for it rather than refusing."""
    fake.change(starting=1.0)
    with monkeypatch.context() as quick:
        quick.setattr("firmware.hotspot.LOOK_SECONDS", 0.3)
        status = Hotspot().status()
        assert status.problem == "nmcli general failed (nmcli did not answer in 0.3 s)"
        assert hotspot(tmp_path, "on", "--ssid", "Mended Drum", "--password", "gnuterry") == 0
    fake.change(starting=0)
    assert Hotspot().status().up


def test_the_table_screen_asks_network_manager_at_most_every_few_seconds(
    fake: FakeNetworkManager, tmp_path: Path
) -> None:
    now = [100.0]
    lookup = WifiLookup(tmp_path / "state", clock=lambda: now[0])
    assert lookup.now() == Wifi()
    assert hotspot(tmp_path, "on", "--ssid", "Mended Drum", "--password", "gnuterry") == 0
    asked = len(fake.calls())
    assert lookup.now() == Wifi()  # the answer of a moment ago
    assert len(fake.calls()) == asked
    now[0] += LOOK_AGAIN_SECONDS
    assert lookup.now() == Wifi("10.42.0.1", Settings("Mended Drum", "gnuterry"))
    # a network renamed by hand since: its password is not known to be the one kept
    fake.load()["connections"][CONNECTION]["802-11-wireless.ssid"] = "Renamed"
    fake.save()
    now[0] += LOOK_AGAIN_SECONDS
    assert lookup.now() == Wifi("10.42.0.1", None)
    assert hotspot(tmp_path, "off") == 0
    now[0] += LOOK_AGAIN_SECONDS
    assert lookup.now() == Wifi()


def test_no_network_manager_at_all_is_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert hotspot(tmp_path, "on", "--password", "gnuterry") == 1
    assert "NetworkManager's nmcli is not installed" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--ssid", "x" * 33], "1 to 32 bytes long (this one is 33)"),
        (["--ssid", "Čtvrť " * 6], "1 to 32 bytes long (this one is 48)"),
        (["--ssid", ""], "1 to 32 bytes long (this one is 0)"),
        (["--password", "short"], "8 to 63 characters long (this one is 5)"),
        (["--password", "p" * 64], "8 to 63 characters long (this one is 64)"),
        (["--password", "heslo-žluťoučký"], "only printable ASCII"),
    ],
)
def test_options_out_of_bounds_are_refused_before_network_manager_is_asked(
    fake: FakeNetworkManager,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    words: str,
) -> None:
    assert hotspot(tmp_path, "on", *arguments) == 1
    assert words in capsys.readouterr().err
    assert fake.calls() == []


def test_a_damaged_settings_file_is_written_again(fake: FakeNetworkManager, tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "hotspot.json").write_text('{"ssid": "x", "pass')
    assert hotspot(tmp_path, "on") == 0
    settings = load_settings(tmp_path / "state")
    assert settings is not None and len(settings.password) == 12
    assert not [p for p in os.listdir(tmp_path / "state") if p.startswith(".")]


def unescape_wifi(payload: str) -> dict[str, str]:
    """Reads a ``WIFI:`` payload back the way a phone's camera does."""
    assert payload.startswith("WIFI:") and payload.endswith(";;")
    fields: dict[str, str] = {}
    name, value, escaped, in_value = "", "", False, False
    for char in payload[5:-1]:
        if escaped:
            value, escaped = value + char, False
        elif char == "\\":
            escaped = True
        elif not in_value and char == ":":
            in_value = True
        elif char == ";":
            fields[name], name, value, in_value = value, "", "", False
        elif in_value:
            value += char
        else:
            name += char
    return fields


def test_the_wifi_payload_escapes_what_the_format_reserves() -> None:
    payload = wifi_qr_payload('Bar; "Mended Drum":2,', 'a\\b;c,d:e"f')
    assert payload == 'WIFI:T:WPA;S:Bar\\; \\"Mended Drum\\"\\:2\\,;P:a\\\\b\\;c\\,d\\:e\\"f;;'


@given(
    ssid=st.text(
        st.characters(min_codepoint=0x20, max_codepoint=0x17F, exclude_categories=["Cc"]),
        min_size=1,
    ).filter(lambda s: len(s.encode()) <= 32),
    password=st.text(
        st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=8, max_size=63
    ),
)
def test_every_allowed_network_reads_back_from_its_payload(ssid: str, password: str) -> None:
    check_ssid(ssid)
    check_password(password)
    fields = unescape_wifi(wifi_qr_payload(ssid, password))
    assert fields == {"T": "WPA", "S": ssid, "P": password}


def test_terse_fields_split_only_at_unescaped_colons() -> None:
    assert terse_fields("Bar\\:2:wifi:connected") == ["Bar:2", "wifi", "connected"]
    assert terse_fields("a\\\\:b") == ["a\\", "b"]
    with pytest.raises(HotspotError):
        check_ssid("tab\there")
