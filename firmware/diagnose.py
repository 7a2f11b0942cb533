"""Why a LED or button driver cannot start on this machine, and the one command or
setting that fixes it.

A driver's own error names a symptom ("/dev/spidev0.0 does not exist", "ws2811_init
failed with code -5", "Failed to open PIO device (error -13)"). The checks here look first
at what the driver is about to use (its Python modules, its device file, the boot
settings, the user it runs as), so the warning on the table screen and in `clacks
hardware status` names the cause and its fix. hardware/README.md's troubleshooting table
has a row for every problem listed here; a test keeps the two in step.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    summary: str  # words every warning of this kind contains, as the README table quotes them
    cause: str  # str.format templates
    fix: str
    example: tuple[tuple[str, str], ...] = ()  # the values hardware/README.md shows


INSTALL = "sudo systemd/install.sh"
PROBLEMS: dict[str, Problem] = {
    "module-missing": Problem(
        "is not installed",
        "the Python module {module!r} ({package}) is not installed",
        f"run '{INSTALL} --led {{extra}}' (it installs that driver's packages, "
        "clacks-exchange[{extra}]; elsewhere: pip install 'clacks-exchange[{extra}]')",
        (("module", "neopixel_spi"), ("package", "adafruit-circuitpython-neopixel-spi"),
         ("extra", "spi")),
    ),
    "system-module-missing": Problem(
        "comes with Raspberry Pi OS",
        "the Python module {module!r} is missing: it comes with Raspberry Pi OS as "
        "{package}, which the companion uses from the system",
        f"sudo apt install {{package}}, then run '{INSTALL}' again",
        (("module", "gpiod"), ("package", "python3-libgpiod")),
    ),
    "library-failed": Problem(
        "cannot start",
        "{package} cannot start ({error})",
        f"run '{INSTALL}' again, which installs the versions it needs",
        (("package", "adafruit-blinka"), ("error", "RuntimeError: ...")),
    ),
    "not-a-pi": Problem(
        "is not a Raspberry Pi",
        "this machine is not a Raspberry Pi that {package} knows ({error})",
        'set leds.backend = "auto" in the settings (the lamps are then drawn on the '
        "table screen)",
        (("package", "adafruit-blinka"), ("error", "NotImplementedError: ...")),
    ),
    "spi-off": Problem(
        "SPI is off",
        "SPI is off: {device} is absent and {config} does not turn it on",
        "sudo systemd/boot-config.sh --led spi && sudo reboot",
        (("device", "/dev/spidev0.0"), ("config", "/boot/firmware/config.txt")),
    ),
    "spi-reboot": Problem(
        "not there until the Pi restarts",
        "SPI is turned on in {config}, but {device} is not there until the Pi restarts",
        "sudo reboot",
        (("device", "/dev/spidev0.0"), ("config", "/boot/firmware/config.txt")),
    ),
    "spi-denied": Problem(
        "not open to the user",
        "{device} ({owner}) is not open to the user {user}",
        "sudo usermod -aG spi {user}, then restart the companion "
        "(sudo systemctl restart clacks)",
        (("device", "/dev/spidev0.0"), ("owner", "root:root, mode 0600"), ("user", "clacks")),
    ),
    "spi-failed": Problem(
        "SPI could not be opened",
        "SPI could not be opened ({error})",
        "sudo systemd/boot-config.sh --led spi && sudo reboot",
        (("error", "..."),),
    ),
    "pwm-root": Problem(
        "needs root",
        "the pwm backend needs root (rpi_ws281x maps /dev/mem) and this runs as {user}",
        'set leds.backend = "spi" in the settings (no root needed), or install the '
        "service for pwm: sudo systemd/install.sh --led pwm",
        (("user", "clacks"),),
    ),
    "pwm-audio": Problem(
        "onboard audio is on",
        "the onboard audio is on in {config}; it uses the PWM block that drives the LED "
        "data on GPIO18",
        "sudo systemd/boot-config.sh --led pwm && sudo reboot",
        (("config", "/boot/firmware/config.txt"),),
    ),
    "pwm-pi5": Problem(
        "does not run on a Raspberry Pi 5",
        "the pwm backend (rpi_ws281x) does not run on a Raspberry Pi 5",
        'set leds.backend = "auto" (or "pi5") in the settings',
    ),
    "pwm-failed": Problem(
        "PWM NeoPixel driver failed",
        "the PWM NeoPixel driver failed ({error})",
        'set leds.backend = "spi" in the settings',
        (("error", "ws2811_init failed with code ..."),),
    ),
    "pi5-other-board": Problem(
        "needs a Raspberry Pi 5",
        "the pi5 backend needs a Raspberry Pi 5, and this is {model}",
        'set leds.backend = "auto" in the settings',
        (("model", "Raspberry Pi 4 Model B Rev 1.5"),),
    ),
    "pio-absent": Problem(
        "no driver for the Raspberry Pi 5's PIO",
        "{device} is absent: this kernel has no driver for the Raspberry Pi 5's PIO",
        "sudo apt update && sudo apt full-upgrade && sudo reboot",
        (("device", "/dev/pio0"),),
    ),
    "pio-denied": Problem(
        "not open to the user",
        "{device} ({owner}) is not open to the user {user}",
        f"run '{INSTALL} --led pi5' again: it adds the udev rule that gives "
        "{device} to the gpio group",
        (("device", "/dev/pio0"), ("owner", "root:root, mode 0600"), ("user", "clacks")),
    ),
    "pio-failed": Problem(
        "PIO could not be used",
        "the Raspberry Pi 5's PIO could not be used ({error})",
        "sudo apt update && sudo apt full-upgrade && sudo reboot",
        (("error", "..."),),
    ),
    "gpio-no-library": Problem(
        "no GPIO library",
        "gpiozero found no GPIO library it can use ({error})",
        f"install the companion again, which brings lgpio: '{INSTALL}' for the service, "
        "'./run' in the checkout otherwise",
        (("error", "BadPinFactory: ..."),),
    ),
    "gpio-no-chip": Problem(
        "no GPIO chip",
        "there is no GPIO chip here: {device} is absent, so no program can use the pins",
        "run the companion on the Raspberry Pi itself, not in a container or chroot (a "
        "container needs the device passed in: --device {device})",
        (("device", "/dev/gpiochip0"),),
    ),
    "gpio-denied": Problem(
        "not open to the user",
        "{device} ({owner}) is not open to the user {user}",
        "sudo usermod -aG gpio {user}, then restart the companion "
        "(sudo systemctl restart clacks)",
        (("device", "/dev/gpiochip0"), ("owner", "root:root, mode 0600"), ("user", "clacks")),
    ),
    "sandbox-denied": Problem(
        "the service's sandbox",
        "{device} ({owner}) is open to the user {user} by its permissions, yet denied to "
        "it: the service's sandbox does not list it (DeviceAllow in clacks.service)",
        f"run '{INSTALL}' again, which writes the service with the devices its LED "
        "driver and buttons use, then sudo systemctl restart clacks",
        (("device", "/dev/gpiochip0"), ("owner", "root:gpio, mode 0660"), ("user", "clacks")),
    ),
    "gpio-failed": Problem(
        "GPIO buttons could not be set up",
        "the GPIO buttons could not be set up ({error})",
        "stop any other program that uses the pins (sudo systemctl stop clacks before "
        "clacks hardware test)",
        (("error", "GPIOPinInUse: ..."),),
    ),
}


class Unavailable(RuntimeError):
    """A driver cannot start: ``key`` names the problem; the message gives the cause and
    the fix."""

    def __init__(self, key: str, **values: object) -> None:
        problem = PROBLEMS[key]
        self.key = key
        self.cause = problem.cause.format(**values)
        self.fix = problem.fix.format(**values)
        super().__init__(f"{self.cause}; to fix: {self.fix}")


def readable_and_writable(path: Path) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


@dataclass(frozen=True)
class Machine:
    """Where the checks look: the device directory, the boot settings, the user and
    whether it may use a device. Tests give their own; the default is this machine."""

    dev: Path = Path("/dev")
    boot_configs: tuple[Path, ...] = (
        Path("/boot/firmware/config.txt"),
        Path("/boot/config.txt"),
    )
    euid: int = field(default_factory=os.geteuid)
    may_use: Callable[[Path], bool] = readable_and_writable

    def device_state(self, path: Path) -> str | None:
        """None when the device is there to be read and written; else "absent" or
        "denied"."""
        if not path.exists():
            return "absent"
        if not self.may_use(path):
            return "denied"
        return None

    def permits(self, path: Path) -> bool:
        """Whether the device's owner, group and mode let this user read and write it
        (root may always). When they do and the device is still denied, something above
        the permissions stands in the way: the service's device sandbox."""
        if self.root:
            return True
        info = path.stat()
        if info.st_uid == self.euid:
            wanted = stat.S_IRUSR | stat.S_IWUSR
        elif info.st_gid in self.group_ids():
            wanted = stat.S_IRGRP | stat.S_IWGRP
        else:
            wanted = stat.S_IROTH | stat.S_IWOTH
        return info.st_mode & wanted == wanted

    def group_ids(self) -> set[int]:
        """The groups this process has, or for another user the ones /etc/group gives it."""
        if self.euid == os.geteuid():
            return {os.getegid(), *os.getgroups()}
        try:
            account = pwd.getpwuid(self.euid)
        except KeyError:
            return set()
        return {account.pw_gid} | {
            group.gr_gid for group in grp.getgrall() if account.pw_name in group.gr_mem
        }

    def user(self) -> str:
        try:
            return pwd.getpwuid(self.euid).pw_name
        except KeyError:
            return f"uid {self.euid}"

    @property
    def root(self) -> bool:
        return self.euid == 0

    def boot_config(self) -> Path | None:
        return next((path for path in self.boot_configs if path.is_file()), None)

    def dtparams(self) -> dict[str, str]:
        """The dtparam settings of the boot configuration, the last one of each name
        winning (config.txt's [section] filters are not weighed: the companion's own
        block sits in [all] at the end)."""
        path = self.boot_config()
        if path is None:
            return {}
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return {}
        params: dict[str, str] = {}
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if not line.startswith("dtparam="):
                continue
            for item in line[len("dtparam=") :].split(","):
                name, _, value = item.partition("=")
                params[name.strip()] = value.strip() or "on"
        return params


def owner(path: Path) -> str:
    """Who may use a device, as `ls -l` shows it: "root:gpio, mode 0660"."""
    info = path.stat()
    try:
        user = pwd.getpwuid(info.st_uid).pw_name
    except KeyError:
        user = str(info.st_uid)
    try:
        group = grp.getgrgid(info.st_gid).gr_name
    except KeyError:
        group = str(info.st_gid)
    return f"{user}:{group}, mode {stat.S_IMODE(info.st_mode):04o}"


def denied(key: str, path: Path, machine: Machine) -> Unavailable:
    """The problem of a device ``machine`` may not use: ``key`` (the group or udev rule to
    fix) when its permissions shut the user out, the service's sandbox when they let the
    user in."""
    if machine.permits(path):
        key = "sandbox-denied"
    return Unavailable(key, device=path, owner=owner(path), user=machine.user())


def missing_module(exc: BaseException) -> str | None:
    """The module whose absence caused ``exc`` (Blinka wraps a ModuleNotFoundError in a
    RuntimeError that tells how to install it), or None."""
    for error in _chain(exc):
        if isinstance(error, ModuleNotFoundError) and error.name:
            return error.name
    return None


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__
