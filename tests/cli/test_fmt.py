"""``sgcheck fmt`` through the command line: what it writes, what it leaves, its exit codes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]

MESSY = '; opening\n[Event "x"]\nking white e1\nking black e8\n1.   UPKEEP: summon R a1   ; rook\n'
CLEAN = '; opening\n[Event "x"]\n\nking white e1\nking black e8\n\n1.   upkeep: summon R a1  ; rook\n'


def invoke(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_formats_in_place_and_is_idempotent(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_text(MESSY, encoding="utf-8")
    first = invoke("fmt", str(log))
    assert first.exit_code == 0, first.output
    assert log.read_text(encoding="utf-8") == CLEAN
    assert "1 file reformatted" in first.stderr
    again = invoke("fmt", "--check", str(log))
    assert again.exit_code == 0 and "0 files would be reformatted, 1 file left unchanged" in again.stderr


def test_check_and_diff_change_nothing(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_text(MESSY, encoding="utf-8")
    checked = invoke("fmt", "--check", str(log))
    assert checked.exit_code == 1 and f"would reformat {log}" in checked.stdout
    diffed = invoke("fmt", "--diff", str(log))
    assert diffed.exit_code == 1
    assert "-1.   UPKEEP: summon R a1   ; rook" in diffed.stdout
    assert "+1.   upkeep: summon R a1  ; rook" in diffed.stdout
    assert log.read_text(encoding="utf-8") == MESSY


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_bytes(b"\xef\xbb\xbf" + MESSY.replace("\n", "\r\n").encode())
    assert invoke("fmt", str(log)).exit_code == 0
    assert log.read_bytes() == b"\xef\xbb\xbf" + CLEAN.replace("\n", "\r\n").encode()
    cards = tmp_path / "c.sgcard"
    cards.write_bytes(b'relic "A" { cost 1 SP effect gain 1 SP }\r\n')
    assert invoke("fmt", str(cards)).exit_code == 0
    assert cards.read_bytes() == b'relic "A" passive {\r\n    cost 1 SP\r\n    effect gain 1 SP\r\n}\r\n'


def test_syntax_error_leaves_the_file_untouched(tmp_path: Path) -> None:
    log = tmp_path / "bad.sglog"
    broken = "1.   upkeep: summon R a1 cost\n"
    log.write_text(broken, encoding="utf-8")
    good = tmp_path / "good.sglog"
    good.write_text(MESSY, encoding="utf-8")
    result = invoke("fmt", str(tmp_path))
    assert result.exit_code == 1
    assert "SG-P002" in result.stderr or "SG-P001" in result.stderr
    assert log.read_text(encoding="utf-8") == broken
    assert good.read_text(encoding="utf-8") == CLEAN  # the other file is still formatted
    cards = tmp_path / "bad.sgcard"
    cards.write_text('relic "A" { effect to_hit }\n', encoding="utf-8")
    assert invoke("fmt", str(cards)).exit_code == 1
    assert cards.read_text(encoding="utf-8") == 'relic "A" { effect to_hit }\n'


def test_unreadable_inputs_never_crash(tmp_path: Path) -> None:
    binary = tmp_path / "b.sglog"
    binary.write_bytes(b"\x00\x01\x02")
    latin = tmp_path / "l.sglog"
    latin.write_bytes(b"; caf\xe9\n")
    empty = tmp_path / "e.sglog"
    empty.write_bytes(b"")
    result = invoke("fmt", str(binary), str(latin), str(empty))
    assert result.exit_code == 1
    assert "SG-P005" in result.stderr and "SG-P004" in result.stderr
    assert binary.read_bytes() == b"\x00\x01\x02" and latin.read_bytes() == b"; caf\xe9\n"
    assert empty.read_bytes() == b""
    other = tmp_path / "notes.txt"
    other.write_text("x", encoding="utf-8")
    assert invoke("fmt", str(other)).exit_code == 2
    assert invoke("fmt", str(tmp_path / "missing.sglog")).exit_code == 2


def test_stdin_to_stdout() -> None:
    result = invoke("fmt", "-", input=MESSY.encode())
    assert result.exit_code == 0 and result.stdout == CLEAN
    checked = invoke("fmt", "--check", "-", input=MESSY.encode())
    assert checked.exit_code == 1 and checked.stdout == ""
    cards = invoke("fmt", "--stdin-filename", "x.sgcard", "-", input=b'spell "S" {effect steal 1 SP}')
    assert cards.exit_code == 0 and cards.stdout == 'spell "S" {\n    effect steal 1 SP\n}\n'
    bad = invoke("fmt", "-", input=b"1. upkeep: summon")
    assert bad.exit_code == 1 and bad.stdout == ""


def test_folders_of_examples(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    root = tmp_path / "examples"
    first = invoke("fmt", str(root))
    assert first.exit_code == 1  # the shipped syntax errors stay as they are
    assert (root / "logs" / "broken" / "syntax-error.sglog").read_bytes() == (
        ROOT / "examples" / "logs" / "broken" / "syntax-error.sglog"
    ).read_bytes()
    again = invoke("fmt", "--check", str(root))
    assert "would reformat" not in again.stdout
    assert " 0 files would be reformatted" in " " + again.stderr.splitlines()[-1]


# The shipped files that do not read: they show syntax errors (docs/fmt.md, "Files that are not formatted").
UNREADABLE_EXAMPLES = (
    "examples/logs/broken/syntax-error.sglog",
    "examples/cards/broken/",
    "examples/packs/broken/syntax.sgcard",
    "examples/packs/broken/*.sgcard.yaml",
)


def test_the_shipped_examples_are_in_the_canonical_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    excluded = [word for pattern in UNREADABLE_EXAMPLES for word in ("--extend-exclude", pattern)]
    checked = invoke("fmt", "--check", *excluded, "examples/")
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == ""
    assert checked.stderr.startswith("0 files would be reformatted, ")
    assert invoke("fmt", "--check", "examples/").exit_code == 1  # the unreadable ones fail it


def test_excluded_files_are_left_out_a_packs_own_included(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--exclude leaves out a log and a card file that a pack's manifest lists; a named file is
    still formatted unless --force-exclude is given."""
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "sgpack.yaml").write_text("name: p\nversion: 1.0.0\ncards:\n  - a.sgcard\n  - b.sgcard\n")
    messy_card = 'spell "A" {   cost 1 SP phase main1 effect gain 1 SP }\n'
    (tmp_path / "pack" / "a.sgcard").write_text(messy_card, encoding="utf-8")
    (tmp_path / "pack" / "b.sgcard").write_text(messy_card.replace('"A"', '"B"'), encoding="utf-8")
    (tmp_path / "g.sglog").write_text(MESSY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    listed = invoke("fmt", "--check", "--exclude", "b.sgcard", "--exclude", "*.sglog", ".")
    assert listed.exit_code == 1
    assert listed.stdout.splitlines() == ["would reformat pack/a.sgcard"]
    named = invoke("fmt", "--check", "--exclude", "*.sglog", "g.sglog")
    assert named.stdout == "would reformat g.sglog\n"
    forced = invoke("fmt", "--check", "--exclude", "*.sglog", "--force-exclude", "g.sglog")
    assert forced.exit_code == 0 and forced.stdout == ""


def test_permissions_are_kept(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_text(MESSY, encoding="utf-8")
    os.chmod(log, 0o640)
    assert invoke("fmt", str(log)).exit_code == 0
    assert os.stat(log).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sglog"]  # no temporary file left


def test_an_oversized_log_or_a_fifo_is_refused_unread(tmp_path: Path) -> None:
    """docs/limits.md: a log over its limit is refused by its size (SG-P010), a named pipe as not
    a regular file (SG-P008); fmt exits 2 and the file is left as it is."""
    big = tmp_path / "big.sglog"
    with open(big, "wb") as stream:
        stream.truncate(64_000_001)  # sparse: nothing is written, the size says it all
    result = invoke("fmt", str(big))
    assert result.exit_code == 2 and "SG-P010" in result.stderr
    assert big.stat().st_size == 64_000_001
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.sglog"
        os.mkfifo(fifo)
        result = invoke("fmt", "--check", str(fifo))
        assert result.exit_code == 2 and "SG-P008" in result.stderr and "not a regular file" in result.stderr


def test_paths_and_messages_are_printed_with_their_controls_visible(tmp_path: Path) -> None:
    """A file name with an escape sequence and a right-to-left override is listed visibly, never
    sent to the terminal raw (sgcheck.visible)."""
    messy = tmp_path / "g\x1b[2J\u202e.sglog"
    messy.write_text(MESSY, encoding="utf-8")
    broken = tmp_path / "b\x07\u2066.sglog"
    broken.write_text("1. upkeep: summon R a1 bogus\n", encoding="utf-8")
    checked = invoke("fmt", "--check", str(messy), str(broken))
    assert checked.exit_code == 1
    assert f"would reformat {tmp_path}/g␛[2J<U+202E>.sglog" in checked.stdout
    assert f"{tmp_path}/b␇<U+2066>.sglog:1:" in checked.stderr
    for raw in "\x1b\x07\u202e\u2066":
        assert raw not in checked.stdout + checked.stderr


def _generated(seed: int = 5, turns: int = 40) -> str:
    from sgcheck.lang.logs.writer import format_log
    from sgcheck.lang.source import normalise_newlines
    from sgcheck.replay.generate import generate_game
    from sgcheck.replay.layouts import relayout

    game = generate_game(seed, max_turns=turns)
    return normalise_newlines(relayout(format_log(game.items), "brace-comments", seed=seed)).removeprefix("\ufeff")


def test_a_log_in_pieces_is_written_read_back_and_diffed_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With pieces, chunks and the in-memory spool made tiny, a log is formatted in many pieces
    and its output goes through a temporary file: in place, on standard output and as a diff,
    the result is the whole text's."""
    from sgcheck.lang import format_files, source
    from sgcheck.lang.logs import format_logs
    from sgcheck.lang.logs.format_logs import format_log_text
    from tests.lang.test_fmt_pieces import apply_patch

    text = _generated()
    expected = format_log_text(text, "g.sglog")
    monkeypatch.setattr(source, "STREAMED_ABOVE", 2000)
    monkeypatch.setattr(source, "CHUNK_BYTES", 700)
    monkeypatch.setattr(format_files, "SPOOL_BYTES", 1000)
    monkeypatch.setattr(format_logs, "PIECE_CHARS", 400)
    log = tmp_path / "g.sglog"
    log.write_bytes(text.replace("\n", "\r\n").encode())
    diffed = invoke("fmt", "--diff", str(log))
    assert diffed.exit_code == 1 and diffed.stdout.startswith(f"--- {log}\n+++ {log}\n@@ -")
    assert diffed.stdout.count("\n@@ -") > 3  # hunks from several pieces
    assert apply_patch(text, diffed.stdout) == expected
    assert invoke("fmt", "--check", str(log)).exit_code == 1
    assert invoke("fmt", str(log)).exit_code == 0
    assert log.read_bytes() == expected.replace("\n", "\r\n").encode()
    assert invoke("fmt", "--check", str(log)).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sglog"]
    piped = invoke("fmt", "-", input=text.encode())
    assert piped.exit_code == 0 and piped.stdout == expected


def test_a_syntax_error_in_a_middle_turn_of_a_long_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Formatted in pieces, a log with a mistake in a turn in the middle is reported as replay
    reads it (same line, column and message) and left as it is; nothing goes to standard output."""
    from sgcheck.lang.logs import format_logs
    from sgcheck.lang.logs.grammar import LogSyntaxError
    from sgcheck.lang.logs.reader import parse_log
    from sgcheck.lang.source import SourceText

    monkeypatch.setattr(format_logs, "PIECE_CHARS", 300)
    lines = _generated(9, 60).splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if "cost" in lines[i])
    lines[middle] = lines[middle].replace("cost", "cost cost", 1)
    broken = "".join(lines)
    log = tmp_path / "bad.sglog"
    log.write_text(broken, encoding="utf-8")
    with pytest.raises(LogSyntaxError) as expected:
        parse_log(SourceText(str(log), broken))
    diagnostic = expected.value.diagnostic
    assert diagnostic.span is not None and diagnostic.span.line == middle + 1
    result = invoke("fmt", str(log))
    assert result.exit_code == 1
    assert f"{diagnostic.span}: {diagnostic.code} {diagnostic.message}" in result.stderr
    assert log.read_text(encoding="utf-8") == broken
    piped = invoke("fmt", "-", input=broken.encode())
    assert piped.exit_code == 1 and piped.stdout == ""
