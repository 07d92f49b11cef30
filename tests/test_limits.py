"""One test per documented input limit (docs/limits.md).

Each limit is tested just under it (read as usual) and just over it (refused with the
limit's code and, for logs and card files, at the line:col where it is crossed). Reading
must stop at the limit rather than after the whole input: the oversized inputs come
from streams that count the bytes handed out, or from files whose reads are counted, and
the tests assert how much was consumed. Nothing here measures time.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sgcheck.contract import check_paths
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang import source as source_module
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.source import (
    CARD_LIMIT,
    CHUNK_BYTES,
    CONFIG_LIMIT,
    LOG_LIMIT,
    MANIFEST_LIMIT,
    MAX_LINE_CHARS,
    YAML_CARD_LIMIT,
    InputLimit,
    SourceText,
    read_source,
    read_stream,
)
from sgcheck.lang.yaml.tree import MAX_ALIASES, MAX_DEPTH, MAX_EXPANDED_NODES, MAX_YAML_CHARS, compose
from sgcheck.replay.interpreter import replay_text
from sgcheck.results import CardFileFacts

CARD = 'spell "Good" { cost 1 SP phase main1 effect gain 1 SP }\n'
LOG_LINE = b"; a comment line of a game log, repeated to fill the input\n"


class Supply(io.RawIOBase):
    """``head`` then ``pattern`` repeated up to ``total`` bytes (``None``: forever), counting what it hands out."""

    def __init__(self, pattern: bytes, total: int | None, head: bytes = b"") -> None:
        self.head, self.pattern, self.total, self.consumed = head, pattern, total, 0
        self.block = pattern * (CHUNK_BYTES // len(pattern) + 2)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "the reader must ask for bounded amounts"
        if self.total is not None:
            size = min(size, self.total - self.consumed)
        out = self.head[self.consumed : self.consumed + size]
        missing = size - len(out)
        if missing > 0:
            start = (self.consumed + len(out) - len(self.head)) % len(self.pattern)
            assert start + missing <= len(self.block)
            out += self.block[start : start + missing]
        self.consumed += len(out)
        return out


def exactly(total: int, pattern: bytes = LOG_LINE, head: bytes = b"") -> Supply:
    return Supply(pattern, total, head)


def refused(result: SourceText | Diagnostic, code: str) -> Diagnostic:
    assert isinstance(result, Diagnostic), "the input was accepted"
    assert result.code == code, result.message
    return result


@pytest.fixture
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The sizes of every read the reader makes on a file."""
    sizes: list[int] = []
    real_read = os.read

    def read(fd: int, size: int) -> bytes:
        data = real_read(fd, size)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(source_module.os, "read", read)
    yield sizes


