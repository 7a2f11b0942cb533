"""`clacks hardware` and the hardware section of `clacks bench`."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from gpiozero import Device

from clacks.cli import main
from firmware import cli as hardware
from firmware.config import DEFAULT_BUTTON_PINS, BoardConfig, load_config
from firmware.power import power_budget_markdown


@pytest.fixture(autouse=True)
def no_settings_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CLACKS_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


def test_power_prints_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "power"]) == 0
    assert capsys.readouterr().out == power_budget_markdown()


def test_config_default_is_a_file_the_loader_reads(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["hardware", "config", "--default"]) == 0
    path = tmp_path / "config.toml"
    path.write_text(capsys.readouterr().out)
    assert load_config(path).leds == BoardConfig().leds


def test_a_broken_settings_file_is_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[buttons.pins]\na2b2 = 10\n")
    assert main(["hardware", "--config", str(path), "config"]) == 2
    assert "GPIO10 is SPI0 MOSI" in capsys.readouterr().err


def test_status_reports_the_drivers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "status"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["leds"]["backend"] == "simulator"
    assert status["buttons"]["names"] == list(DEFAULT_BUTTON_PINS)


def test_attract_draws_the_message_in_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "attract", "--seconds", "1.0", "--terminal"]) == 0
    out = capsys.readouterr().out
    assert "GNU TERRY PRATCHETT" in out
    assert out.count("     a   b   c   d") >= 2  # the first symbol, and the gap after it
    assert "\x1b[48;2;" in out


def test_hardware_test_walks_the_lamps_and_reports_presses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    # gpiozero keeps the first pin factory it made for every later device: one an earlier
    # test made (on a Raspberry Pi, its own pins' factory) would be used instead of the mock
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = None
    out = io.StringIO()
    pressed_during_listen: list[float] = []

    def sleep(seconds: float) -> None:
        if seconds == 5.0:  # the listening period: press two buttons
            factory = Device.pin_factory
            for gpio in (DEFAULT_BUTTON_PINS["b2c2"], DEFAULT_BUTTON_PINS["c1c2"]):
                factory.pin(gpio).drive_low()
                factory.pin(gpio).drive_high()
            pressed_during_listen.append(seconds)

    parser = argparse.ArgumentParser()
    hardware.add_arguments(parser)
    args = parser.parse_args(["test", "--seconds", "5"])
    try:
        assert hardware.run(args, out=out, sleep=sleep) == 0
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = None
    text = out.getvalue()
    lamps = [line.strip() for line in text.splitlines() if len(line.strip()) == 2]
    assert lamps[:4] == ["a1", "b1", "c1", "d1"] and lamps[-1] == "d4" and len(lamps) == 16
    assert "buttons: gpio" in text
    assert "pressed b2c2" in text and "pressed c1c2" in text
    assert pressed_during_listen == [5.0]


def test_bench_hardware_section_prints_button_to_frame_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--json", "--only", "hardware", "--quick"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["button_presses_measured"] == 60
    assert figures["button_presses_missed"] == 0
    p50, p99 = figures["button_to_frame_p50_ms"], figures["button_to_frame_p99_ms"]
    assert 0 < p50 <= p99 <= figures["button_to_frame_max_ms"]
    assert figures["render_tick_us_median"] > 0
