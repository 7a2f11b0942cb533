"""lgpio's working directory: `clacks hardware ...` and `clacks serve` work as the service
user from any directory.

lgpio (gpiozero's pin library on Raspberry Pi OS) makes its notification pipe as soon as
it is imported: `lgpio.py` starts its callback thread at import, `_lgpio._notify_open()`
makes `.lgd-nfy<handle>` in `$LG_WD` (else the current directory) and moves the process
there, and the thread opens the pipe by that relative name. lgpio is a C library for the
Pi's GPIO chips, so these tests put a stand-in at its package boundary that does what its
import does with the directory (as its source, lgpio 0.2.2.0, reads); gpiozero then finds
that this machine is no Raspberry Pi.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.buttons import lgpio_work_dir

ROOT = Path(__file__).resolve().parent.parent
CLACKS = Path(sys.executable).parent / "clacks"

STAND_IN_LGPIO = """
import json, os
_directory = os.environ.get("LG_WD") or os.getcwd()
_record = {"LG_WD": os.environ.get("LG_WD"), "cwd_before": os.getcwd()}
try:
    os.chdir(_directory)
    os.mkfifo(".lgd-nfy0")
    _record["pipe"] = os.path.join(_directory, ".lgd-nfy0")
except OSError as exc:
    _record["error"] = "LG_BAD_PATHNAME: " + str(exc)
with open(os.environ["LGPIO_RECORD"], "w") as out:
    json.dump(_record, out)
if "error" in _record:
    raise RuntimeError(_record["error"])

def __getattr__(name):  # the flag constants gpiozero reads (SET_BIAS_DISABLE, ...)
    if name.isupper():
        return 0
    raise AttributeError(name)
"""


def test_a_set_lg_wd_is_kept(tmp_path: Path) -> None:
    environ = {"LG_WD": str(tmp_path)}
    assert lgpio_work_dir(environ) == str(tmp_path)
    assert environ == {"LG_WD": str(tmp_path)}


def test_the_service_runtime_directory_comes_first(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir()
    environ = {"RUNTIME_DIRECTORY": f"{runtime}:/elsewhere", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert lgpio_work_dir(environ) == str(runtime)
    assert environ["LG_WD"] == str(runtime)


def test_without_a_runtime_directory_a_private_one_is_made() -> None:
    environ = {"XDG_RUNTIME_DIR": "/nonexistent/run/user/1000"}
    chosen = Path(lgpio_work_dir(environ))
    assert environ["LG_WD"] == str(chosen)
    assert chosen.is_dir() and chosen.name.startswith("clacks-lgpio-")
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o700  # nobody else's pipes in there
    os.mkfifo(chosen / ".lgd-nfy0")  # as lgpio does
    assert (chosen / ".lgd-nfy0").is_fifo()


@pytest.fixture
def stand_in_lgpio(tmp_path: Path) -> Path:
    packages = tmp_path / "packages"
    packages.mkdir()
    (packages / "lgpio.py").write_text(STAND_IN_LGPIO)
    return packages


def test_clacks_hardware_status_from_a_directory_it_cannot_write(
    stand_in_lgpio: Path, tmp_path: Path
) -> None:
    home = tmp_path / "someone-elses-home"
    home.mkdir()
    home.chmod(0o555)
    config = tmp_path / "config.toml"
    config.write_text('[leds]\nbackend = "simulator"\n[buttons]\nbackend = "gpio"\n')
    record = tmp_path / "lgpio.json"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LG_WD", "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR")
    }
    env.update(
        PYTHONPATH=f"{stand_in_lgpio}:{ROOT}",
        GPIOZERO_PIN_FACTORY="lgpio",
        CLACKS_CONFIG=str(config),
        LGPIO_RECORD=str(record),
    )
    result = subprocess.run(
        [str(CLACKS), "hardware", "status"],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lgpio = json.loads(record.read_text())
    assert lgpio["cwd_before"] == str(home)
    assert "error" not in lgpio
    assert lgpio["LG_WD"] and Path(lgpio["LG_WD"]) != home
    assert lgpio["pipe"] == os.path.join(lgpio["LG_WD"], ".lgd-nfy0")
    assert list(home.iterdir()) == []  # nothing left where the command was run
    assert not Path(lgpio["LG_WD"]).exists()  # the private directory went at exit
    status = json.loads(result.stdout)
    # past the pipe the warning names what is really missing, not lgpio's pipe
    (warning,) = status["warnings"]
    if Path("/dev/gpiochip0").exists():  # a GPIO chip but no Raspberry Pi board
        assert "the GPIO buttons could not be set up (PinUnknownPi" in warning
    else:  # a container or a PC without a chip: lgpio is there, the chip is not
        assert "there is no GPIO chip here: /dev/gpiochip0 is absent" in warning
    assert "LG_BAD_PATHNAME" not in warning
    assert status["buttons"]["backend"] == "none"
