"""The Raspberry Pi boot settings each LED driver needs: systemd/boot-config.sh edits a
copy of Raspberry Pi OS Bookworm's stock config.txt, as install.sh has it do on a Pi."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOT_CONFIG = ROOT / "systemd" / "boot-config.sh"

# /boot/firmware/config.txt as Raspberry Pi OS Bookworm ships it
STOCK = """\
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / UART allow
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""


def run(config: Path, led: str, model: str | None = None) -> subprocess.CompletedProcess[str]:
    args = ["bash", str(BOOT_CONFIG), "--led", led, "--config", str(config)]
    if model is not None:
        model_file = config.parent / "model"
        model_file.write_bytes(model.encode() + b"\0")  # as the device tree has it
        args += ["--model-file", str(model_file)]
    result = subprocess.run(args, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result


def sections(text: str) -> dict[str, list[str]]:
    """The settings in force per config.txt filter section ([all] for the unfiltered
    lines), comments and blank lines left out."""
    found: dict[str, list[str]] = {}
    section = "all"
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        found.setdefault(section, []).append(line)
    return found


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.txt"
    path.write_text(STOCK)
    return path


def test_spi_turns_spi_on_and_holds_the_core_clock_per_model(config: Path) -> None:
    result = run(config, "spi")
    assert "reboot" in result.stderr
    settings = sections(config.read_text())
    assert "dtparam=spi=on" in settings["all"]
    assert "dtparam=audio=on" in settings["all"]  # the audio is not the SPI's business
    assert settings["pi3"] == ["core_freq=250"]  # Pi 3, 3B+, 3A+
    assert settings["pi02"] == ["core_freq=250"]  # Zero 2 W
    assert settings["pi4"] == ["core_freq=500", "core_freq_min=500"]  # Pi 4, 400
    assert "pi5" not in settings  # its SPI runs from the RP1's own clock
    # the block starts and ends in [all], so neither it nor what follows lands in [cm5]
    assert settings["cm5"] == ["dtoverlay=dwc2,dr_mode=host"]
    assert config.read_text().rstrip().splitlines()[-2] == "[all]"
    assert config.read_text().startswith(STOCK)
    assert (config.parent / "config.txt.clacks-backup").read_text() == STOCK


def test_pwm_turns_the_onboard_audio_off(config: Path) -> None:
    run(config, "pwm")
    text = config.read_text()
    settings = sections(text)
    assert "dtparam=audio=on" not in settings["all"]
    assert settings["all"][-1] == "dtparam=audio=off"
    assert "dtparam=spi=on" not in settings["all"]
    assert "#dtparam=audio=on  # off for the PWM LEDs on GPIO18" in text


def test_pi5_needs_no_spi_and_warns_when_spi_holds_gpio10(config: Path) -> None:
    result = run(config, "pi5")
    assert config.read_text() == STOCK
    assert "warning" not in result.stderr
    # someone turned SPI on for something else: it claims GPIO10, the pi5 data pin
    config.write_text(STOCK.replace("#dtparam=spi=on", "dtparam=spi=on"))
    result = run(config, "pi5")
    assert "warning: SPI0 is on" in result.stderr and "leds.pin" in result.stderr
    assert "dtparam=spi=on" in sections(config.read_text())["all"]  # theirs: left alone


@pytest.mark.parametrize("led", ["spi", "pwm", "pi5", "simulator"])
def test_running_again_changes_nothing(config: Path, led: str) -> None:
    run(config, led)
    first = config.read_text()
    result = run(config, led)
    assert config.read_text() == first
    assert "already has" in result.stderr


def test_another_driver_replaces_the_settings_and_restores_the_audio(config: Path) -> None:
    run(config, "pwm")
    run(config, "spi")
    settings = sections(config.read_text())
    assert "dtparam=audio=on" in settings["all"] and "dtparam=audio=off" not in settings["all"]
    assert "dtparam=spi=on" in settings["all"]
    run(config, "simulator")
    assert config.read_text() == STOCK
    assert (config.parent / "config.txt.clacks-backup").read_text() == STOCK


def test_auto_follows_the_board(config: Path) -> None:
    run(config, "auto", model="Raspberry Pi 5 Model B Rev 1.0")
    assert config.read_text() == STOCK
    run(config, "auto", model="Raspberry Pi Zero 2 W Rev 1.0")
    assert sections(config.read_text())["pi02"] == ["core_freq=250"]


def test_a_machine_without_config_txt_is_left_alone(tmp_path: Path) -> None:
    result = run(tmp_path / "config.txt", "spi")
    assert "left alone" in result.stderr
    assert not (tmp_path / "config.txt").exists()


def test_bad_options_are_refused(config: Path) -> None:
    for args, message in (
        (["--led", "laser"], "--led must be"),
        ([], "say which LED driver"),
        (["--led", "spi", "--frobnicate"], "unknown option"),
    ):
        result = subprocess.run(
            ["bash", str(BOOT_CONFIG), *args], capture_output=True, text=True, timeout=30
        )
        assert result.returncode == 2 and message in result.stderr
    assert config.read_text() == STOCK
