"""sgcheck's findings as the Language Server Protocol's diagnostics, and positions between the two.

sgcheck counts lines and columns from 1 in characters (code points); LSP counts from 0 in UTF-16
code units, so a character outside the Basic Multilingual Plane (an emoji in a card's text) is two
units. :class:`Lines` converts both ways over one text. A finding placed in another file (a log's
pack, broken, reported on the log) is shown at the start of the document, with the place it is
about as related information. The project publishes no web page per code, so a diagnostic carries
its code (hover on it for ``sgcheck explain``) and no ``codeDescription``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types as lsp

from sgcheck.diagnostics import Diagnostic, Severity, Span

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
}


def _units(text: str) -> int:
    """UTF-16 code units of ``text``."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class Lines:
    """A text's lines, for converting positions between sgcheck and LSP."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")

    def line(self, index: int) -> str:
        """The text of line ``index`` (0-based); empty past the end."""
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def position(self, line: int, column: int) -> lsp.Position:
        """sgcheck's 1-based line and column (in characters) as an LSP position."""
        index = max(line - 1, 0)
        text = self.line(index)
        return lsp.Position(index, _units(text[: max(column - 1, 0)]))

    def character(self, position: lsp.Position) -> int:
        """The 0-based character index on its line of an LSP position."""
        text = self.line(position.line)
        units = 0
        for index, char in enumerate(text):
            if units >= position.character:
                return index
            units += 2 if ord(char) > 0xFFFF else 1
        return len(text)

    def offset(self, position: lsp.Position) -> int:
        """The character offset in the text of an LSP position."""
        line = min(max(position.line, 0), len(self.lines) - 1)
        return sum(len(text) + 1 for text in self.lines[:line]) + self.character(lsp.Position(line, position.character))

    def position_of(self, offset: int) -> lsp.Position:
        """The LSP position of a character offset in the text."""
        line, start = 0, 0
        while line < len(self.lines) - 1 and start + len(self.lines[line]) < offset:
            start += len(self.lines[line]) + 1
            line += 1
        return lsp.Position(line, _units(self.lines[line][: max(offset - start, 0)]))

    def span_range(self, span: Span) -> lsp.Range:
        return lsp.Range(self.position(span.line, span.column), self.position(span.end_line, span.end_column))

    def end(self) -> lsp.Position:
        return lsp.Position(len(self.lines) - 1, _units(self.lines[-1]))


def uri_of(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()


def message_of(diagnostic: Diagnostic) -> str:
    """The finding's message with what the command line prints under it: expected and claimed, the
    hint, the fix, and the rules it cites."""
    parts = [diagnostic.message]
    if diagnostic.rules:
        parts[0] += f" ({', '.join(diagnostic.rules)})"
    if diagnostic.contrast:
        parts.append(diagnostic.contrast)
    if diagnostic.hint:
        parts.append(f"hint: {diagnostic.hint}")
    if diagnostic.fix is not None:
        parts.append(f"fix: {diagnostic.fix.description}")
    return "\n".join(parts)


def to_lsp(diagnostic: Diagnostic, path: str, lines: Lines, texts: dict[str, Lines] | None = None) -> lsp.Diagnostic:
    """One finding on the document at ``path`` (``lines``: its text). ``texts``: other files' lines,
    for a finding placed in another file."""
    span = diagnostic.span
    related: list[lsp.DiagnosticRelatedInformation] | None = None
    if span is not None and os.path.abspath(span.source) == os.path.abspath(path):
        where = lines.span_range(span)
    else:
        where = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
        if span is not None:
            other = (texts or {}).get(os.path.abspath(span.source))
            if other is None:
                other = _lines_of(span.source)
            related = [
                lsp.DiagnosticRelatedInformation(
                    lsp.Location(uri_of(span.source), other.span_range(span)), diagnostic.label or diagnostic.message
                )
            ]
    return lsp.Diagnostic(
        range=where,
        message=message_of(diagnostic),
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        source="sgcheck" + (f" ({', '.join(diagnostic.rules)})" if diagnostic.rules else ""),
        related_information=related,
        data={"code": diagnostic.code, "rules": list(diagnostic.rules)},
    )


def _lines_of(path: str) -> Lines:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return Lines(handle.read(4_000_000))
    except OSError:
        return Lines("")


def to_lsp_all(
    diagnostics: Sequence[Diagnostic], path: str, text: str, texts: dict[str, Lines] | None = None
) -> list[lsp.Diagnostic]:
    lines = Lines(text)
    return [to_lsp(diagnostic, path, lines, texts) for diagnostic in diagnostics]
