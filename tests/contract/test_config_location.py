"""SG-C210 points at the setting that is wrong, and configuration files are named like every other path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.contract import load_config

CONFIG = """\
# Our settings. SG-C999 was retired last year; ruleset choices are in the wiki.
[tool.other]
ruleset = "whatever"
disable = ["SG-C999"]

[tool.sgcheck]
# keep the ruleset below in step with the league
ruleset = "core; nonsense=1"
disable = [
    "SG-C120",
    "SG-C999",  # SG-C999 again in a comment
]
unknown_key = 1

[tool.sgcheck.severity]
SG-C130 = "fatal"
"""


def test_each_problem_is_placed_on_its_own_setting(tmp_path: Path) -> None:
    """SG-C210: the caret is on the offending line of [tool.sgcheck], not on the first mention elsewhere."""
    path = tmp_path / "pyproject.toml"
    path.write_text(CONFIG, encoding="utf-8")
    config = load_config(path, "pyproject.toml")
    where = {problem.message: (problem.span.line, problem.span.column) for problem in config.problems if problem.span}
    unknown_code = next(place for message, place in where.items() if "SG-C999" in message)
    assert unknown_code == (11, 6)  # the quoted code inside the list, not line 1's comment or [tool.other]
    ruleset = next(place for message, place in where.items() if message.startswith("ruleset"))
    assert ruleset == (8, 1)  # the key of [tool.sgcheck], not the comment above it nor [tool.other]'s key
    unknown_key = next(place for message, place in where.items() if "unknown_key" in message)
    assert unknown_key == (13, 1)
    severity = next(place for message, place in where.items() if "fatal" in message)
    assert severity == (16, 1)


def test_a_found_configuration_is_shown_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paths in reports, SARIF URIs included, are relative like the paths a user types."""
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\ndisable = ["SG-C999"]\n', encoding="utf-8")
    pack = tmp_path / "cards"
    pack.mkdir()
    (pack / "a.sgcard").write_text('relic "Hawk" { cost 5 SP effect to_hit +5 }\n', encoding="utf-8")
    monkeypatch.chdir(pack)
    sarif = json.loads(CliRunner().invoke(main, ["check", ".", "--format", "sarif"]).output)
    uris = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in sarif["runs"][0]["results"]
    }
    assert uris == {"../pyproject.toml"}
    text = CliRunner().invoke(main, ["check", "."]).output
    assert text.startswith("../pyproject.toml:2:")
    assert str(tmp_path) not in text
