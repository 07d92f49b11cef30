"""Behaviour of the text format that golden files alone would not explain."""

from __future__ import annotations

import pytest

from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span
from sgcheck.report import render
from sgcheck.report.text import MAX_LINE_WIDTH
from sgcheck.results import FileResult, Run


def _run(*diagnostics: Diagnostic, source: str | None = None, files: int = 1) -> Run:
    results = [FileResult("g.sglog", diagnostics)]
    results += [FileResult(f"other{n}.sglog", ()) for n in range(1, files)]
    return Run("replay", tuple(results), sources={"g.sglog": source} if source is not None else {})


def _diag(span: Span | None = None, severity: Severity = Severity.ERROR, **kwargs: object) -> Diagnostic:
    return Diagnostic("SG-R101", severity, "no piece there", span, **kwargs)  # type: ignore[arg-type]


def _caret_columns(text: str) -> tuple[str, str]:
    """The rendered source line and caret line of the first snippet in ``text``."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if "^" in line)
    return lines[index - 1], lines[index]


def _underlined(source_line: str, caret_line: str) -> str:
    start = caret_line.index("^")
    end = caret_line.rindex("^") + 1
    return source_line[start:end]


def test_headline_for_error_warning_and_note() -> None:
    span = Span("g.sglog", 3, 7, 3, 9)
    error = render(_run(_diag(span, rules=("core §3",))), "text").splitlines()[0]
    warning = render(_run(_diag(span, Severity.WARNING)), "text").splitlines()[0]
    note = render(_run(_diag(None, Severity.NOTE)), "text").splitlines()[0]
    assert error == "g.sglog:3:7: SG-R101 no piece there (core §3)"
    assert warning == "g.sglog:3:7: SG-R101 warning: no piece there"
    assert note == "g.sglog: SG-R101 note: no piece there"


def test_snippet_underlines_exactly_the_span() -> None:
    source = "1. white\n  move Ra1 a4 cost 8\n"
    out = render(_run(_diag(Span("g.sglog", 2, 8, 2, 11), label="empty square"), source=source), "text")
    line, carets = _caret_columns(out)
    assert line == "   2 |   move Ra1 a4 cost 8"
    assert carets == "     |        ^^^ empty square"
    assert _underlined(line, carets) == "Ra1"


def test_gutter_is_as_wide_as_the_line_number() -> None:
    source = "\n" * 1233 + "move Ra1 a4\n"
    out = render(_run(_diag(Span("g.sglog", 1234, 6, 1234, 9)), source=source), "text")
    line, carets = _caret_columns(out)
    assert line.startswith("   1234 | move")
    assert carets.startswith("        | ")
    assert _underlined(line, carets) == "Ra1"


@pytest.mark.parametrize(
    "raw",
    [
        "\tmove Ra1 a4",
        "\t\tmove Ra1 a4",
        "  \tmove Ra1 a4",
        "move\tRa1 a4",
        "mo\t\tve\t Ra1 a4",
        " \t \tmove Ra1 a4",
    ],
)
def test_tabs_keep_carets_aligned(raw: str) -> None:
    column = raw.index("Ra1") + 1
    out = render(_run(_diag(Span("g.sglog", 1, column, 1, column + 3)), source=raw + "\n"), "text")
    line, carets = _caret_columns(out)
    assert "\t" not in line and "\t" not in carets
    assert _underlined(line, carets) == "Ra1"


def test_wide_characters_keep_carets_aligned() -> None:
    raw = "; 王 move Ra1 a4"
    column = raw.index("Ra1") + 1
    out = render(_run(_diag(Span("g.sglog", 1, column, 1, column + 3)), source=raw), "text")
    line, carets = _caret_columns(out)
    prefix = line[: line.index("|") + 2]
    assert len(prefix) + raw.index("Ra1") + 1 == carets.index("^")  # the wide glyph takes two cells


def test_multi_line_span_underlines_to_end_of_first_line() -> None:
    source = "  move Nb1 c3 {\n  } cost 4\n"
    out = render(_run(_diag(Span("g.sglog", 1, 3, 2, 4))), "text")
    assert "^" not in out  # no source known: no snippet
    out = render(_run(_diag(Span("g.sglog", 1, 3, 2, 4)), source=source), "text")
    line, carets = _caret_columns(out)
    assert _underlined(line, carets) == "move Nb1 c3 {"


@pytest.mark.parametrize("column", [1, 5, 12])
def test_zero_width_span_gets_one_caret(column: int) -> None:
    out = render(_run(_diag(Span.point("g.sglog", 1, column)), source="move Ra1 a4"), "text")
    _, carets = _caret_columns(out)
    assert carets.count("^") == 1
    assert carets.index("^") == len("   1 | ") + column - 1


def test_span_past_end_of_line_is_clamped() -> None:
    out = render(_run(_diag(Span("g.sglog", 1, 40, 1, 50)), source="move"), "text")
    _, carets = _caret_columns(out)
    assert carets.count("^") == 1


def test_span_on_missing_line_shows_no_snippet() -> None:
    out = render(_run(_diag(Span("g.sglog", 9, 1, 9, 2)), source="one line\n"), "text")
    assert " | " not in out


def test_long_line_is_cut_to_a_window_around_the_span() -> None:
    raw = "x" * 500 + " Ra1 " + "y" * 500
    column = raw.index("Ra1") + 1
    out = render(_run(_diag(Span("g.sglog", 1, column, 1, column + 3)), source=raw), "text")
    line, carets = _caret_columns(out)
    content = line[line.index("|") + 2 :]
    assert content.startswith("…") and content.endswith("…")
    assert len(content) <= MAX_LINE_WIDTH
    assert _underlined(line, carets) == "Ra1"


def test_long_line_span_near_the_start_only_cuts_the_end() -> None:
    raw = "Ra1 " + "z" * 400
    out = render(_run(_diag(Span("g.sglog", 1, 1, 1, 4)), source=raw), "text")
    line, carets = _caret_columns(out)
    content = line[line.index("|") + 2 :]
    assert content.startswith("Ra1") and content.endswith("…")
    assert _underlined(line, carets) == "Ra1"


def test_long_span_on_a_long_line_is_clipped_to_the_window() -> None:
    raw = "a" * 300
    out = render(_run(_diag(Span("g.sglog", 1, 10, 1, 290)), source=raw), "text")
    line, carets = _caret_columns(out)
    assert len(carets) <= len(line) + 1


def test_crlf_sources_do_not_leak_carriage_returns() -> None:
    out = render(_run(_diag(Span("g.sglog", 2, 1, 2, 5)), source="a\r\nmove Ra1\r\n"), "text")
    assert "\r" not in out
    line, carets = _caret_columns(out)
    assert _underlined(line, carets) == "move"


def test_control_characters_never_reach_the_terminal() -> None:
    source = "move \x1b[31mRa1\x07 a4"
    message = "bad \x1b]0;title\x07 text"
    out = render(_run(_diag(Span("g.sglog", 1, 6, 1, 8), label="x\x1by"), source=source), "text")
    assert "\x1b" not in out and "\x07" not in out
    out = render(_run(Diagnostic("SG-R101", Severity.ERROR, message, hint="\x1b")), "text")
    assert "\x1b" not in out


def test_context_layout() -> None:
    diagnostic = _diag(
        Span("g.sglog", 1, 1, 1, 5),
        context=(
            ("state", "White LP 3"),
            ("phase", "Upkeep"),
            ("turn", "12"),
            ("player", "Black"),
            ("gem", "broken"),
        ),
    )
    lines = render(_run(diagnostic, source="move Ra1"), "text").splitlines()
    assert lines[1] == "   turn 12 · Black · Upkeep"
    assert lines[2].startswith("   1 | ")
    assert lines[4:6] == ["   state: White LP 3", "   gem: broken"]


def test_hint_and_fix_lines() -> None:
    diagnostic = _diag(
        None, hint="squares run a1 to h8", fix=Fix("write the square", "a4\n", Span("g.sglog", 1, 1, 1, 2))
    )
    lines = render(_run(diagnostic), "text").splitlines()
    assert lines[1] == "   hint: squares run a1 to h8"
    assert lines[2] == "   fix: write the square; replace with 'a4\\n'"
    bare = render(_run(_diag(None, fix=Fix("remove the line"))), "text").splitlines()
    assert bare[1] == "   fix: remove the line"


def test_summary_follows_its_file() -> None:
    run = Run(
        "replay",
        (
            FileResult("a.sglog", (_diag(None),), summary="board A\n"),
            FileResult("b.sglog", (_diag(None),), summary="board B"),
        ),
    )
    out = render(run, "text")
    assert out.index("a.sglog:") < out.index("board A") < out.index("b.sglog:") < out.index("board B")
    assert "board A\n\nb.sglog" in out


@pytest.mark.parametrize(
    ("diagnostics", "files", "expected"),
    [
        ((), 1, "1 file checked: no problems found"),
        ((), 3, "3 files checked: no problems found"),
        ((Severity.ERROR,), 2, "2 files checked: 1 error"),
        ((Severity.ERROR, Severity.WARNING), 2, "2 files checked: 1 error, 1 warning"),
        (
            (Severity.NOTE, Severity.ERROR, Severity.ERROR, Severity.NOTE),
            1,
            "1 file checked: 2 errors, 2 notes",
        ),
        ((Severity.WARNING, Severity.WARNING), 1, "1 file checked: 2 warnings"),
    ],
)
def test_totals_line(diagnostics: tuple[Severity, ...], files: int, expected: str) -> None:
    run = _run(*(_diag(None, severity) for severity in diagnostics), files=files)
    out = render(run, "text")
    assert out.endswith(expected + "\n")


def test_no_files() -> None:
    assert render(Run("cards", ()), "text") == "0 files checked: no problems found\n"


def test_order_is_preserved() -> None:
    later = _diag(Span("g.sglog", 9, 1, 9, 2))
    earlier = Diagnostic("SG-P001", Severity.ERROR, "syntax", Span("g.sglog", 1, 1, 1, 2))
    out = render(_run(later, earlier), "text")
    assert out.index("g.sglog:9:1") < out.index("g.sglog:1:1")


def test_colour_styles_location_code_and_carets() -> None:
    out = render(_run(_diag(Span("g.sglog", 1, 1, 1, 5)), source="move Ra1"), "text", color=True)
    assert "\x1b[1mg.sglog:1:1:\x1b[0m" in out
    assert "\x1b[31m\x1b[1mSG-R101\x1b[0m" in out
    assert "\x1b[31m\x1b[1m^^^^\x1b[0m" in out
    warning = render(_run(_diag(None, Severity.WARNING)), "text", color=True)
    note = render(_run(_diag(None, Severity.NOTE)), "text", color=True)
    assert "\x1b[33m" in warning and "\x1b[36m" in note


def test_findings_on_one_long_line_cost_the_same_each_however_long_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of configuration problems on one line of 100,000 characters once took 33 s to
    show: each snippet measured 2,000 characters of the line, one by one. Only the stretch around
    the span that can be shown is measured now."""
    from sgcheck.report import text

    measured: list[int] = []
    real = text._cells

    def counting(line: str) -> tuple[list[str], list[int]]:
        measured.append(len(line))
        return real(line)

    monkeypatch.setattr(text, "_cells", counting)
    raw = ", ".join(f'"SG-Z{n:04d}"' for n in range(10_000))
    spans = [Span("g.sglog", 1, column, 1, column + 9) for column in range(1, len(raw), len(raw) // 50)]
    out = render(_run(*(_diag(span) for span in spans), source=raw), "text")
    assert len(measured) == len(spans)
    assert max(measured) <= 2 * MAX_LINE_WIDTH
    for line in out.splitlines():
        if " | " in line:
            assert len(line) <= MAX_LINE_WIDTH + 20
