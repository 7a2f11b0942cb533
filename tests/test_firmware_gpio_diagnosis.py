"""When the tower buttons cannot start on a Raspberry Pi, the warning names the cause
that comes first: a /dev/gpiochip the user may not open (gpiozero reports it as "no pin
library", since lgpio fails to open the chip) before a missing pin library.

Real gpiozero runs with no pin factory, as on the Pi; on this machine it loads none
(BadPinFactory), which is what it does on a Pi whose /dev/gpiochip0 the user may not
open. The machine's /dev is a temporary directory, and whether the user may open a
device is decided there, since the tests run as root, who may open anything.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from firmware_support import OTHER_USER

from firmware.buttons import _diagnose
from firmware.config import BoardConfig, ButtonConfig, LedConfig
from firmware.diagnose import Machine
from firmware.factory import create_board

PI4 = "Raspberry Pi 4 Model B Rev 1.5"


class BadPinFactory(Exception):
    """What gpiozero raises when it loads no pin library (matched by name, as gpiozero's is)."""


def machine_with_chip(tmp_path: Path, *, open_to_user: bool, mode: int = 0o600) -> Machine:
    """A /dev with a gpiochip0 of this mode (by default open to its owner alone), seen by
    a user who is neither its owner nor root."""
    (tmp_path / "gpiochip0").write_bytes(b"")
    (tmp_path / "gpiochip0").chmod(mode)
    return Machine(dev=tmp_path, euid=OTHER_USER, may_use=lambda path: open_to_user)


def button_warning(machine: Machine) -> str:
    config = BoardConfig(
        leds=dataclasses.replace(LedConfig(), backend="simulator"),
        buttons=dataclasses.replace(ButtonConfig(), backend="gpio"),
    )
    board = create_board(config, model=PI4, machine=machine)
    board.start()
    try:
        warnings = board.status()["warnings"]
    finally:
        board.stop()
    (warning,) = [w for w in warnings if "GPIO" in w or "gpio" in w]
    return str(warning)


def test_an_unreadable_gpio_chip_names_the_gpio_group(tmp_path: Path) -> None:
    warning = button_warning(machine_with_chip(tmp_path, open_to_user=False))
    assert f"{tmp_path}/gpiochip0 (" in warning and "is not open to the user" in warning
    assert "sudo usermod -aG gpio" in warning
    assert "lgpio" not in warning


@pytest.mark.parametrize("euid", [0, OTHER_USER])
def test_a_chip_its_mode_opens_yet_denied_names_the_service_sandbox(
    tmp_path: Path, euid: int
) -> None:
    # the service's DeviceAllow without the chip: lgpio cannot open it though its mode
    # (or being root) lets the user in, so adding the user to gpio would change nothing
    machine = dataclasses.replace(
        machine_with_chip(tmp_path, open_to_user=False, mode=0o666), euid=euid
    )
    warning = button_warning(machine)
    assert "yet denied to it: the service's sandbox does not list it" in warning
    assert "sudo systemd/install.sh' again" in warning and "usermod" not in warning


def test_a_readable_chip_without_a_pin_library_asks_to_install_again(tmp_path: Path) -> None:
    problem = _diagnose(
        BadPinFactory("Unable to load any default pin factory!"),
        machine_with_chip(tmp_path, open_to_user=True),
        has_lgpio=lambda: True,
    )
    assert problem.key == "gpio-no-library"
    assert "brings lgpio" in problem.fix and "apt install" not in problem.fix


def test_no_gpio_chip_with_lgpio_installed_says_the_chip_is_absent(tmp_path: Path) -> None:
    # a chroot or container without /dev/gpiochip0: lgpio cannot open a chip that is not there
    problem = _diagnose(
        BadPinFactory("Unable to load any default pin factory!"),
        Machine(dev=tmp_path, may_use=lambda path: True),
        has_lgpio=lambda: True,
    )
    assert problem.key == "gpio-no-chip"
    assert f"{tmp_path}/gpiochip0 is absent" in problem.cause and "brings lgpio" not in problem.fix


@pytest.mark.parametrize("has_lgpio", [False, True])
def test_the_sysfs_fallback_without_lgpio_is_a_missing_library(
    tmp_path: Path, has_lgpio: bool
) -> None:
    # gpiozero without lgpio on a Pi 4 falls back to sysfs, which Bookworm refuses
    refused = OSError(22, "Invalid argument", "/sys/class/gpio/export")
    problem = _diagnose(
        refused, machine_with_chip(tmp_path, open_to_user=True), has_lgpio=lambda: has_lgpio
    )
    assert problem.key == ("gpio-failed" if has_lgpio else "gpio-no-library")
