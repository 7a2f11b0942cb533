"""Where each package of a Raspberry Pi's venv comes from: Raspberry Pi OS, or a wheel.

./run prints this on a Raspberry Pi after it installed something, so the owner (and the
emulated Raspberry Pi OS stage of CI) sees which libraries are the system's own (the GPIO
and SPI ones, seen through --system-site-packages) and which pip put into the venv, each
from a wheel (pip is told to install nothing else there).

    python tools/pi_sources.py VENV
"""

from __future__ import annotations

import importlib.metadata as metadata
import importlib.util
import sys
from pathlib import Path

# The modules the companion uses from Raspberry Pi OS, with the package that brings each.
SYSTEM_MODULES = {
    "lgpio": "python3-lgpio",
    "gpiozero": "python3-gpiozero",
    "gpiod": "python3-libgpiod",
    "spidev": "python3-spidev",
    "sysv_ipc": "python3-sysv-ipc",
}


def system_source(module: str, venv: Path) -> str | None:
    """``module``'s version and directory when the system, not the venv, has it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    where = Path(spec.origin).resolve()
    if venv in where.parents:
        return None
    return f"{module} {_version_of(module)} in {where.parent}"


def _version_of(module: str) -> str:
    for name in (module, module.replace("_", "-")):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "(no version recorded)"


def venv_wheels(venv: Path) -> list[str]:
    found = []
    for dist in metadata.distributions():
        location = Path(str(dist.locate_file(""))).resolve()
        if venv in location.parents or location == venv:
            installer = (dist.read_text("INSTALLER") or "").strip()
            if installer == "pip" and dist.read_text("direct_url.json") is None:
                found.append(f"{dist.metadata['Name']} {dist.version}")
    return sorted(found, key=str.lower)


def main(argv: list[str]) -> int:
    venv = Path(argv[0]).resolve()
    print("From Raspberry Pi OS (the system's site packages):")
    for module, package in SYSTEM_MODULES.items():
        source = system_source(module, venv)
        if source is not None:
            print(f"  {source} ({package})")
    wheels = venv_wheels(venv)
    print(f"From wheels, installed by pip into {venv} ({len(wheels)}): {', '.join(wheels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