def padded(text: str, size: int, comment: str = "#") -> bytes:
    """``text`` followed by comment lines so the whole is exactly ``size`` bytes."""
    body = text.encode()
    line = (comment + " " + "x" * 70 + "\n").encode()
    filler = line * ((size - len(body)) // len(line))
    rest = size - len(body) - len(filler)
    tail = (comment.encode() + b"x" * (rest - 2) + b"\n") if rest >= 2 else b"\n" * rest
    data = filler + tail + body
    assert len(data) == size
    return data


# --- game logs: 64,000,000 bytes, SG-P010 ---------------------------------------------------------


def test_a_log_of_exactly_the_size_limit_is_read() -> None:
    """Limit: a game log may have LOG_LIMIT.max_bytes bytes."""
    stream = exactly(LOG_LIMIT.max_bytes)
    result = read_stream(stream, "<stdin>", limit=LOG_LIMIT)
    assert isinstance(result, SourceText)
    assert len(result.text) == LOG_LIMIT.max_bytes


def test_an_endless_log_is_refused_at_the_size_limit() -> None:
    """Limit: one byte more is SG-P010, and no more than that byte was read (``- < endless``)."""
    stream = Supply(LOG_LINE, None)
    result = refused(read_stream(stream, "<stdin>", limit=LOG_LIMIT), "SG-P010")
    assert stream.consumed == LOG_LIMIT.max_bytes + 1
    assert result.span is not None and (result.span.line, result.span.column) == (1, 1)
    assert f"larger than the {LOG_LIMIT.max_bytes:,} bytes" in result.message


def test_a_log_of_wide_characters_is_bounded_by_its_size_in_memory() -> None:
    """Limit: one emoji makes Python store every character in 4 bytes, so the text's memory, not
    only its bytes, is held to the limit (SG-P010 long before 64 MB of bytes)."""
    stream = Supply(LOG_LINE, None, head="; \U0001f600\n".encode())
    result = refused(read_stream(stream, "<stdin>", limit=LOG_LIMIT), "SG-P010")
    assert stream.consumed <= LOG_LIMIT.max_bytes // 4 + CHUNK_BYTES
    assert "4 bytes each" in result.message


def test_dev_zero_on_standard_input_stops_at_the_first_chunk() -> None:
    """``sgcheck replay - < /dev/zero``: SG-P005 after one chunk, not gigabytes."""
    stream = Supply(b"\x00", None)
    result = refused(read_stream(stream, "<stdin>", limit=LOG_LIMIT), "SG-P005")
    assert stream.consumed <= CHUNK_BYTES
    assert result.span is not None and (result.span.line, result.span.column) == (1, 1)


# --- line length: 10,000 characters in logs and card files, SG-P011 ------------------------------


def test_a_log_line_of_exactly_the_line_limit_is_read() -> None:
    """Limit: a line may have MAX_LINE_CHARS characters (counted as characters, not bytes)."""
    text = "king white e1\n; " + "é" * (MAX_LINE_CHARS - 2) + "\nking black e8\n"
    result = read_stream(io.BytesIO(text.encode()), "g.sglog", limit=LOG_LIMIT)
    assert result == SourceText("g.sglog", text)


def test_a_long_log_line_is_refused_where_it_crosses_the_limit() -> None:
    """Limit: SG-P011 at line:col of the first character past MAX_LINE_CHARS; a single endless
    line is refused after one chunk (a log that lost its line ends)."""
    stream = Supply(b"move Ke2 e3 cost 1 ", None, head=b"king white e1\r\nking black e8\r\n")
    result = refused(read_stream(stream, "g.sglog", limit=LOG_LIMIT), "SG-P011")
    assert result.span is not None
    assert (result.span.line, result.span.column) == (3, MAX_LINE_CHARS + 1)
    assert result.span.offset == len("king white e1\nking black e8\n") + MAX_LINE_CHARS
    assert stream.consumed <= CHUNK_BYTES


def test_a_card_line_over_the_limit_is_refused_at_its_line_and_column(tmp_path: Path) -> None:
    """Limit: the same line limit for .sgcard files, reported by ``check`` at line:col."""
    path = tmp_path / "long.sgcard"
    path.write_text(CARD + 'spell "Long" { text "' + "a" * MAX_LINE_CHARS + '" }\n', encoding="utf-8")
    (finding,) = check_paths([str(path)]).diagnostics
    assert finding.code == "SG-P011" and finding.span is not None
    assert (finding.span.line, finding.span.column) == (2, MAX_LINE_CHARS + 1)
    just_fits = tmp_path / "fits.sgcard"
    just_fits.write_text(CARD + "# " + "a" * (MAX_LINE_CHARS - 2) + "\n", encoding="utf-8")
    assert check_paths([str(just_fits)]).diagnostics == ()


# --- .sgcard files: 2,000,000 bytes, SG-P010 ------------------------------------------------------


def test_a_card_file_of_exactly_the_size_limit_is_checked(tmp_path: Path) -> None:
    """Limit: a .sgcard file may have CARD_LIMIT.max_bytes bytes."""
    path = tmp_path / "big.sgcard"
    path.write_bytes(padded(CARD, CARD_LIMIT.max_bytes))
    run = check_paths([str(path)])
    assert run.diagnostics == ()
    assert run.files[0].facts == CardFileFacts(1)


def test_a_card_file_over_the_size_limit_is_refused_after_the_limit(tmp_path: Path, counted_reads: list[int]) -> None:
    """Limit: one byte more is SG-P010 at the file, refused from its size without reading it."""
    path = tmp_path / "big.sgcard"
    path.write_bytes(padded(CARD, CARD_LIMIT.max_bytes + 1) + b"# more\n" * 100_000)
    (finding,) = check_paths([str(path)]).diagnostics
    assert finding.code == "SG-P010" and finding.span is not None
    assert (finding.span.source, finding.span.line, finding.span.column) == (str(path), 1, 1)
    assert sum(counted_reads) == 0  # its size is known before reading


# --- YAML card files: 4,000,000 bytes, SG-P029 ----------------------------------------------------


def test_a_yaml_card_file_of_exactly_the_size_limit_is_read(tmp_path: Path) -> None:
    """Limit: a YAML card file may have YAML_CARD_LIMIT.max_bytes bytes (read only: the YAML
    reader's time on it is a benchmark, not a test)."""
    path = tmp_path / "big.sgcard.yaml"
    path.write_bytes(padded("cards: []\n", YAML_CARD_LIMIT.max_bytes))
    result = read_source(path, limit=YAML_CARD_LIMIT)
    assert isinstance(result, SourceText) and len(result.text) == YAML_CARD_LIMIT.max_bytes


def test_a_yaml_card_file_over_the_size_limit_is_sg_p029_after_the_limit(
    tmp_path: Path, counted_reads: list[int]
) -> None:
    """Limit: one byte more is SG-P029, refused before reading (it used to be read whole, then measured)."""
    path = tmp_path / "big.sgcard.yaml"
    path.write_bytes(padded("cards: []\n", YAML_CARD_LIMIT.max_bytes + 1) + b"# more\n" * 500_000)
    (finding,) = check_paths([str(path)]).diagnostics
    assert finding.code == "SG-P029" and finding.span is not None
    assert (finding.span.line, finding.span.column) == (1, 1)
    assert sum(counted_reads) == 0


def test_yaml_text_handed_over_directly_has_the_same_limit() -> None:
    """Limit: compose() applies the same bound, in characters, to text it is given."""
    assert YAML_CARD_LIMIT.max_bytes == MAX_YAML_CHARS
    result = compose("#" * (MAX_YAML_CHARS + 1), "big.yaml")
    assert isinstance(result, Diagnostic) and result.code == "SG-P029"


# --- pack manifests: 1,000,000 bytes, SG-P010 -----------------------------------------------------


def test_a_file_that_grows_after_it_was_measured_is_read_only_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted_reads: list[int]
) -> None:
    """Limit: the size on disk is only a first check; the read itself stops at limit + 1 bytes
    (a file still being written, or one that reports no size, such as those under /proc)."""
    path = tmp_path / "growing.sgcard"
    path.write_bytes(padded(CARD, CARD_LIMIT.max_bytes + 1) + b"# more\n" * 100_000)
    real_fstat = os.fstat

    def fstat_of_an_empty_file(fd: int) -> os.stat_result:
        status = list(real_fstat(fd))
        status[6] = 0  # st_size
        return os.stat_result(status)

    monkeypatch.setattr(source_module.os, "fstat", fstat_of_an_empty_file)
    refused(read_source(path, limit=CARD_LIMIT), "SG-P010")
    assert sum(counted_reads) == CARD_LIMIT.max_bytes + 1


