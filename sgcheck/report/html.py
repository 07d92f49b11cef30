"""A replay as one self-contained HTML page: the board at every position, the log beside it,
LP/SP/King damage plotted over the game, and each finding shown where it happened.

Each log's part of the page is rendered as soon as its replay is done, while its source text is
at hand (:func:`render_html_file`); the page around the parts is written at the end
(:func:`render_html_page`). The positions travel as the compact frames of
:mod:`sgcheck.replay.timeline` (a typed :class:`~sgcheck.results.Timeline` in
``ReplayFacts.timeline``), embedded as their JSON form (their explanations encoded compactly,
:mod:`sgcheck.report.compact`); the page's own script
(``html_assets/report.js``, inlined with ``report.css``) draws the board and the plot from them.
Nothing is loaded from anywhere: a Content-Security-Policy forbids it, and only the inlined
script and style, named by their hashes, may run. The output is a pure
function of the results (no clock, no random ids), and everything that comes from an input is
escaped: HTML text with :func:`html.escape`, JSON data with ``<``, ``>`` and ``&`` as ``\\u`` escapes.
Before that, every text from an input, in the HTML and in the data alike, is made visible
(:func:`sgcheck.visible.visible`): a browser would obey a right-to-left override or an isolate
in a card name even when the script sets it as ``textContent``, reordering the text around it,
so control characters, bidirectional controls and line separators are shown as stand-ins (a
control picture, ``<U+202E>``), never obeyed. Tabs and newlines stay.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources

from sgcheck.diagnostics import Diagnostic, Severity, plural
from sgcheck.report.compact import encode_explanations
from sgcheck.report.formats import Options, ResultKind, RunEnd, not_rendered, without_positions
from sgcheck.results import DisputeReport, FileResult, Frame, GauntletReport, ReplayFacts, SimulationReport, Timeline
from sgcheck.visible import escape_json_text, visible, visible_json_text

__all__ = ["expected_and_claimed", "finding_frames", "render_html_file", "render_html_page"]

_PHASES = ("Upkeep", "Main 1", "Battle", "Main 2", "End")


@cache
def _asset(name: str) -> str:
    return resources.files("sgcheck.report").joinpath("html_assets", name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def json_for_script(data: object, *, shown: bool = False) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` (so
    never ``</script>`` nor ``<!--``), and no raw control character or line separator a script
    would choke on. ``shown``: every string in it made visible as the page shows text (tabs and
    newlines kept), for data the page's script shows."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    text = visible_json_text(text) if shown else escape_json_text(text)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _e(text: object) -> str:
    """Text for the page's HTML: made visible, then escaped."""
    return html.escape(visible(str(text), keep="\t\n"), quote=True)


def expected_and_claimed(diagnostic: Diagnostic) -> tuple[str | None, str | None]:
    """What the rules say and what the log claimed, as the page shows them: the finding's
    ``expected`` and ``claimed`` data (None where it has none), never read from its message."""

    def shown(value: object) -> str | None:
        if value is None:
            return None
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    if diagnostic.expected is None and diagnostic.claimed is None:
        return None, None
    return shown(diagnostic.expected), shown(diagnostic.claimed)


def finding_frames(result: FileResult, source: str | None) -> list[int]:
    """The frame each finding is shown at (-1: none): the frame replay marked it at, else the
    last frame at or before its line in the log, else the last frame."""
    timeline = _timeline(result)
    frames: Sequence[Frame] = ()
    marks: dict[int, int] = {}
    if timeline is not None:
        frames = timeline.frames
        marks = dict(timeline.marks)
    last = len(frames) - 1
    shown: list[int] = []
    for index, diag in enumerate(result.diagnostics):
        if not frames:
            shown.append(-1)
            continue
        if index in marks:
            shown.append(max(0, min(last, marks[index])))
            continue
        frame = last
        if diag.span is not None and diag.span.source == source:
            before = [i for i, f in enumerate(frames) if 0 < f.line <= diag.span.line]
            frame = before[-1] if before else 0
        shown.append(frame)
    return shown


def _finding_data(diag: Diagnostic, frame: int, squares: Sequence[int]) -> dict[str, object]:
    expected, claimed = expected_and_claimed(diag)
    span = diag.span
    return {
        "code": diag.code,
        "severity": diag.severity.value,
        "message": diag.message,
        "rules": list(diag.rules),
        "hint": diag.hint,
        "label": diag.label,
        "expected": expected,
        "claimed": claimed,
        "source": span.source if span is not None else None,
        "line": span.line if span is not None else 0,
        "column": span.column if span is not None else 0,
        "endLine": span.end_line if span is not None else 0,
        "frame": frame,
        "from": squares[0] if squares else -1,
        "to": squares[1] if len(squares) > 1 else -1,
    }


