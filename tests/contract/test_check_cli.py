"""``sgcheck check`` and ``sgcheck schema`` end to end: exit codes, formats and golden outputs.

Golden files live in tests/contract/golden/; run with SGCHECK_UPDATE_GOLDEN=1 to rewrite them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("SGCHECK_UPDATE_GOLDEN") == "1"


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


GOLDEN_RUNS = {
    "guide-relics": "examples/cards/guide-relics.sgcard",
    "starter-pack": "examples/packs/starter",
    "broken-pack": "examples/packs/broken",
}


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("name", sorted(GOLDEN_RUNS))
def test_golden_output(name: str, fmt: str) -> None:
    code, output = invoke("check", GOLDEN_RUNS[name], "--isolated", "--no-color", "--format", fmt)
    path = GOLDEN / f"{name}.{'txt' if fmt == 'text' else 'json'}"
    if UPDATE:
        path.write_text(output, encoding="utf-8")
    assert output == path.read_text(encoding="utf-8")
    assert code == (0 if name == "starter-pack" else 1)


def test_guide_cards_findings() -> None:
    """The guide's cards: Temporal Rift breaks core §8 (turn structure), Soul Ward is a degenerate warning."""
    code, output = invoke("check", "examples/cards/guide-relics.sgcard", "--isolated", "--format", "json")
    found = {(d["code"], d["context"]["card"]) for f in json.loads(output)["files"] for d in f["diagnostics"]}
    assert found == {("SG-C050", 'spell "Temporal Rift"'), ("SG-C090", 'relic "Soul Ward"')}
    assert code == 1
    assert "Soul Drain" not in output


def test_broken_pack_shows_every_code_it_can() -> None:
    _, output = invoke("check", "examples/packs/broken", "--isolated", "--format", "json")
    from sgcheck.contract import code_catalogue

    reported = {d["code"] for f in json.loads(output)["files"] for d in f["diagnostics"]}
    only_in_cases = {"SG-C201", "SG-C205", "SG-C208", "SG-C210"}  # each would stop or replace the whole pack
    assert reported == set(code_catalogue()) - only_in_cases


def test_exit_codes_and_usage_errors(tmp_path: Path) -> None:
    assert invoke("check", "examples/packs/starter", "--isolated")[0] == 0
    assert invoke("check", "examples/cards/guide-relics.sgcard", "--isolated", "--disable", "SG-C050")[0] == 0
    assert invoke("check", str(tmp_path / "missing"))[0] == 2
    assert invoke("check", "examples", "--disable", "SG-C999")[0] == 2
    assert invoke("check", "examples", "--ruleset", "chess960")[0] == 2
    assert invoke("check")[0] == 2


def test_config_file_option(tmp_path: Path) -> None:
    config = tmp_path / "sg.toml"
    config.write_text('[tool.sgcheck]\ndisable = ["SG-C050"]\n[tool.sgcheck.severity]\nSG-C090 = "error"\n')
    code, output = invoke("check", "examples/cards/guide-relics.sgcard", "--config", str(config), "--format", "json")
    codes = [(d["code"], d["severity"]) for f in json.loads(output)["files"] for d in f["diagnostics"]]
    assert codes == [("SG-C090", "error")] and code == 1


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_machine_formats(fmt: str) -> None:
    code, output = invoke("check", "examples/packs/broken", "--isolated", "--format", fmt)
    assert code == 1
    if fmt == "sarif":
        sarif = json.loads(output)
        rule_ids = {rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
        assert {"SG-C010", "SG-C120", "SG-P020"} <= rule_ids
    else:
        assert "::error file=examples/packs/broken/contract.sgcard,line=8" in output


@pytest.mark.parametrize("kind", ["card", "pack"])
def test_schema_command_prints_the_schema(kind: str) -> None:
    code, output = invoke("schema", kind)
    assert code == 0
    assert json.loads(output) == json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))


def test_explain_knows_contract_codes() -> None:
    code, output = invoke("explain", "SG-C010")
    assert code == 0 and "+25" in output and "core §4.5" in output


def test_help_stays_light() -> None:
    """`sgcheck check --help` must not import lark, jsonschema or ruamel (fast CLI)."""
    probe = (
        "import sys; from click.testing import CliRunner; from sgcheck.cli import main; "
        "CliRunner().invoke(main, ['check', '--help']); "
        "print(sorted(m for m in ('lark', 'jsonschema', 'ruamel.yaml') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    assert result.stdout.strip() == "[]"