def test_standard_input_redirected_from_a_big_file_is_refused_unread(tmp_path: Path) -> None:
    """Limit: ``sgcheck replay - < big.sglog`` is refused from the file's size; nothing is read."""
    path = tmp_path / "big.sglog"
    with path.open("wb") as handle:
        handle.truncate(LOG_LIMIT.max_bytes + 1)  # sparse: no disk space used
    with path.open("rb") as stdin:
        result = refused(read_stream(stdin, "<stdin>", limit=LOG_LIMIT), "SG-P010")
        assert stdin.tell() == 0
    assert f"it has {LOG_LIMIT.max_bytes + 1:,} bytes" in result.message


def test_a_manifest_of_exactly_the_size_limit_is_read(tmp_path: Path) -> None:
    """Limit: a pack manifest may have MANIFEST_LIMIT.max_bytes bytes."""
    (tmp_path / "a.sgcard").write_text(CARD, encoding="utf-8")
    manifest = "name: demo\nversion: 1.0.0\ncards:\n  - a.sgcard\n"
    (tmp_path / "sgpack.yaml").write_bytes(padded(manifest, MANIFEST_LIMIT.max_bytes))
    run = check_paths([str(tmp_path)])
    assert run.diagnostics == ()


def test_a_manifest_over_the_size_limit_is_refused_after_the_limit(tmp_path: Path, counted_reads: list[int]) -> None:
    """Limit: one byte more is SG-P010 on the manifest, refused before reading."""
    manifest = "name: demo\nversion: 1.0.0\ncards:\n  - a.sgcard\n"
    (tmp_path / "sgpack.yaml").write_bytes(padded(manifest, MANIFEST_LIMIT.max_bytes + 1) + b"# more\n" * 100_000)
    (finding,) = check_paths([str(tmp_path)]).diagnostics
    assert finding.code == "SG-P010" and finding.span is not None
    assert finding.span.source.endswith("sgpack.yaml") and (finding.span.line, finding.span.column) == (1, 1)
    assert sum(counted_reads) == 0


