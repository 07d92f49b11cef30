"""The long fuzz run (``python -m tests.fuzz``, docs/fuzzing.md) runs, counts and keeps what fails."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from .__main__ import Findings, Target, fuzz, main, targets
from .harness import REPO


def test_the_documented_command_runs_every_target_and_reports_its_figures(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tests.fuzz", "--inputs", "40", "--seed", "7", "--findings", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr
    summary = completed.stdout.splitlines()[-1]
    assert summary.startswith("fuzz: 40 inputs ("), summary
    assert f"over {len(targets())} targets (seed 7)" in summary
    assert "0 failures" in summary
    assert not list(tmp_path.iterdir())


def test_every_hypothesis_target_of_the_fuzz_modules_is_driven() -> None:
    names = {target.name for target in targets()}
    assert "test_random_inputs.test_random_log_text" in names
    assert "test_fmt_inputs.test_fmt_random_yaml_card_text" in names
    assert "test_scenario_inputs.test_random_scenario_text" in names
    assert not any("expectation" in name for name in names)  # plain tests are not targets


def _failing(data: bytes) -> bytes | None:
    if len(data) % 4 == 0:
        raise AssertionError("a length divisible by four")
    return data


def test_a_failing_input_is_saved_with_its_traceback_and_counted(tmp_path: Path) -> None:
    findings = Findings(tmp_path)
    target = Target("test_nothing.test_fails", _failing)
    total = fuzz([target], seconds=math.inf, max_inputs=300, seed=1, findings=findings)
    assert total == target.inputs == 300
    assert findings.count > 0
    saved = sorted(tmp_path.glob("*.bin"))
    assert 1 <= len(saved) <= 3  # one kind of failure, kept three times at most
    assert all(len(path.read_bytes()) % 4 == 0 for path in saved)
    assert "AssertionError: a length divisible by four" in saved[0].with_suffix(".txt").read_text(encoding="utf-8")


def test_a_saved_input_replays_through_its_target(tmp_path: Path) -> None:
    saved = tmp_path / "test_fmt_inputs.test_fmt_random_log_text-0123456789abcdef.bin"
    saved.write_bytes(bytes(64))
    assert main(["--replay", str(saved)]) == 0
    assert main(["--replay", str(tmp_path / "test_nothing.test_x-00.bin")]) == 2


def test_only_drives_the_targets_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--only", "fmt", "--inputs", "8", "--findings", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "over 4 targets" in out and "test_random_log_text" not in out
