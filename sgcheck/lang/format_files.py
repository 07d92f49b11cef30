"""Format one input's bytes: what ``sgcheck fmt`` does per file (:mod:`sgcheck.lang.rewrite` writes it).

The text is read as every input is (:mod:`sgcheck.lang.source`: bounded, BOM and line ends
normalised, binary and non-UTF-8 input refused), formatted by the language's formatter, and
written back in the file's own conventions: the line break of its first line (LF, CRLF or a
lone CR) for every line, and its UTF-8 byte-order mark kept if it had one.

A log is decoded, formatted, encoded and compared with the input a piece at a time
(:func:`~sgcheck.lang.logs.format_logs.format_log_pieces`), so formatting it costs memory in
proportion to a piece besides the input's bytes: the output (as large as the input) is spooled,
in memory up to :data:`SPOOL_BYTES` and in a temporary file beyond, and read back as bytes
only when it is written, once the caller has let go of the input (docs/limits.md).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.source import (
    CARD_LIMIT,
    LOG_LIMIT,
    MAX_LINE_CHARS,
    YAML_CARD_LIMIT,
    InputLimit,
    SourceText,
    decode,
    decode_streamed,
)
from sgcheck.project import kinds
from sgcheck.project.kinds import Kind

__all__ = ["FileKind", "Formatted", "Rewrite", "Spool", "encode_like", "format_bytes", "kind_of", "limit_of"]

BOM = b"\xef\xbb\xbf"


class FileKind(StrEnum):
    """What a file holds, as its name says (for ``sgcheck fmt``); a piece's kind is ``core.pieces.Kind``."""

    LOG = "log"
    CARDS = "cards"
    YAML_CARDS = "yaml cards"


#: The kinds of file ``sgcheck fmt`` formats, from the one table (``sgcheck.project.kinds``).
_FORMATTED = {Kind.LOG: FileKind.LOG, Kind.CARDS: FileKind.CARDS, Kind.YAML_CARDS: FileKind.YAML_CARDS}


def kind_of(name: str) -> FileKind | None:
    """What a file name says it holds, as ``fmt`` formats it: a log, cards, YAML cards, or none of them."""
    found = kinds.kind_of(name)
    return _FORMATTED.get(found.kind) if found is not None else None


def limit_of(kind: FileKind) -> InputLimit:
    return {FileKind.LOG: LOG_LIMIT, FileKind.CARDS: CARD_LIMIT, FileKind.YAML_CARDS: YAML_CARD_LIMIT}[kind]


#: Output held in memory up to this size; a larger output goes to a temporary file.
SPOOL_BYTES = 8 << 20


class Spool:
    """Bytes written in order and read back once: in memory up to :data:`SPOOL_BYTES`, in a
    temporary file beyond (the formatted text of a log, or its diff, may be as large as the log)."""

    def __init__(self) -> None:
        # closed by close(), or when the spool is let go of
        self._file: tempfile.SpooledTemporaryFile[bytes] = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115
        self.size = 0

    def write(self, data: bytes) -> None:
        self._file.write(data)
        self.size += len(data)

    def getvalue(self) -> bytes:
        """Everything written, as one bytes object."""
        self._file.seek(0)
        return self._file.read()

    def chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """Everything written, ``size`` bytes at a time."""
        self._file.seek(0)
        while chunk := self._file.read(size):
            yield chunk

    def close(self) -> None:
        self._file.close()


@dataclass(frozen=True, slots=True)
class Formatted:
    """The outcome for one input: the bytes to write and whether they differ from the input, or why not.

    ``problems`` holds the syntax errors (or reading errors) that keep the file as it is;
    ``internal`` is set when the formatter failed on the input (a fault of sgcheck). ``output``
    holds the formatted bytes (``data`` reads them back whole), ``diff`` the unified diff of
    the texts when it was asked for and the input changed (UTF-8).
    """

    name: str
    changed: bool = False
    problems: tuple[Diagnostic, ...] = ()
    internal: str | None = None
    output: Spool | None = None
    diff: Spool | None = None

    @property
    def data(self) -> bytes:
        """The formatted bytes, whole."""
        return self.output.getvalue() if self.output is not None else b""

    def close(self) -> None:
        for spool in (self.output, self.diff):
            if spool is not None:
                spool.close()


