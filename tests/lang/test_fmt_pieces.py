"""``sgcheck fmt`` on a log a piece at a time: the same text as formatting it whole, in bounded memory.

:func:`format_log_pieces` cuts the log into runs of whole items; what crosses a cut (a comment
moved to the next line, the empty line before a turn after a setup line, whether lines were
written) is carried over. With tiny pieces nearly every item boundary is a cut, so these tests
compare it with :func:`format_log_text` (the whole-text formatter) on generated logs in every
layout with comments anywhere, on the shipped examples and on the fuzz corpus, and check that a
syntax error is reported exactly as before, and that memory does not grow with the log.
"""

from __future__ import annotations

import difflib
import random
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.lang import format_files, source
from sgcheck.lang.format_diff import UnifiedDiff
from sgcheck.lang.format_files import FileKind, format_bytes
from sgcheck.lang.logs import format_logs
from sgcheck.lang.logs.format_logs import FormatError, format_log_pieces, format_log_text
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, decode, decode_streamed, normalise_newlines
from sgcheck.replay.generate import generate_game
from sgcheck.replay.layouts import LAYOUTS, relayout
from tests.lang.test_fmt_logs import with_comments

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted((ROOT / "examples").rglob("*.sglog")) + sorted((ROOT / "tests" / "fuzz" / "corpus").rglob("*.sglog"))


def whole(text: str) -> str | Exception:
    try:
        return format_log_text(text, "t.sglog")
    except (LogSyntaxError, FormatError) as error:
        return error


def in_pieces(text: str, size: int) -> tuple[str | Exception, list[tuple[str, str]]]:
    pieces: list[tuple[str, str]] = []
    try:
        format_log_pieces(SourceText("t.sglog", text), lambda b, a: pieces.append((b, a)), piece_chars=size)
    except (LogSyntaxError, FormatError) as error:
        return error, pieces
    assert "".join(before for before, _after in pieces) == text  # the lines of each piece, in order
    return "".join(after for _before, after in pieces), pieces


def same(a: str | Exception, b: str | Exception) -> bool:
    if isinstance(a, Exception) or isinstance(b, Exception):
        return type(a) is type(b) and str(a) == str(b)
    return a == b


def generated(seed: int, layout: str, notes: int, turns: int) -> str:
    game = generate_game(seed, max_turns=turns)
    text = normalise_newlines(relayout(format_log(game.items), layout, seed=seed)).removeprefix("\ufeff")
    return with_comments(text, random.Random(seed), notes)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    layout=st.sampled_from(LAYOUTS),
    notes=st.integers(0, 25),
    turns=st.integers(1, 14),
    size=st.sampled_from([1, 9, 60, 250, 2000]),
    broken=st.one_of(st.none(), st.tuples(st.floats(0, 1), st.sampled_from(["x", "1.", " cost", "{", '"', ";"]))),
)
def test_pieces_give_the_text_of_the_whole(
    seed: int, layout: str, notes: int, turns: int, size: int, broken: tuple[float, str] | None
) -> None:
    text = generated(seed, layout, notes, turns)
    if broken is not None:  # a syntax error (or none) anywhere
        at = int(broken[0] * len(text))
        text = text[:at] + broken[1] + text[at:]
    got, pieces = in_pieces(text, size)
    assert same(got, whole(text))
    if not isinstance(got, Exception) and size < 60 and turns > 2:
        assert len(pieces) > 2  # the log was cut


_RUNS = ("; pad pad pad\n", "\n", "{ brace }\n", "  ; indented\n", "{ two\nlines }\n", "{a} {b}\n", ";\n")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), size=st.sampled_from([1, 13, 40, 120]))
def test_runs_of_comment_lines_between_items_and_at_the_end(seed: int, size: int) -> None:
    """Comment lines longer than a piece, before an item or at the end of the log (the largest
    log of bench_memory.py ends in 19 MB of them), are written a piece at a time too."""
    rng = random.Random(seed)
    out: list[str] = []
    for line in format_log(generate_game(seed, max_turns=rng.randint(1, 8)).items).splitlines(keepends=True):
        if rng.random() < 0.3:
            out += rng.choices(_RUNS, k=rng.randint(1, 12))
        tail = rng.choice(["  ; tail\n", " {t}\n", " {t} ; u\n"])
        out.append(line if rng.random() > 0.2 else line.rstrip("\n") + tail)
    out += rng.choices(_RUNS, k=rng.randint(0, 30))
    text = "".join(out)
    assert same(in_pieces(text, size)[0], whole(text))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_and_corpus_in_pieces(path: Path) -> None:
    read = decode(path.read_bytes(), str(path))
    if isinstance(read, SourceText):
        for size in (1, 40, 1 << 16):
            assert same(in_pieces(read.text, size)[0], whole(read.text))


