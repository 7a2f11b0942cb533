"""The LED drivers: which one starts, and when one cannot, the warning that names the
cause and its fix (firmware/diagnose.py), on the table screen's status and in
`clacks hardware status`.

The Adafruit libraries are installed for the tests (the `spi` path runs them for real,
down to the wire, in test_firmware_spi_wire.py). Here the drivers' packages are replaced,
where a test says so, by stand-ins at the package boundary: the Raspberry Pi 5 driver and
rpi_ws281x are C extensions for ARM that cannot load on this machine, so the Pi 5 sink is
checked against the call its package offers (`neopixel_write(pin, buffer)`, reading only
`getattr(pin, "_pin", pin).id` and the buffer, as its C++ does), and the pwm sink against
adafruit-circuitpython-neopixel's NeoPixel class. The machine (its /dev, its boot
settings, its user) is a temporary directory.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from firmware_support import OTHER_USER

from engine.core.interface import LampFrame
from firmware import drivers
from firmware.config import BoardConfig, LedConfig
from firmware.diagnose import PROBLEMS, Machine, Unavailable
from firmware.drivers import GpioNumber, order_bytes
from firmware.factory import create_board
from firmware.pixelmap import PixelMap

ROOT = Path(__file__).resolve().parent.parent
AMBER = (153, 54, 3)
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"

FAKE_BOARD = """
class Pin:
    def __init__(self, id):
        self.id = id
for _n in range(28):
    globals()[f"D{_n}"] = Pin(_n)
SPI_FAILS = None
def SPI():
    if SPI_FAILS:
        raise SPI_FAILS
    return "spi0"
"""
FAKE_PIXELS = """
shown = []
closed = []
class _Strip:
    def __init__(self, target, n, *, pixel_order, auto_write, brightness, **kw):
        assert not auto_write and brightness == 1.0
        self.target, self.order, self.values = target, pixel_order, [(0, 0, 0)] * n
    def __setitem__(self, i, v):
        self.values[i] = tuple(v)
    def fill(self, v):
        self.values = [tuple(v)] * len(self.values)
    def show(self):
        shown.append((self.target, self.order, list(self.values)))
    def deinit(self):
        closed.append(self.target)
"""
# the Pi 5 package's two calls, taking their arguments as its C++ does
FAKE_PI5 = """
written = []
freed = []
FAILS = None
def neopixel_write(gpio, buf):
    gpio_number = int(getattr(gpio, "_pin", gpio).id)
    if FAILS:
        raise RuntimeError(FAILS)
    written.append((gpio_number, bytes(memoryview(buf).cast("B"))))
def free_pio():
    freed.append(True)