def _log_source(result: FileResult, sources: Mapping[str, str]) -> tuple[str | None, str | None]:
    """The name and text of the log itself among ``sources`` (others are a pack's card files)."""
    timeline = _timeline(result)
    names: list[str] = []
    if timeline is not None:
        names.append(timeline.source)
    names.append(result.path)
    names.extend(d.span.source for d in result.diagnostics if d.span is not None)
    for name in names:
        if name in sources:
            try:
                return name, sources[name]
            except (KeyError, OSError, ValueError):
                return name, None
    return (names[0] if names else None), None


def _replayed(result: FileResult) -> ReplayFacts | None:
    """The facts of a log replay reached (None: a log it could not read)."""
    return result.facts if isinstance(result.facts, ReplayFacts) else None


def _timeline(result: FileResult) -> Timeline | None:
    facts = _replayed(result)
    return facts.timeline if facts is not None else None


def _headline(result: FileResult) -> tuple[str, str]:
    facts = _replayed(result)
    errors = sum(1 for d in result.diagnostics if d.is_error)
    if facts is None:
        return "bad", "not replayed: the log could not be read" if errors else "not replayed"
    outcome = facts.result
    turns, actions = facts.turns, facts.actions
    first, last = facts.first_turn, facts.last_turn
    span = f" ({first})" if first == last else f" ({first} to {last})"
    played = f"{plural(turns, 'turn')}{span if first and last else ''}, {plural(actions, 'action')}"
    if errors:
        where = "stopped at the first error" if facts.stopped else plural(errors, "error")
        return "bad", f"illegal game: {where} · {played} replayed"
    if outcome is not None:
        return "good", f"legal game, {outcome.detail} · {played}"
    return "good", f"legal so far, the game is unfinished · {played}"


def render_html_file(result: FileResult, sources: Mapping[str, str]) -> str:
    """One log's part of the page: its heading, findings, board area, log text and data."""
    name, text = _log_source(result, sources)
    frames_of = finding_frames(result, name)
    timeline = _timeline(result)
    frames: Sequence[Frame] = ()
    data: dict[str, object] = {"path": result.path, "source": name}
    if timeline is not None:
        frames = timeline.frames
        data["result"] = timeline.result.as_json() if timeline.result is not None else None
        data["ended"] = timeline.ended
        data["markers"] = [marker.as_json() for marker in timeline.markers]
    findings = []
    for diag, frame in zip(result.diagnostics, frames_of, strict=True):
        squares: Sequence[int] = ()
        if frame >= 0 and diag.span is not None and frames[frame].line == diag.span.line:
            squares = frames[frame].squares
        findings.append(_finding_data(diag, frame, squares))
    data["findings"] = findings
    first_error = next((i for i, d in enumerate(result.diagnostics) if d.is_error), None)
    data["open"] = first_error if first_error is not None else -1
    lines = log_lines(text) if text is not None else None
    # each frame's explanation (field 11) travels compactly, its repeated texts in tables
    data["frames"], data["explained"] = encode_explanations(frames, lines or ())
    tone, headline = _headline(result)
    header = timeline.header if timeline is not None else ()
    # the address of the position shown, which the script fills in and keeps up to date
    address = '<p class="address" hidden>Address of this position: <a class="address" href="#"></a></p>'
    out = [
        f'<header class="loghead"><h2>{_e(result.path)}</h2><p class="verdict {tone}">{_e(headline)}</p>'
        f"{_game_facts(result, header)}{_counts(result.diagnostics)}{address if frames else ''}</header>"
    ]
    out.append(_findings_list(result.diagnostics, frames_of, name))
    replayed = _replayed(result)
    dispute = _dispute(replayed.dispute if replayed is not None else None)
    if dispute:
        out.append(dispute)
    out.append(_stage(bool(frames)))
    if text is None:
        out.append('<div class="source"><p class="nosource">The log text is not available.</p></div>')
    else:
        data["lines"] = lines
        data["badLines"] = bad_lines(result.diagnostics, name)
        # the script draws the lines in view (a long log's 24,000 list items would cost the page
        # seconds to build); the page holds them once, in its data
        out.append('<div class="source"><div class="src-sizer"><ol class="src"></ol></div></div>')
    out.append(f'<script type="application/json" class="sg-data">{json_for_script(data, shown=True)}</script>')
    return "\n".join(out)


def _tag(header: Sequence[tuple[str, str]], name: str) -> str | None:
    """The value of the header tag ``name`` (the first written; names are case-insensitive)."""
    for tag, value in header:
        if tag.lower() == name.lower():
            return value
    return None


