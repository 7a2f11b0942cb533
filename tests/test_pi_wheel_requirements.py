""".ci/pi_wheel_requirements.py, what the emulated Raspberry Pi OS stage's wheelhouse holds:
every requirement the README's commands install there, the extras' references to the
project itself expanded, so that a warm run finds each wheel and builds none."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISTER = ROOT / ".ci" / "pi_wheel_requirements.py"


def listed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(LISTER), *args], capture_output=True, text=True, timeout=60
    )


def test_the_pi_and_test_extras_list_every_requirement_they_install() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    optional = project["project"]["optional-dependencies"]
    result = listed("pi", "test")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "pip"
    expected = [
        *project["build-system"]["requires"],
        *project["project"]["dependencies"],
        *optional["pi"][1:],  # the first is the project's own [spi,pwm,pi5]
        *optional["spi"],
        *optional["pwm"],
        *optional["pi5"],
        *optional["test-core"],
        *optional["test"][1:],  # the first is the project's own [test-core]
    ]
    assert set(lines) == {"pip", *expected}
    assert len(lines) == len(set(lines))
    assert not [line for line in lines if line.startswith("clacks-exchange")]


def test_nested_references_to_the_project_are_expanded_once(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[build-system]\nrequires = ["setuptools"]\n'
        '[project]\nname = "Demo_Box"\ndependencies = ["flask"]\n'
        "[project.optional-dependencies]\n"
        'a = ["demo-box[b, c]", "alpha"]\nb = ["demo_box[c]", "beta; platform_machine == \'aarch64\'"]\n'
        'c = ["demo-box[a]", "gamma", "alpha"]\nd = ["delta"]\n'
    )
    result = listed("--pyproject", str(pyproject), "a")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "pip",
        "setuptools",
        "flask",
        "alpha",
        "beta; platform_machine == 'aarch64'",
        "gamma",
    ]


def test_an_unknown_extra_is_refused_by_name() -> None:
    result = listed("pi", "tests")
    assert result.returncode != 0
    assert "no extra 'tests'" in result.stderr
    assert result.stdout == ""
