"""GitHub workflow-command output: one escaped annotation line per finding."""

from __future__ import annotations

import pytest

from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.report import render
from sgcheck.report.github import escape_data, escape_property
from sgcheck.results import FileResult, Run

from .test_render import sample_run


def _render(*diagnostics: Diagnostic, path: str = "g.sglog") -> list[str]:
    return render(Run("replay", (FileResult(path, diagnostics),)), "github").splitlines()


def test_one_line_per_finding_and_nothing_else() -> None:
    out = render(sample_run(), "github")
    lines = out.splitlines()
    assert len(lines) == 6
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)


def test_clean_run_prints_nothing() -> None:
    assert render(Run("replay", (FileResult("g.sglog", ()),)), "github") == ""


@pytest.mark.parametrize(
    ("severity", "command"),
    [(Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.NOTE, "notice")],
)
def test_severity_commands(severity: Severity, command: str) -> None:
    (line,) = _render(Diagnostic("SG-R101", severity, "x"))
    assert line.startswith(f"::{command} ")


def test_full_location() -> None:
    diagnostic = Diagnostic(
        "SG-R204", Severity.ERROR, "wrong hit", Span("g.sglog", 42, 5, 42, 32), ("core §4.2", "R10")
    )
    assert _render(diagnostic) == [
        "::error file=g.sglog,line=42,col=5,endLine=42,endColumn=32,title=SG-R204::wrong hit (core §4.2, R10)"
    ]


def test_spanless_finding_has_only_the_file() -> None:
    assert _render(Diagnostic("SG-N301", Severity.WARNING, "card")) == ["::warning file=g.sglog,title=SG-N301::card"]


def test_multi_line_span_drops_columns() -> None:
    (line,) = _render(Diagnostic("SG-R201", Severity.ERROR, "cost", Span("g.sglog", 3, 4, 5, 2)))
    assert line == "::error file=g.sglog,line=3,endLine=5,title=SG-R201::cost"


def test_zero_width_span_has_no_end() -> None:
    (line,) = _render(Diagnostic("SG-P002", Severity.ERROR, "eof", Span.point("g.sglog", 9, 1)))
    assert line == "::error file=g.sglog,line=9,col=1,title=SG-P002::eof"


def test_escaping_functions() -> None:
    assert escape_data("100% sure\r\nnext: a,b") == "100%25 sure%0D%0Anext: a,b"
    assert escape_property("C:\\a,b%\n") == "C%3A\\a%2Cb%25%0A"
    assert escape_data("%0A") == "%250A"  # percent first, so escapes are never double-decoded


def test_message_and_properties_are_escaped() -> None:
    diagnostic = Diagnostic(
        "SG-R101",
        Severity.ERROR,
        "no piece: 50% chance\nsecond line\r",
        Span("dir,one/odd:name.sglog", 1, 1, 1, 2),
        ("core §3",),
    )
    (line,) = _render(diagnostic)
    assert line == (
        "::error file=dir%2Cone/odd%3Aname.sglog,line=1,col=1,endLine=1,endColumn=2,title=SG-R101"
        "::no piece: 50%25 chance%0Asecond line%0D (core §3)"
    )
    # Whatever the message, a finding is exactly one line and one command.
    assert line.count("::") == 2


def test_injection_attempt_stays_inside_the_message() -> None:
    lines = _render(Diagnostic("SG-R101", Severity.ERROR, "x\n::error file=evil::pwned"))
    assert len(lines) == 1
    assert lines[0].endswith("::x%0A::error file=evil::pwned")


def test_windows_paths_use_forward_slashes() -> None:
    (line,) = _render(Diagnostic("SG-P008", Severity.ERROR, "unreadable"), path="games\\a.sglog")
    assert "file=games/a.sglog," in line