#: A line end of the log and card languages, in the bytes of a file: LF, CRLF or a lone CR.
_LINE_END = re.compile(rb"\r\n?|\n")


def _line_break(data: bytes) -> str:
    """The line break of the first line: CRLF, a lone CR, or LF (also for a file without any)."""
    lf, cr = data.find(b"\n"), data.find(b"\r")
    if cr >= 0 and (lf < 0 or cr < lf):
        return "\r\n" if data[cr + 1 : cr + 2] == b"\n" else "\r"
    return "\n"


def encode_like(text: str, original: bytes) -> bytes:
    """``text`` (LF line breaks) as the bytes of a file written like ``original``: its first line
    break for every line, and its byte-order mark if it had one."""
    out = text.replace("\n", _line_break(original)).encode("utf-8") if text else b""
    return BOM + out if original.startswith(BOM) else out


#: A change made to a log's decoded text before it is formatted (``fmt --fill-claims``).
Rewrite = Callable[[SourceText], str]


def format_bytes(
    data: bytes, name: str, kind: FileKind, *, diff: bool = False, rewrite: Rewrite | None = None
) -> Formatted:
    """Format the bytes of one input; never raises for any input. With ``diff``, the result
    carries the unified diff of the change (if any). ``rewrite`` (logs only) changes the log's
    text before it is formatted; the result is compared with, and its diff taken from, the input."""
    if kind is FileKind.LOG:
        if rewrite is not None:
            return _rewrite_log(data, name, rewrite, diff=diff)
        return _format_log(data, name, diff=diff)
    read = decode(data, name, limit=limit_of(kind))
    if isinstance(read, Diagnostic):
        return Formatted(name, problems=(read.at(read.span or Span.point(name)),))
    text = read.text
    try:
        formatted = _format_text(text, name, kind)
    except (RecursionError, MemoryError) as error:
        return Formatted(name, internal=f"{type(error).__name__}")
    if isinstance(formatted, tuple):
        return Formatted(name, problems=formatted)
    if isinstance(formatted, _Failed):
        return Formatted(name, internal=formatted.reason)
    sink = _Sink(data, name, diff=diff)
    sink(text, formatted)
    return sink.result()


class _Sink:
    """Takes the formatted text a piece at a time (with the lines it was written from): checks
    its line lengths, encodes it like the input, compares it with the input, spools it."""

    def __init__(self, data: bytes, name: str, *, diff: bool) -> None:
        from sgcheck.lang.format_diff import UnifiedDiff

        self.name = name
        self.input = memoryview(data)
        self.size = len(data)
        self.at = 0  # bytes of the input matched so far
        self.same = True  # the output so far is the input's first bytes
        self.line_break = _line_break(data)
        self.lines = 0  # lines of the formatted text so far
        self.long_line: int | None = None
        self.output = Spool()
        self.diff_text: Spool | None = Spool() if diff else None
        self.diff = UnifiedDiff(name, self._diff_write) if diff else None
        self.read_at = 0  # bytes of the input given to the diff so far
        self.mark = "\ufeff" if data.startswith(BOM) else ""  # the diff's first line has it on both sides
        if data.startswith(BOM):
            self._out(BOM)
            self.read_at = len(BOM)

    def _diff_write(self, text: str) -> None:
        assert self.diff_text is not None
        self.diff_text.write(text.encode("utf-8"))

    def _out(self, out: bytes) -> None:
        if self.same:
            self.same = self.input[self.at : self.at + len(out)] == out
            self.at += len(out)
        self.output.write(out)

    def __call__(self, before: str, after: str) -> None:
        written = after if self.line_break == "\n" else after.replace("\n", self.line_break)
        if self.diff is not None:
            self.diff.add(self.mark + self._as_read(before), self.mark + written)
            self.mark = ""
        if self.long_line is not None:
            return
        lines = after.split("\n")
        if max(map(len, lines)) > MAX_LINE_CHARS:
            self.long_line = self.lines + next(n for n, line in enumerate(lines, 1) if len(line) > MAX_LINE_CHARS)
            return
        self.lines += len(lines) - 1
        if after:
            self._out(written.encode("utf-8"))

    def _as_read(self, before: str) -> str:
        """The piece ``before`` (read with every line end made LF) as the input holds it, with its
        own line ends (LF, CRLF or a lone CR, each line its own), so the diff applies to the file."""
        end = self.read_at
        for _ in range(before.count("\n")):
            found = _LINE_END.search(self.input, end)
            if found is None:
                break
            end = found.end()
        end += len(before[before.rfind("\n") + 1 :].encode("utf-8"))
        piece = bytes(self.input[self.read_at : end]).decode("utf-8", errors="replace")
        self.read_at = end
        return piece

    def close(self) -> None:
        self.output.close()
        if self.diff_text is not None:
            self.diff_text.close()

    def result(self) -> Formatted:
        if self.long_line is not None:
            self.close()
            problem = codes.diagnostic(
                "SG-P011",
                f"not formatted: line {self.long_line} would be longer than {MAX_LINE_CHARS:,} characters",
            ).at(Span.point(self.name))
            return Formatted(self.name, problems=(problem,))
        changed = not (self.same and self.at == self.size)
        diff = None
        if self.diff is not None and self.diff_text is not None:
            if changed:
                self.diff.finish()
                diff = self.diff_text
            else:
                self.diff_text.close()
        return Formatted(self.name, changed, output=self.output, diff=diff)


