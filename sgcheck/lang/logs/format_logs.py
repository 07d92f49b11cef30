"""``sgcheck fmt`` for game logs: the canonical layout of :mod:`~sgcheck.lang.logs.writer`, comments kept.

The log is read by the grammar into its syntax tree (a syntax error is raised as
:class:`~sgcheck.lang.logs.grammar.LogSyntaxError` and nothing is written), its comments are
collected by a small scanner (the grammar ignores them), and :mod:`sgcheck.lang.formatting`
attaches them to the lines of the canonical text. Before the text is handed back it is read
again: it must give the same items (spans aside) and the same comments, or
:class:`FormatError` says so and the caller keeps the file as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sgcheck.lang.formatting import Comment, Unit, attach, comment_texts, make_comments, render, shape
from sgcheck.lang.logs.ast import Header, LogItem, Turn
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import item_lines
from sgcheck.lang.source import SourceText

__all__ = ["FormatError", "format_log_text", "log_comments"]

#: A quoted name (skipped: a ';' or '{' inside it is text), a ';' comment, a '{...}' comment.
#: Every part is linear: each alternative starts with its own character and never backtracks.
_SCAN = re.compile(r'"(?:[^"\\\n]++|\\.)*+"?|(;[^\n]*+)|(\{[^}]*+\}?)')


class FormatError(Exception):
    """The canonical text would not read back as the same log: a fault of the formatter, never written."""


def _found(text: str) -> Iterator[tuple[int, int, bool]]:
    for match in _SCAN.finditer(text):
        if match.group(1) is not None:
            yield match.start(1), match.end(1), True
        elif match.group(2) is not None:
            yield match.start(2), match.end(2), False


def log_comments(text: str) -> list[Comment]:
    """The ``;`` and ``{...}`` comments of a log that reads without a syntax error, in order."""
    return make_comments(text, _found(text))


def _units(items: list[LogItem]) -> list[Unit]:
    units: list[Unit] = []
    after_header = False
    previous: LogItem | None = None
    for item in items:
        lines = item_lines(item)
        if isinstance(item, Header):
            units.extend(Unit(line.text, line.start, line.end, line.indent) for line in lines)
            after_header = bool(lines)
            continue
        for index, line in enumerate(lines):
            unit = Unit(line.text, line.start, line.end, line.indent)
            if index == 0:
                unit.paragraph = True
                unit.canonical_blank = after_header or (
                    isinstance(item, Turn) and previous is not None and not isinstance(previous, Turn)
                )
            units.append(unit)
        after_header = False
        previous = item
    return units


def format_log_text(text: str, name: str = "<log>") -> str:
    """``text`` (LF line breaks, no BOM) in the canonical layout, every comment kept.

    Raises :class:`~sgcheck.lang.logs.grammar.LogSyntaxError` for a log that does not read,
    and :class:`FormatError` if the result would not read back as the same log.
    """
    items = parse_log(SourceText(name, text))
    comments = log_comments(text)
    units = _units(items)
    at_end = attach(text, units, comments)
    formatted = render(units, at_end)
    if formatted != text:
        _same(items, comments, formatted, name)
    return formatted


def _same(items: list[LogItem], comments: list[Comment], formatted: str, name: str) -> None:
    from sgcheck.lang.logs.grammar import LogSyntaxError

    try:
        again = parse_log(SourceText(name, formatted))
    except LogSyntaxError as error:
        raise FormatError(f"the formatted log does not read: {error.diagnostic.message}") from None
    if shape(again) != shape(items):
        raise FormatError("the formatted log reads as a different log")
    if comment_texts(log_comments(formatted)) != comment_texts(comments):
        raise FormatError("the formatted log does not keep every comment")
