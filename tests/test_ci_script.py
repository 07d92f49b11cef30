"""CI holds the line (.ci/run): types, lint and formatting are checked before any test runs, with
linters pinned by the ``lint`` extra so that a new release of either never changes what passes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ci_lines() -> list[str]:
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _first(lines: list[str], needle: str) -> int:
    return next(index for index, line in enumerate(lines) if needle in line)


def test_ci_runs_mypy_strict_and_ruff_before_the_tests() -> None:
    lines = _ci_lines()
    tests = _first(lines, "python -m pytest")
    for check in ("python -m mypy", "python -m ruff check .", "python -m ruff format --check ."):
        assert _first(lines, check) < tests, f"{check} runs before the tests"
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["mypy"]["strict"] is True
    assert config["tool"]["mypy"]["files"] == ["sgcheck"]


def test_the_linters_are_pinned_and_the_dev_extra_has_them() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pinned = {re.split(r"==", spec)[0]: spec for spec in extras["lint"]}
    assert set(pinned) == {"mypy", "ruff"}
    assert all(re.fullmatch(r"[a-z]+==\d+(\.\d+)+", spec) for spec in pinned.values()), pinned
    assert any("lint" in spec for spec in extras["dev"]), "the dev extra installs the pinned linters"
