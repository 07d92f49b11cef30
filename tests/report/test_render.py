"""Golden-file tests for every output format, plus the shared hand-built fixture.

The fixture covers the shapes renderers must handle: a replay-style error with
context, label and snippet; a warning without a span; a note at a zero-width
point; a multi-line span with a fix that has a replacement; a tab-indented line;
a very long line; and a second, clean file.

Set ``SGCHECK_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended
change, then review the diff.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sgcheck.codes import CATALOGUE
from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span
from sgcheck.report import FORMATS, render
from sgcheck.results import FileResult, Run

if TYPE_CHECKING:
    from conftest import Golden

GOLDEN_DIR = Path(__file__).parent / "golden"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

GAME = "games/round-3.sglog"
CLEAN = "games/clean.sglog"

LONG_PREFIX = "; " + "commentary " * 20  # pushes the span far to the right
LONG_LINE = LONG_PREFIX + "summon Q d1 cost 14 roll 7 7" + " ; " + "more words " * 10


@dataclass(frozen=True)
class GivenFacts:
    """Facts a test writes by hand, any JSON-ready mapping: a typed record (``results.Facts``)
    whose JSON form is the mapping itself."""

    data: Mapping[str, object]

    def as_json(self) -> dict[str, object]:
        return dict(self.data)


def game_source() -> str:
    """A 17-line log; the lines the findings point at are realistic, the rest are filler."""
    lines = [f"; line {n}" for n in range(1, 18)]
    lines[11] = "    attack Ra3 a5 roll 6 1 hit"  # line 12
    lines[12] = "  move Nb1 c3 cost 4 {"  # line 13 (multi-line statement)
    lines[13] = "  } total LP 9"  # line 14
    lines[14] = "\tmove\tQd1 d4 cost\t11"  # line 15 (tabs)
    lines[15] = LONG_LINE  # line 16
    lines[16] = "end:"  # line 17
    return "\n".join(lines) + "\n"


def sample_run() -> Run:
    """The fixture every golden file is rendered from."""
    error = Diagnostic(
        code="SG-R204",
        severity=Severity.ERROR,
        message="wrong claim: d100 roll 61 misses, the log says hit (61 > threshold 60 = 20 + 10×(Rook 5 − Pawn 1))",
        span=Span(GAME, 12, 5, 12, 31, 105, 131),
        rules=("core §4.2", "R10"),
        hint="a roll hits only when it is at most the threshold",
        label="claimed a hit",
        expected="miss",
        claimed="hit",
        context=(
            ("turn", "7"),
            ("player", "White"),
            ("phase", "Battle"),
            ("state", "White LP 11 SP 5 · Black LP 14 SP 0 · Black King damage 6/20"),
        ),
    )
    warning = Diagnostic(
        code="SG-N301",
        severity=Severity.WARNING,
        message="card 'Blood Moon' is counted but its effect is not simulated",
        rules=("R17", "R19"),
        context=(("turn", "8"), ("player", "Black")),
    )
    multi_line = Diagnostic(
        code="SG-R201",
        severity=Severity.ERROR,
        message="wrong cost: the move costs 6 (Knight 3 + 3 for one jump), the log says 4",
        span=Span(GAME, 13, 3, 14, 4),
        rules=("core §3",),
        label="this statement",
        fix=Fix("write the real cost", "cost 6", Span(GAME, 13, 15, 13, 21)),
        expected=6,
        claimed=4,
        context=(("turn", "8"), ("player", "White"), ("phase", "Main 1")),
    )
    tabbed = Diagnostic(
        code="SG-R201",
        severity=Severity.ERROR,
        message="wrong cost: the Queen's move costs 9 + 3 = 12, the log says 11",
        span=Span(GAME, 15, 19, 15, 21),
        rules=("core §3",),
        label="should be 12",
        fix=Fix("correct the cost", "12"),
    )
    long_line = Diagnostic(
        code="SG-R114",
        severity=Severity.ERROR,
        message="bad dice: a d10 shows 0-9, not 7 7 for a summon",
        span=Span(GAME, 16, len(LONG_PREFIX) + 1, 16, len(LONG_PREFIX) + 29),
        rules=("core §1", "core §4.2"),
        label="not a summon",
    )
    note = Diagnostic(
        code="SG-N303",
        severity=Severity.NOTE,
        message="replayed with the house rule king_value=4",
        span=Span.point(GAME, 17, 5),
        rules=("core §8",),
        fix=Fix("drop the Ruleset tag to replay under the locked core"),
    )
    game = FileResult(
        path=GAME,
        diagnostics=(error, warning, multi_line, tabbed, long_line, note),
        summary="final: White LP 9 SP 5 · Black LP 14 SP 0\nresult: * (game unfinished)",
        facts=GivenFacts(
            {
                "turns": 8,
                "result": "*",
                "final": {"white": {"lp": 9, "sp": 5}, "black": {"lp": 14, "sp": 0}},
            }
        ),
    )
    clean = FileResult(path=CLEAN, diagnostics=(), facts=GivenFacts({"turns": 12, "result": "1-0"}))
    return Run(
        command="replay",
        files=(game, clean),
        sources={GAME: game_source(), CLEAN: "; nothing to see\n"},
        rules=CATALOGUE,
        tool_version="0.1.0",
    )


def clean_run() -> Run:
    return Run(command="replay", files=(FileResult(CLEAN, ()),), tool_version="0.1.0", rules=CATALOGUE)


GOLDEN_FILES = {
    "text": "report.txt",
    "json": "report.json",
    "sarif": "report.sarif",
    "github": "report.github",
    "junit": "report.junit.xml",
    "html": "report.html",
}


ASSETS = Path(__file__).resolve().parents[2] / "sgcheck" / "report" / "html_assets"


def _golden_text(fmt: str, text: str) -> str:
    """The report as its golden file holds it: the HTML page's inlined script and style stand
    there by name (they are files of their own, and tested in the browser)."""
    if fmt == "html":
        for name in ("report.js", "report.css"):
            asset = (ASSETS / name).read_text(encoding="utf-8")
            assert asset in text, name
            text = text.replace(asset, f"/* sgcheck/report/html_assets/{name} */")
    return text


@pytest.mark.parametrize("fmt", FORMATS)
def test_golden(fmt: str, golden: Golden) -> None:
    golden.check(GOLDEN_DIR / GOLDEN_FILES[fmt], _golden_text(fmt, render(sample_run(), fmt)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_golden_clean(fmt: str, golden: Golden) -> None:
    golden.check(GOLDEN_DIR / ("clean." + GOLDEN_FILES[fmt]), _golden_text(fmt, render(clean_run(), fmt)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_render_is_deterministic(fmt: str) -> None:
    assert render(sample_run(), fmt) == render(sample_run(), fmt)


@pytest.mark.parametrize("fmt", ["xml", "TEXT", "", "sarif2", "json "])
def test_unknown_format_is_rejected(fmt: str) -> None:
    with pytest.raises(ValueError, match="unknown output format"):
        render(sample_run(), fmt)


def test_colour_text_has_ansi_and_plain_has_none() -> None:
    coloured = render(sample_run(), "text", color=True)
    plain = render(sample_run(), "text", color=False)
    assert ANSI.search(coloured)
    assert "\x1b" not in plain
    assert ANSI.sub("", coloured) == plain


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_colour_flag_never_reaches_machine_formats(fmt: str) -> None:
    assert render(sample_run(), fmt, color=True) == render(sample_run(), fmt, color=False)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_output_ends_with_a_single_newline_or_is_empty(fmt: str) -> None:
    out = render(sample_run(), fmt)
    assert out.endswith("\n") and not out.endswith("\n\n")
