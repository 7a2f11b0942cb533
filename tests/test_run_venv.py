"""./run's virtual environment records what it was made for (the machine, the Python) and
is made again when that differs: a .venv copied from a PC to a Raspberry Pi (the
README's own `scp -r`) must not be trusted there. Run against a copy of ./run with a
tiny project of its own, so that what pip installs is small and local."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "tiny-clacks"
version = "0.1.0"

[project.scripts]
clacks = "tiny_clacks:main"
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "run", tmp_path / "run")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "tiny_clacks.py").write_text("def main():\n    print('tiny clacks ran')\n")
    return tmp_path


def run(checkout: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CLACKS_VENV"}
    # the setuptools wheel pip already has, so the build needs no network
    return subprocess.run(
        [str(checkout / "run"), "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=checkout,
    )


@pytest.mark.slow
def test_a_venv_made_for_another_machine_is_made_again(checkout: Path) -> None:
    venv = checkout / ".venv"
    (venv / "bin").mkdir(parents=True)
    # a PC's venv copied to a Pi: its python is another machine's
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")
    (venv / "bin" / "python").chmod(0o755)
    (venv / ".clacks-installed").write_text("x86_64 3.11.2 /usr/bin/python3\n--\n")
    first = run(checkout)
    assert first.returncode == 0, first.stderr
    assert "was made for another machine or Python (x86_64 3.11.2" in first.stderr
    assert "tiny clacks ran" in first.stdout
    stamp = (venv / ".clacks-installed").read_text().splitlines()
    assert stamp[0].split()[0] == platform.machine()
    assert stamp[0].split()[1] == subprocess.run(
        ["python3", "-c", "import sys; print(sys.version.split()[0])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    again = run(checkout)
    assert again.returncode == 0, again.stderr
    assert "Creating" not in again.stderr and "made for another" not in again.stderr
    assert "tiny clacks ran" in again.stdout
    assert sys.executable  # the test's own Python is untouched
