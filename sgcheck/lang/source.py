"""Reading input files into normalised text, within documented limits.

Every later layer (parser, replay, renderers) works on one decoded, newline-normalised
string, so that lines, columns and offsets mean the same thing everywhere. Problems that
stop a file from becoming text at all (unreadable, not a regular file, binary, not UTF-8,
over a size or line-length limit) are reported here as diagnostics instead of exceptions,
so a caller checking many files never crashes on one.

Every input sgcheck reads goes through :func:`read_source` (a path) or :func:`read_stream`
(standard input), each with the :class:`InputLimit` of its kind (docs/limits.md). Limits
are checked *while* reading, one chunk at a time: an endless or huge input is refused after
at most its limit in bytes, a single over-long line as soon as the limit is crossed, a
NUL byte in the chunk where it appears. A FIFO, device or socket is refused before any
read, so it can neither block nor stream forever. Decoding, BOM removal and newline
normalisation happen per chunk, so the only full-size objects are the decoded chunks and,
when something asks for the whole text, the joined text: at most twice the text's size in
memory. A large log file read with ``streamed`` keeps no chunks at all (see read_source).
"""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import functools
import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Severity, Span

_T = TypeVar("_T")
_BOM = "\ufeff"
_BOM_BYTES = codecs.BOM_UTF8
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
#: Bytes read at a time: large enough that per-chunk work is negligible, small next to any limit.
CHUNK_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class InputLimit:
    """How much of one kind of input sgcheck reads, and the code it reports past that.

    ``max_bytes`` bounds the file's bytes and also its text in memory (characters times the
    bytes Python stores per character: 1, 2 or 4, set by the widest character), so no input
    can cost more than about twice ``max_bytes`` while it is read. ``max_line`` bounds the
    characters of one line (``None``: no line limit).
    """

    kind: str
    max_bytes: int
    max_line: int | None = None
    code: str = "SG-P010"
    hint: str = "split the input, or check that the right file was passed (see docs/limits.md)"


#: Longest line of a log or ``.sgcard`` file; the shipped examples stay under 250 characters.
MAX_LINE_CHARS = 10_000

#: A 1,000,000-action log is 44 MB in the plainest layout and up to 60 MB as people write it
#: (brace comments, statements over two lines). A log file is replayed a piece at a time, so
#: its size costs no memory; standard input is held whole (docs/limits.md).
LOG_LIMIT = InputLimit("game log", 64_000_000, MAX_LINE_CHARS)
#: About 10,000 cards in the layout of benchmarks/bench_check.py (1.9 MB), checked in about 1.5 s.
CARD_LIMIT = InputLimit(
    "card file",
    1_000_000,
    MAX_LINE_CHARS,
    hint="split the cards into several files listed in the pack's manifest (see docs/limits.md)",
)
#: The pure-Python YAML reader needs about 10 s for the largest accepted file.
YAML_CARD_LIMIT = InputLimit(
    "YAML card file",
    4_000_000,
    None,
    code="SG-P029",
    hint="split it into several card files, or write large packs in the .sgcard language",
)
#: A manifest lists card files and a few settings; 1 MB holds tens of thousands of paths.
MANIFEST_LIMIT = InputLimit("pack manifest", 1_000_000)
#: ``pyproject.toml`` or ``sgcheck.toml`` holding ``[tool.sgcheck]``.
CONFIG_LIMIT = InputLimit("configuration file", 1_000_000)
#: A scenario file (``*.scenario.yaml``): a position, a few settings and win conditions, a few KB.
SCENARIO_LIMIT = InputLimit("scenario file", 1_000_000)


class BinaryReader(Protocol):
    """Anything with ``read(size) -> bytes``: an open binary file, ``sys.stdin.buffer``."""

    def read(self, size: int = ..., /) -> bytes: ...