def test_a_syntax_error_in_a_middle_turn_is_reported_as_before() -> None:
    """A generated game of many turns with a mistake in one turn in the middle: the diagnostic is
    the one the whole log's reading gives (line, column, message), and nothing is formatted."""
    text = format_log(generate_game(7, max_turns=60).items)
    lines = text.splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].lstrip()[:1].isdigit())
    lines[middle] = lines[middle].replace(":", ": move", 1)  # a move with no squares
    broken = "".join(lines)
    with pytest.raises(LogSyntaxError) as expected:
        parse_log(SourceText("g.sglog", broken))
    diagnostic = expected.value.diagnostic
    assert diagnostic.span is not None and diagnostic.span.line == middle + 1
    for size in (1, 300, 1 << 16):
        with pytest.raises(LogSyntaxError) as raised:
            format_log_pieces(SourceText("g.sglog", broken), lambda b, a: None, piece_chars=size)
        assert raised.value.diagnostic == diagnostic
    result = format_bytes(broken.encode(), "g.sglog", FileKind.LOG)
    assert result.problems == (diagnostic,) and not result.changed and result.data == b""


def _turns(count: int) -> Iterator[str]:
    """A canonical log of ``count`` turns, then as many lines of comments as there are lines of
    turns (as the largest log of bench_memory.py is padded), made as it is read (never held whole)."""
    yield '[Event "memory"]\n\nking white e1\nking black e8\n\n'
    for number in range(1, count + 1):
        black = f"{number}... "
        yield f"{f'{number}.':{len(black)}}main1: move Ke1 e2 cost 1  ; out\n"
        yield f"{black}main1: move Ke8 e7 cost 1\n{' ' * len(black)}end: pass\n"
    for number in range(count):
        yield f"\n; padding {number}\n{{ and more }}\n"


def _peak(turns: int) -> int:
    source_text = SourceText("m.sglog", reread=lambda: _turns(turns))
    written = 0

    def write(before: str, after: str) -> None:
        nonlocal written
        assert after == before  # canonical already
        written += len(after)

    tracemalloc.start()
    try:
        format_log_pieces(source_text, write, piece_chars=4096)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert written > turns * 90
    return peak


def test_memory_does_not_grow_with_the_log() -> None:
    """Four times the turns, about the same peak: the formatter holds a piece, never the log."""
    _peak(50)  # the parser is built once per process
    small, large = _peak(400), _peak(1600)
    assert large < 1.5 * small, (small, large)


