""".ci/pi_platforms.py, the check that every Raspberry Pi dependency resolves for the
Pi's platforms, run against a local package index (a directory of wheels) so that it can
be seen to fail: a dependency with no ARM wheel, a marker meant for the Pi."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

# .ci/run's own check, run by it in the full tier: each case starts pip several times
pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / ".ci" / "pi_platforms.py"


def wheel(index: Path, name: str, tag: str) -> None:
    dist_info = f"{name}-1.0.dist-info"
    with zipfile.ZipFile(index / f"{name}-1.0-{tag}.whl", "w") as archive:
        archive.writestr(
            f"{dist_info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
        )
        archive.writestr(f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nTag: {tag}\n")
        archive.writestr(f"{dist_info}/RECORD", "")


def check(tmp_path: Path, dependencies: list[str], extras: str) -> subprocess.CompletedProcess[str]:
    index = tmp_path / "index"
    index.mkdir(exist_ok=True)
    wheel(index, "pureok", "py3-none-any")
    wheel(index, "onlyx86", "cp311-cp311-manylinux2014_x86_64")
    wheel(index, "armonly", "cp311-cp311-manylinux_2_28_aarch64")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        f'[project]\nname = "demo"\ndependencies = {dependencies!r}\n'
        f"[project.optional-dependencies]\n{extras}\n"
    )
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(index))
    return subprocess.run(
        [sys.executable, str(CHECK), str(pyproject)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_pure_python_dependencies_resolve_everywhere(tmp_path: Path) -> None:
    result = check(tmp_path, ["pureok"], 'pi = ["demo[spi]"]\nspi = ["pureok==1.0"]')
    assert result.returncode == 0, result.stderr
    assert "linux_aarch64, CPython 3.11: every package resolves (1 in all, 1 as wheels)" in result.stdout
    assert "linux_armv7l, CPython 3.11: every package resolves" in result.stdout


def test_a_dependency_without_an_arm_wheel_fails_loudly(tmp_path: Path) -> None:
    result = check(tmp_path, ["pureok"], 'pi = ["demo[pwm]"]\npwm = ["onlyx86==1.0"]')
    assert result.returncode == 1
    assert "FAILED linux_aarch64: onlyx86==1.0 has no wheel for CPython 3.11 on linux_aarch64" in result.stderr
    assert "FAILED linux_armv7l: onlyx86==1.0 has no wheel" in result.stderr
    assert "do not all resolve" in result.stderr


def test_markers_are_read_for_the_pi_not_for_this_machine(tmp_path: Path) -> None:
    extras = "pi = [\"armonly==1.0; platform_machine == 'aarch64'\"]"
    result = check(tmp_path, [], extras)
    assert result.returncode == 0, result.stderr
    assert "linux_aarch64, CPython 3.11: every package resolves (1 in all" in result.stdout
    assert "linux_armv7l, CPython 3.11: every package resolves (0 in all" in result.stdout
    extras = "pi = [\"onlyx86==1.0; platform_machine == 'aarch64'\"]"
    result = check(tmp_path, [], extras)
    assert result.returncode == 1
    assert "FAILED linux_aarch64: onlyx86==1.0" in result.stderr
    assert "FAILED linux_armv7l" not in result.stderr