class SourceText:
    """A decoded input: ``name`` is shown in diagnostics, ``text`` has no BOM and only LF newlines.

    A log is decoded a chunk at a time, and its pieces are kept as they are (``pieces``): the
    log reader goes through them in order, so a log that needs no syntax tree is replayed
    without its text ever being joined. ``text`` joins them on first use, once.
    """

    __slots__ = ("_last", "_pieces", "_reread", "_text", "name")

    def __init__(
        self,
        name: str,
        text: str | None = None,
        *,
        pieces: Sequence[str] = (),
        reread: Callable[[], Iterator[str]] | None = None,
    ) -> None:
        self.name = name
        self._text = text
        self._pieces: Sequence[str] = pieces if text is None else ()
        self._reread = reread if text is None else None  # a big file: its pieces are read again on demand
        self._last = (0, 1)  # the last offset asked about by position() and its line

    def position(self, offset: int) -> tuple[int, int]:
        """The line and column of ``offset``; counted on from the last offset asked about, so
        going through a text in order costs one pass over it."""
        text = self.text
        last, line = self._last if offset >= self._last[0] else (0, 1)
        line += text.count("\n", last, offset)
        self._last = (offset, line)
        return line, offset - text.rfind("\n", 0, offset)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "".join(self.pieces)
            self._pieces, self._reread = (), None
        return self._text

    def kept(self) -> Sequence[str] | None:
        """The text's pieces when it is held in memory; None for a big file whose pieces are read
        from the file again each time (``streamed``, see :func:`read_source`)."""
        if self._text is not None:
            return (self._text,)
        return None if self._reread is not None else self._pieces

    @property
    def pieces(self) -> Iterable[str]:
        """The text in order, in one or more pieces (a piece may end in the middle of a line)."""
        if self._text is not None:
            return (self._text,)
        return self._reread() if self._reread is not None else self._pieces

    def __repr__(self) -> str:
        return f"SourceText({self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceText) and (self.name, self.text) == (other.name, other.text)

    __hash__ = None  # type: ignore[assignment]  # mutable cache inside; compared by content


class SourceTexts(Mapping[str, str]):
    """The texts of some sources by name, each joined only when a renderer quotes from it."""

    def __init__(self, *sources: SourceText) -> None:
        self._sources = {source.name: source for source in sources}

    def __getitem__(self, name: str) -> str:
        return self._sources[name].text

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF, so line numbers agree with every editor."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- texts held in memory instead of files ----------------------------------------------------

#: Texts that stand for files while a check runs (an editor's unsaved documents, read by
#: :func:`read_source` instead of the file at the same real path): see :func:`overlaid`.
_OVERLAY: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("sgcheck_overlay", default=None)


