"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line per finding.

The runner turns these lines into annotations on the pull request's diff. A value
that is not escaped could end the command early or inject a second one, so every
message and property goes through GitHub's escaping. Before that, control characters,
bidirectional controls and line separators become visible stand-ins
(:func:`sgcheck.visible.visible`): the runner copies the line into the job's log, where an
escape sequence or a right-to-left override would recolour or reorder what follows it.
"""

from __future__ import annotations

from collections.abc import Mapping

from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.report.formats import RUN_KINDS, Options, RunEnd, not_rendered, without_positions
from sgcheck.results import FileResult, Run
from sgcheck.visible import visible

__all__ = ["escape_data", "escape_property", "render_github", "render_github_file"]

#: The longest ``expected …, claimed …`` an annotation adds to its message (a long one is left to the message).
_SHORT = 60

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message (the part after ``::``): every dangerous character but carriage
    return and newline made visible, then ``%``, carriage return and newline as GitHub requires."""
    return visible(text, keep="\r\n").replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (``file=…``, ``title=…``), where ``:`` and ``,`` are separators."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(diagnostic: Diagnostic, path: str) -> str:
    span = diagnostic.span
    properties: list[tuple[str, str]] = [("file", (span.source if span else path).replace("\\", "/"))]
    if span is not None:
        properties.append(("line", str(span.line)))
        single_line = span.end_line == span.line
        # GitHub only accepts columns when the annotation starts and ends on one line.
        if single_line:
            properties.append(("col", str(span.column)))
        if span.end_line > span.line or (single_line and span.end_column > span.column):
            properties.append(("endLine", str(span.end_line)))
            if single_line:
                properties.append(("endColumn", str(span.end_column)))
    properties.append(("title", diagnostic.code))
    message = diagnostic.message
    if diagnostic.rules:
        message += f" ({', '.join(diagnostic.rules)})"
    contrast = diagnostic.contrast
    if contrast is not None and len(contrast) <= _SHORT:
        message += f" [{contrast}]"
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{_COMMANDS[diagnostic.severity]} {joined}::{escape_data(message)}"


def render_github_file(result: FileResult) -> str:
    """One file's annotations, one per line, in the order the findings were produced."""
    return "".join(_annotation(d, result.path) + "\n" for d in result.diagnostics)


def render_github(run: Run) -> str:
    """All annotations, one per line, in the order the findings were produced."""
    return "".join(render_github_file(result) for result in run.files)


class GithubFormat:
    """GitHub Actions workflow commands: one annotation a line, written as each file is checked."""

    name = "github"
    renders = RUN_KINDS
    streamed = True

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        return render_github_file(result)

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result)

    def close(self, end: RunEnd) -> str:
        return ""

    def render(self, result: object, options: Options) -> str:
        raise not_rendered(self.name, result)


FORMAT = GithubFormat()
