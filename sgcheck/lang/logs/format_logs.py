"""``sgcheck fmt`` for game logs: the canonical layout of :mod:`~sgcheck.lang.logs.writer`, comments kept.

The log is read by the grammar into its syntax tree (a syntax error is raised as
:class:`~sgcheck.lang.logs.grammar.LogSyntaxError` and nothing is written), its comments are
collected by a small scanner (the grammar ignores them), and :mod:`sgcheck.lang.formatting`
attaches them to the lines of the canonical text. Before the text is handed back it is read
again: it must give the same items (spans aside) and the same comments, or
:class:`FormatError` says so and the caller keeps the file as it is.

:func:`format_log_pieces` does the same a piece of the log at a time, so that formatting a log
costs memory in proportion to a piece, not to the log (docs/limits.md): a piece is a run of
whole items of about :data:`PIECE_CHARS` characters, cut where the next item starts a line,
after the comments that trail the last item. What crosses a cut (a comment moved to the next
line, whether the previous item was a turn, whether an empty line may be written) is carried
over, so the pieces' texts joined are the text of :func:`format_log_text`; each piece is read
back on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from sgcheck.lang.formatting import (
    Comment,
    Unit,
    attach,
    comment_texts,
    make_comments,
    render,
    render_lines,
    shape,
)
from sgcheck.lang.logs.ast import Header, LogItem, Turn
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import item_lines
from sgcheck.lang.source import SourceText

__all__ = ["PIECE_CHARS", "FormatError", "format_log_pieces", "format_log_text", "log_comments"]

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


def _units(items: list[LogItem], carry: _Carry | None = None) -> list[Unit]:
    units: list[Unit] = []
    after_header = False if carry is None else carry.after_header
    previous: LogItem | None = None if carry is None else carry.previous
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
    if carry is not None:
        carry.after_header, carry.previous = after_header, previous
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


# --- a piece at a time ---------------------------------------------------------------------------

#: Characters of log text formatted at a time: a piece of about this size (more if one item is
#: longer) costs a few megabytes while it is formatted, whatever the size of the log.
PIECE_CHARS = 1 << 16


class _Carry:
    """What formatting a piece hands to the next: the layout's state at the cut."""

    __slots__ = ("after_header", "leading_done", "moved", "previous", "started")

    def __init__(self) -> None:
        self.after_header = False  # the last item was the header, with tags
        self.previous: LogItem | None = None  # the last item (a turn after a setup line gets an empty line)
        self.moved: list[Comment] = []  # comments that go before the next line of code
        self.started = False  # lines were written
        self.leading_done = False  # comment lines before the next line of code were written


def _cut(text: str, upto: int) -> int:
    """Where a window of ``text`` may end, at or before ``upto``: after a line break outside any
    brace comment (0: nowhere). A ``{`` in a ``;`` comment or a name only makes the cut earlier."""
    cut = text.rfind("\n", 0, upto) + 1
    while cut > 0:
        opened = text.rfind("{", 0, cut)
        if opened < 0 or text.rfind("}", 0, cut) > opened:
            return cut
        cut = text.rfind("\n", 0, opened) + 1
    return 0


def _next_cut(text: str, after: int) -> int:
    """The first place after ``after`` where a window of ``text`` may end (0: none)."""
    at = text.find("\n", after)
    while at >= 0:
        opened = text.rfind("{", 0, at + 1)
        if opened < 0 or text.rfind("}", 0, at + 1) > opened:
            return at + 1
        closed = text.find("}", opened)
        if closed < 0:
            return 0
        at = text.find("\n", closed)
    return 0