# --- configuration files: 1,000,000 bytes, SG-P010 ------------------------------------------------


def test_a_configuration_file_is_read_up_to_its_limit(tmp_path: Path, counted_reads: list[int]) -> None:
    """Limit: pyproject.toml / sgcheck.toml may have CONFIG_LIMIT.max_bytes bytes; one more is SG-P010."""
    path = tmp_path / "pyproject.toml"
    path.write_bytes(padded("[tool.sgcheck]\n", CONFIG_LIMIT.max_bytes))
    assert isinstance(read_source(path, limit=CONFIG_LIMIT), SourceText)
    path.write_bytes(padded("[tool.sgcheck]\n", CONFIG_LIMIT.max_bytes + 1) + b"# more\n" * 100_000)
    counted_reads.clear()
    refused(read_source(path, limit=CONFIG_LIMIT), "SG-P010")
    assert sum(counted_reads) == 0


def test_a_limit_names_its_kind_and_keeps_its_code() -> None:
    """Every limit reports its own code; a custom limit works the same way (the reader is one)."""
    tiny = InputLimit("test input", 10, 4, code="SG-P010")
    assert isinstance(read_stream(io.BytesIO(b"abcd\nabcd\n"), "t", limit=tiny), SourceText)
    over = refused(read_stream(io.BytesIO(b"abcd\nabcd\na"), "t", limit=tiny), "SG-P010")
    assert "test input" in over.message
    long = refused(read_stream(io.BytesIO(b"abcde\n"), "t", limit=tiny), "SG-P011")
    assert long.span is not None and (long.span.line, long.span.column) == (1, 5)


# --- numbers: at most 9 digits in logs and cards --------------------------------------------------


def test_numbers_in_logs_have_at_most_nine_digits() -> None:
    """Limit: MAX_NUMBER_DIGITS digits are read; one more is SG-P012 at the number."""
    setup = "king white e1\nking black e8\n1. main1: move Ke1 e2 cost "
    ok = "9" * MAX_NUMBER_DIGITS
    fits = replay_text(f"{setup}{ok}\n", "g.sglog")
    assert not any(d.code == "SG-P012" for d in fits.diagnostics)
    long = replay_text(f"{setup}{ok}9\n", "g.sglog")
    (finding,) = [d for d in long.diagnostics if d.code == "SG-P012"]
    assert finding.span is not None
    assert (finding.span.line, finding.span.column) == (3, len("1. main1: move Ke1 e2 cost ") + 1)


def test_numbers_in_cards_have_at_most_nine_digits() -> None:
    """Limit: a cost of MAX_NUMBER_DIGITS digits parses; one more is refused at the number (the
    card's structure error, SG-P023, which costs only that card)."""
    ok = "9" * MAX_NUMBER_DIGITS
    assert parse_cards(f'spell "A" {{ cost {ok} SP }}\n', "c.sgcard").cards
    long = parse_cards(f'spell "A" {{ cost {ok}9 SP }}\n', "c.sgcard")
    (finding,) = long.diagnostics
    assert finding.code == "SG-P023" and f"at most {MAX_NUMBER_DIGITS}" in finding.message
    assert not long.cards and finding.span is not None
    assert (finding.span.line, finding.span.column) == (1, len('spell "A" { cost ') + 1)


