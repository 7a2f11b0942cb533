"""Every package a Raspberry Pi's default install takes from the package index comes as
a wheel, on every Raspberry Pi OS the companion supports.

What ./run and systemd/install.sh install on a Pi (the project's dependencies and its
board's LED driver extra: `spi` on a Pi 3, 4 or Zero 2 W, `pi5` on a Pi 5) is resolved by
pip's own platform resolution, `--only-binary=:all:`, for each release and architecture:

    Trixie (Debian 13): CPython 3.13, glibc 2.41      Bookworm (Debian 12): CPython 3.11, glibc 2.36
    on linux_aarch64 (64-bit) and linux_armv7l (32-bit)

with every platform tag pip on that system accepts (manylinux_2_17 up to its glibc,
manylinux2014 and linux_<arch>). Environment markers are evaluated for the Pi, not for
this machine. A package with no wheel fails the check, loudly: nothing may compile on a
Pi for the default install. The exceptions are Raspberry Pi OS's own packages, which the
venv sees through --system-site-packages (SYSTEM: its Debian package and version on each
release); pip is handed a placeholder wheel with that version, and if the version does not
satisfy what is asked for, the check fails. The pwm extra, compiled on the Pi by
`install.sh --led pwm` only, is not checked here.

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
import tomllib
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Release:
    name: str
    python: str
    glibc_minor: int


RELEASES = (Release("trixie", "3.13", 41), Release("bookworm", "3.11", 36))
PLATFORMS = ("aarch64", "armv7l")
EXTRAS = ("spi", "pi5")  # one a board: the default install's LED drivers

# Raspberry Pi OS's own packages that pip may find among the system's site packages, on
# the platforms named: the Debian package and its version on each release.
SYSTEM: dict[str, tuple[set[str], str, dict[str, str]]] = {
    "sysv-ipc": ({"armv7l"}, "python3-sysv-ipc", {"trixie": "1.1.0"}),
}
# The one source build left, and why: Blinka asks for sysv_ipc>=1.1.0, which has no
# 32-bit ARM wheel, and Bookworm's python3-sysv-ipc is 1.0.0. On Bookworm 32-bit ./run
# and install.sh say so and compile it (build-essential and python3-dev).
SOURCE_BUILDS: dict[tuple[str, str], set[str]] = {("bookworm", "armv7l"): {"sysv-ipc"}}


class CheckFailed(Exception):
    pass


class NoWheel(CheckFailed):
    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


PYPROJECT = ROOT / "pyproject.toml"


def pi_requirements(arch: str, release: Release, extra: str) -> list[str]:
    """The project's dependencies and ``extra`` (self-references expanded), with their
    markers evaluated for ``release``'s CPython on Linux on ``arch``."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    own = canonicalize_name(project["name"])
    environment = default_environment() | {
        "platform_machine": arch,
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "python_version": release.python,
        "python_full_version": f"{release.python}.2",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }
    wanted: list[str] = []
    pending = [*project["dependencies"], *extras[extra]]
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


def platform_tags(arch: str, release: Release) -> list[str]:
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(release.glibc_minor, 16, -1)]
    return [*tags, f"manylinux2014_{arch}", f"linux_{arch}"]


def pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def resolve(
    arch: str, release: Release, extra: str, work: Path, system: Path
) -> list[dict[str, str]]:
    """What pip installs for ``extra`` there, wheels only, with the system's packages
    (placeholders in ``system``) found where pip would find them on the Pi."""
    report = work / f"report-{release.name}-{arch}-{extra}.json"
    abi = "cp" + release.python.replace(".", "")
    args = ["install", "--dry-run", "--ignore-installed", "--quiet", "--report", str(report)]
    args += ["--target", str(work / "target"), "--only-binary=:all:"]
    args += ["--python-version", release.python, "--implementation", "cp", "--abi", abi]
    for tag in platform_tags(arch, release):
        args += ["--platform", tag]
    args += ["--find-links", str(system)]
    requirements = pi_requirements(arch, release, extra)
    if not requirements:
        return []
    result = pip(*args, *requirements)
    if result.returncode != 0:
        missing = re.search(r"No matching distribution found for (.+)$", result.stderr, re.M)
        what = f"{missing.group(1).strip()} has no wheel" if missing else "pip could not resolve"
        message = (
            f"{what} for CPython {release.python} on linux_{arch} ({release.name}, the "
            f"{extra} extra), and nothing may compile on a Pi for the default install; "
            f"Raspberry Pi OS's own packages are SYSTEM in .ci/pi_platforms.py.\n{result.stderr}"
        )
        if missing is None:
            raise CheckFailed(message)
        requirement = Requirement(missing.group(1).strip().split(" (from")[0])
        raise NoWheel(message, canonicalize_name(requirement.name))
    install = json.loads(report.read_text())["install"]
    return [
        {
            "name": item["metadata"]["name"],
            "version": item["metadata"]["version"],
            "file": item["download_info"]["url"].rsplit("/", 1)[-1],
        }
        for item in install
    ]


