"""The JSON report: its shape, and agreement with schemas/report.schema.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.report import render
from sgcheck.results import FileResult, Run

from .test_render import CLEAN, GAME, GivenFacts, clean_run, sample_run

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "report.schema.json"


def _schema() -> dict[str, Any]:
    with SCHEMA_PATH.open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


def _validator() -> Draft202012Validator:
    return Draft202012Validator(_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def _errors(document: object) -> list[str]:
    """Every message, including those nested under ``oneOf`` (which only says "not valid")."""
    messages: list[str] = []
    pending = list(_validator().iter_errors(document))
    while pending:
        error = pending.pop()
        messages.append(error.message)
        pending.extend(error.context or ())
    return messages


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = _schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://sgcheck.dev/schemas/report.schema.json"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("make_run", [sample_run, clean_run, lambda: Run("cards", ())])
def test_renders_validate_against_the_schema(make_run: Any) -> None:
    document = json.loads(render(make_run(), "json"))
    assert _errors(document) == []


def test_document_shape_and_key_order() -> None:
    document = json.loads(render(sample_run(), "json"))
    assert list(document) == ["version", "tool", "command", "files", "counts"]
    assert document["version"] == 2
    assert document["tool"] == {"name": "sgcheck", "version": "0.1.0"}
    assert document["command"] == "replay"
    assert [f["path"] for f in document["files"]] == [GAME, CLEAN]
    game, clean = document["files"]
    assert list(game) == ["path", "status", "diagnostics", "suppressed", "summary", "facts"]
    assert game["status"] == "findings" and clean["status"] == "ok"
    assert clean["diagnostics"] == [] and clean["summary"] is None
    first = game["diagnostics"][0]
    assert list(first) == [
        *("code", "severity", "message", "rules", "hint", "fix", "label"),
        *("expected", "claimed", "context", "span"),
    ]
    assert (first["expected"], first["claimed"]) == ("miss", "hit")
    assert list(first["context"]) == ["turn", "player", "phase", "state"]
    assert first["span"] == {
        "source": GAME,
        "line": 12,
        "column": 5,
        "end_line": 12,
        "end_column": 31,
        "offset": 105,
        "end_offset": 131,
    }
    assert game["facts"]["final"]["white"] == {"lp": 9, "sp": 5}
    assert document["counts"] == {"error": 4, "warning": 1, "note": 1, "suppressed": 0}


def test_text_is_pretty_utf8_with_trailing_newline() -> None:
    out = render(sample_run(), "json")
    assert out.endswith("}\n")
    assert "10×(Rook 5 − Pawn 1)" in out  # ensure_ascii=False
    assert '\n  "version": 2,' in out  # indent=2


def test_fix_is_serialised() -> None:
    document = json.loads(render(sample_run(), "json"))
    diagnostics = document["files"][0]["diagnostics"]
    assert diagnostics[2]["fix"]["replacement"] == "cost 6"
    assert diagnostics[2]["fix"]["span"]["column"] == 15
    assert diagnostics[3]["fix"] == {
        "description": "correct the cost",
        "replacement": "12",
        "span": None,
        "safe": False,
    }
    assert diagnostics[0]["fix"] is None


def test_warnings_alone_leave_a_file_ok() -> None:
    run = Run("replay", (FileResult("w.sglog", (Diagnostic("SG-N301", Severity.WARNING, "card"),)),))
    assert json.loads(render(run, "json"))["files"][0]["status"] == "ok"


def test_non_finite_facts_are_refused() -> None:
    run = Run("replay", (FileResult("w.sglog", (), facts=GivenFacts({"ratio": float("nan")})),))
    with pytest.raises(ValueError):
        render(run, "json")


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda d: d.update(extra=1), "Additional properties"),
        (lambda d: d["files"][0]["diagnostics"][0].update(code="R204"), "does not match"),
        (lambda d: d["files"][0]["diagnostics"][0].update(code="SG-r204"), "does not match"),
        (lambda d: d["files"][0]["diagnostics"][0].update(severity="fatal"), "is not one of"),
        (lambda d: d["files"][0].update(status="bad"), "is not one of"),
        (lambda d: d["files"][0]["diagnostics"][0]["span"].update(line=0), "less than the minimum"),
        (lambda d: d["files"][0]["diagnostics"][0]["span"].pop("end_offset"), "required"),
        (lambda d: d["files"][0]["diagnostics"][0].update(surprise=True), "Additional properties"),
        (lambda d: d["counts"].pop("note"), "required"),
        (lambda d: d.update(version=1), "was expected"),
    ],
)
def test_schema_is_strict(mutate: Any, fragment: str) -> None:
    document = json.loads(render(sample_run(), "json"))
    mutate(document)
    errors = _errors(document)
    assert errors and any(fragment in e for e in errors), errors


def test_point_span_is_valid() -> None:
    diagnostic = Diagnostic("SG-P002", Severity.ERROR, "unexpected end", Span.point("x.sglog", 3, 1, 40))
    document = json.loads(render(Run("replay", (FileResult("x.sglog", (diagnostic,)),)), "json"))
    assert _errors(document) == []
    assert document["files"][0]["diagnostics"][0]["span"]["end_column"] == 1


# --- the version changes whenever a key changes -----------------------------------------------------

KEYS_PATH = SCHEMA_PATH.with_name("report.keys.json")


def schema_keys(node: Any, at: str = "") -> set[str]:
    """Every key the schema names, as a path (``$defs.diagnostic.context.state before``)."""
    found: set[str] = set()
    if isinstance(node, dict):
        for name, value in node.get("properties", {}).items():
            found.add(f"{at}.{name}".lstrip("."))
            found |= schema_keys(value, f"{at}.{name}")
        for name, value in node.get("$defs", {}).items():
            found |= schema_keys(value, f"$defs.{name}")
        for word in ("items", "additionalProperties"):
            found |= schema_keys(node.get(word), f"{at}[]" if word == "items" else at)
        for word in ("oneOf", "anyOf", "allOf"):
            for branch in node.get(word, []):
                found |= schema_keys(branch, at)
    return found


def test_the_report_version_changes_whenever_a_key_changes() -> None:
    """schemas/report.keys.json keeps the keys of each version. The schema's keys must be the ones
    kept for REPORT_VERSION, the newest: a key added, renamed or removed with the version left as
    it was fails here. SGCHECK_UPDATE_GOLDEN=1 records a new version's keys, never rewrites a
    version's own (the old `state` that became `state before` under version 1 is why)."""
    import os

    from sgcheck.report.json_format import REPORT_VERSION

    schema = _schema()
    assert schema["properties"]["version"]["const"] == REPORT_VERSION
    keys = sorted(schema_keys(schema))
    kept: dict[str, list[str]] = json.loads(KEYS_PATH.read_text(encoding="utf-8")) if KEYS_PATH.exists() else {}
    if str(REPORT_VERSION) not in kept and os.environ.get("SGCHECK_UPDATE_GOLDEN") == "1":
        kept[str(REPORT_VERSION)] = keys
        KEYS_PATH.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert str(REPORT_VERSION) in kept, (
        f"no keys kept for version {REPORT_VERSION}: SGCHECK_UPDATE_GOLDEN=1 records them"
    )
    assert max(map(int, kept)) == REPORT_VERSION, "REPORT_VERSION is older than a version kept"
    changed = sorted(set(keys) ^ set(kept[str(REPORT_VERSION)]))
    assert not changed, f"keys changed under version {REPORT_VERSION} (raise REPORT_VERSION): {changed}"