def format_log_pieces(source: SourceText, write: Callable[[str, str], None], *, piece_chars: int | None = None) -> None:
    """Format ``source`` a piece at a time: ``write(before, after)`` gets, in order, the canonical
    text of each piece (``after``; joined, the text :func:`format_log_text` gives) and the whole
    lines of the log it was written from (``before``; joined, the log's text).

    Goes through ``source.pieces`` once, holding about ``piece_chars`` (default
    :data:`PIECE_CHARS`) characters of text, or one item if longer. Raises
    :class:`~sgcheck.lang.logs.grammar.LogSyntaxError` as :func:`format_log_text` does (for a log
    that does not read, the log is read again as replay reads it, so the error is the same), and
    :class:`FormatError` if a piece would not read back as the same items with the same comments
    (after the pieces up to the end, so that a syntax error further on is reported first).
    Pieces before an error have been written by then: the caller keeps the file as it is.
    """
    from sgcheck.lang.logs.grammar import LogSyntaxError, items_from

    piece_chars = piece_chars or PIECE_CHARS
    name = source.name
    pieces = _sliced(source.pieces, piece_chars)
    buf = ""  # the text not formatted yet (from the end of the last piece's code on) ...
    before_at = 0  # ... where in it the lines of the next piece start ...
    line = 1  # ... and the line of buf[0]
    eof = False
    first = True
    want = piece_chars
    carry = _Carry()
    failure: FormatError | None = None  # raised at the end: a syntax error further on comes first
    base = 0  # the file offset of buf[0]
    ahead: tuple[int, str] | None = None  # the next token after a run of comments: where, what
    while True:
        if not eof and len(buf) <= want:
            more = next(pieces, None)
            if more is None:
                eof = True
            else:
                buf += more
            continue
        end = len(buf) if eof and len(buf) <= want else (_cut(buf, want) or _next_cut(buf, want))
        if end == 0:
            if not eof:
                want *= 2
                continue
            end = len(buf)
        final = eof and end == len(buf)
        window = buf[:end]
        try:
            read = list(items_from(SourceText(name, window), header=first, final=final))
        except LogSyntaxError:
            _raise_exact(source)
            raise FormatError("the log reads whole but not a piece at a time") from None
        items = [item for item, _resume in read]
        comments = make_comments(window, _found(window), line)
        following: str | None = None  # the piece ends in a run of comments before this: "turn", "setup", "end"
        if final:
            stop = len(window)
        else:
            found = _stop(window, items, comments, read[-1][1] if read else None)
            if found is None and not read:  # one item, or none, and then comments to the window's end?
                if ahead is None or ahead[0] < base + end:
                    ahead = _next_token(source, base + end)
                if ahead[1] != "other":  # the item ends before them: a piece may end after any of them
                    following = ahead[1]
                    try:
                        read = list(items_from(SourceText(name, window), header=first))
                    except LogSyntaxError:
                        _raise_exact(source)
                        raise FormatError("the log reads whole but not a piece at a time") from None
                    items = [item for item, _resume in read]
                    stop = max([c.end for c in comments] + [items[-1].span.end_offset if items else 0])
                    found = (stop, len(items)) if stop > 0 else None
            if found is None:  # no item ends in this window where a piece may end: a longer window
                want = max(want, len(buf)) * 2
                continue
            stop, count = found
            items = items[:count]
        local = [c for c in comments if c.start < stop]
        moved_in = carry.moved
        after, moved_out = _format_piece(window[:stop], items, local, carry, final=final, following=following)
        lines_end = len(window) if final else window.index("\n", stop) + 1
        before = window[before_at:lines_end]
        if after != before and failure is None:
            try:
                _same_piece(items, local, moved_in, moved_out, after, name, header=first)
            except FormatError as error:
                failure = error
        write(before, after)
        if final:
            if failure is not None:
                raise failure
            return
        carry.moved = moved_out
        line += window.count("\n", 0, stop)
        base += stop
        buf = buf[stop:]
        before_at = lines_end - stop
        first = False
        want = piece_chars


def _sliced(pieces: Iterable[str], size: int) -> Iterator[str]:
    """The text of ``pieces`` in pieces of at most ``size`` characters."""
    for piece in pieces:
        if len(piece) <= size:
            yield piece
        else:
            yield from (piece[at : at + size] for at in range(0, len(piece), size))


#: The first word of an item other than a turn (a setup line or a result line).
_ITEM_WORD = re.compile(r"(?i:draft|rolloff|choose|king|result)(?![\w-])")
_TURN = re.compile(r"[0-9]+\.")
_BLANKS = re.compile(r"\s*+")