@contextlib.contextmanager
def overlaid(texts: Mapping[str, str]) -> Iterator[None]:
    """Within the block, :func:`read_source` of a file whose real path is a key of ``texts``
    reads that text instead of the file (within the same limits, as UTF-8 bytes). The language
    server checks the documents being edited this way, through the same code as the command line."""
    token = _OVERLAY.set({os.path.realpath(path): text for path, text in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.reset(token)


def overlay_text(path: str | os.PathLike[str]) -> str | None:
    """The text that stands for the file at ``path`` (see :func:`overlaid`), or None."""
    texts = _OVERLAY.get()
    if not texts:
        return None
    try:
        return texts.get(os.path.realpath(path))
    except (OSError, ValueError, TypeError):
        return None


# --- entry points ----------------------------------------------------------------------------


def read_source(
    path: str | os.PathLike[str], name: str | None = None, *, limit: InputLimit = LOG_LIMIT, streamed: bool = False
) -> SourceText | Diagnostic:
    """Read and decode the file at ``path`` within ``limit``; never raises, never blocks.

    SG-P008 when the file cannot be opened or is not a regular file (a FIFO, device, socket
    or folder is refused before anything is read); ``limit.code`` (SG-P010 or SG-P029) when
    it is larger than ``limit.max_bytes``; SG-P011 at the first line longer than
    ``limit.max_line``; SG-P004/SG-P005 for text that is not UTF-8 or holds a NUL byte.

    ``streamed``: a file larger than STREAMED_ABOVE is checked whole now, but not kept; its
    ``pieces`` are read from the file again, a chunk at a time, as a reader goes through them
    (the log reader, so that replaying a log costs memory in proportion to a chunk, not to the
    log). Its ``text`` is read whole only if something asks for it.
    """
    shown = name if name is not None else _shown_path(path)
    held = overlay_text(path)
    if held is not None:
        return decode(held.encode("utf-8", "replace"), shown, limit=limit)
    if streamed:
        return _streamed(path, shown, limit)
    return _with_file(path, shown, limit, lambda read, _size: _read_limited(read, shown, limit))


#: Files above this size are read twice rather than kept, when the caller can go through them in order.
STREAMED_ABOVE = 8 * CHUNK_BYTES


def _streamed(path: str | os.PathLike[str], shown: str, limit: InputLimit) -> SourceText | Diagnostic:
    """Check the whole file now (every problem is found before anything is replayed); keep it
    only if it is small. The file is opened once: its size, once open, decides."""

    def use(read: Callable[[int], bytes], size: int) -> SourceText | Diagnostic | None:
        return _read_limited(read, shown, limit) if size <= STREAMED_ABOVE else _checked(read, shown, limit)

    found = _with_file(path, shown, limit, use)
    if found is not None:
        return found
    return SourceText(shown, reread=functools.partial(_reread, path, shown, limit))


def _checked(read: Callable[[int], bytes], name: str, limit: InputLimit) -> Diagnostic | None:
    try:
        for _piece in _decode_chunks(read, name, limit, CHUNK_BYTES):
            pass
    except _Stop as stop:
        return stop.diagnostic
    return None


class SourceChanged(Exception):
    """A log file read again in pieces no longer is what was checked (changed, removed, unreadable)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _reread(path: str | os.PathLike[str], shown: str, limit: InputLimit) -> Iterator[str]:
    """The pieces of a file that was checked before; SourceChanged (SG-P008) if it no longer passes."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY | _CLOEXEC)
    except OSError as exc:
        raise SourceChanged(_unreadable(shown, f"it changed while it was read ({_reason(exc)})")) from None
    try:
        _set_blocking(fd)
        yield from _decode_chunks(lambda size: os.read(fd, size), shown, limit, CHUNK_BYTES)
    except _Stop as stop:
        raise SourceChanged(_unreadable(shown, f"it changed while it was read ({stop.diagnostic.message})")) from None
    except OSError as exc:
        raise SourceChanged(_unreadable(shown, f"it changed while it was read ({_reason(exc)})")) from None
    finally:
        os.close(fd)


#: The identity (device, inode) of every file this process opened through this module to read
#: it: a report held until its run ends is never written over one (``sgcheck.cli.common``).
_READ: set[tuple[int, int]] = set()


def files_read() -> frozenset[tuple[int, int]]:
    """The identities (device, inode) of the files this process has opened to read so far."""
    return frozenset(_READ)


def read_bytes_head(path: str | os.PathLike[str], size: int) -> bytes | None:
    """At most the first ``size`` bytes of the regular file at ``path`` (None when it cannot be
    read): enough to find a log's header without reading the log."""
    limit = InputLimit("file", sys.maxsize)
    read = _with_file(path, "", limit, lambda read, _size: _fill(read, size))
    return read if isinstance(read, bytes) else None


def _with_file(
    path: str | os.PathLike[str], shown: str, limit: InputLimit, use: Callable[[Callable[[int], bytes], int], _T]
) -> _T | Diagnostic:
    """Open ``path`` as read_source does (refusing what is not a regular file) and hand ``use`` its
    reader and its size in bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY | _CLOEXEC)
    except (OSError, ValueError, TypeError) as exc:
        return _unreadable(shown, _open_failure(path, exc))
    try:
        status = os.fstat(fd)
        _READ.add((status.st_dev, status.st_ino))
        if not stat.S_ISREG(status.st_mode):
            return _unreadable(shown, _not_regular(status.st_mode))
        if status.st_size > limit.max_bytes:  # refused unread; a file that grows is still read only so far
            return _too_large(limit, shown, f"it has {status.st_size:,} bytes")
        _set_blocking(fd)
        return use(lambda size: os.read(fd, size), status.st_size)
    except (OSError, ValueError) as exc:
        return _unreadable(shown, _reason(exc))
    finally:
        os.close(fd)


def read_stream(stream: BinaryReader, name: str, *, limit: InputLimit = LOG_LIMIT) -> SourceText | Diagnostic:
    """Read and decode an already open binary stream (standard input) within ``limit``.

    A pipe or terminal is fine: reading is bounded, so ``- < /dev/zero`` ends at its first
    chunk (NUL bytes) and an endless text stream after ``limit.max_bytes`` bytes.
    """
    try:
        if (size := _regular_file_size(stream)) is not None and size > limit.max_bytes:
            return _too_large(limit, name, f"it has {size:,} bytes")
        return _read_limited(stream.read, name, limit)
    except (OSError, ValueError) as exc:
        return _unreadable(name, _reason(exc))


def read_bytes(path: str | os.PathLike[str], shown: str, *, limit: InputLimit) -> bytes | Diagnostic:
    """The bytes of a file, undecoded (a formatter keeps its line breaks and byte-order mark),
    opened as :func:`read_source` opens it and read no further than ``limit.max_bytes`` + 1 (one
    byte more says it is too large); or why it cannot be read."""
    return _with_file(path, shown, limit, lambda read, _size: _fill(read, limit.max_bytes + 1))


def read_stream_bytes(stream: BinaryReader, name: str, *, limit: InputLimit) -> bytes | Diagnostic:
    """The bytes of an open stream (standard input), undecoded, read no further than
    ``limit.max_bytes`` + 1."""
    try:
        return _fill(stream.read, limit.max_bytes + 1)
    except (OSError, ValueError) as exc:
        return _unreadable(name, _reason(exc))


def _regular_file_size(stream: object) -> int | None:
    """The size of the file behind ``stream`` (``- < file``), or None for a pipe, a terminal, a buffer."""
    fileno = getattr(stream, "fileno", None)
    if fileno is None:
        return None
    try:
        status = os.fstat(fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def decode(data: bytes, name: str, *, limit: InputLimit | None = None) -> SourceText | Diagnostic:
    """Decode ``data`` as UTF-8 (a BOM is accepted and dropped) and normalise newlines.

    Returns SG-P005 for data containing NUL bytes (binary files) and SG-P004 for data that
    is not UTF-8, with the span at the first offending byte. Without ``limit`` no size or
    line limit applies (the caller already holds the bytes).
    """
    chunks = iter((data,))

    def read(_size: int) -> bytes:
        return next(chunks, b"")

    return _read_limited(read, name, limit, chunk_bytes=max(len(data), 1))


def decode_streamed(data: bytes, name: str, *, limit: InputLimit) -> SourceText | Diagnostic:
    """:func:`decode` for bytes too large to keep twice: checked whole now, a chunk at a time,
    then decoded again, a chunk at a time, each time something goes through its ``pieces``.

    The diagnostic of an input that does not pass is :func:`decode`'s, word for word (which
    problem comes first may depend on the chunks, so the input is then decoded as one)."""

    def pieces() -> Iterator[str]:
        view = memoryview(data)
        at = 0

        def read(size: int) -> bytes:
            nonlocal at
            chunk = bytes(view[at : at + size])
            at += len(chunk)
            return chunk

        return _decode_chunks(read, name, limit, CHUNK_BYTES)

    if len(data) <= STREAMED_ABOVE:
        return decode(data, name, limit=limit)
    try:
        for _piece in pieces():
            pass
    except _Stop:
        return decode(data, name, limit=limit)
    return SourceText(name, reread=pieces)


# --- opening files ---------------------------------------------------------------------------

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _set_blocking(fd: int) -> None:
    """Undo O_NONBLOCK (only there so that opening a FIFO cannot wait for a writer)."""
    if _NONBLOCK and hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)


def _shown_path(path: str | os.PathLike[str]) -> str:
    try:
        return os.fspath(path)
    except TypeError:
        return repr(path)


def _not_regular(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a directory"
    kinds = (
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    what = next((label for test, label in kinds if test(mode)), "not a file")
    return f"it is not a regular file ({what})"


def _open_failure(path: str | os.PathLike[str], exc: BaseException) -> str:
    """Why opening failed; a socket cannot be opened at all, so say what it is."""
    if isinstance(exc, IsADirectoryError):
        return "it is a directory"
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError, TypeError):
        return _reason(exc)
    return _reason(exc) if stat.S_ISREG(mode) else _not_regular(mode)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, IsADirectoryError):
        return "it is a directory"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def _unreadable(shown: str, reason: str) -> Diagnostic:
    return codes.diagnostic("SG-P008", f"cannot read {shown!r}: {reason}")


# --- bounded, chunked decoding ---------------------------------------------------------------


class _Stop(Exception):
    """Reading ends early with this diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass(slots=True)
class _Progress:
    """Where the decoded text has got to: what a diagnostic's position is computed from."""

    line: int = 1
    column: int = 0  # characters already on the current line
    offset: int = 0  # characters of text so far
    width: int = 1  # bytes per character of the text once joined (1, 2 or 4)

    def advance(self, piece: str) -> None:
        newlines = piece.count("\n")
        if newlines:
            self.line += newlines
            self.column = len(piece) - piece.rfind("\n") - 1
        else:
            self.column += len(piece)
        self.offset += len(piece)

    def point(self, name: str, prefix: str = "") -> Span:
        """A zero-width span after the text so far plus ``prefix`` (normalised text)."""
        line, column = self.line, self.column
        newlines = prefix.count("\n")
        if newlines:
            line += newlines
            column = len(prefix) - prefix.rfind("\n") - 1
        else:
            column += len(prefix)
        return Span.point(name, line, column + 1, self.offset + len(prefix))


def _read_limited(
    read: Callable[[int], bytes], name: str, limit: InputLimit | None, *, chunk_bytes: int | None = None
) -> SourceText | Diagnostic:
    """Read chunks until the end or the first problem; keep the pieces only once they are all good."""
    try:
        pieces = tuple(_decode_chunks(read, name, limit, chunk_bytes or CHUNK_BYTES))
    except _Stop as stop:
        return stop.diagnostic
    return SourceText(name, pieces=pieces)


def _decode_chunks(
    read: Callable[[int], bytes], name: str, limit: InputLimit | None, chunk_bytes: int
) -> Iterator[str]:
    """The decoded, normalised pieces of the input, one per chunk read; raises _Stop at a problem."""
    max_bytes = limit.max_bytes if limit is not None else None
    progress = _Progress()
    consumed = 0  # raw bytes read so far
    undecoded = b""  # the start of a character cut by the chunk boundary
    held_cr = False  # a CR at the end of a chunk may be half of a CRLF
    first = True
    while True:
        size = max(chunk_bytes, len(_BOM_BYTES)) if first else chunk_bytes  # a BOM is never cut
        want = size if max_bytes is None else min(size, max_bytes + 1 - consumed)
        chunk = _fill(read, want)
        at_end = len(chunk) < want
        consumed += len(chunk)
        if limit is not None and max_bytes is not None and consumed > max_bytes:
            raise _Stop(_too_large(limit, name, "reading stopped there"))
        start = 0
        if first:
            first = False
            if chunk.startswith(_UTF16_BOMS):
                raise _Stop(_utf16(name))
            if chunk.startswith(_BOM_BYTES):
                start = len(_BOM_BYTES)
        data = undecoded + chunk[start:] if undecoded or start else chunk
        data_offset = consumed - len(data)  # raw offset of data[0]
        del chunk
        nul = data.find(b"\x00")
        if nul >= 0:
            raise _Stop(_binary(name, progress, held_cr, data[:nul], data_offset + nul))
        try:
            piece, used = codecs.utf_8_decode(data, "strict", at_end)
        except UnicodeDecodeError as exc:
            raise _Stop(_not_utf8(name, progress, held_cr, data, exc, data_offset)) from None
        undecoded = data[used:]
        del data
        if held_cr:
            piece = "\r" + piece
        held_cr = not at_end and piece.endswith("\r")
        if held_cr:
            piece = piece[:-1]
        piece = normalise_newlines(piece)
        if limit is not None:
            _check_piece(limit, name, progress, piece)
        progress.advance(piece)
        if piece:
            yield piece
        if at_end:
            return


def _fill(read: Callable[[int], bytes], size: int) -> bytes:
    """``size`` bytes, fewer only at the end of the input (a pipe may return less per read)."""
    if size <= 0:
        return b""
    first = read(size)
    if not first:  # the end (or None from a stream with nothing to give)
        return b""
    if len(first) >= size:
        return first[:size]
    parts = [first]
    missing = size - len(first)
    while missing > 0:
        more = read(missing)
        if not more:
            break
        parts.append(more[:missing])
        missing -= len(more)
    return b"".join(parts)


def _check_piece(limit: InputLimit, name: str, progress: _Progress, piece: str) -> None:
    """The line and memory limits for one decoded, normalised chunk, before it is kept."""
    if limit.max_line is not None:
        _check_lines(limit, limit.max_line, name, progress, piece)
    if not piece.isascii():
        progress.width = max(progress.width, _char_width(piece))
    text_bytes = (progress.offset + len(piece)) * progress.width
    if progress.width > 1 and text_bytes > limit.max_bytes:
        how = f"counted in memory: it holds characters that take {progress.width} bytes each as text"
        raise _Stop(_too_large(limit, name, f"{how}; reading stopped there"))


def _check_lines(limit: InputLimit, max_line: int, name: str, progress: _Progress, piece: str) -> None:
    lines = piece.split("\n")
    if progress.column + len(lines[0]) <= max_line and max(map(len, lines)) <= max_line:
        return
    line, offset, column = progress.line, progress.offset, progress.column
    for text in lines:
        if column + len(text) > max_line:
            crossed = offset + (max_line - column)
            span = Span(name, line, max_line + 1, line, max_line + 2, crossed, crossed + 1)
            raise _Stop(
                Diagnostic(
                    "SG-P011",
                    Severity.ERROR,
                    f"line {line} is longer than the {max_line:,} characters a {limit.kind} line may have",
                    span,
                    (),
                    hint="check that the file is a game log or card file and that its line ends were kept",
                    label=f"character {max_line + 1:,} of the line",
                )
            )
        offset += len(text) + 1
        line, column = line + 1, 0


#: Bytes of a compact non-ASCII str object besides its characters (CPython's layout).
_WIDE_HEADER = sys.getsizeof("\xe9") - 2


def _char_width(text: str) -> int:
    """Bytes per character of a non-ASCII ``text`` in memory (1 up to U+00FF, 2 up to U+FFFF, 4)."""
    width = (sys.getsizeof(text) - _WIDE_HEADER) // (len(text) + 1)
    return width if width in (1, 2, 4) else 4


# --- diagnostics -----------------------------------------------------------------------------


def _too_large(limit: InputLimit, name: str, detail: str) -> Diagnostic:
    message = (
        f"the {limit.kind} is larger than the {limit.max_bytes:,} bytes sgcheck reads for a {limit.kind} ({detail})"
    )
    return Diagnostic(limit.code, Severity.ERROR, message, Span.point(name), (), hint=limit.hint)


def _utf16(name: str) -> Diagnostic:
    return codes.diagnostic(
        "SG-P004",
        "the file is UTF-16 text, not UTF-8",
        hint="re-save the file as UTF-8 (most editors offer this under 'Save as' or 'Encoding')",
    ).at(Span.point(name), "UTF-16 byte-order mark")


def _prefix_text(held_cr: bool, prefix: bytes) -> str:
    """The normalised text of ``prefix`` (bytes of the current chunk before a problem)."""
    text = prefix.decode("utf-8", errors="replace")
    return normalise_newlines("\r" + text if held_cr else text)


def _binary(name: str, progress: _Progress, held_cr: bool, prefix: bytes, at_byte: int) -> Diagnostic:
    return codes.diagnostic(
        "SG-P005",
        f"the file contains a NUL byte at byte {at_byte}, so it is not a text file",
        hint="pass a text file (a game log or a card file), not an image, archive or compiled file",
    ).at(progress.point(name, _prefix_text(held_cr, prefix)), "NUL byte")


def _not_utf8(
    name: str, progress: _Progress, held_cr: bool, data: bytes, exc: UnicodeDecodeError, data_offset: int
) -> Diagnostic:
    bad = data[exc.start : exc.start + 1].hex()
    return codes.diagnostic(
        "SG-P004",
        f"the file is not valid UTF-8: byte 0x{bad} at byte offset {data_offset + exc.start} ({exc.reason})",
        hint="re-save the file as UTF-8; files from older Windows editors are often Latin-1 or CP-1252",
    ).at(progress.point(name, _prefix_text(held_cr, data[: exc.start])), "not UTF-8")
