"""Every dependency the Raspberry Pi install needs resolves for the Pi's platforms.

What systemd/install.sh installs (the project's dependencies and its `pi` extra, which
holds every LED backend) is resolved by pip's own platform resolution for CPython 3.11
(Raspberry Pi OS Bookworm) on linux_aarch64 (64-bit) and linux_armv7l (32-bit):

    pip install --dry-run --report ... --only-binary=:all: --python-version 3.11
        --implementation cp --abi cp311 --platform manylinux_2_36_<arch> ...

with every platform tag pip on Bookworm accepts (glibc 2.36: manylinux_2_17 to 2_36,
manylinux2014 and linux_<arch>). Environment markers in the extras are evaluated for the
Pi, not for this machine. A dependency with no wheel for a platform fails the check,
loudly, unless it is named in SOURCE_BUILDS: a package that ships only its source and
builds on the Pi with the compilers install.sh installs (build-essential, python3-dev).
For those, the sdist of the version pip asks for is downloaded and built into a wheel on
this machine (proof that the source builds; the Pi builds the same source with the same
kind of compiler), and a placeholder wheel carrying its metadata (its version and its own
requirements) is handed to pip so the rest of the tree is resolved around it.

Run from the project's virtual environment (`packaging`, or pip's own copy of it):
    .venv/bin/python .ci/pi_platforms.py [PYPROJECT]    (default: the project's own)
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import threading
import tomllib
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ImportError:  # the companion's own venv (./run) has pip, which carries packaging
    from pip._vendor.packaging.markers import default_environment  # type: ignore[no-redef]
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]
    from pip._vendor.packaging.utils import canonicalize_name  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
PYTHON = "3.11"
GLIBC_MINOR = 36  # Debian Bookworm
PLATFORMS = ("aarch64", "armv7l")
EXTRA = "pi"

# Packages allowed to come as source, on the platforms named, and why they build there.
SOURCE_BUILDS: dict[str, tuple[set[str], str]] = {
    "rpi-ws281x": (
        set(PLATFORMS),
        "C library and SWIG wrapper shipped in the sdist; compiled with build-essential",
    ),
    "adafruit-blinka-raspberry-pi-pwm": (
        set(PLATFORMS),
        "a small C extension; compiled with build-essential and python3-dev",
    ),
    "gpiod": (
        {"armv7l"},
        "no armv7l wheel; the sdist carries libgpiod's C sources and compiles them",
    ),
    "sysv-ipc": (
        {"armv7l"},
        "Blinka's; no armv7l wheel; a small C extension compiled with build-essential",
    ),
}


class CheckFailed(Exception):
    pass


PYPROJECT = ROOT / "pyproject.toml"


def pi_requirements(arch: str) -> list[str]:
    """The project's dependencies and its `pi` extra (self-references expanded), with
    their markers evaluated for CPython 3.11 on Linux on ``arch``."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    own = canonicalize_name(project["name"])
    environment = default_environment() | {
        "platform_machine": arch,
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "python_version": PYTHON,
        "python_full_version": f"{PYTHON}.2",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }
    wanted: list[str] = []
    pending = [*project["dependencies"], *extras[EXTRA]]
    while pending:
        requirement = Requirement(pending.pop(0))
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        if canonicalize_name(requirement.name) == own:
            for extra in sorted(requirement.extras):
                pending += extras[extra]
            continue
        requirement.marker = None
        wanted.append(str(requirement))
    return wanted


def platform_tags(arch: str) -> list[str]:
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(GLIBC_MINOR, 16, -1)]
    return [*tags, f"manylinux2014_{arch}", f"linux_{arch}"]


def pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def resolve(arch: str, work: Path, stand_ins: Path) -> list[dict[str, str]]:
    report = work / f"report-{arch}.json"
    args = ["install", "--dry-run", "--ignore-installed", "--quiet", "--report", str(report)]
    args += ["--target", str(work / "target"), "--only-binary=:all:"]
    args += ["--python-version", PYTHON, "--implementation", "cp", "--abi", "cp311"]
    for tag in platform_tags(arch):
        args += ["--platform", tag]
    args += ["--find-links", str(stand_ins)]
    requirements = pi_requirements(arch)
    if not requirements:
        return []
    while True:
        result = pip(*args, *requirements)
        if result.returncode == 0:
            break
        missing = re.search(r"No matching distribution found for (.+)$", result.stderr, re.M)
        if missing is None:
            raise CheckFailed(f"pip could not resolve for linux_{arch}:\n{result.stderr}")
        requirement = Requirement(missing.group(1).strip())
        requirement.marker = None
        name = canonicalize_name(requirement.name)
        allowed, _ = SOURCE_BUILDS.get(name, (set(), ""))
        if arch not in allowed:
            raise CheckFailed(
                f"{requirement} has no wheel for CPython {PYTHON} on linux_{arch}, and it "
                "is not a package known to build from source there (SOURCE_BUILDS in "
                f".ci/pi_platforms.py).\n{result.stderr}"
            )
        stand_in(requirement, work, stand_ins)
    install = json.loads(report.read_text())["install"]
    return [
        {
            "name": item["metadata"]["name"],
            "version": item["metadata"]["version"],
            "file": item["download_info"]["url"].rsplit("/", 1)[-1],
        }
        for item in install
    ]


