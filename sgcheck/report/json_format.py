"""JSON output for tools: one document, fixed key order, described by ``schemas/report.schema.json``.

The shape is versioned (``"version": 2``): the version changes whenever a key the schema names
is added, renamed or removed (``schemas/report.keys.json`` keeps each version's keys, and a test
fails when they change under the same version), so a consumer can tell which keys to expect.
Everything a text block shows is here as data: span, rules, hint, fix, label, expected and
claimed, and the ordered context facts; with ``replay --timeline``, each log's explanations
(``"timeline"``). Text is kept as it is; control characters, bidirectional controls, line
separators and lone surrogates are written as ``\\u`` escapes
(:func:`sgcheck.visible.escape_json_text`), so no raw one reaches a terminal the report is
printed on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span
from sgcheck.report.formats import Options, ResultKind, RunEnd, not_rendered, without_positions
from sgcheck.report.summaries import summary_text
from sgcheck.results import FileResult, GauntletReport, ReplayFacts, Run, SimulationReport
from sgcheck.visible import escape_json_text

__all__ = ["REPORT_VERSION", "SCHEMA_ID", "diagnostic_dict", "render_json", "report_document", "span_dict"]

REPORT_VERSION = 2
SCHEMA_ID = "https://sgcheck.dev/schemas/report.schema.json"


def span_dict(span: Span | None) -> dict[str, Any] | None:
    if span is None:
        return None
    return {
        "source": span.source,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "offset": span.offset,
        "end_offset": span.end_offset,
    }


def _fix_dict(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "description": fix.description,
        "replacement": fix.replacement,
        "span": span_dict(fix.span),
        "safe": fix.safe,
    }


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """One finding as JSON data. Context stays ordered (dicts keep insertion order)."""
    context: dict[str, str] = {}
    for key, value in diagnostic.context:
        context.setdefault(key, value)
    return {
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "rules": list(diagnostic.rules),
        "hint": diagnostic.hint,
        "fix": _fix_dict(diagnostic.fix),
        "label": diagnostic.label,
        "expected": diagnostic.expected,
        "claimed": diagnostic.claimed,
        "context": context,
        "span": span_dict(diagnostic.span),
    }


def _file_dict(result: FileResult) -> dict[str, Any]:
    facts = result.facts.as_json() if result.facts is not None else {}
    replayed = result.facts if isinstance(result.facts, ReplayFacts) else None
    # the positions are the HTML page's data, not the report's: replay --timeline keeps the explanations
    timeline = replayed.timeline if replayed is not None else None
    dispute = replayed.dispute if replayed is not None else None  # replay --dispute: a section of its own
    found = {
        "path": result.path,
        "status": "findings" if result.has_errors else "ok",
        "diagnostics": [diagnostic_dict(d) for d in result.diagnostics],
        "suppressed": [
            {"diagnostic": diagnostic_dict(s.diagnostic), "reason": s.reason, "span": span_dict(s.at)}
            for s in result.suppressed
        ],
        "summary": summary_text(result.summary),
        "facts": facts,
    }
    if timeline is not None:  # replay --timeline: every statement explained, in order
        found["timeline"] = [explained.as_json() for explained in timeline.explanations]
    if dispute is not None:
        found["dispute"] = dispute.as_json()
    return found


def report_document(run: Run) -> dict[str, Any]:
    """The report as plain data (what :func:`render_json` serialises)."""
    counts = {severity.value: 0 for severity in (Severity.ERROR, Severity.WARNING, Severity.NOTE)}
    for diagnostic in run.diagnostics:
        counts[diagnostic.severity.value] += 1
    return {
        "version": REPORT_VERSION,
        "tool": {"name": "sgcheck", "version": run.tool_version},
        "command": run.command,
        "files": [_file_dict(result) for result in run.files],
        "counts": {**counts, "suppressed": len(run.suppressed)},
        **({"configuration": run.configuration} if run.configuration is not None else {}),
    }


def render_json(run: Run) -> str:
    """Pretty-printed, UTF-8-friendly JSON with a trailing newline.

    ``allow_nan=False``: NaN and Infinity are not JSON, and a strict consumer would
    reject the whole document, so a bad fact fails loudly here instead.
    """
    return escape_json_text(json.dumps(report_document(run), indent=2, ensure_ascii=False, allow_nan=False)) + "\n"


class JsonFormat:
    """JSON for tools: a run as one document (schemas/report.schema.json), a simulation's report
    (schemas/simulate.schema.json) and the odds as theirs."""

    name = "json"
    renders = frozenset(ResultKind)
    streamed = False

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        return ""  # one document, written at the end

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result, explanations=True)  # replay --timeline: the JSON report lists them

    def close(self, end: RunEnd) -> str:
        return render_json(end.run())

    def render(self, result: object, options: Options) -> str:
        from sgcheck.core.odds import CaptureOdds, OddsTables
        from sgcheck.replay.dice_next import NextRolls, PurposeRolls
        from sgcheck.replay.dice_stats import DiceStats
        from sgcheck.report import dice_report, odds_report, simulation

        if isinstance(result, SimulationReport | GauntletReport):
            return simulation.simulation_json(result)
        if isinstance(result, OddsTables):
            return odds_report.tables_json(result)
        if isinstance(result, CaptureOdds):
            return odds_report.capture_json(result)
        if isinstance(result, DiceStats):
            return dice_report.stats_json(result)
        if isinstance(result, NextRolls | PurposeRolls):
            return dice_report.next_json(result)
        raise not_rendered(self.name, result)


FORMAT = JsonFormat()
