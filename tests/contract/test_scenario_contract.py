"""Scenarios against the contract (core §8, R24): ``sgcheck check`` on scenario files and on the
scenario section of a pack manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.contract.checker import check_paths, rules_table
from sgcheck.contract.packs import load_pack
from sgcheck.contract.scenario_contract import check_scenario_text
from sgcheck.core.parameters import PARAMETERS
from sgcheck.results import ScenarioFileFacts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "scenarios"


def codes_of(text: str) -> list[tuple[str, int, int]]:
    _, findings = check_scenario_text(text, "s.scenario.yaml")
    return [(d.code, d.span.line, d.span.column) for d in findings if d.span is not None]


# the starting LP and SP a scenario does set, per side (tested below)
@pytest.mark.parametrize("name", sorted(set(PARAMETERS) - {"start.lp", "start.sp"}))
def test_every_core_number_in_rules_is_reported_with_its_contract_code(name: str) -> None:
    """core §8, R24: a scenario sets no core number; the code is the one a card's ``set`` gets."""
    loaded, findings = check_scenario_text(f"name: x\nrules:\n  {name}: 7\n", "s.scenario.yaml")
    [finding] = findings
    assert (finding.code, finding.span.line if finding.span else 0) == (PARAMETERS[name].code, 3)
    assert "R24" in finding.rules and "core §8" in finding.rules
    assert loaded.scenario is None  # never played


@pytest.mark.parametrize(
    ("key", "code"),
    [
        ("king_hp", "SG-C004"),  # king.hp, written with an underscore
        ("king_value", "SG-C001"),  # a house rule (R09) rewrites the King's value
        ("income", "SG-C004"),  # R14's table choice rewrites the income rate
        ("phases", "SG-C050"),  # the turn structure
        ("extra_turn", "SG-C050"),
        ("start.lp", "SG-P032"),  # written per side instead
        ("turn_limit", "SG-P032"),  # written at the top level instead
        ("kinghp", "SG-P032"),  # not a core number: did you mean king.hp?
    ],
)
def test_other_keys_of_rules(key: str, code: str) -> None:
    for section in ("rules", "set"):
        assert codes_of(f"name: x\n{section}:\n  {key}: 1\n") == [(code, 3, 3)]


def test_a_scenario_within_r24_has_no_finding() -> None:
    for path in sorted(EXAMPLES.glob("*.scenario.yaml")):
        _, findings = check_scenario_text(path.read_text(encoding="utf-8"), path.name)
        assert findings == [], (path.name, findings)


def test_check_reports_a_scenario_file_at_line_and_column_with_exit_1() -> None:
    """The broken example makes one mistake of each kind; exit 1 (findings)."""
    result = CliRunner().invoke(main, ["check", "--isolated", "--format", "json", str(EXAMPLES / "broken")])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    [entry] = report["files"]
    found = {d["code"] for d in entry["diagnostics"]}
    assert found == {"SG-P033", "SG-P034", "SG-S103", "SG-P035", "SG-P036", "SG-C002", "SG-C004", "SG-C050"}
    assert all(d["span"] is not None for d in entry["diagnostics"])


def test_check_of_the_shipped_scenarios_is_clean() -> None:
    paths = [str(p) for p in sorted(EXAMPLES.glob("*.scenario.yaml"))]
    result = CliRunner().invoke(main, ["check", "--isolated", *paths])
    assert result.exit_code == 0, result.output
    run = check_paths(paths)
    named = [f.facts.scenario for f in run.files if isinstance(f.facts, ScenarioFileFacts)]
    assert named[:2] == ["Drill 1: last-hit practice", "Drill 2: summon timing"]


def test_check_reads_a_scenario_from_standard_input(tmp_path: Path) -> None:
    text = "name: x\nrules: {cost.move: 3}\n"
    result = CliRunner().invoke(main, ["check", "--isolated", "--stdin-filename", "in.scenario.yaml", "-"], input=text)
    assert result.exit_code == 1 and "in.scenario.yaml:2:9: SG-C002" in result.output