def _format_log(data: bytes, name: str, *, diff: bool) -> Formatted:
    """A log, formatted a piece at a time (module docstring)."""
    from sgcheck.lang.logs.format_logs import FormatError, format_log_pieces
    from sgcheck.lang.logs.grammar import LogSyntaxError

    read = decode_streamed(data, name, limit=LOG_LIMIT)
    if isinstance(read, Diagnostic):
        return Formatted(name, problems=(read.at(read.span or Span.point(name)),))
    sink = _Sink(data, name, diff=diff)
    failed: Formatted | None = None
    try:
        format_log_pieces(read, sink)
    except LogSyntaxError as error:
        failed = Formatted(name, problems=(error.diagnostic,))
    except (FormatError, ValueError, TypeError) as error:
        failed = Formatted(name, internal=str(error))
    except (RecursionError, MemoryError) as error:
        failed = Formatted(name, internal=f"{type(error).__name__}")
    if failed is not None:
        sink.close()
        return failed
    return sink.result()


def _rewrite_log(data: bytes, name: str, rewrite: Rewrite, *, diff: bool) -> Formatted:
    """A log whose text ``rewrite`` changes, then formatted whole (the change needs the whole log)."""
    from sgcheck.lang.logs.format_logs import FormatError, format_log_text
    from sgcheck.lang.logs.grammar import LogSyntaxError

    read = decode(data, name, limit=LOG_LIMIT)
    if isinstance(read, Diagnostic):
        return Formatted(name, problems=(read.at(read.span or Span.point(name)),))
    try:
        formatted = format_log_text(rewrite(read), name)
    except LogSyntaxError as error:
        return Formatted(name, problems=(error.diagnostic,))
    except (FormatError, ValueError, TypeError) as error:
        return Formatted(name, internal=str(error))
    except (RecursionError, MemoryError) as error:
        return Formatted(name, internal=f"{type(error).__name__}")
    sink = _Sink(data, name, diff=diff)
    sink(read.text, formatted)
    return sink.result()


@dataclass(frozen=True, slots=True)
class _Failed:
    reason: str


def _format_text(text: str, name: str, kind: FileKind) -> str | tuple[Diagnostic, ...] | _Failed:
    """The formatted text of cards, the syntax errors, or what went wrong in the formatter."""
    from sgcheck.lang.cards.format_cards import CardFormatError, format_card_text
    from sgcheck.lang.cards.format_yaml import YamlFormatError, format_yaml_text

    try:
        done = format_yaml_text(text, name) if kind is FileKind.YAML_CARDS else format_card_text(text, name)
    except (CardFormatError, YamlFormatError, ValueError, TypeError) as error:
        return _Failed(str(error))
    return tuple(done) if isinstance(done, list) else done
