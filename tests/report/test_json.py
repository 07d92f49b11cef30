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

from .test_render import CLEAN, GAME, clean_run, sample_run

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
    assert document["version"] == 1
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
    assert '\n  "version": 1,' in out  # indent=2


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
    run = Run("replay", (FileResult("w.sglog", (), facts={"ratio": float("nan")}),))
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
        (lambda d: d.update(version=2), "was expected"),
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