def test_disabled_codes_and_file_suppressions_apply_to_scenarios(tmp_path: Path) -> None:
    path = tmp_path / "w.scenario.yaml"
    path.write_text("name: x\nwin: {conditions: [{captured_value: {at_least: 99}}]}\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["check", "--isolated", str(path)]).exit_code == 0  # warnings only
    path.write_text("name: x\nrules: {cost.move: 3}\n", encoding="utf-8")
    quiet = CliRunner().invoke(main, ["check", "--isolated", "--disable", "SG-C002", str(path)])
    assert quiet.exit_code == 0 and "SG-C002" not in quiet.output, quiet.output
    path.write_text("# sgcheck: ignore-file SG-C002 -- a teaching example\nname: x\nrules: {cost.move: 3}\n")
    result = CliRunner().invoke(main, ["check", "--isolated", str(path)])
    assert result.exit_code == 0, result.output


def test_a_folder_search_finds_scenarios_also_inside_packs(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "sgpack.yaml").write_text("name: p\nversion: 1.0.0\ncards: [c.sgcard]\n")
    (pack / "c.sgcard").write_text('relic "Eye" { cost 3 SP effect to_hit +5 when attacker is Knight }\n')
    (pack / "s.scenario.yaml").write_text("name: x\nrules: {cost.move: 3}\n")
    result = CliRunner().invoke(main, ["check", "--isolated", str(tmp_path)])
    assert "s.scenario.yaml:2:9: SG-C002" in result.output
    assert "SG-C204" not in result.output  # a scenario is not an unlisted card file


def test_a_manifest_scenario_section_is_checked_with_the_pack(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard").write_text('relic "Eye" { cost 3 SP effect to_hit +5 when attacker is Knight }\n')
    manifest = tmp_path / "sgpack.yaml"
    manifest.write_text(
        "name: siege\nversion: 1.0.0\ncards: [c.sgcard]\n"
        "scenario:\n  name: Siege\n  white: {sp: 10, pieces: [Ke4, Ke5]}\n  rules: {cost.attack: 1}\n"
    )
    plan = load_pack(manifest, "sgpack.yaml")
    assert plan.scenario is None and plan.facts["scenario"] == "Siege"
    found = sorted((d.code, d.span.line, d.span.column) for d in plan.diagnostics if d.span is not None)
    assert found == [("SG-C002", 7, 11), ("SG-P033", 6, 33)]
    bad = CliRunner().invoke(main, ["check", "--isolated", str(tmp_path)])
    assert bad.exit_code == 1 and "SG-C002" in bad.output
    manifest.write_text(
        "name: siege\nversion: 1.0.0\ncards: [c.sgcard]\nscenario:\n  name: Siege\n  white: {sp: 10}\n"
        "  win: {conditions: [{break_and_capture: {}}]}\n"
    )
    plan = load_pack(manifest, "sgpack.yaml")
    assert plan.scenario is not None
    assert plan.scenario.side(plan.scenario.first).sp == 10
    manifest.write_text("name: siege\nversion: 1.0.0\ncards: [c.sgcard]\nscenario:\n  nam: Siege\n")
    plan = load_pack(manifest, "sgpack.yaml")
    assert [(d.code, d.message[:26]) for d in plan.diagnostics] == [
        ("SG-P032", "scenario: 'name' is missing"[:26]),
        ("SG-P032", "scenario: unknown key 'nam"),
    ]


def test_the_sarif_rule_table_of_check_knows_the_scenario_codes() -> None:
    table = rules_table()
    assert {"SG-P032", "SG-P033", "SG-P034", "SG-P035", "SG-P036", "SG-S103"} <= set(table)


def test_schema_command_prints_the_scenario_schema() -> None:
    result = CliRunner().invoke(main, ["schema", "scenario"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["$id"].endswith("scenario.schema.json") and "win" in schema["properties"]


def test_a_scenario_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    """docs/limits.md: a scenario file may have SCENARIO_LIMIT.max_bytes bytes; one more is SG-P010."""
    from sgcheck.lang.source import SCENARIO_LIMIT

    head = b"name: padded\n"
    path = tmp_path / "big.scenario.yaml"
    filler = SCENARIO_LIMIT.max_bytes - len(head)
    path.write_bytes(head + (b"#" * 99 + b"\n") * (filler // 100) + b"#" * (filler % 100))
    assert path.stat().st_size == SCENARIO_LIMIT.max_bytes
    result = CliRunner().invoke(main, ["check", "--isolated", str(path)])
    assert result.exit_code == 0, result.output
    path.write_bytes(path.read_bytes() + b"#")
    result = CliRunner().invoke(main, ["check", "--isolated", "--format", "json", str(path)])
    assert result.exit_code == 1
    assert [d["code"] for d in json.loads(result.output)["files"][0]["diagnostics"]] == ["SG-P010"]
