"""Hypothesis targets for inputs written to attack: the language server's frames and documents,
the writers (``-o`` aimed at a file the run reads, by any route), the line notion shared by the
reader, ``fmt`` and its diff, and the closest-name suggestions.

Each target states the promise it checks; the long run (``python -m tests.fuzz``) drives them
with the others.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
from contextlib import chdir
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.server.frames import BadFrame, Frames

from .harness import EXAMPLES, REPO, check_sane, run_in_process, scratch_folder
from .test_random_inputs import LOG_WORDS, ODD, _words

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Every character Unicode or Python calls a line or paragraph break; the log format's line ends
#: are LF, CRLF and a lone CR only (docs/log-format.md), the others are blanks.
BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029"]


# --- the language server's frames ----------------------------------------------------------------

#: Small limits, so that random inputs reach them.
FRAME_LIMIT, HEADER_LIMIT = 512, 128


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(cut, len(data)) for cut in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def _events(chunks: list[bytes]) -> list[bytes | BadFrame]:
    frames = Frames(FRAME_LIMIT, HEADER_LIMIT)
    events: list[bytes | BadFrame] = []
    for chunk in chunks:
        events += frames.feed(chunk)
        # what the reader holds stays bounded whatever the stream: a frame, a header, a read
        assert frames.held <= FRAME_LIMIT + HEADER_LIMIT + 4 + len(chunk), frames.held
    return events


FRAME_WORDS = [b"Content-Length: ", b"content-length:", b"Content-Type: x", b"\r\n", b"\n", b"\r\n\r\n", b"{", b"}"]
FRAME_WORDS += [b"0", b"5", b"12", b"99999999999999", b"1" * 30, b'"jsonrpc":"2.0"', b"\x00", b"\xff", b" ", b"\t"]


@FUZZ
@given(
    pieces=st.lists(st.one_of(st.sampled_from(FRAME_WORDS), st.binary(max_size=40)), max_size=60),
    cuts=st.lists(st.integers(0, 4000), max_size=8),
)
def test_frames_any_stream(pieces: list[bytes], cuts: list[int]) -> None:
    """No byte stream makes the frame reader fail or hold more than a frame and a header; no body
    it hands on is over the limit."""
    for event in _events(_cut(b"".join(pieces), cuts)):
        assert isinstance(event, BadFrame) or len(event) <= FRAME_LIMIT


_BODY = st.binary(max_size=60).filter(lambda body: b"content-length" not in body.lower())


@FUZZ
@given(
    garbage=st.lists(st.one_of(st.sampled_from(FRAME_WORDS), st.binary(max_size=40)), max_size=30),
    bodies=st.lists(_BODY, min_size=1, max_size=4),
    cuts=st.lists(st.integers(0, 4000), max_size=8),
)
def test_frames_after_a_bad_frame(garbage: list[bytes], bodies: list[bytes], cuts: list[int]) -> None:
    """After any bad frame (a wrong or huge length, no length, junk), the frames that follow a
    blank line are read again: the server keeps serving."""
    junk = b"".join(garbage)
    if b"content-length" in junk.lower():
        # a length in the junk may claim the frames that follow: they are found again when the
        # junk's own frame ends at a blank line before them
        junk += b"\r\n\r\n" + frame(b"{}")
    stream = junk + b"\r\n\r\n" + b"".join(frame(body) for body in bodies)
    events = _events(_cut(stream, cuts))
    got = [event for event in events if isinstance(event, bytes)]
    assert got[len(got) - len(bodies) :] == bodies, events


# --- one notion of a line: the reader, the grammar, fmt and its diff ------------------------------


def apply_patch(original: bytes, diff: bytes) -> bytes:
    """``original`` with the unified ``diff`` applied as ``patch`` applies it: lines end at LF."""
    lines = original.split(b"\n")
    lines = [line + b"\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    out: list[bytes] = []
    at = 0
    body = diff.split(b"\n")
    index = 0
    hunk = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
    while index < len(body):
        found = hunk.match(body[index])
        index += 1
        if found is None:
            continue
        start = int(found.group(1)) - (0 if found.group(2) == b"0" else 1)
        out += lines[at:start]
        at = start
        while index < len(body) and body[index][:1] in (b" ", b"-", b"+", b"\\"):
            line = body[index]
            following_cut = index + 1 < len(body) and body[index + 1].startswith(b"\\ No newline")
            text = line[1:] + (b"" if following_cut else b"\n")
            if line[:1] == b" ":
                assert lines[at] == text, (at, lines[at], text)
                out.append(text)
                at += 1
            elif line[:1] == b"-":
                assert lines[at] == text, (at, lines[at], text)
                at += 1
            elif line[:1] == b"+":
                out.append(text)
            index += 1
    return b"".join(out + lines[at:])


_SEPARATED = st.lists(
    st.one_of(st.sampled_from(LOG_WORDS), st.sampled_from(BREAKS), st.sampled_from(["  ", " ; note "])), max_size=60
).map(" ".join)


@FUZZ
@given(
    example=st.sampled_from(sorted(EXAMPLES.glob("logs/*.sglog"))),
    extra=st.lists(st.tuples(st.integers(0, 400), _SEPARATED), max_size=3),
)
def test_format_diff_applies_whatever_the_breaks(example: Path, extra: list[tuple[int, str]]) -> None:
    """``fmt --diff`` prints exactly the change ``fmt`` makes, as ``patch`` reads it (lines end at
    LF only): a log holding any Unicode line or paragraph separator, VT, FF or U+001C-U+001F."""
    lines = example.read_text(encoding="utf-8").split("\n")
    for at, text in extra:
        lines.insert(at % (len(lines) + 1), text)
    original = "\n".join(lines).encode("utf-8")
    folder = scratch_folder() / "breaks"
    folder.mkdir(exist_ok=True)
    path = folder / "game.sglog"
    path.write_bytes(original)
    shown = os.path.relpath(path, REPO)
    with chdir(REPO):  # the diff's bytes as written (the runner's text turns CRLF into LF)
        raw = CliRunner().invoke(main, ["fmt", "--diff", shown]).stdout_bytes
    diff = run_in_process("fmt", "--diff", shown, fmt=None)
    assert diff.exit_code in (0, 1, 2), diff.describe()
    assert "Traceback" not in diff.stderr and "SG-X001" not in diff.stderr, diff.describe()
    done = run_in_process("fmt", shown, fmt=None)
    assert done.exit_code == diff.exit_code or done.exit_code in (0, 2), (diff.describe(), done.describe())
    if diff.exit_code == 2:
        assert path.read_bytes() == original  # refused, never written
        return
    assert apply_patch(original, raw) == path.read_bytes(), diff.describe()


# --- the writers: an output that is an input, by any route --------------------------------------

#: Routes by which a run reads a file: the log's [Pack] tag (a folder or a card file), a manifest
#: entry, the scenario tag, the configuration.
ROUTES = ("pack-card", "pack-manifest", "named-card", "log", "config")
SPELLINGS = ("same", "dotted", "symlink", "hardlink", "absolute")


def _writer_folder() -> Path:
    folder = scratch_folder() / "writers"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "pack").mkdir(parents=True)
    shutil.copy(EXAMPLES / "cards" / "guide-relics.sgcard", folder / "pack" / "relics.sgcard")
    manifest = "name: attack\nversion: 1.0.0\nruleset: core\ncards:\n  - relics.sgcard\n"
    (folder / "pack" / "sgpack.yaml").write_text(manifest, encoding="utf-8")
    log = (EXAMPLES / "logs" / "relic-game.sglog").read_text(encoding="utf-8")
    log = re.sub(r'\[Pack "[^"]*"\]', '[Pack "pack"]', log)
    (folder / "game.sglog").write_text(log, encoding="utf-8")
    (folder / "pyproject.toml").write_text("[tool.sgcheck]\n", encoding="utf-8")
    return folder


@SLOW
@given(
    command=st.sampled_from(["replay", "check", "simulate"]),
    route=st.sampled_from(ROUTES),
    spelling=st.sampled_from(SPELLINGS),
    option=st.sampled_from(["-o", "--explain-break", "--sample-logs"]),
)
def test_no_writer_writes_over_what_the_run_reads(command: str, route: str, spelling: str, option: str) -> None:
    """Every writer refuses a file the run reads, whatever the route that reaches it and however
    it is spelled: exit status 2, before any work, and every input left as it was."""
    folder = _writer_folder()
    target = {
        "pack-card": folder / "pack" / "relics.sgcard",
        "pack-manifest": folder / "pack" / "sgpack.yaml",
        "named-card": folder / "pack" / "relics.sgcard",
        "log": folder / "game.sglog",
        "config": folder / "pyproject.toml",
    }[route]
    spelled = {
        "same": str(target),
        "dotted": str(target.parent / "." / ".." / target.parent.name / target.name),
        "absolute": str(target.resolve()),
        "symlink": str(folder / "out.txt"),
        "hardlink": str(folder / "out.txt"),
    }[spelling]
    if spelling == "symlink":
        (folder / "out.txt").symlink_to(target)
    elif spelling == "hardlink":
        os.link(target, folder / "out.txt")
    before = {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    config = ["--config", str(folder / "pyproject.toml")] if route == "config" else []
    if command == "replay":
        args = ["replay", *config, str(folder / "game.sglog")]
    elif command == "check":
        args = ["check", *config, str(folder / "pack")]
    else:
        args = ["simulate", *config, "--games", "1", "--seed", "1", str(folder / "pack")]
    if option == "--sample-logs" and command != "simulate":
        option = "-o"
    if option == "--explain-break" and command != "replay":
        option = "-o"
    if option == "--sample-logs":
        spelled = str(Path(spelled).parent) if route != "log" else spelled
    outcome = run_in_process(*args, option, spelled, fmt="json")
    if outcome.exit_code == 2 and "no such option" in outcome.stderr.lower():
        return
    reads_it = route in ("pack-card", "pack-manifest", "named-card", "config") or command == "replay"
    if option == "--sample-logs":
        reads_it = False  # a folder: it is written into, never over
    if reads_it:
        assert outcome.exit_code == 2, outcome.describe()
    read = set(before)
    if command != "replay" and route == "log":  # check and simulate read no log: -o may name it, or a link to it
        read -= {folder / "game.sglog", folder / "out.txt"}
    for path, data in before.items():
        if path in read:
            assert path.read_bytes() == data, (path, outcome.describe())


# --- the language server's documents ------------------------------------------------------------


@FUZZ
@given(text=_words([*LOG_WORDS, *BREAKS, '[Pack "/etc"]', '[Scenario "/etc/passwd"]'], 60))
def test_server_log_document(text: str) -> None:
    """The server analyses any text opened as a log without failing, and what it reads stays in
    the log's workspace: a [Pack] or [Scenario] tag naming a system file reads nothing there."""
    from sgcheck.server.analysis import analyse

    folder = scratch_folder() / "server"
    folder.mkdir(exist_ok=True)
    found = analyse(str(folder / "open.sglog"), text, {})
    for path in found.reads:
        assert not path.startswith("/etc"), path
    for findings in found.findings.values():
        for diagnostic in findings:
            assert diagnostic.code != "SG-X001", diagnostic