def put_system_package(name: str, version: str, system: Path) -> None:
    """A py3-none-any wheel that only says ``name`` ``version`` is there, as the system's
    package is: pip resolves around it. A real wheel of that version for the platform
    would rank above it, so this never hides one."""
    stem = f"{name.replace('-', '_')}-{version}"
    dist_info = f"{stem}.dist-info"
    files = {
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(
        f"{path},sha256={_digest(data)},{len(data)}\n" for path, data in files.items()
    )
    with zipfile.ZipFile(system / f"{stem}-py3-none-any.whl", "w") as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
        wheel.writestr(f"{dist_info}/RECORD", record + f"{dist_info}/RECORD,,\n")


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def sdist_version(name: str, target: Path) -> str:
    """The newest version of ``name`` whose source the index has (it must have one)."""
    result = pip("download", "--no-deps", "--no-binary=:all:", "-d", str(target), name)
    if result.returncode != 0:
        raise CheckFailed(f"{name} is to be built from source, but has none:\n{result.stderr}")
    (sdist,) = target.iterdir()
    return sdist.name.removesuffix(".tar.gz").removesuffix(".zip").rsplit("-", 1)[1]


def check_one(arch: str, release: Release, extra: str, work: Path) -> str:
    system = work / f"system-{release.name}-{arch}-{extra}"
    system.mkdir(exist_ok=True)
    for name, (platforms, _, versions) in SYSTEM.items():
        if arch in platforms and release.name in versions:
            put_system_package(name, versions[release.name], system)
    allowed = SOURCE_BUILDS.get((release.name, arch), set())
    built_here: dict[str, str] = {}
    while True:
        try:
            installed = resolve(arch, release, extra, work, system)
            break
        except NoWheel as exc:
            if exc.name not in allowed or exc.name in built_here:
                raise
            sdists = work / "sdists" / f"{release.name}-{arch}-{extra}-{exc.name}"
            built_here[exc.name] = sdist_version(exc.name, sdists)
            put_system_package(exc.name, built_here[exc.name], system)
    placeholders = [item for item in installed if (system / item["file"]).exists()]
    sources = [item for item in placeholders if canonicalize_name(item["name"]) in built_here]
    from_system = [item for item in placeholders if item not in sources]
    wheels = len(installed) - len(placeholders)
    built = ", ".join(f"{item['name']} {item['version']}" for item in sources)
    return (
        f"linux_{arch}, CPython {release.python} ({release.name}), {extra}: every package "
        "resolves, "
        + (f"{built} from source (SOURCE_BUILDS)" if sources else "none from source")
        + f" ({wheels} wheels"
        + "".join(
            f"; {item['name']} {item['version']} from the system's "
            f"{SYSTEM[canonicalize_name(item['name'])][1]}"
            for item in from_system
        )
        + ")"
    )


def main() -> int:
    failed = False
    with tempfile.TemporaryDirectory(prefix="pi-platforms-") as temp:
        work = Path(temp)
        jobs = [(arch, release, extra) for release in RELEASES for arch in PLATFORMS for extra in EXTRAS]
        with ThreadPoolExecutor(max_workers=4) as pool:
            futures = [pool.submit(check_one, *job, work) for job in jobs]
        for (arch, release, extra), future in zip(jobs, futures, strict=True):
            try:
                print(future.result())
            except CheckFailed as exc:
                print(f"FAILED linux_{arch} {release.name} {extra}: {exc}", file=sys.stderr)
                failed = True
    if failed:
        print("The Raspberry Pi dependencies do not all resolve (see above).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        PYPROJECT = Path(sys.argv[1])
    sys.exit(main())
