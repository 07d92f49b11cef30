"""Golden outputs of `sgcheck replay` in every format (SGCHECK_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest
from click.testing import CliRunner

from sgcheck.cli import main

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")

CASES = [
    ("wrong-hit", "examples/logs/broken/wrong-hit.sglog", "text"),
    ("wrong-hit", "examples/logs/broken/wrong-hit.sglog", "json"),
    ("wrong-hit", "examples/logs/broken/wrong-hit.sglog", "sarif"),
    ("wrong-hit", "examples/logs/broken/wrong-hit.sglog", "github"),
    ("walkthrough", "examples/logs/guide-walkthrough.sglog", "text"),
    ("example-c", "examples/logs/guide-example-c.sglog", "text"),
    ("example-c", "examples/logs/guide-example-c.sglog", "json"),
]
SUFFIX = {"text": "txt", "json": "json", "sarif": "sarif", "github": "github"}


@pytest.mark.parametrize(("name", "log", "fmt"), CASES, ids=[f"{n}-{f}" for n, _, f in CASES])
def test_replay_output_matches_golden(
    name: str, log: str, fmt: str, monkeypatch: pytest.MonkeyPatch, golden: Golden
) -> None:
    monkeypatch.chdir(ROOT)  # relative paths in the output, as a user would type them
    result = CliRunner().invoke(main, ["replay", "--format", fmt, log])
    assert result.exit_code in (0, 1), result.output
    path = GOLDEN / f"{name}.{SUFFIX[fmt]}"
    golden.check(path, result.output)
    if fmt == "json":
        schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(json.loads(result.output))
    if fmt == "sarif":
        schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
        jsonschema.Draft7Validator(schema).validate(json.loads(result.output))
