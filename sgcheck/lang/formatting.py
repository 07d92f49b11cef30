"""Canonical layout with the comments kept: the part of ``sgcheck fmt`` both languages share.

A formatter writes a file as a list of :class:`Unit`: one output line of code each (a header
tag, a setup line, a turn's first line, one statement, a card's header, one clause, a card's
closing brace), with the range of source text that line was written from. The comments of the
file (:class:`Comment`, collected by each language with its own scanner) are then attached to
those units by position, and :func:`render` writes units and comments together.

The attachment rule (docs/fmt.md):

1. A comment inside the source range of a unit (between two words of one statement, or of
   one clause) is a *trailing* comment of that unit.
2. Otherwise a comment with only blanks (or other comments) before it on its line is a
   *leading* comment of the next unit in the source: it is written on a line of its own
   just before that unit, indented like it. Comments after the last unit stay at the end.
3. Any other comment follows code on its line: it trails the unit that code belongs to.

Trailing comments are written after their unit's line, two spaces after the code, in their
order. A comment that runs to the end of the line (``;`` or ``#``) ends that line: the
comments after it move to the start of the next unit's leading comments, which is where a
second formatting finds them, so formatting twice gives the text of formatting once.

Blank lines: at most one is kept before a comment line that had one; units that start a
paragraph of their own (a setup line, a turn, a card) keep one too; the rest are the
language's canonical blank lines.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sgcheck.diagnostics import Span

__all__ = ["Comment", "Unit", "attach", "comment_texts", "render", "render_lines", "shape"]


@dataclass(frozen=True, slots=True)
class Comment:
    """One comment as written: its text (a line comment without trailing blanks) and where it is."""

    text: str
    start: int
    end: int
    own_line: bool  # only blanks or other comments before it on its line
    blank_before: bool  # an empty line between what precedes it and the comment
    to_line_end: bool  # a ';' or '#' comment: nothing may follow it on its line
    line: int  # line of its first character (1-based)
    end_line: int  # line of its last character


@dataclass(slots=True)
class Unit:
    """One output line of code, and the source range it was written from (``start`` < ``end``)."""

    text: str
    start: int
    end: int
    indent: str = ""  # the indentation of comments written on lines of their own before it
    canonical_blank: bool = False  # the layout puts an empty line before it
    paragraph: bool = False  # an empty line before it in the source is kept
    source_blank: bool = False  # the source has an empty line right before it
    leading: list[Comment] = field(default_factory=list)
    trailing: list[Comment] = field(default_factory=list)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    at = find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = find("\n", at + 1)
    return starts


def _blank_run_before(text: str, at: int) -> bool:
    """Whether the blanks right before ``at`` hold an empty line (two line breaks)."""
    index = at - 1
    breaks = 0
    while index >= 0 and text[index] in " \t\f\v\n\ufeff":
        if text[index] == "\n":
            breaks += 1
            if breaks >= 2:
                return True
        index -= 1
    return False


def make_comments(text: str, found: Iterable[tuple[int, int, bool]], first_line: int = 1) -> list[Comment]:
    """:class:`Comment` records for the comments at ``(start, end, to_line_end)`` of ``text``, in order;
    ``text`` starts on line ``first_line`` (a piece of a longer text: one that starts at a line
    start, or after code or a comment with no comment after it on that line)."""
    starts = _line_starts(text)
    lines = first_line - 1
    comments: list[Comment] = []
    previous: Comment | None = None
    for start, end, to_line_end in found:
        line = bisect_right(starts, start)
        end_line = bisect_right(starts, max(start, end - 1))
        before = text[starts[line - 1] : start]
        own = not before.strip()
        if not own and previous is not None and previous.own_line and previous.end_line == line + lines:
            own = not text[previous.end : start].strip() and not previous.to_line_end
        body = text[start:end]
        comment = Comment(
            body.rstrip() if to_line_end else body,
            start,
            end,
            own,
            _blank_run_before(text, start),
            to_line_end,
            line + lines,
            end_line + lines,
        )
        comments.append(comment)
        previous = comment
    return comments


def attach(text: str, units: Sequence[Unit], comments: Sequence[Comment]) -> list[Comment]:
    """Attach ``comments`` to ``units`` (given in output order); return the comments of the file's end.

    Units are matched by their source ranges, whatever the output order (a card's clauses are
    written in a fixed order); a comment moves with its unit.
    """
    by_start = sorted(units, key=lambda u: u.start)
    starts = [u.start for u in by_start]
    for unit in units:
        unit.source_blank = _blank_run_before(text, unit.start)
        unit.leading, unit.trailing = [], []
    at_end: list[Comment] = []
    for comment in comments:
        index = bisect_right(starts, comment.start) - 1  # the last unit starting before the comment
        if index >= 0 and comment.start < by_start[index].end:
            by_start[index].trailing.append(comment)
        elif comment.own_line or index < 0:
            following = bisect_left(starts, comment.end)
            (by_start[following].leading if following < len(by_start) else at_end).append(comment)
        else:
            by_start[index].trailing.append(comment)
    # A comment to the end of the line ends its unit's line: the trailing comments after it
    # become leading comments of the next unit written (or of the end of the file).
    for position, unit in enumerate(units):
        cut = next((i for i, c in enumerate(unit.trailing) if c.to_line_end), len(unit.trailing))
        moved = unit.trailing[cut + 1 :]
        if moved:
            del unit.trailing[cut + 1 :]
            moved = [dataclasses.replace(c, own_line=True, blank_before=False) for c in moved]
            if position + 1 < len(units):
                units[position + 1].leading[:0] = moved
            else:
                at_end[:0] = moved
    return at_end


def _comment_lines(comments: Sequence[Comment]) -> list[tuple[bool, str]]:
    """Leading comments as output lines: comments that shared a source line share one, and a
    comment to the end of the line ends its line. Each line says whether an empty line precedes it."""
    lines: list[tuple[bool, list[Comment]]] = []
    for comment in comments:
        if lines:
            last = lines[-1][1][-1]
            if not last.to_line_end and last.end_line == comment.line and not comment.blank_before:
                lines[-1][1].append(comment)
                continue
        lines.append((comment.blank_before, [comment]))
    return [(blank, " ".join(c.text for c in group)) for blank, group in lines]


def render(units: Sequence[Unit], at_end: Sequence[Comment]) -> str:
    """The text of ``units`` with their comments attached, ending in one line break (or empty)."""
    out = render_lines(units, at_end)
    return "\n".join(out) + "\n" if out else ""


def render_lines(
    units: Sequence[Unit],
    at_end: Sequence[Comment],
    *,
    after: bool = False,
    last: bool = True,
    leading_done: bool = False,
    before_next: tuple[bool, bool] | None = None,
) -> list[str]:
    """The lines of :func:`render`, for a piece of a text written in pieces: ``after``: they
    follow lines already written (the last one never blank), so an empty line may start them;
    ``last``: they end the text; ``leading_done``: comment lines before the first unit were
    written with the piece before; ``before_next``: the comments of ``at_end`` are leading
    comments of the next unit, in the next piece, written now, given whether that unit has a
    canonical empty line before it and whether they are its first (else they end the text)."""
    out: list[str] = []

    def blank() -> None:
        if out[-1] != "" if out else after:
            out.append("")

    for index, unit in enumerate(units):
        first = not (leading_done and index == 0)
        for had_blank, line in _comment_lines(unit.leading):
            if had_blank or (first and unit.canonical_blank):
                blank()
            out.append(unit.indent + line)
            first = False
        if (unit.canonical_blank and first) or (unit.paragraph and unit.source_blank):
            blank()
        code = unit.text
        if unit.trailing:
            code += "  " + " ".join(c.text for c in unit.trailing)
        out.append(code)
    canonical, first = before_next if before_next is not None else (False, False)
    for had_blank, line in _comment_lines(at_end):
        if had_blank or (first and canonical):
            blank()
        out.append(line)  # the next unit starts an item: no indent
        first = False
    while last and out and out[-1] == "":
        out.pop()
    return out


def comment_texts(comments: Iterable[Comment]) -> list[str]:
    """The texts of the comments, in order: what formatting must keep."""
    return [c.text for c in comments]


def shape(node: object) -> object:
    """A syntax tree or card model with every span left out, to compare two readings of a text."""
    if isinstance(node, Span):
        return None
    if isinstance(node, (tuple, list)):
        return tuple(shape(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, *(shape(getattr(node, f.name)) for f in dataclasses.fields(node)))
    return node