def test_a_large_log_is_decoded_formatted_and_spooled_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above the sizes kept whole (made small here), the bytes are decoded a chunk at a time, and
    the output goes to a temporary file: the result is the bytes of formatting the text whole."""
    monkeypatch.setattr(source, "STREAMED_ABOVE", 1000)
    monkeypatch.setattr(source, "CHUNK_BYTES", 512)
    monkeypatch.setattr(format_files, "SPOOL_BYTES", 700)
    monkeypatch.setattr(format_logs, "PIECE_CHARS", 300)
    text = generated(3, "brace-comments", 20, 12)
    expected = format_log_text(text, "g.sglog")
    for data, want in (
        (text.encode(), expected.encode()),
        (
            b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode(),
            b"\xef\xbb\xbf" + expected.replace("\n", "\r\n").encode(),
        ),
    ):
        read = decode_streamed(data, "g.sglog", limit=source.LOG_LIMIT)
        assert isinstance(read, SourceText) and len(list(read.pieces)) > 3
        result = format_bytes(data, "g.sglog", FileKind.LOG, diff=True)
        assert result.changed and result.data == want
        assert result.output is not None and result.output.size == len(want)
        assert result.diff is not None
        patch = result.diff.getvalue().decode()
        assert patch.startswith("--- g.sglog\n+++ g.sglog\n@@ -1")
        # the diff applies to the file as it is (its line ends and byte-order mark), as patch reads it
        assert apply_patch(data.decode(), patch) == want.decode()
        result.close()
    again = format_bytes(expected.encode(), "g.sglog", FileKind.LOG, diff=True)
    assert not again.changed and again.diff is None and again.data == expected.encode()


def test_decode_streamed_reports_what_decode_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long line early and a NUL byte late: whatever the chunks, the diagnostic of decoding whole."""
    monkeypatch.setattr(source, "STREAMED_ABOVE", 100)
    monkeypatch.setattr(source, "CHUNK_BYTES", 64)
    data = b"; " + b"x" * (source.MAX_LINE_CHARS + 5) + b"\n" + b"; fine\n" * 40 + b"\x00\n"
    assert decode_streamed(data, "b.sglog", limit=source.LOG_LIMIT) == decode(data, "b.sglog", limit=source.LOG_LIMIT)
    good = b"; caf\xc3\xa9\n" * 50
    read = decode_streamed(good, "c.sglog", limit=source.LOG_LIMIT)
    assert isinstance(read, SourceText) and "".join(read.pieces) == good.decode()


def apply_patch(text: str, patch: str) -> str:
    """``text`` with a unified diff applied (hunks in order, context and removals checked)."""
    old, out, at = text.splitlines(keepends=True), [], 0
    lines = patch.splitlines(keepends=True)[2:]
    index = 0
    while index < len(lines):
        header = lines[index].split()
        start, _sep, length = header[1][1:].partition(",")
        first = int(start) - (1 if length != "0" else 0)
        assert first >= at
        out += old[at:first]
        at = first
        index += 1
        while index < len(lines) and not lines[index].startswith("@@"):
            line, body = lines[index], lines[index][1:]
            if index + 1 < len(lines) and lines[index + 1].startswith("\\ No newline"):
                body = body.removesuffix("\n")
                index += 1
            if line[0] in " -":
                assert old[at] == body
                at += 1
            if line[0] in " +":
                out.append(body)
            index += 1
    return "".join(out + old[at:])


@settings(max_examples=300, deadline=None)
@given(
    a=st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e"]), max_size=40),
    edits=st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["X\n", "Y\n", None])), max_size=8),
    cuts=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=5),
)
def test_the_diff_in_pieces(a: list[str], edits: list[tuple[int, str | None]], cuts: list[tuple[int, int]]) -> None:
    """One pair: the text of difflib.unified_diff. Several pairs: a diff that turns one into the other."""
    a = [line for i, line in enumerate(a) if line.endswith("\n") or i == len(a) - 1]
    b = list(a)
    for at, line in edits:
        at = min(at, len(b))
        if line is None:
            del b[at : at + 1]
        else:
            b.insert(at, line)
    b = [line if line.endswith("\n") else line + "\n" for line in b]
    before, after = "".join(a), "".join(b)

    def diff(pairs: list[tuple[str, str]]) -> str:
        out: list[str] = []
        differ = UnifiedDiff("f", out.append)
        for pair in pairs:
            differ.add(*pair)
        differ.finish()
        return "".join(out)

    lines = difflib.unified_diff(before.splitlines(True), after.splitlines(True), fromfile="f", tofile="f")
    expected = "".join(x if x.endswith("\n") else x + "\n\\ No newline at end of file\n" for x in lines)
    assert diff([(before, after)]) == expected
    ends_a = [0, *sorted(min(i, len(a)) for i, _j in cuts), len(a)]
    ends_b = [0, *sorted(min(j, len(b)) for _i, j in cuts), len(b)]
    bounds = zip(ends_a[:-1], ends_a[1:], ends_b[:-1], ends_b[1:], strict=True)
    pairs = [("".join(a[x:y]), "".join(b[p:q])) for x, y, p, q in bounds]
    patch = diff(pairs)
    assert apply_patch(before, patch) == after if patch else before == after