def test_a_renamed_context_key_is_caught() -> None:
    """The check above sees a context key renamed as the one of version 1 was."""
    schema = _schema()
    context = schema["$defs"]["diagnostic"]["properties"]["context"]["properties"]
    before = schema_keys(schema)
    context["state"] = context.pop("state before")
    assert before ^ schema_keys(schema) == {"$defs.diagnostic.context.state", "$defs.diagnostic.context.state before"}


def test_every_replay_context_key_and_fact_the_commands_write_is_one_the_schema_names() -> None:
    """Over the shipped examples, as replay and check write them: a replay finding's context keys
    and every file's facts are keys of the schema (a contract finding names its own context)."""
    from click.testing import CliRunner

    from sgcheck.cli import main

    schema = _schema()
    context = set(schema["$defs"]["diagnostic"]["properties"]["context"]["properties"])
    facts = set(schema["$defs"]["file"]["properties"]["facts"]["properties"])
    examples = str(SCHEMA_PATH.parents[1] / "examples")
    seen_context: set[str] = set()
    for args in (["replay", "--keep-going", "--format", "json", examples], ["check", "--format", "json", examples]):
        document = json.loads(CliRunner().invoke(main, args).output)
        assert _errors(document) == []
        for file in document["files"]:
            assert set(file["facts"]) <= facts, file["path"]
            for diag in file["diagnostics"]:
                if not diag["code"].startswith(("SG-C", "SG-P")):
                    seen_context |= set(diag["context"])
    assert {"turn", "player", "phase", "state before", "state after"} <= seen_context <= context