def _game_facts(result: FileResult, header: Sequence[tuple[str, str]]) -> str:
    """The game as its header tags name it (the players, the event, the site, the date, the
    ``[Result]`` tag) and the result replay reached; nothing for a log replay could not read."""
    facts = _replayed(result)
    if facts is None:
        return ""
    items = []

    def item(term: str, value: str | None, cls: str, missing: str = "not given") -> None:
        shown = f"<dd>{_e(value)}</dd>" if value else f'<dd class="missing">{_e(missing)}</dd>'
        items.append(f'<div class="{cls}"><dt>{_e(term)}</dt>{shown}</div>')

    item("White", _tag(header, "White"), "player white")
    item("Black", _tag(header, "Black"), "player black")
    item("Event", _tag(header, "Event"), "event")
    if _tag(header, "Site"):
        item("Site", _tag(header, "Site"), "site")
    item("Date", _tag(header, "Date"), "date")
    tag = _tag(header, "Result")
    item("[Result] tag", tag, "result-tag", "none")
    outcome = facts.result
    if outcome is not None:
        replayed: str | None = f"{outcome.score} · {outcome.detail}"
    elif not facts.stopped:
        replayed = "* · the game has not ended"
    else:
        replayed = None
    score = outcome.score if outcome is not None else ("*" if replayed else None)
    differs = " differs" if tag is not None and replayed is not None and tag != score else ""
    item("Replayed result", replayed, f"result-replayed{differs}", "not known: replay stopped at an error")
    return f'<dl class="game">{"".join(items)}</dl>'


def _counts(diagnostics: Sequence[Diagnostic]) -> str:
    """The findings counted by severity."""
    counts = []
    for severity in Severity:
        n = sum(1 for d in diagnostics if d.severity is severity)
        word = f"{severity.value}{'s' if n != 1 else ''}"
        counts.append(f'<span class="count {severity.value}" data-count="{n}">{n} {word}</span>')
    return f'<p class="counts">{" · ".join(counts)}</p>'


def _findings_list(diagnostics: Sequence[Diagnostic], frames: Sequence[int], log_name: str | None) -> str:
    if not diagnostics:
        return '<p class="nofindings">No findings: every action and claim agrees with the rules.</p>'
    items = []
    for index, (diag, frame) in enumerate(zip(diagnostics, frames, strict=True)):
        span = diag.span
        where = ""
        if span is not None:
            where = f"line {span.line}" if span.source == log_name else f"{span.source}:{span.line}:{span.column}"
        rules = f' <span class="rules">{_e(", ".join(diag.rules))}</span>' if diag.rules else ""
        items.append(
            f'<li class="finding {_e(diag.severity.value)}" data-finding="{index}" data-frame="{frame}" tabindex="0">'
            f'<span class="code">{_e(diag.code)}</span> <span class="where">{_e(where)}</span> '
            f'<span class="msg">{_e(diag.message)}</span>{rules}</li>'
        )
    count = len(diagnostics)
    return (
        f'<details class="findings" open><summary>{plural(count, "finding")}</summary>'
        f'<ol class="findings">{"".join(items)}</ol></details>'
    )


def _dispute(report: DisputeReport | None) -> str:
    """``replay --dispute``: the dispute report (sgcheck.replay.dispute) as its text, a section of
    its own under the findings; nothing without the option."""
    if report is None:
        return ""
    from sgcheck.report.dispute_text import dispute_text

    legal = "legal" if report.legal else "illegal"
    return (
        f'<details class="dispute {legal}" open><summary>Dispute report (house rules, not a core rule)</summary>'
        f'<pre class="dispute">{_e(dispute_text(report))}</pre></details>'
    )


def _stage(has_board: bool) -> str:
    """The board area the script fills; without positions, a note instead."""
    if not has_board:
        return (
            '<div class="stage noboard"><p class="noplay">No position to show: replay stopped before play began.'
            "</p></div>"
        )
    return (
        '<div class="stage">'
        '<div class="status" aria-live="polite"></div>'
        '<svg class="board" viewBox="0 0 340 340" role="img" aria-label="board"></svg>'
        '<nav class="controls">'
        '<button type="button" data-go="first" title="First position (Home)">|&#x25C0;</button>'
        '<button type="button" data-go="turnback" title="Previous turn (&#x2191;)">&#x25C0;&#x25C0;</button>'
        '<button type="button" data-go="back" title="Previous position (&#x2190;)">&#x25C0;</button>'
        '<button type="button" data-go="next" title="Next position (&#x2192;)">&#x25B6;</button>'
        '<button type="button" data-go="turnnext" title="Next turn (&#x2193;)">&#x25B6;&#x25B6;</button>'
        '<button type="button" data-go="last" title="Last position (End)">&#x25B6;|</button>'
        '<button type="button" data-go="finding" title="Next finding (n)">finding &#x25B8;</button>'
        '<input type="range" class="scrub" min="0" max="0" value="0" aria-label="position">'
        "</nav>"
        "</div>"
        '<div class="panel">'
        '<div class="finding-box" hidden></div>'
        '<section class="explain" aria-label="The action at this position"></section>'
        '<table class="sides"></table>'
        '<svg class="plot" viewBox="0 0 640 206" role="img" aria-label="LP, SP and King damage over the game"></svg>'
        '<p class="sr-only plot-text"></p>'
        "</div>"
    )


