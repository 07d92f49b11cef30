"""Turn a command's typed result into output text.

Every format is a pure function of the result (no I/O, no clock, no environment),
so the same findings always print the same bytes and golden tests stay exact.
The CLI picks the format; this package only knows how to spell each one, behind one
protocol (:mod:`sgcheck.report.formats`): a format is one module that serves every
command whose results it renders.

:class:`ReportStream` renders a run of checked files file by file: text and GitHub
annotations are written as each file is checked, while JSON, SARIF, JUnit XML and
the HTML replay report, which are one document each, are written whole at the end (the
HTML report keeps each file's part, rendered while its source was at hand).
"""

from __future__ import annotations

from sgcheck.report.formats import (
    REGISTRY,
    PartRenderer,
    ReportStream,
    ResultKind,
    labels_summaries,
    names_for,
    render,
)
from sgcheck.results import FileResult, Run

__all__ = [
    "CHECK_FORMATS",
    "FACT_FORMATS",
    "FORMATS",
    "REPLAY_FORMATS",
    "FileResult",
    "PartRenderer",
    "ReportStream",
    "ResultKind",
    "Run",
    "labels_summaries",
    "render",
]

#: The formats each command offers: the HTML report draws a replay's positions, so only replay has it.
REPLAY_FORMATS: tuple[str, ...] = names_for(ResultKind.REPLAY)
CHECK_FORMATS: tuple[str, ...] = names_for(ResultKind.CHECK)
FORMATS: tuple[str, ...] = REPLAY_FORMATS
#: The formats that write a file's facts; the others never read them (:class:`formats.Entry`).
FACT_FORMATS = frozenset(entry.name for entry in REGISTRY if entry.writes_facts)