# --- the command line, with every break character ----------------------------------------------


@FUZZ
@given(text=_words([*LOG_WORDS, *BREAKS, *ODD], 80))
def test_replay_any_break(text: str) -> None:
    """Replay reads a log holding any Unicode break character with the same lines as fmt."""
    check_sane(run_in_process("replay", "-", fmt="json", stdin=text.encode("utf-8", "surrogatepass")), inputs=1)


# --- the line notion, in process (cheap: the reader and the diff alone) --------------------------


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column of ``offset`` counting LF line ends only (the text is read with CRLF
    and CR made LF): the oracle, independent of the reader."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


@FUZZ
@given(text=_words([*LOG_WORDS, *BREAKS, *ODD], 80))
def test_reader_positions_count_only_line_ends(text: str) -> None:
    """Every position the log reader gives (items, their parts, a syntax error) counts lines at
    LF, CRLF and a lone CR only: VT, FF, U+001C-U+001F, NEL and the Unicode separators are blanks
    inside a line, as the grammar reads them."""
    from sgcheck.diagnostics import Diagnostic, Span
    from sgcheck.lang.logs.grammar import LogSyntaxError
    from sgcheck.lang.logs.reader import read_log
    from sgcheck.lang.source import decode

    source = decode(text.encode("utf-8", "surrogatepass"), "fuzz.sglog")
    if isinstance(source, Diagnostic):
        return
    read = source.text
    spans: list[Span] = []

    def walk(node: object, depth: int = 0) -> None:
        if isinstance(node, Span):
            spans.append(node)
        elif depth < 6 and isinstance(node, tuple | list):
            for part in node:
                walk(part, depth + 1)
        elif depth < 6 and hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:
                walk(getattr(node, name), depth + 1)

    try:
        for item in read_log(source):
            walk(item)
    except LogSyntaxError as error:
        if error.diagnostic.span is not None:
            spans.append(error.diagnostic.span)
    for span in spans:
        if span.offset or span.line != 1:
            assert (span.line, span.column) == _line_and_column(read, span.offset), (span, read[: span.offset][-40:])


