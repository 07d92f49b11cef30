"""decode() and read_source(): bytes become normalised text or a diagnostic, never an exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.source import SourceText, decode, normalise_newlines, read_source


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

    monkeypatch.setattr("builtins.open", denied)
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
