"""decode(), read_source() and read_stream(): bytes become normalised text or a diagnostic, never an exception.

The size and line limits themselves are tested in tests/test_limits.py.
"""

from __future__ import annotations

import io
import os
import socket
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.diagnostics import Diagnostic
from sgcheck.lang import source as source_module
from sgcheck.lang.source import SourceText, decode, normalise_newlines, read_source, read_stream


def test_plain_utf8_is_kept() -> None:
    assert decode("king white e1\n; café ♞\n".encode(), "g.sglog") == SourceText("g.sglog", "king white e1\n; café ♞\n")


def test_bom_is_dropped_and_newlines_normalised() -> None:
    source = decode(b"\xef\xbb\xbfa\r\nb\rc\n\r\nd", "g.sglog")
    assert source == SourceText("g.sglog", "a\nb\nc\n\nd")


def test_only_a_leading_bom_is_dropped() -> None:
    source = decode("x\ufeffy".encode(), "g")
    assert isinstance(source, SourceText)
    assert source.text == "x\ufeffy"


def test_normalise_newlines() -> None:
    assert normalise_newlines("a\r\r\nb") == "a\n\nb"
    assert normalise_newlines("no change") == "no change"


def test_latin1_is_sg_p004_at_the_first_bad_byte() -> None:
    data = b"king white e1\r\n1. pass ; caf\xe9\n"
    result = decode(data, "latin.sglog")
    assert isinstance(result, Diagnostic)
    assert result.code == "SG-P004"
    assert result.span is not None
    assert (result.span.source, result.span.line, result.span.column) == ("latin.sglog", 2, 14)
    assert "0xe9" in result.message
    assert result.hint and "UTF-8" in result.hint


def test_bad_byte_column_counts_characters_not_bytes() -> None:
    result = decode(b"\xef\xbb\xbf; \xc3\xa9\xff", "g")  # BOM, "; é" then a stray byte
    assert isinstance(result, Diagnostic) and result.span is not None
    assert (result.span.line, result.span.column, result.span.offset) == (1, 4, 3)


def test_nul_byte_is_sg_p005() -> None:
    result = decode(b"king white e1\n\x00\x01\x02", "bin")
    assert isinstance(result, Diagnostic)
    assert result.code == "SG-P005"
    assert result.span is not None and (result.span.line, result.span.column) == (2, 1)


def test_utf16_is_reported_as_not_utf8() -> None:
    result = decode("king white e1".encode("utf-16"), "u16")
    assert isinstance(result, Diagnostic)
    assert result.code == "SG-P004"
    assert "UTF-16" in result.message


def test_read_source_reads_and_names(tmp_path: Path) -> None:
    path = tmp_path / "game.sglog"
    path.write_bytes(b"king white e1\r\n")
    assert read_source(path) == SourceText(str(path), "king white e1\n")
    assert read_source(str(path), "shown.sglog") == SourceText("shown.sglog", "king white e1\n")


@pytest.mark.parametrize("kind", ["missing", "directory", "nul-in-path"])
def test_read_source_reports_unreadable_files(tmp_path: Path, kind: str) -> None:
    path = {"missing": str(tmp_path / "nope.sglog"), "directory": str(tmp_path), "nul-in-path": "a\x00b"}[kind]
    result = read_source(path)
    assert isinstance(result, Diagnostic)
    assert result.code == "SG-P008"
    assert "cannot read" in result.message