# --- YAML structure: nesting 64, aliases 100, 200,000 expanded nodes -------------------------------


def _nested(depth: int) -> str:
    return "cards: " + "[" * (depth - 1) + "]" * (depth - 1)


def test_yaml_nesting_limit() -> None:
    """Limit: MAX_DEPTH levels are read; one more is SG-P026."""
    assert not isinstance(compose(_nested(MAX_DEPTH), "deep.yaml"), Diagnostic)
    refused(compose(_nested(MAX_DEPTH + 1), "deep.yaml"), "SG-P026")


def test_yaml_alias_count_limit() -> None:
    """Limit: MAX_ALIASES aliases are read; one more is SG-P025."""

    def aliases(count: int) -> str:
        return "a: &a 1\nb: [" + ", ".join(["*a"] * count) + "]\n"

    assert not isinstance(compose(aliases(MAX_ALIASES), "x.yaml"), Diagnostic)
    refused(compose(aliases(MAX_ALIASES + 1), "x.yaml"), "SG-P025")


def test_yaml_expanded_size_limit() -> None:
    """Limit: a document may expand to MAX_EXPANDED_NODES nodes, each node counted once and each
    alias as every node it stands for; past that is SG-P025, even with few aliases."""
    ten_thousand = "a: &a [" + ", ".join(["0"] * 999) + "]\nb: &b [" + ", ".join(["*a"] * 10) + "]\n"

    def document(copies: int) -> str:
        return ten_thousand + "c: [" + ", ".join(["*b"] * copies) + "]\n"

    # keys a, b, c and their lists: 6 nodes; a's 999 zeros; b's 10 x 1,000; c's copies x 10,001
    nodes = 6 + 999 + 10 * 1_000
    below = (MAX_EXPANDED_NODES - nodes) // 10_001
    assert nodes + below * 10_001 <= MAX_EXPANDED_NODES < nodes + (below + 1) * 10_001
    assert below + 10 < MAX_ALIASES
    assert not isinstance(compose(document(below), "x.yaml"), Diagnostic)
    over = refused(compose(document(below + 1), "x.yaml"), "SG-P025")
    assert f"more than {MAX_EXPANDED_NODES} nodes" in over.message


def test_a_large_plain_yaml_file_is_counted_by_its_nodes_not_their_depth() -> None:
    """Limit: without aliases a document of MAX_EXPANDED_NODES nodes is read whatever its nesting
    (nodes used to be counted once per level above them, refusing plain files a fifth the size)."""
    card = "  - {name: C, kind: spell, cost: {SP: 1}, effects: [{steal: {amount: 1, resource: SP}}]}\n"
    per_card = (
        18  # its mapping, 4 keys, 2 values; cost: map, key, value; effects: list, map, key, map, 2 keys, 2 values
    )
    cards = (MAX_EXPANDED_NODES - 2) // per_card
    assert not isinstance(compose("cards:\n" + card * cards, "x.yaml"), Diagnostic)
    refused(compose("cards:\n" + card * (cards + 1), "x.yaml"), "SG-P025")


def test_the_explanations_state_the_limits_in_force() -> None:
    """``sgcheck explain SG-P010`` / ``SG-P011`` quote the numbers the reader applies."""
    from sgcheck.codes import CATALOGUE

    too_large = CATALOGUE["SG-P010"].explanation
    for limit in (LOG_LIMIT, CARD_LIMIT, MANIFEST_LIMIT, CONFIG_LIMIT, YAML_CARD_LIMIT):
        assert f"{limit.max_bytes:,} bytes" in too_large, limit.kind
    assert f"{MAX_LINE_CHARS:,} characters" in CATALOGUE["SG-P011"].explanation
    assert LOG_LIMIT.max_line == CARD_LIMIT.max_line == MAX_LINE_CHARS


def test_no_shipped_example_comes_near_the_line_limit() -> None:
    """The line limit is far above any real log or card file: the examples stay under a tenth of it."""
    examples = Path(__file__).resolve().parents[1] / "examples"
    longest = max(
        (len(line), str(path))
        for path in examples.rglob("*")
        if path.is_file()
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
    )
    assert longest[0] < MAX_LINE_CHARS // 10, longest
