"""Text output for people: one compiler-style block per finding.

Each block is a ``source:line:col: CODE message (rules)`` headline, the
turn/player/phase of the finding, the offending source line with carets under
the span, what was expected and what was claimed (a wrong claim's finding), the remaining
context facts, and the hint and fix. Findings keep the
order the producers gave them (they already order them meaningfully).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping

import click

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span, plural
from sgcheck.project.kinds import Kind, kind_of
from sgcheck.report.formats import Options, ResultKind, RunEnd, not_rendered, without_positions
from sgcheck.report.summaries import summary_text
from sgcheck.results import FileResult, GauntletReport, ReplayFacts, Run, SimulationReport
from sgcheck.visible import visible

__all__ = ["render_file", "render_text", "totals_line"]

INDENT = "   "
TAB_WIDTH = 4
"""Tab stops used when showing a source line, so carets line up with the text."""
MAX_LINE_WIDTH = 200
"""Source lines wider than this (in terminal cells) are cut to a window around the span."""
CLIP_CHARS = 2 * MAX_LINE_WIDTH
"""Characters of a long line kept around the span before the window is cut from them: the work
per finding stays the same however long the line (thousands of findings on one line)."""
WINDOW_WIDTH = 120
WINDOW_BEFORE = 40
ELLIPSIS = "…"

_HEADER_KEYS = ("turn", "player", "phase")
_SEVERITY_COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}


class _Painter:
    """Applies ANSI styles only when colour is on, so plain output has no escapes."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def bold(self, text: str) -> str:
        return click.style(text, bold=True) if self.enabled else text

    def severity(self, text: str, severity: Severity) -> str:
        if not self.enabled:
            return text
        return click.style(text, fg=_SEVERITY_COLOURS[severity], bold=True)

    def dim(self, text: str) -> str:
        return click.style(text, fg="blue", bold=True) if self.enabled else text

    def accent(self, text: str) -> str:
        return click.style(text, fg="green", bold=True) if self.enabled else text


# --- character handling --------------------------------------------------------------------


def _clean(text: str) -> str:
    """Make producer-supplied text safe to print: controls other than newline become visible."""
    return visible(text)