def log_lines(text: str) -> list[str]:
    """The log's lines as the page numbers them (a last empty line is no line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def bad_lines(diagnostics: Sequence[Diagnostic], log_name: str | None) -> list[int]:
    """The lines of the log an error or a warning points at, marked in the log pane."""
    return sorted(
        {
            line
            for d in diagnostics
            if d.span is not None and d.span.source == log_name and d.severity is not Severity.NOTE
            for line in range(d.span.line, d.span.end_line + 1)
        }
    )


def render_html_page(
    parts: Sequence[str], files: Sequence[FileResult], tool_version: str, configuration: str = ""
) -> str:
    """The whole page: its head (style, Content-Security-Policy), a selector when there are
    several logs, one section per log (its part), and the script. ``configuration``: the line
    saying where the configuration came from and what it hid (``report.text.hidden_line``)."""
    style, script = _asset("report.css"), _asset("report.js")
    csp = (
        f"default-src 'none'; script-src {_csp_hash(script)}; style-src {_csp_hash(style)}; "
        "img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
    )
    errors = sum(1 for f in files for d in f.diagnostics if d.is_error)
    warnings = sum(1 for f in files for d in f.diagnostics if d.severity is Severity.WARNING)
    count = len(files)
    totals = f"{plural(count, 'log')} · {plural(errors, 'error')} · {plural(warnings, 'warning')}"
    title = f"sgcheck replay: {files[0].path}" if count == 1 else f"sgcheck replay: {count} logs"
    first_bad = next((i for i, f in enumerate(files) if f.has_errors), 0)
    head = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{style}</style>",
        "</head>",
        f'<body data-open-log="{first_bad}">',
        '<header class="page"><h1>sgcheck replay report</h1>',
        f'<p class="totals">{_e(totals)}</p>',
    ]
    if configuration:
        head.append(f'<p class="totals">{_e(configuration)}</p>')
    if count > 1:
        options = "".join(
            f'<option value="{i}"{" selected" if i == first_bad else ""}>'
            f"{'✗ ' if f.has_errors else '✓ '}{_e(f.path)}</option>"
            for i, f in enumerate(files)
        )
        head.append(f'<label class="pick">Log <select class="logpick">{options}</select></label>')
    head.append(
        '<p class="keys">Keys: <kbd>&#x2190;</kbd>/<kbd>&#x2192;</kbd> position, <kbd>&#x2191;</kbd>/<kbd>&#x2193;'
        "</kbd> turn, <kbd>Home</kbd>/<kbd>End</kbd> first/last, <kbd>n</kbd>/<kbd>p</kbd> next/previous finding; "
        "on a log line <kbd>&#x2191;</kbd>/<kbd>&#x2193;</kbd> line, <kbd>Enter</kbd> its action</p>"
    )
    head.append('<p class="address-note" role="alert" hidden></p>')
    head.append("</header>")
    body = [f'<section class="log" id="log-{i}" data-log="{i}">\n{part}\n</section>' for i, part in enumerate(parts)]
    tail = [
        f'<footer class="page">sgcheck {_e(tool_version)} · replayed against the locked core rules</footer>',
        f"<script>{script}</script>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join([*head, *body, *tail])


class HtmlFormat:
    """One self-contained page: a replay's positions to step through (each log's part drawn while
    its source is at hand), or a simulation's plots."""

    name = "html"
    renders = frozenset({ResultKind.REPLAY, ResultKind.SIMULATION, ResultKind.GAUNTLET})
    streamed = False

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        return render_html_file(result, sources)

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result)

    def close(self, end: RunEnd) -> str:
        from sgcheck.report.text import hidden_line

        configuration = hidden_line(end.configuration, end.hidden)
        return render_html_page(end.held, end.files, end.tool_version, configuration)

    def render(self, result: object, options: Options) -> str:
        from sgcheck.report import simulation_page

        if isinstance(result, SimulationReport):
            return simulation_page.simulation_html(result)
        if isinstance(result, GauntletReport):
            return simulation_page.gauntlet_html(result)
        raise not_rendered(self.name, result)


FORMAT = HtmlFormat()