@FUZZ
@given(
    before=st.lists(st.sampled_from(["a", "b", "c", "\n", "\r\n", *BREAKS]), max_size=40).map("".join),
    after=st.lists(st.sampled_from(["a", "b", "c", "\n", "\r\n", *BREAKS]), max_size=40).map("".join),
    cuts=st.lists(st.integers(0, 40), max_size=4),
)
def test_streamed_diff_is_the_diff_patch_reads(before: str, after: str, cuts: list[int]) -> None:
    """The diff written a piece at a time (fmt --diff) is exactly difflib's unified diff of the
    lines as ``patch`` reads them (each ending at LF), however the pieces are cut."""
    import difflib

    from sgcheck.lang.format_diff import UnifiedDiff

    def lines(text: str) -> list[str]:
        return [line for line in re.split(r"(?<=\n)", text) if line]

    expected = "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
        for line in difflib.unified_diff(lines(before), lines(after), "f", "f", lineterm="\n")
    )
    expected = re.sub(r"^(--- f|\+\+\+ f)\t?\n", lambda m: m.group(1) + "\n", expected, flags=re.M)
    written: list[str] = []
    diff = UnifiedDiff("f", written.append)
    points = sorted({min(cut, len(before), len(after)) for cut in cuts} | {0})
    ends = [*points[1:], None]
    for start, end in zip(points, ends, strict=True):
        diff.add(before[start:end], after[start:end])
    diff.finish()
    text = "".join(written)
    if len(points) == 1:  # one pair: difflib's very text
        assert text == expected
    # in any pieces: a diff that turns the one text into the other, as patch applies it
    assert apply_patch(before.encode("utf-8"), text.encode("utf-8")) == after.encode("utf-8"), text