BUILT: dict[str, Path] = {}
BUILT_LOCK = threading.Lock()


def built_from_source(requirement: Requirement, work: Path) -> Path:
    """The wheel built here from the sdist pip would take for ``requirement``."""
    name = canonicalize_name(requirement.name)
    sdists = work / "sdists" / f"{name}-{abs(hash(str(requirement)))}"
    result = pip("download", "--no-deps", "--no-binary=:all:", "-d", str(sdists), str(requirement))
    if result.returncode != 0:
        raise CheckFailed(f"no source for {requirement} either:\n{result.stderr}")
    (sdist,) = sdists.iterdir()
    with BUILT_LOCK:
        if sdist.name in BUILT:
            return BUILT[sdist.name]
    wheels = work / "wheels" / sdist.name
    result = pip("wheel", "--no-deps", "--quiet", "-w", str(wheels), str(sdist))
    if result.returncode != 0:
        raise CheckFailed(f"{sdist.name} does not build:\n{result.stderr}")
    with BUILT_LOCK:
        BUILT[sdist.name] = next(wheels.glob("*.whl"))
        return BUILT[sdist.name]


def stand_in(requirement: Requirement, work: Path, stand_ins: Path) -> None:
    """Build the sdist pip would take for ``requirement`` and put a wheel carrying its
    metadata where pip finds it."""
    put_stand_in(built_from_source(requirement, work), stand_ins)


def put_stand_in(built: Path, stand_ins: Path) -> None:
    """A py3-none-any wheel with ``built``'s metadata: pip resolves with its version and
    its requirements. Where the platform has a real wheel of that version, pip prefers
    that (a platform tag ranks above py3-none-any), so this never hides one."""
    with zipfile.ZipFile(built) as wheel:
        info = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(info)
    dist_info = info.split("/", 1)[0]
    stem = dist_info.removesuffix(".dist-info")
    files = {
        f"{dist_info}/METADATA": metadata,
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(
        f"{path},sha256={_digest(data)},{len(data)}\n" for path, data in files.items()
    )
    with zipfile.ZipFile(stand_ins / f"{stem}-py3-none-any.whl", "w") as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
        wheel.writestr(f"{dist_info}/RECORD", record + f"{dist_info}/RECORD,,\n")


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main() -> int:
    failed = False
    with tempfile.TemporaryDirectory(prefix="pi-platforms-") as temp:
        work = Path(temp)
        # the known source builds first, side by side, to save resolver rounds: the
        # newest of each, best effort (the resolver asks again, for the version it needs,
        # if one is missing or another version is wanted)
        with ThreadPoolExecutor(max_workers=len(SOURCE_BUILDS)) as pool:
            jobs = {
                name: pool.submit(built_from_source, Requirement(name), work)
                for name in SOURCE_BUILDS
            }
        ready = {name: job.result() for name, job in jobs.items() if job.exception() is None}
        for arch in PLATFORMS:
            stand_ins = work / f"stand-ins-{arch}"
            stand_ins.mkdir()
            try:
                for name, (allowed, _) in SOURCE_BUILDS.items():
                    if arch in allowed and name in ready:
                        put_stand_in(ready[name], stand_ins)
                installed = resolve(arch, work, stand_ins)
            except CheckFailed as exc:
                print(f"FAILED linux_{arch}: {exc}", file=sys.stderr)
                failed = True
                continue
            sources = sorted(
                (item for item in installed if (stand_ins / item["file"]).exists()),
                key=lambda item: item["name"],
            )
            wheels = len(installed) - len(sources)
            print(
                f"linux_{arch}, CPython {PYTHON}: every package resolves "
                f"({len(installed)} in all, {wheels} as wheels)"
                + "".join(
                    f"\n  {item['name']} {item['version']} builds from source: "
                    f"{SOURCE_BUILDS[canonicalize_name(item['name'])][1]}"
                    for item in sources
                )
            )
    if failed:
        print("The Raspberry Pi dependencies do not all resolve (see above).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        PYPROJECT = Path(sys.argv[1])
    sys.exit(main())
