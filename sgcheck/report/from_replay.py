"""Package a replay's outcome as a report FileResult."""

from __future__ import annotations

from sgcheck.replay.interpreter import ReplayResult
from sgcheck.replay.summary import summary_facts, summary_text
from sgcheck.report.model import FileResult


def replay_file_result(path: str, result: ReplayResult, *, with_summary: bool = True) -> FileResult:
    return FileResult(
        path=path,
        diagnostics=result.diagnostics,
        summary=summary_text(result) if with_summary else None,
        facts=summary_facts(result),
    )
