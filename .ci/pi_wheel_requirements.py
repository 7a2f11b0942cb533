"""The requirements the README's commands install on a Raspberry Pi, one a line.

The emulated Raspberry Pi OS stage (.ci/pi_emulated.sh) keeps a wheelhouse per
architecture: every wheel those commands install, downloaded or built under emulation
once, then found by pip there through PIP_FIND_LINKS. This prints what goes into it:
pip itself (./run and install.sh upgrade it first), the build system's requirements (pip
builds the companion in an isolated environment), the companion's dependencies and
those of the extras named, with the extras' references to the project itself
(`clacks-exchange[test-core]`) expanded. Environment markers are left for pip to
evaluate on the emulated Pi.

    python3 .ci/pi_wheel_requirements.py [--pyproject FILE] EXTRA...      e.g. pi test
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
SELF_REFERENCE = re.compile(r"^\s*([A-Za-z0-9._-]+)\s*\[([^\]]*)\]\s*$")


def requirements(pyproject: dict[str, object], extras: list[str]) -> list[str]:
    """pip, the build requirements, the dependencies and those of EXTRAS, in that order."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    name = str(project["name"]).lower().replace("_", "-")
    optional: dict[str, list[str]] = project.get("optional-dependencies", {})
    build = pyproject.get("build-system", {})
    assert isinstance(build, dict)
    found: list[str] = ["pip", *build.get("requires", []), *project.get("dependencies", [])]
    seen_extras: set[str] = set()
    pending = list(extras)
    while pending:
        extra = pending.pop(0)
        if extra in seen_extras:
            continue
        if extra not in optional:
            raise SystemExit(f"pi_wheel_requirements: pyproject.toml has no extra '{extra}'")
        seen_extras.add(extra)
        for requirement in optional[extra]:
            self_reference = SELF_REFERENCE.match(requirement)
            if self_reference and self_reference[1].lower().replace("_", "-") == name:
                pending.extend(part.strip() for part in self_reference[2].split(","))
            else:
                found.append(requirement)
    return list(dict.fromkeys(found))


def main(argv: list[str]) -> int:
    path = PYPROJECT
    if argv[:1] == ["--pyproject"] and len(argv) > 1:
        path, argv = Path(argv[1]), argv[2:]
    pyproject = tomllib.loads(path.read_text(encoding="utf-8"))
    print("\n".join(requirements(pyproject, argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