"""
FAKE_MODULES = ("board", "neopixel_spi", "neopixel", "adafruit_raspberry_pi5_neopixel_write")


@pytest.fixture
def fake_drivers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    packages = tmp_path / "packages"
    packages.mkdir()
    (packages / "board.py").write_text(FAKE_BOARD)
    (packages / "neopixel_spi.py").write_text(FAKE_PIXELS + "NeoPixel_SPI = _Strip\n")
    (packages / "neopixel.py").write_text(
        FAKE_PIXELS + "FAILS = None\n"
        "class NeoPixel(_Strip):\n"
        "    def __init__(self, *a, **k):\n"
        "        if FAILS:\n"
        "            raise RuntimeError(FAILS)\n"
        "        super().__init__(*a, **k)\n"
    )
    (packages / "adafruit_raspberry_pi5_neopixel_write.py").write_text(FAKE_PI5)
    monkeypatch.syspath_prepend(str(packages))
    for name in FAKE_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield packages
    # the stand-ins imported by the test must not stay importable for later tests here
    for name in FAKE_MODULES:
        sys.modules.pop(name, None)


def machine(
    tmp_path: Path,
    devices: tuple[str, ...] = (),
    boot: str | None = "",
    euid: int = OTHER_USER,
    denied: tuple[str, ...] = (),
) -> Machine:
    """A Raspberry Pi as the checks see it: these device files, this config.txt (None:
    none at all), this user, and the devices it may not use."""
    dev = tmp_path / "dev"
    dev.mkdir(parents=True, exist_ok=True)
    for name in devices:
        (dev / name).write_bytes(b"")
        # open to its owner (who runs the tests) alone, and ``euid`` is someone else, so a
        # denial reads as the permissions' (the sandbox's case, a device the mode opens
        # and that is still denied, is set up on its own)
        (dev / name).chmod(0o600)
    config = tmp_path / "config.txt"
    if boot is not None:
        config.write_text(boot)
    return Machine(
        dev=dev,
        boot_configs=(config,),
        euid=euid,
        may_use=lambda path: path.name not in denied,
    )


def config_with(**leds: object) -> BoardConfig:
    return BoardConfig(leds=dataclasses.replace(LedConfig(), **leds))  # type: ignore[arg-type]


def only_warning(board: object) -> str:
    status = board.status()  # type: ignore[attr-defined]
    assert status["leds"]["backend"] == "simulator"
    (warning,) = status["warnings"]
    assert isinstance(warning, str)
    return warning


def test_every_problem_states_a_cause_and_a_fix() -> None:
    for key, problem in PROBLEMS.items():
        values = {
            name: "x"
            for name in ("module", "package", "extra", "error", "device", "config", "owner")
        }
        values |= {"user": "clacks", "model": PI4}
        error = Unavailable(key, **values)
        assert problem.summary in error.cause, key
        assert str(error) == f"{error.cause}; to fix: {error.fix}"


# ------------------------------------------------------------------ missing packages


@pytest.mark.parametrize(
    ("backend", "model", "hidden", "package"),
    [
        ("spi", PI4, "board", "adafruit-blinka"),
        ("spi", PI4, "neopixel_spi", "adafruit-circuitpython-neopixel-spi"),
        ("pwm", PI4, "neopixel", "adafruit-circuitpython-neopixel"),
        ("pi5", PI5, "adafruit_raspberry_pi5_neopixel_write", "adafruit-blinka-raspberry-pi5-neopixel"),
    ],
)
def test_a_missing_package_is_named_with_the_command_that_installs_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, backend: str, model: str, hidden: str, package: str
) -> None:
    monkeypatch.setitem(sys.modules, hidden, None)  # import raises ModuleNotFoundError
    board = create_board(config_with(backend=backend), model=model, machine=machine(tmp_path))
    warning = only_warning(board)
    assert f"LED driver '{backend}' unavailable" in warning
    assert f"the Python module '{hidden}' ({package}) is not installed" in warning
    assert f"to fix: run 'sudo systemd/install.sh --led {backend}'" in warning
    assert f"pip install 'clacks-exchange[{backend}]'" in warning
    assert (ROOT / "systemd" / "install.sh").is_file()  # the script the warning names
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert backend in extras  # the extra the warning names exists


@pytest.mark.parametrize(
    ("hidden", "package"), [("gpiod", "python3-libgpiod"), ("spidev", "python3-spidev")]
)
def test_a_missing_system_library_is_named_with_its_raspberry_pi_os_package(
    monkeypatch: pytest.MonkeyPatch, hidden: str, package: str
) -> None:
    # Blinka's Raspberry Pi pins import gpiod, its SPI spidev: Raspberry Pi OS's own
    # packages, which the companion's venv sees from the system
    monkeypatch.setitem(sys.modules, hidden, None)
    with pytest.raises(Unavailable) as raised:
        drivers._import(hidden, "spi")
    warning = str(raised.value)
    assert f"the Python module '{hidden}' is missing: it comes with Raspberry Pi OS as {package}" in warning
    assert f"to fix: sudo apt install {package}, then run 'sudo systemd/install.sh' again" in warning


# ------------------------------------------------------------------ spi


def test_spi_driver_gets_the_mapped_frame_and_turns_off(fake_drivers: Path, tmp_path: Path) -> None:
    config = config_with(serpentine=True, rotation=90)
    board = create_board(config, model=PI4, machine=machine(tmp_path, ("spidev0.0",)))
    neopixel_spi = importlib.import_module("neopixel_spi")

    assert board.status()["leds"]["backend"] == "spi"
    assert neopixel_spi.shown[0][2] == [(0, 0, 0)] * 16  # all off as soon as it opens
    board.show(LampFrame(lit=0b1))  # a1 only
    board.renderer.tick()
    target, order, values = neopixel_spi.shown[-1]
    assert (target, order) == ("spi0", "GRB")
    led = PixelMap(serpentine=True, rotation=90).leds[0]
    assert values[led] == AMBER
    assert sum(1 for v in values if v != (0, 0, 0)) == 1
    board.stop()
    assert neopixel_spi.shown[-1][2] == [(0, 0, 0)] * 16
    assert neopixel_spi.closed == ["spi0"]


def test_spi_off_says_how_to_turn_it_on(fake_drivers: Path, tmp_path: Path) -> None:
    stock = "# Uncomment some or all of these\n#dtparam=spi=on\ndtparam=audio=on\n"
    board = create_board(BoardConfig(), model=PI4, machine=machine(tmp_path, boot=stock))
    warning = only_warning(board)
    assert "SPI is off" in warning
    assert f"{tmp_path}/dev/spidev0.0 is absent and {tmp_path}/config.txt does not turn it on" in warning
    assert "to fix: sudo systemd/boot-config.sh --led spi && sudo reboot" in warning


def test_spi_turned_on_but_not_yet_rebooted_asks_for_the_reboot(
    fake_drivers: Path, tmp_path: Path
) -> None:
    written = "dtparam=audio=on\n[all]\ndtparam=spi=on\n[pi4]\ncore_freq=500\n"
    board = create_board(BoardConfig(), model=PI4, machine=machine(tmp_path, boot=written))
    warning = only_warning(board)
    assert "SPI is turned on in" in warning and "not there until the Pi restarts" in warning
    assert warning.count("to fix: sudo reboot") == 1


def test_spi_device_closed_to_the_user_names_the_group(fake_drivers: Path, tmp_path: Path) -> None:
    here = machine(tmp_path, ("spidev0.0",), denied=("spidev0.0",))
    board = create_board(BoardConfig(), model=PI4, machine=here)
    warning = only_warning(board)
    assert "spidev0.0 (" in warning and "is not open to the user" in warning
    assert f"sudo usermod -aG spi {here.user()}" in warning


@pytest.mark.parametrize(("device", "model"), [("spidev0.0", PI4), ("pio0", PI5)])
def test_a_device_its_mode_opens_yet_denied_names_the_service_sandbox(
    fake_drivers: Path, tmp_path: Path, device: str, model: str
) -> None:
    # what the service's DeviceAllow does to a device it does not list: the group and
    # the mode let the user in, the kernel still says no, and usermod would change nothing
    here = machine(tmp_path, (device,), denied=(device,))
    (here.dev / device).chmod(0o666)
    warning = only_warning(create_board(BoardConfig(), model=model, machine=here))
    assert f"{device} (" in warning and "yet denied to it: the service's sandbox" in warning
    assert "DeviceAllow in clacks.service" in warning
    assert "sudo systemd/install.sh' again" in warning and "usermod" not in warning


def test_spi_refused_by_the_kernel_is_reported(fake_drivers: Path, tmp_path: Path) -> None:
    blinka_board: Any = importlib.import_module("board")
    blinka_board.SPI_FAILS = PermissionError(13, "Permission denied", "/dev/spidev0.0")
    board = create_board(BoardConfig(), model=PI4, machine=machine(tmp_path, ("spidev0.0",)))
    assert "is not open to the user" in only_warning(board)
    blinka_board.SPI_FAILS = OSError("Invalid argument")
    board = create_board(BoardConfig(), model=PI4, machine=machine(tmp_path, ("spidev0.0",)))
    warning = only_warning(board)
    assert "SPI could not be opened (Invalid argument)" in warning


# ------------------------------------------------------------------ pwm

AUDIO_OFF = "#dtparam=audio=on\n[all]\ndtparam=audio=off\n"


def test_pwm_driver_uses_gpio18_as_root(fake_drivers: Path, tmp_path: Path) -> None:
    here = machine(tmp_path, boot=AUDIO_OFF, euid=0)
    board = create_board(config_with(backend="pwm"), model=PI4, machine=here)
    neopixel: Any = importlib.import_module("neopixel")
    board.show(LampFrame(lit=0))
    board.renderer.tick()
    assert board.status()["leds"]["backend"] == "pwm"
    assert neopixel.shown[-1][0].id == 18
    neopixel.FAILS = "ws2811_init failed with code -9 (Failed to create mailbox device)"
    refused = create_board(config_with(backend="pwm"), model=PI4, machine=here)
    warning = only_warning(refused)
    assert "the PWM NeoPixel driver failed (ws2811_init failed with code -9" in warning
    assert 'to fix: set leds.backend = "spi"' in warning


def test_pwm_not_as_root_says_so(fake_drivers: Path, tmp_path: Path) -> None:
    here = machine(tmp_path, boot=AUDIO_OFF, euid=1000)
    warning = only_warning(create_board(config_with(backend="pwm"), model=PI4, machine=here))
    assert f"the pwm backend needs root (rpi_ws281x maps /dev/mem) and this runs as {here.user()}" in warning
    assert "sudo systemd/install.sh --led pwm" in warning
    assert "neopixel" not in sys.modules or not importlib.import_module("neopixel").shown


def test_pwm_with_the_audio_on_says_how_to_turn_it_off(fake_drivers: Path, tmp_path: Path) -> None:
    here = machine(tmp_path, boot="dtparam=audio=on\n", euid=0)
    warning = only_warning(create_board(config_with(backend="pwm"), model=PI4, machine=here))
    assert "the onboard audio is on in" in warning
    assert "sudo systemd/boot-config.sh --led pwm && sudo reboot" in warning


def test_pwm_on_a_pi5_points_to_the_pi5_backend(fake_drivers: Path, tmp_path: Path) -> None:
    here = machine(tmp_path, boot=AUDIO_OFF, euid=0)
    warning = only_warning(create_board(config_with(backend="pwm"), model=PI5, machine=here))
    assert "does not run on a Raspberry Pi 5" in warning and '"pi5"' in warning


# ------------------------------------------------------------------ pi5


def test_pi5_driver_needs_no_blinka_and_writes_grb_on_the_pin(
    fake_drivers: Path, tmp_path: Path
) -> None:
    (fake_drivers / "board.py").write_text('raise AssertionError("the pi5 sink imported Blinka")')
    board = create_board(BoardConfig(), model=PI5, machine=machine(tmp_path, ("pio0",)))
    pi5: Any = importlib.import_module("adafruit_raspberry_pi5_neopixel_write")

    assert board.status()["leds"]["backend"] == "pi5"
    assert "board" not in sys.modules
    assert pi5.written[0] == (10, bytes(48))  # all off as soon as it opens
    board.show(LampFrame(lit=1 << 15))  # d4, LED 3 on an unturned matrix
    board.renderer.tick()
    pin, data = pi5.written[-1]
    assert pin == 10 and len(data) == 48
    assert data[9:12] == bytes([54, 153, 3])  # G, R, B
    assert data[:9] == bytes(9) and data[12:] == bytes(36)
    board.stop()
    assert pi5.written[-1] == (10, bytes(48))
    assert pi5.freed == [True]


def test_pi5_driver_takes_the_configured_pin(fake_drivers: Path, tmp_path: Path) -> None:
    board = create_board(config_with(pin=21), model=PI5, machine=machine(tmp_path, ("pio0",)))
    pi5: Any = importlib.import_module("adafruit_raspberry_pi5_neopixel_write")
    assert board.status()["leds"]["backend"] == "pi5"
    assert {pin for pin, _ in pi5.written} == {21}
    assert GpioNumber(21).id == 21 and repr(GpioNumber(21)) == "GPIO21"


def test_pi5_without_the_pio_device_asks_for_a_newer_kernel(
    fake_drivers: Path, tmp_path: Path
) -> None:
    warning = only_warning(create_board(BoardConfig(), model=PI5, machine=machine(tmp_path)))
    assert "pio0 is absent: this kernel has no driver for the Raspberry Pi 5's PIO" in warning
    assert "sudo apt update && sudo apt full-upgrade && sudo reboot" in warning


def test_pi5_pio_closed_to_the_user_points_to_the_udev_rule(
    fake_drivers: Path, tmp_path: Path
) -> None:
    here = machine(tmp_path, ("pio0",), denied=("pio0",))
    warning = only_warning(create_board(BoardConfig(), model=PI5, machine=here))
    assert "pio0 (" in warning and f"is not open to the user {here.user()}" in warning
    assert "sudo systemd/install.sh --led pi5' again: it adds the udev rule" in warning


def test_pi5_pio_refused_by_the_driver_is_read_as_a_permission_problem(
    fake_drivers: Path, tmp_path: Path
) -> None:
    pi5: Any = importlib.import_module("adafruit_raspberry_pi5_neopixel_write")
    pi5.FAILS = "Failed to open PIO device (error -13)"  # the driver's words for EACCES
    warning = only_warning(
        create_board(BoardConfig(), model=PI5, machine=machine(tmp_path, ("pio0",)))
    )
    assert "is not open to the user" in warning
    pi5.FAILS = "pio_sm_xfer_data() failed"
    warning = only_warning(
        create_board(BoardConfig(), model=PI5, machine=machine(tmp_path, ("pio0",)))
    )
    assert "the Raspberry Pi 5's PIO could not be used (pio_sm_xfer_data() failed)" in warning


def test_pi5_on_another_board_says_so(fake_drivers: Path, tmp_path: Path) -> None:
    board = create_board(
        config_with(backend="pi5"), model=PI4, machine=machine(tmp_path, ("pio0",))
    )
    warning = only_warning(board)
    assert f"the pi5 backend needs a Raspberry Pi 5, and this is {PI4}" in warning


def test_order_bytes() -> None:
    assert order_bytes([(1, 2, 3)], "GRB") == bytearray([2, 1, 3])
    assert order_bytes([(1, 2, 3), (4, 5, 6)], "BGR") == bytearray([3, 2, 1, 6, 5, 4])


# ------------------------------------------------------------------ the boot settings read


def test_dtparams_are_read_as_the_firmware_reads_them(tmp_path: Path) -> None:
    here = machine(
        tmp_path, boot="dtparam=audio=on\ndtparam=i2c_arm=on,spi  # both\n#dtparam=x=on\n"
    )
    assert here.dtparams() == {"audio": "on", "i2c_arm": "on", "spi": "on"}
    assert machine(tmp_path / "no-boot", boot=None).dtparams() == {}
