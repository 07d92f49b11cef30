"""A unified diff written a piece at a time: what ``sgcheck fmt --diff`` prints.

The text of ``difflib.unified_diff`` (three lines of context, ``\\ No newline at end of file``
after a last line without one) for a file given as pairs of pieces (the lines of the file and
the lines formatted from them), so a diff of a large log costs memory in proportion to a piece
and to the longest run of changed lines, never to the file: the lines of each pair are matched
by ``difflib.SequenceMatcher``, the runs of equal lines are joined across pairs, and the hunks
are grouped as ``SequenceMatcher.get_grouped_opcodes`` groups them. A file given as one pair
gets exactly the text of ``difflib.unified_diff``.
"""

from __future__ import annotations

import codecs
import difflib
import tempfile
from collections import deque
from collections.abc import Callable

__all__ = ["UnifiedDiff", "patch_lines"]

#: A hunk is held in memory up to this size, and in a temporary file beyond.
_HUNK_BYTES = 4 << 20


class _Equal:
    """A run of equal lines: where it starts, how long it is, its first and last lines."""

    __slots__ = ("context", "head", "i1", "j1", "length", "tail")

    def __init__(self, i1: int, j1: int, context: int) -> None:
        self.i1, self.j1, self.length, self.context = i1, j1, 0, context
        self.head: list[str] = []  # the first 2 × context lines
        self.tail: deque[str] = deque(maxlen=context)  # the last context lines

    def extend(self, lines: list[str]) -> None:
        self.length += len(lines)
        keep = 2 * self.context
        if len(self.head) < keep:
            self.head.extend(lines[: keep - len(self.head)])
        if self.context:
            self.tail.extend(lines[-self.context :])


def _range(start: int, stop: int) -> str:
    """A hunk's range as ``difflib`` writes it (``_format_range_unified``)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def patch_lines(text: str) -> list[str]:
    """``text`` cut into lines as ``patch`` and ``git apply`` read a file: each ends at a line
    feed, kept (so a CRLF line keeps its CR, and a lone CR, a form feed, U+001C-U+001F, NEL or a
    Unicode line separator stays inside its line); the last may end without one.
    ``str.splitlines`` breaks at all of those, and its diff would not apply."""
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])


def _line(prefix: str, line: str) -> str:
    return prefix + line if line.endswith("\n") else prefix + line + "\n\\ No newline at end of file\n"


class UnifiedDiff:
    """``add(before, after)`` for each pair of pieces in order, then ``finish()``; the diff's
    text goes to ``write`` a hunk at a time (nothing for files with the same lines)."""

    def __init__(self, name: str, write: Callable[[str], None], context: int = 3) -> None:
        self.name, self.write, self.n = name, write, context
        self.a_at = self.b_at = 0  # lines of each side given so far
        self.pending: _Equal | None = None  # equal lines not placed in a hunk yet
        self.first = True  # no run of lines has been placed yet
        self.started = False  # the file names are written
        self.hunk: tempfile.SpooledTemporaryFile[bytes] | None = None
        self.bounds: list[int] = []  # the hunk's first i, first j, and its last i, last j
        self.only_equal = True  # the hunk holds one run of equal lines and nothing else
        self.a_rest = self.b_rest = ""  # pieces held until both sides end at a line's end

    def add(self, before: str, after: str) -> None:
        """A pair of pieces, each as the file holds it (its own line ends); pieces that do not
        both end at a line's end are held and joined to the next pair."""
        self.a_rest += before
        self.b_rest += after
        if self.a_rest[-1:] in ("", "\n") and self.b_rest[-1:] in ("", "\n"):  # both at a line's end
            self._pair(patch_lines(self.a_rest), patch_lines(self.b_rest))
            self.a_rest = self.b_rest = ""

    def _pair(self, a: list[str], b: list[str]) -> None:
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes():
            if tag == "equal":
                if self.pending is None:
                    self.pending = _Equal(i1 + self.a_at, j1 + self.b_at, self.n)
                self.pending.extend(a[i1:i2])
                continue
            self._place_equal(last=False)
            self.first = False
            self._append(i1 + self.a_at, i2 + self.a_at, j1 + self.b_at, j2 + self.b_at, equal=False)
            if tag in ("replace", "delete"):
                self._body("".join(_line("-", line) for line in a[i1:i2]))
            if tag in ("replace", "insert"):
                self._body("".join(_line("+", line) for line in b[j1:j2]))
        self.a_at += len(a)
        self.b_at += len(b)

    def finish(self) -> None:
        if self.a_rest or self.b_rest:
            self._pair(patch_lines(self.a_rest), patch_lines(self.b_rest))
            self.a_rest = self.b_rest = ""
        self._place_equal(last=True)
        if self.hunk is not None and not self.only_equal:
            self._emit()
        self._drop()

    def _place_equal(self, *, last: bool) -> None:
        """Place the pending run of equal lines, trimmed and split as difflib groups them."""
        run, self.pending = self.pending, None
        if run is None:
            return
        n, length = self.n, run.length
        lo = max(0, length - n) if self.first else 0
        hi = min(length, lo + n) if last else length
        self.first = False
        if hi - lo > 2 * n:  # a long run ends the hunk and starts the next one
            self._append(run.i1, run.i1 + n, run.j1, run.j1 + n, equal=True)
            self._body("".join(_line(" ", line) for line in run.head[:n]))
            self._emit()
            self._drop()
            i2, j2 = run.i1 + length, run.j1 + length
            self._append(i2 - n, i2, j2 - n, j2, equal=True)
            self._body("".join(_line(" ", line) for line in run.tail))
            return
        if lo > 0:
            tail = list(run.tail)
            skip = length - len(tail)
            lines = tail[lo - skip : hi - skip]
        else:
            lines = run.head[:hi]
        self._append(run.i1 + lo, run.i1 + hi, run.j1 + lo, run.j1 + hi, equal=True)
        self._body("".join(_line(" ", line) for line in lines))

    def _append(self, i1: int, i2: int, j1: int, j2: int, *, equal: bool) -> None:
        if self.hunk is None:
            self.hunk = tempfile.SpooledTemporaryFile(max_size=_HUNK_BYTES)  # noqa: SIM115  (closed by _drop)
            self.bounds = [i1, j1, i2, j2]
            self.only_equal = equal
        else:
            self.bounds[2:] = [i2, j2]
            self.only_equal = False

    def _body(self, text: str) -> None:
        assert self.hunk is not None
        self.hunk.write(text.encode("utf-8"))

    def _emit(self) -> None:
        assert self.hunk is not None
        if not self.started:
            self.started = True
            self.write(f"--- {self.name}\n+++ {self.name}\n")
        i1, j1, i2, j2 = self.bounds
        self.write(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n")
        self.hunk.seek(0)
        decoder = codecs.getincrementaldecoder("utf-8")()
        while chunk := self.hunk.read(1 << 20):
            self.write(decoder.decode(chunk))
        self.write(decoder.decode(b"", final=True))

    def _drop(self) -> None:
        if self.hunk is not None:
            self.hunk.close()
        self.hunk = None