def _cell_width(char: str) -> int:
    """Terminal cells a (visible) character takes: 2 for wide East Asian, 0 for combining."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    return 1


def _cells(line: str) -> tuple[list[str], list[int]]:
    """Rendered pieces of ``line`` (one per character) and the display column where each starts.

    The column list has one extra entry, the width of the whole line. Tabs expand
    to the next tab stop, so the caret line built from these columns stays aligned
    with the rendered source line whatever mix of tabs and spaces it had.
    """
    pieces: list[str] = []
    columns: list[int] = []
    column = 0
    for char in line:
        columns.append(column)
        if " " <= char <= "~":  # printable ASCII: itself, one cell
            pieces.append(char)
            column += 1
            continue
        if char == "\t":
            width = TAB_WIDTH - column % TAB_WIDTH
            pieces.append(" " * width)
        else:
            shown = visible(char, keep="")
            width = sum(_cell_width(c) for c in shown)
            pieces.append(shown)
        column += width
    columns.append(column)
    return pieces, columns


def _window(columns: list[int], start: int) -> tuple[int, int]:
    """Character range ``[a, b)`` of a long line to show, keeping the span start in view."""
    total = columns[-1]
    low = max(0, columns[start] - WINDOW_BEFORE)
    high = low + WINDOW_WIDTH
    if high > total:
        high = total
        low = max(0, high - WINDOW_WIDTH)
    first = min(bisect_left(columns, low), start)
    last = max(bisect_right(columns, high) - 1, first)
    return first, last


# --- pieces of a block ---------------------------------------------------------------------


def _line_at(source: str, span: Span) -> str | None:
    """The text of the span's first line, found without splitting the whole source.

    The span's offset locates the line directly when it agrees with its column; otherwise the
    line is found by counting newlines (never by building a list of every line: a log can be
    tens of megabytes, and one diagnostic must not cost a copy of it).
    """
    if 0 <= span.offset <= len(source):
        start = source.rfind("\n", 0, span.offset) + 1
        if span.offset - start + 1 == span.column and (span.line == 1) == (start == 0):
            end = source.find("\n", start)
            return source[start : end if end >= 0 else len(source)]
    start = 0
    for _ in range(span.line - 1):
        start = source.find("\n", start) + 1
        if start == 0:
            return None
    end = source.find("\n", start)
    return source[start : end if end >= 0 else len(source)]


def _snippet(span: Span, source: str, label: str | None, paint: _Painter, severity: Severity) -> list[str]:
    """The span's first line with a line-number gutter and a caret line under the span."""
    if span.line < 1:
        return []
    line = _line_at(source, span)
    if line is None:
        return []
    line = line.removesuffix("\r")
    start = min(max(span.column - 1, 0), len(line))
    if span.end_line == span.line:
        end = min(max(span.end_column - 1, start), len(line))
    elif span.end_line > span.line:
        end = len(line)  # multi-line span: underline to the end of its first line
    else:
        end = start
    # Only a stretch of a very long line around the span is ever shown: cut it first, so the
    # per-character work below does not grow with the line.
    cut_from = max(0, start - CLIP_CHARS // 2) if len(line) > CLIP_CHARS else 0
    cut_to = min(len(line), cut_from + CLIP_CHARS)
    raw = line[cut_from:cut_to]
    start, end = start - cut_from, min(end, cut_to) - cut_from
    pieces, columns = _cells(raw)
    first, last = 0, len(raw)
    if columns[-1] > MAX_LINE_WIDTH:
        first, last = _window(columns, start)
    left = ELLIPSIS if first > 0 or cut_from > 0 else ""
    right = ELLIPSIS if last < len(raw) or cut_to < len(line) else ""
    shown = left + "".join(pieces[first:last]) + right
    origin = columns[first] - len(left)
    caret_from = columns[start] - origin
    caret_to = columns[min(end, last)] - origin
    carets = "^" * max(caret_to - caret_from, 1)

    number = str(span.line)
    gutter = " " * len(number)
    source_line = f"{INDENT}{paint.dim(number + ' |')} {shown}".rstrip()
    caret_line = f"{INDENT}{paint.dim(gutter + ' |')} {' ' * caret_from}{paint.severity(carets, severity)}"
    if label:
        caret_line += " " + paint.severity(_clean(label), severity)
    return [source_line, caret_line]


def _headline(diagnostic: Diagnostic, path: str, paint: _Painter) -> str:
    span = diagnostic.span
    where = f"{span.source}:{span.line}:{span.column}" if span is not None else path
    tag = diagnostic.code
    if diagnostic.severity is not Severity.ERROR:
        tag += f" {diagnostic.severity.value}:"
    line = f"{paint.bold(_clean(where) + ':')} {paint.severity(tag, diagnostic.severity)} "
    line += _clean(diagnostic.message)
    if diagnostic.rules:
        line += f" ({_clean(', '.join(diagnostic.rules))})"
    return line


def _where_line(context: tuple[tuple[str, str], ...]) -> str | None:
    """``turn 7 · White · Battle`` from the turn/player/phase context entries present."""
    first: dict[str, str] = {}
    for key, value in context:
        first.setdefault(key, value)
    parts = []
    for key in _HEADER_KEYS:
        if key in first:
            value = _clean(first[key])
            parts.append(f"turn {value}" if key == "turn" else value)
    return " · ".join(parts) if parts else None


def _fix_line(fix: Fix, paint: _Painter) -> str:
    text = _clean(fix.description)
    if fix.replacement is not None:
        shown = fix.replacement.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
        text += f"; replace with '{_clean(shown)}'"
    return f"{INDENT}{paint.accent('fix:')} {text}"


def _block(diagnostic: Diagnostic, path: str, sources: Mapping[str, str], paint: _Painter) -> str:
    lines = [_headline(diagnostic, path, paint)]
    where = _where_line(diagnostic.context)
    if where is not None:
        lines.append(INDENT + where)
    span = diagnostic.span
    if span is not None and span.source in sources:
        lines.extend(_snippet(span, sources[span.source], diagnostic.label, paint, diagnostic.severity))
    contrast = diagnostic.contrast
    if contrast is not None:
        lines.append(INDENT + _clean(contrast))
    for key, value in diagnostic.context:
        if key not in _HEADER_KEYS:
            lines.append(f"{INDENT}{_clean(key)}: {_clean(value)}")
    if diagnostic.hint:
        lines.append(f"{INDENT}{paint.accent('hint:')} {_clean(diagnostic.hint)}")
    if diagnostic.fix is not None:
        lines.append(_fix_line(diagnostic.fix, paint))
    return "\n".join(lines)


def file_kinds(paths: Iterable[str]) -> str:
    """``2 card files, 1 manifest``: what the checked files are, by kind (logs, card files,
    manifests, scenarios); empty when they are all of one kind, or one is of no kind named here."""
    found: Counter[tuple[str, str]] = Counter()
    for path in paths:
        kind = kind_of(path.replace("\\", "/"))  # what a checked file is, by its name (sgcheck.project.kinds)
        if kind is None or kind.kind is Kind.CONFIGURATION:
            return ""
        found[(kind.short, kind.many)] += 1
    if len(found) < 2:
        return ""
    order = [("log", "logs"), ("card file", "card files"), ("manifest", "manifests"), ("scenario", "scenarios")]
    return ", ".join(plural(found[kind], *kind) for kind in sorted(found, key=order.index))


def totals_line(
    counts: Mapping[Severity, int],
    files: int,
    *,
    color: bool = False,
    suppressed: int = 0,
    kinds: str = "",
) -> str:
    """``3 files checked: 2 errors, 1 warning`` (or ``no problems found``), and how many
    findings in-source suppressions silenced, which never go unsaid (``; 1 suppressed ...``).
    ``kinds`` (:func:`file_kinds`) says what the files are, when they are of several kinds:
    ``3 files checked (2 card files, 1 manifest): ...``."""
    paint = _Painter(color)
    parts = [
        paint.severity(plural(counts.get(severity, 0), severity.value), severity)
        for severity in (Severity.ERROR, Severity.WARNING, Severity.NOTE)
        if counts.get(severity, 0)
    ]
    outcome = ", ".join(parts) if parts else "no problems found"
    quiet = f"; {suppressed} suppressed (listed with --format json or sarif)" if suppressed else ""
    what = f"{plural(files, 'file')} checked ({kinds}):" if kinds else f"{plural(files, 'file')} checked:"
    return f"{paint.bold(what)} {outcome}{quiet}"


def hidden_line(configuration: str | None, hidden: Mapping[str, int]) -> str:
    """What the run's selection hid and where its configuration came from: ``configuration
    pyproject.toml: 2 findings hidden (SG-D104 ×2)``. ``configuration``: the file's name, ``""``
    when the command read none, None when it does not say (then the line is written only when
    a finding was hidden)."""
    count = sum(hidden.values())
    if configuration is None and not count:
        return ""
    codes = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in sorted(hidden.items()))
    what = f"{plural(count, 'finding')} hidden ({codes})" if count else "no finding hidden"
    if configuration is None:
        return f"selection: {what}"
    return f"configuration {configuration}: {what}" if configuration else f"configuration: none read; {what}"