def test_read_source_reports_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Permission errors are simulated, so the test also runs where the user (root) can read anything."""
    path = tmp_path / "secret.sglog"
    path.write_text("king white e1\n")

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(source_module.os, "open", denied)
    result = read_source(path)
    assert isinstance(result, Diagnostic) and result.code == "SG-P008"
    assert "Permission denied" in result.message


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_decode_never_raises(data: bytes) -> None:
    result = decode(data, "fuzz")
    if isinstance(result, SourceText):
        assert "\r" not in result.text
        assert not result.text.startswith("\ufeff")
    else:
        assert result.code in {"SG-P004", "SG-P005"}
        assert result.span is not None


# --- non-regular files are refused before anything is read --------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """A FIFO with no writer would block a plain open() forever; it must be refused at once (SG-P008).

    The read runs in a thread with a generous join budget, so a regression fails the test
    instead of hanging the suite; nothing here measures time.
    """
    fifo = tmp_path / "game.sglog"
    os.mkfifo(fifo)
    results: list[SourceText | Diagnostic] = []
    reader = threading.Thread(target=lambda: results.append(read_source(fifo)), daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive(), "read_source blocked on a FIFO"
    (result,) = results
    assert isinstance(result, Diagnostic) and result.code == "SG-P008"
    assert "not a regular file (a FIFO" in result.message


def test_devices_are_refused_unread() -> None:
    """/dev/zero would stream NUL bytes forever: a device is refused up front (SG-P008)."""
    result = read_source("/dev/zero")
    assert isinstance(result, Diagnostic) and result.code == "SG-P008"
    assert "character device" in result.message


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sglog"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        result = read_source(path)
    finally:
        server.close()
    assert isinstance(result, Diagnostic) and result.code == "SG-P008"
    assert "socket" in result.message


def test_a_directory_is_named_as_such(tmp_path: Path) -> None:
    result = read_source(tmp_path)
    assert isinstance(result, Diagnostic) and result.code == "SG-P008"
    assert result.message.endswith("it is a directory")


# --- streams and chunks ----------------------------------------------------------------------


class Trickle(io.RawIOBase):
    """A pipe-like stream that hands out at most ``step`` bytes per read."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.position, self.step = data, 0, step

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = self.step if size < 0 else min(size, self.step)
        chunk = self.data[self.position : self.position + size]
        self.position += len(chunk)
        return chunk


def test_read_stream_reads_a_pipe_that_returns_short_reads() -> None:
    data = b"\xef\xbb\xbfking white e1\r\nking black e8\r\n; caf\xc3\xa9\r"
    assert read_stream(Trickle(data, 3), "<stdin>") == SourceText(
        "<stdin>", "king white e1\nking black e8\n; caf\u00e9\n"
    )


def test_read_stream_reports_the_stream_failing() -> None:
    class Broken(io.RawIOBase):
        def read(self, size: int = -1) -> bytes:
            raise OSError(5, "Input/output error")

    result = read_stream(Broken(), "<stdin>")
    assert isinstance(result, Diagnostic) and result.code == "SG-P008"
    assert "Input/output error" in result.message


def _reference(data: bytes, name: str) -> SourceText | None:
    """What reading must give for acceptable bytes, computed the obvious way on the whole input."""
    if b"\x00" in data or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return SourceText(name, normalise_newlines(text.removeprefix("\ufeff")))


_TEXTY = st.lists(
    st.sampled_from(
        [
            b"a",
            b"\r",
            b"\n",
            b"\r\n",
            b"\xef\xbb\xbf",
            b"\xc3\xa9",
            b"\xe2\x99\x9e",
            b"\xf0\x9f\x98\x80",
            b"\x00",
            b"\xff",
            b"\xc3",
        ]
    ),
    max_size=40,
).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_TEXTY, st.binary(max_size=60)), st.integers(min_value=1, max_value=9), st.integers(1, 9))
def test_chunked_reading_equals_reading_whole(data: bytes, chunk: int, step: int) -> None:
    """Cutting the input into chunks (a CRLF, a BOM or a character split in two) changes nothing:
    the text, or the code and position of the problem, are those of the whole input."""
    whole = decode(data, "g")
    reference = _reference(data, "g")
    if reference is not None:
        assert whole == reference
    else:
        assert isinstance(whole, Diagnostic)
    original = source_module.CHUNK_BYTES
    source_module.CHUNK_BYTES = chunk
    try:
        chunked = read_stream(Trickle(data, step), "g")
    finally:
        source_module.CHUNK_BYTES = original
    if isinstance(whole, SourceText):
        assert chunked == whole
    else:
        assert isinstance(chunked, Diagnostic) and chunked.code in {"SG-P004", "SG-P005"}
        if chunked.code == whole.code:
            assert chunked.span == whole.span
