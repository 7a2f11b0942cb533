"""systemd/pio-rule.sh: the udev rule that gives the Raspberry Pi 5's PIO (/dev/pio0) to
the gpio group, on a stand-in /dev, model file and rules directory."""

from __future__ import annotations

import grp
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIO_RULE = ROOT / "systemd" / "pio-rule.sh"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
RULE = 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"'


def run(
    tmp_path: Path, model: str, device_mode: int | None, group: str = "gpio"
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "model").write_bytes(model.encode() + b"\0")  # as the device tree has it
    device = tmp_path / "pio0"
    if device_mode is not None:
        device.touch()
        device.chmod(device_mode)
    result = subprocess.run(
        [
            "bash",
            str(PIO_RULE),
            "--rules-dir",
            str(tmp_path / "rules.d"),
            "--device",
            str(device),
            "--model-file",
            str(tmp_path / "model"),
            "--group",
            group,
            "--no-reload",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    return result


def rule_lines(tmp_path: Path) -> list[str] | None:
    rule = tmp_path / "rules.d" / "99-clacks-pio.rules"
    if not rule.exists():
        return None
    return [line for line in rule.read_text().splitlines() if not line.startswith("#")]


def test_a_root_only_pio_gets_the_rule_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    run(tmp_path, PI5, 0o600)
    assert rule_lines(tmp_path) == [RULE]
    rule = tmp_path / "rules.d" / "99-clacks-pio.rules"
    before = (rule.stat().st_mtime_ns, rule.read_bytes())
    again = run(tmp_path, PI5, 0o600)
    assert (rule.stat().st_mtime_ns, rule.read_bytes()) == before
    assert "keeping" in again.stderr


def test_a_pio_already_the_groups_is_left_alone(tmp_path: Path) -> None:
    own_group = grp.getgrgid(os.getegid()).gr_name  # the stand-in device's group
    result = run(tmp_path, PI5, 0o660, group=own_group)
    assert rule_lines(tmp_path) is None
    assert f"already belongs to the {own_group} group" in result.stderr


def test_the_group_without_write_access_still_gets_the_rule(tmp_path: Path) -> None:
    own_group = grp.getgrgid(os.getegid()).gr_name
    run(tmp_path, PI5, 0o640, group=own_group)
    assert rule_lines(tmp_path) == [RULE.replace('"gpio"', f'"{own_group}"')]


def test_a_pi5_whose_kernel_has_no_pio_yet_gets_the_rule_for_later(tmp_path: Path) -> None:
    run(tmp_path, "Raspberry Pi 500 Rev 1.0", None)
    assert rule_lines(tmp_path) == [RULE]


def test_boards_without_a_pio_get_nothing(tmp_path: Path) -> None:
    for model in ("Raspberry Pi 4 Model B Rev 1.5", "Raspberry Pi Zero 2 W Rev 1.0", ""):
        run(tmp_path, model, None)
        assert rule_lines(tmp_path) is None


def test_an_older_rule_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "rules.d").mkdir()
    (tmp_path / "rules.d" / "99-clacks-pio.rules").write_text('SUBSYSTEM=="*-pio", MODE="0666"\n')
    run(tmp_path, PI5, 0o600)
    assert rule_lines(tmp_path) == [RULE]


def test_bad_options_are_refused() -> None:
    bad = subprocess.run(["bash", str(PIO_RULE), "--frobnicate"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown option" in bad.stderr