def statistics_table(files: Iterable[FileResult], rules: Mapping[str, CodeInfo]) -> str:
    """``--statistics``: how many findings of each code, most first, then by code, as ruff prints
    them (``   3  SG-C120  stacked-bonus  warning``); nothing when there are none."""
    counts = Counter(d.code for result in files for d in result.diagnostics)
    if not counts:
        return ""
    width = len(str(max(counts.values())))
    lines = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        info = rules.get(code)
        name, severity = (info.name, info.severity.value) if info is not None else ("", "")
        lines.append(f"{count:>{width}}  {code}  {name}  {severity}".rstrip())
    return "\n".join(lines) + "\n\n"


def render_file(result: FileResult, sources: Mapping[str, str], *, color: bool = False, labelled: bool = False) -> str:
    """One file's blocks and summary, each followed by a blank line.

    ``labelled`` names the file at the head of its summary, for runs over several logs.
    The report of a run is the concatenation of its files' parts and the totals line, so
    a caller can write each part as soon as its file is checked.
    """
    paint = _Painter(color)
    sections = [_block(diagnostic, result.path, sources, paint) for diagnostic in result.diagnostics]
    spelled = summary_text(result.summary)
    if spelled is not None:
        summary = _clean(spelled.rstrip("\n"))
        if labelled:
            summary = f"{paint.bold(_clean(result.path) + ':')} {summary}"
        sections.append(summary)
    dispute = result.facts.dispute if isinstance(result.facts, ReplayFacts) else None
    if dispute is not None:  # replay --dispute (sgcheck.replay.dispute)
        from sgcheck.report.dispute_text import dispute_text

        sections.append(_clean(dispute_text(dispute).rstrip("\n")))
    return "".join(section + "\n\n" for section in sections)


def render_text(run: Run, *, color: bool = False, labelled: bool = False) -> str:
    """The whole report as text, ending with a totals line and a newline."""
    counts = Counter(diagnostic.severity for diagnostic in run.diagnostics)
    parts = [render_file(result, run.sources, color=color, labelled=labelled) for result in run.files]
    kinds = file_kinds(result.path for result in run.files)
    totals = totals_line(counts, len(run.files), color=color, suppressed=len(run.suppressed), kinds=kinds)
    return "".join(parts) + totals + "\n"


class TextFormat:
    """Text for people: each file's findings with the line each points at, then the totals line;
    a simulation's and the odds' tables, columns aligned."""

    name = "text"
    renders = frozenset(ResultKind)
    streamed = True

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        return render_file(result, sources, color=options.color, labelled=options.labelled)

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result)

    def close(self, end: RunEnd) -> str:
        kinds = file_kinds(result.path for result in end.files)
        color = end.options.color
        totals = totals_line(end.counts, len(end.files), color=color, suppressed=end.suppressed, kinds=kinds)
        hidden = hidden_line(end.configuration, end.hidden)
        # The totals stay the last line, whatever comes before them (scripts read it with tail -1).
        return (hidden + "\n" if hidden else "") + totals + "\n"

    def render(self, result: object, options: Options) -> str:
        from sgcheck.core.odds import CaptureOdds, OddsTables
        from sgcheck.replay.dice_next import NextRolls, PurposeRolls
        from sgcheck.replay.dice_stats import DiceStats
        from sgcheck.report import dice_report, odds_report, simulation

        if isinstance(result, SimulationReport):
            return simulation.simulation_text(result)
        if isinstance(result, GauntletReport):
            return simulation.gauntlet_text(result)
        if isinstance(result, OddsTables):
            return odds_report.tables_text(result)
        if isinstance(result, CaptureOdds):
            return odds_report.capture_text(result)
        if isinstance(result, DiceStats):
            return dice_report.stats_text(result)
        if isinstance(result, NextRolls | PurposeRolls):
            return dice_report.next_text(result)
        raise not_rendered(self.name, result)


FORMAT = TextFormat()