def _next_token(source: SourceText, offset: int) -> tuple[int, str]:
    """Where the first token at or after ``offset`` is (comments and blanks skipped), and what it
    starts: ``"turn"``, ``"setup"`` (another item), ``"end"`` (no token), or ``"other"`` (anything
    else, such as the rest of a turn). Reads the text again from its start, keeping a piece."""
    at = 0  # the file offset of the piece
    inside = ""  # "" or the comment being skipped: ";" to the end of the line, "{" to a "}"
    start, head = -1, ""  # the token: where it starts, its first characters
    for piece in source.pieces:
        index = max(offset - at, 0)
        while index < len(piece):
            if head or start >= 0:
                head += piece[index : index + 32 - len(head)]
                break
            if inside:
                close = piece.find("\n" if inside == ";" else "}", index)
                if close < 0:
                    index = len(piece)
                    break
                inside, index = "", close + 1
                continue
            index = _BLANKS.match(piece, index).end()  # type: ignore[union-attr]
            if index == len(piece):
                break
            if piece[index] in ";{":
                inside, index = piece[index], index + 1
                continue
            start = at + index
        at += len(piece)
        if len(head) >= 32:
            break
    if start < 0:
        return (at, "other") if inside == "{" else (at, "end")
    if _TURN.match(head):
        return start, "turn"
    return start, "setup" if _ITEM_WORD.match(head) else "other"


def _stop(
    window: str, items: list[LogItem], comments: list[Comment], resume: tuple[int, int, int] | None
) -> tuple[int, int] | None:
    """Where the piece read in ``window`` ends, and how many of its items it holds: after the last
    item that the next one follows on a later line, and after the comments that trail it (the
    comments on lines of their own before the next item go with the next piece)."""
    if resume is None:
        return None
    starts = [item.span.offset for item in items[1:]] + [resume[0]]
    trailing = [c for c in comments if not c.own_line]
    for count in range(len(items), 0, -1):
        end, following = items[count - 1].span.end_offset, starts[count - 1]
        stop = max((c.end for c in trailing if end <= c.start < following), default=end)
        if stop > 0 and "\n" in window[stop:following]:
            return stop, count
    return None


def _format_piece(
    text: str, items: list[LogItem], comments: list[Comment], carry: _Carry, *, final: bool, following: str | None
) -> tuple[str, list[Comment]]:
    """The canonical text of one piece, and the comments it hands to the next line of code.

    ``following``: the piece ends in a run of comments, followed by a turn, another item or
    the end of the log; they are written now, as the leading comments of that item (or as the
    comments at the end), whose first line is known to need no more than its kind."""
    units = _units(items, carry)
    at_end = attach(text, units, comments)
    if units:
        units[0].leading[:0] = carry.moved
    else:
        at_end[:0] = carry.moved
    before_next: tuple[bool, bool] | None = None
    if following is not None and following != "end":
        canonical = carry.after_header or (
            following == "turn" and carry.previous is not None and not isinstance(carry.previous, Turn)
        )
        before_next = (canonical, bool(units) or not carry.leading_done)
    written = at_end if final or following is not None else ()
    lines = render_lines(
        units,
        written,
        after=carry.started,
        last=final,
        leading_done=carry.leading_done,
        before_next=before_next,
    )
    carry.started = carry.started or bool(lines)
    if units:
        carry.leading_done = False
    if following is not None:
        carry.leading_done = carry.leading_done or bool(at_end)
        return ("\n".join(lines) + "\n" if lines else ""), []
    return ("\n".join(lines) + "\n" if lines else ""), ([] if final else at_end)


def _same_piece(
    items: list[LogItem],
    comments: list[Comment],
    moved_in: list[Comment],
    moved_out: list[Comment],
    formatted: str,
    name: str,
    *,
    header: bool,
) -> None:
    """:func:`_same` for a piece: it reads as the piece's items, with its comments (those moved
    in from the piece before, not those it hands on)."""
    from sgcheck.lang.logs.grammar import LogSyntaxError, items_from

    try:
        again = [item for item, _resume in items_from(SourceText(name, formatted), header=header)]
    except LogSyntaxError as error:
        raise FormatError(f"the formatted log does not read: {error.diagnostic.message}") from None
    if shape(again) != shape(items):
        raise FormatError("the formatted log reads as a different log")
    expected = comment_texts(moved_in) + comment_texts(comments)
    handed = comment_texts(moved_out)
    if handed and expected[-len(handed) :] != handed:
        raise FormatError("the formatted log does not keep every comment")
    if comment_texts(log_comments(formatted)) != expected[: len(expected) - len(handed)]:
        raise FormatError("the formatted log does not keep every comment")


def _raise_exact(source: SourceText) -> None:
    """Raise the syntax error of the log as the reader (and so replay) reports it, reading it whole."""
    from sgcheck.lang.logs.reader import read_log

    for _item in read_log(source):
        pass
