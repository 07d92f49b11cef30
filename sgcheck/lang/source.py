"""Reading input files into normalised text.

Every later layer (parser, replay, renderers) works on one decoded, newline-normalised
string, so that lines, columns and offsets mean the same thing everywhere. Problems that
stop a file from becoming text at all (unreadable, binary, not UTF-8) are reported here as
diagnostics instead of exceptions, so a caller checking many files never crashes on one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span

_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class SourceText:
    """A decoded input: ``name`` is shown in diagnostics, ``text`` has no BOM and only LF newlines."""

    name: str
    text: str


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF, so line numbers agree with every editor."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _point_after(prefix: str, name: str) -> Span:
    """A zero-width span just after ``prefix`` (already decoded text before the problem)."""
    if prefix.startswith(_BOM):
        prefix = prefix[1:]
    prefix = normalise_newlines(prefix)
    line = prefix.count("\n") + 1
    column = len(prefix) - (prefix.rfind("\n") + 1) + 1
    return Span.point(name, line, column, len(prefix))


def decode(data: bytes, name: str) -> SourceText | Diagnostic:
    """Decode ``data`` as UTF-8 (a BOM is accepted and dropped) and normalise newlines.

    Returns SG-P005 for data containing NUL bytes (binary files) and SG-P004 for data that
    is not UTF-8, with the span at the first offending byte.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return codes.diagnostic(
            "SG-P004",
            "the file is UTF-16 text, not UTF-8",
            hint="re-save the file as UTF-8 (most editors offer this under 'Save as' or 'Encoding')",
        ).at(Span.point(name), "UTF-16 byte-order mark")
    nul = data.find(b"\x00")
    if nul >= 0:
        prefix = data[:nul].decode("utf-8", errors="replace")
        return codes.diagnostic(
            "SG-P005",
            f"the file contains a NUL byte at byte {nul}, so it is not a text file",
            hint="pass a text file (a game log or a card file), not an image, archive or compiled file",
        ).at(_point_after(prefix, name), "NUL byte")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", errors="replace")
        bad = data[exc.start : exc.start + 1].hex()
        return codes.diagnostic(
            "SG-P004",
            f"the file is not valid UTF-8: byte 0x{bad} at byte offset {exc.start} ({exc.reason})",
            hint="re-save the file as UTF-8; files from older Windows editors are often Latin-1 or CP-1252",
        ).at(_point_after(prefix, name), "not UTF-8")
    if text.startswith(_BOM):
        text = text[1:]
    return SourceText(name, normalise_newlines(text))


def read_source(path: str | os.PathLike[str], name: str | None = None) -> SourceText | Diagnostic:
    """Read and decode a file; never raises. SG-P008 when the file cannot be read."""
    shown = name if name is not None else os.fspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if isinstance(exc, IsADirectoryError):
            reason = "it is a directory"
        return codes.diagnostic("SG-P008", f"cannot read {shown!r}: {reason}")
    return decode(data, shown)
