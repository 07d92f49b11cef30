"""SARIF output: validity against the official 2.1.0 schema and what code scanning relies on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from sgcheck.codes import CATALOGUE
from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span
from sgcheck.report import render
from sgcheck.report.sarif import artifact_location
from sgcheck.results import FileResult, Run

from .test_render import GAME, clean_run, sample_run

SARIF_SCHEMA_PATH = Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json"


def _validator() -> Draft7Validator:
    with SARIF_SCHEMA_PATH.open(encoding="utf-8") as handle:
        schema = json.load(handle)
    return Draft7Validator(schema)


def _sarif(run: Run) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(render(run, "sarif"))
    return document


def _one(diagnostic: Diagnostic, path: str = "g.sglog") -> Run:
    return Run("replay", (FileResult(path, (diagnostic,)),), rules=CATALOGUE, tool_version="0.1.0")


def test_vendored_schema_is_the_sarif_2_1_0_schema() -> None:
    with SARIF_SCHEMA_PATH.open(encoding="utf-8") as handle:
        schema = json.load(handle)
    Draft7Validator.check_schema(schema)
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]
    assert "reportingDescriptor" in schema["definitions"]


@pytest.mark.parametrize("make_run", [sample_run, clean_run, lambda: Run("cards", ())])
def test_renders_validate_against_the_sarif_schema(make_run: Any) -> None:
    errors = [e.message for e in _validator().iter_errors(_sarif(make_run()))]
    assert errors == []


def test_log_header_and_driver() -> None:
    log = _sarif(sample_run())
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "sgcheck"
    assert driver["version"] == "0.1.0"
    assert driver["informationUri"].startswith("https://")
    assert run["columnKind"] == "unicodeCodePoints"


def test_rule_table_lists_exactly_the_codes_used() -> None:
    run = _sarif(sample_run())["runs"][0]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    used = {result["ruleId"] for result in run["results"]}
    assert set(ids) == used and len(ids) == len(used)
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]


def test_rule_descriptor_content() -> None:
    rules = {r["id"]: r for r in _sarif(sample_run())["runs"][0]["tool"]["driver"]["rules"]}
    info = CATALOGUE["SG-R204"]
    rule = rules["SG-R204"]
    assert rule["name"] == info.name
    assert rule["fullDescription"]["text"] == info.explanation
    assert info.explanation.startswith(rule["shortDescription"]["text"])
    assert info.explanation in rule["help"]["text"]
    assert rule["defaultConfiguration"]["level"] == "error"
    assert rule["properties"]["tags"] == ["core §4.2", "core §4.4", "R10"]
    assert rules["SG-N301"]["defaultConfiguration"]["level"] == "warning"
    assert rules["SG-N303"]["defaultConfiguration"]["level"] == "note"


def test_results_follow_the_findings() -> None:
    results = _sarif(sample_run())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == [
        "SG-R204",
        "SG-N301",
        "SG-R201",
        "SG-R201",
        "SG-R114",
        "SG-N303",
    ]
    assert [r["level"] for r in results] == ["error", "warning", "error", "error", "error", "note"]
    first = results[0]
    assert first["message"]["text"].endswith("(core §4.2, R10)")
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": GAME, "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 12, "startColumn": 5, "endLine": 12, "endColumn": 31}
    assert first["properties"]["context"]["turn"] == "7"
    assert first["properties"]["hint"].startswith("a roll hits")


def test_spanless_result_has_no_region() -> None:
    result = _sarif(sample_run())["runs"][0]["results"][1]
    location = result["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": GAME, "uriBaseId": "%SRCROOT%"}}


def test_zero_width_region_keeps_only_its_start() -> None:
    region = _sarif(sample_run())["runs"][0]["results"][5]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 17, "startColumn": 5}


def test_regions_always_end_after_they_start() -> None:
    for result in _sarif(sample_run())["runs"][0]["results"]:
        region = result["locations"][0]["physicalLocation"].get("region")
        if region and "endLine" in region:
            start = (region["startLine"], region["startColumn"])
            assert (region["endLine"], region["endColumn"]) > start
            if region["endLine"] == region["startLine"]:
                assert region["endColumn"] > region["startColumn"]


def test_fix_with_replacement_becomes_a_sarif_fix() -> None:
    results = _sarif(sample_run())["runs"][0]["results"]
    fix = results[2]["fixes"][0]
    assert fix["description"]["text"] == "write the real cost"
    change = fix["artifactChanges"][0]
    assert change["artifactLocation"]["uri"] == GAME
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 13, "startColumn": 15, "endLine": 13, "endColumn": 21},
            "insertedContent": {"text": "cost 6"},
        }
    ]
    # A fix without its own span replaces the finding's span.
    assert results[3]["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]["startColumn"] == 19
    # A fix with nothing to insert is advice only.
    assert "fixes" not in results[5] and results[5]["properties"]["fix"].startswith("drop the Ruleset")


def test_insertion_fix_uses_an_empty_region() -> None:
    diagnostic = Diagnostic(
        "SG-P002",
        Severity.ERROR,
        "missing dice",
        Span.point("g.sglog", 2, 9),
        fix=Fix("add the dice", " 0 0"),
    )
    log = _sarif(_one(diagnostic))
    assert [e.message for e in _validator().iter_errors(log)] == []
    region = log["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]
    assert region == {"startLine": 2, "startColumn": 9, "endLine": 2, "endColumn": 9}


def test_unknown_code_gets_a_minimal_rule() -> None:
    diagnostic = Diagnostic("SG-C401", Severity.WARNING, "card text is ambiguous")
    log = _sarif(_one(diagnostic))
    assert [e.message for e in _validator().iter_errors(log)] == []
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules == [{"id": "SG-C401", "defaultConfiguration": {"level": "warning"}}]
    assert log["runs"][0]["results"][0]["ruleIndex"] == 0


def test_severity_override_is_reported_per_result() -> None:
    diagnostic = Diagnostic("SG-N301", Severity.ERROR, "strict mode")
    result = _sarif(_one(diagnostic))["runs"][0]["results"][0]
    assert result["level"] == "error"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("game.sglog", {"uri": "game.sglog", "uriBaseId": "%SRCROOT%"}),
        ("./games/a.sglog", {"uri": "games/a.sglog", "uriBaseId": "%SRCROOT%"}),
        ("games\\win.sglog", {"uri": "games/win.sglog", "uriBaseId": "%SRCROOT%"}),
        ("my games/r 1.sglog", {"uri": "my%20games/r%201.sglog", "uriBaseId": "%SRCROOT%"}),
        ("a:b.sglog", {"uri": "a%3Ab.sglog", "uriBaseId": "%SRCROOT%"}),
        ("100%#?.sglog", {"uri": "100%25%23%3F.sglog", "uriBaseId": "%SRCROOT%"}),
        ("/home/ann/game.sglog", {"uri": "file:///home/ann/game.sglog"}),
        ("C:\\Games\\g.sglog", {"uri": "file:///C:/Games/g.sglog"}),
    ],
)
def test_artifact_location(path: str, expected: dict[str, str]) -> None:
    assert artifact_location(path) == expected


def test_automation_id_names_the_command() -> None:
    assert _sarif(sample_run())["runs"][0]["automationDetails"]["id"] == "sgcheck/replay/"


def test_degenerate_positions_still_give_a_valid_log() -> None:
    diagnostic = Diagnostic("SG-P001", Severity.ERROR, "odd span", Span("g.sglog", 0, 0, 0, 0), fix=Fix("insert", "x"))
    log = _sarif(_one(diagnostic))
    assert [e.message for e in _validator().iter_errors(log)] == []
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 1}
