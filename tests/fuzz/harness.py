"""What every run of sgcheck must satisfy, whatever its input, and the two ways the harness runs it.

* :func:`run_subprocess` runs ``python -m sgcheck`` in a child process with an address-space cap
  and a hang guard, so an input that makes sgcheck hang or grow without bound fails its test
  instead of stalling or exhausting the machine. It is used for the crafted corpus and for
  special and big inputs.
* :func:`run_in_process` runs the same command line through click's test runner: cheap enough
  for Hypothesis. A timer raises :class:`Hang` if a run does not return within its guard.

:func:`check_sane` asserts the promises of the hardening requirements on an outcome: exit
status 0, 1 or 2; no traceback; no internal error (SG-X001 or a crash message); a JSON or SARIF
report that parses, validates against its schema and agrees with the exit status; a text report
that ends with its totals line; GitHub annotations that are one workflow command a line and agree
with the exit status; a JUnit report that parses as XML; an HTML page whose data parses. No
report, whatever its format, holds a raw control character, bidirectional control or line
separator (:data:`RAW_CONTROLS`): the JSON formats write them as escapes, the others as
visible stand-ins.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import chdir, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator

from sgcheck.cli import main

try:
    import resource
except ImportError:  # not a POSIX system
    resource = None  # type: ignore[assignment]

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
EXAMPLES = REPO / "examples"
REPORT_SCHEMA = REPO / "schemas" / "report.schema.json"
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"

#: Address space allowed to one sgcheck process. Reading stops at the documented size limits,
#: so every input of this harness, endless or 100 MB, is checked in well under 100 MiB; reading
#: a 100 MB file whole before checking its size needs more than twice that and fails here.
MEMORY_CAP = 256 << 20
#: A run that takes this long is hanging; a healthy one needs a small fraction of it.
HANG_GUARD_SECONDS = 30.0
IN_PROCESS_HANG_GUARD_SECONDS = 30.0
#: A run over many files may take this much longer for each file it names: a contract check plays
#: games for each card (the witness search), so a folder's run grows with its files.
HANG_GUARD_PER_FILE_SECONDS = 0.5

FORMATS = ("text", "json", "sarif")
#: Every format ``check`` and ``replay`` both write; ``replay`` also writes ``html``.
ALL_FORMATS = (*FORMATS, "github", "junit")
REPLAY_FORMATS = (*ALL_FORMATS, "html")
#: Codes that mean a file could not be read, sgcheck failed on it or the configuration is invalid:
#: exit status 2.
IO_ERROR_CODES = frozenset({"SG-P008", "SG-X001", "SG-C210"})
CODE = re.compile(r"\bSG-[A-Z][0-9]{3}\b")
TOTALS_LINE = re.compile(r"^\d+ files? checked(?: \([^)]*\))?: ")
#: Characters no report may hold raw (a terminal, a CI log or a browser obeys them): C0 controls
#: but tab and newline, DEL, C1 controls (NEL included), the bidirectional marks (ALM, LRM, RLM),
#: embeddings, overrides and isolates, the line and paragraph separators, and lone surrogates.
RAW_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
#: A GitHub workflow command as sgcheck writes one: the command, its properties, its message.
WORKFLOW_COMMAND = re.compile(r"::(error|warning|notice) file=[^,:]*(?:,[a-zA-Z]+=[^,:]*)*::")
HTML_DATA = re.compile(r'<script type="application/json" class="sg-data">(.*?)</script>', re.S)


#: How many times sgcheck ran in this process, by way (``in-process``, ``subprocess``): the long
#: fuzz run (``python -m tests.fuzz``) reports it.
RUNS: Counter[str] = Counter()


class Hang(BaseException):
    """An in-process run did not return within its guard (a BaseException, so nothing swallows it)."""


@functools.cache
def report_validator() -> Draft202012Validator:
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


@functools.cache
def sarif_validator() -> Draft7Validator:
    return Draft7Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class Outcome:
    """One run of sgcheck: its command line, output format, exit status and output."""

    args: tuple[str, ...]
    fmt: str
    exit_code: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        return (
            f"sgcheck {' '.join(self.args)}\nexit status {self.exit_code}\n"
            f"stderr: {self.stderr[-2000:]!r}\nstdout: {self.stdout[:3000]!r}"
        )

    @property
    def document(self) -> dict[str, Any]:
        assert self.fmt in ("json", "sarif"), self.fmt
        document: dict[str, Any] = json.loads(self.stdout)
        return document

    def codes(self) -> list[str]:
        """Every diagnostic code reported, in order."""
        if self.fmt == "json":
            return [d["code"] for f in self.document["files"] for d in f["diagnostics"]]
        if self.fmt == "sarif":
            return [r["ruleId"] for r in self.document["runs"][0]["results"]]
        return [match.group() for line in self.stdout.splitlines() if (match := CODE.search(line))]

    def file_codes(self) -> dict[str, list[str]]:
        """The codes of each file of a JSON report, by the file's path."""
        assert self.fmt == "json", self.fmt
        return {f["path"]: [d["code"] for d in f["diagnostics"]] for f in self.document["files"]}


def _expected_exit(error_codes: Sequence[str], io_codes: Sequence[str]) -> int:
    if io_codes:
        return 2
    return 1 if error_codes else 0


def _check_json(outcome: Outcome, inputs: int | None) -> None:
    try:
        document = outcome.document
    except json.JSONDecodeError as error:
        pytest.fail(f"the JSON report does not parse ({error})\n{outcome.describe()}")
    errors = [error.message for error in report_validator().iter_errors(document)]
    assert errors == [], f"the JSON report breaks its schema: {errors[:5]}\n{outcome.describe()}"
    diagnostics = [d for f in document["files"] for d in f["diagnostics"]]
    severities = Counter(d["severity"] for d in diagnostics)
    suppressed = sum(len(f["suppressed"]) for f in document["files"])
    expected_counts = {**{s: severities[s] for s in ("error", "warning", "note")}, "suppressed": suppressed}
    assert document["counts"] == expected_counts, outcome.describe()
    if inputs is not None:
        assert len(document["files"]) == inputs, f"expected {inputs} files in the report\n{outcome.describe()}"
    expected = _expected_exit(
        [d["code"] for d in diagnostics if d["severity"] == "error"],
        [d["code"] for d in diagnostics if d["code"] in IO_ERROR_CODES],
    )
    assert outcome.exit_code == expected, f"the exit status disagrees with the report\n{outcome.describe()}"


def _check_sarif(outcome: Outcome) -> None:
    try:
        document = outcome.document
    except json.JSONDecodeError as error:
        pytest.fail(f"the SARIF log does not parse ({error})\n{outcome.describe()}")
    errors = [error.message for error in sarif_validator().iter_errors(document)]
    assert errors == [], f"the SARIF log breaks the SARIF 2.1.0 schema: {errors[:5]}\n{outcome.describe()}"
    assert len(document["runs"]) == 1, outcome.describe()
    results = document["runs"][0]["results"]
    expected = _expected_exit(
        [r["ruleId"] for r in results if r.get("level", "warning") == "error"],
        [r["ruleId"] for r in results if r["ruleId"] in IO_ERROR_CODES],
    )
    assert outcome.exit_code == expected, f"the exit status disagrees with the SARIF log\n{outcome.describe()}"


def _check_text(outcome: Outcome) -> None:
    lines = [line for line in outcome.stdout.splitlines() if line.strip()]
    assert lines and TOTALS_LINE.match(lines[-1]), f"the text report has no totals line\n{outcome.describe()}"


def _check_github(outcome: Outcome) -> None:
    lines = outcome.stdout.split("\n")
    assert lines[-1] == "", f"the annotations do not end with a newline\n{outcome.describe()}"
    commands = [WORKFLOW_COMMAND.match(line) for line in lines[:-1]]
    odd = [line for line, command in zip(lines[:-1], commands, strict=True) if command is None]
    assert not odd, f"a line that is not a workflow command: {odd[0]!r}\n{outcome.describe()}"
    titles = [re.search(r"[:,]title=(SG-[A-Z][0-9]{3})::", line) for line in lines[:-1]]
    assert all(titles), f"an annotation without its code as title\n{outcome.describe()}"
    errors = [t.group(1) for t, c in zip(titles, commands, strict=True) if t and c and c.group(1) == "error"]
    expected = _expected_exit(errors, [code for code in errors if code in IO_ERROR_CODES])
    assert outcome.exit_code == expected, f"the exit status disagrees with the annotations\n{outcome.describe()}"


def _check_junit(outcome: Outcome) -> None:
    try:
        root = ElementTree.fromstring(outcome.stdout)
    except ElementTree.ParseError as error:
        pytest.fail(f"the JUnit report is not XML ({error})\n{outcome.describe()}")
    assert root.tag == "testsuites", outcome.describe()


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _check_html(outcome: Outcome) -> None:
    page = outcome.stdout
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"), outcome.describe()
    for data in HTML_DATA.findall(page):
        try:
            parsed = json.loads(data)
        except json.JSONDecodeError as error:
            pytest.fail(f"the page's data does not parse ({error})\n{outcome.describe()}")
        # the data reaches the page as text the script sets: there too, only stand-ins
        raw = next((m for text in _strings(parsed) if (m := RAW_CONTROLS.search(text))), None)
        assert raw is None, f"the page's data holds a raw {raw.group()!r}\n{outcome.describe()}"


def _check_no_raw_controls(outcome: Outcome) -> None:
    raw = RAW_CONTROLS.search(outcome.stdout)
    where = f"the {outcome.fmt} report"
    assert raw is None, f"a raw control character {raw.group()!r} reaches {where}\n{outcome.describe()}"


def check_sane(outcome: Outcome, *, inputs: int | None = None, expect_report: bool = True) -> Outcome:
    """The promises every run keeps; ``inputs`` is the number of files the JSON report must list."""
    assert outcome.exit_code in (0, 1, 2), f"exit status outside 0/1/2\n{outcome.describe()}"
    assert "Traceback" not in outcome.stderr, f"a traceback\n{outcome.describe()}"
    assert "Traceback (most recent call last)" not in outcome.stdout, f"a traceback\n{outcome.describe()}"
    assert "internal error" not in outcome.stderr.lower(), f"an internal error\n{outcome.describe()}"
    assert "SG-X001" not in outcome.stdout + outcome.stderr, f"sgcheck failed on an input\n{outcome.describe()}"
    if not expect_report:
        return outcome
    if outcome.fmt == "json":
        _check_json(outcome, inputs)
    elif outcome.fmt == "sarif":
        _check_sarif(outcome)
    elif outcome.fmt == "text":
        _check_text(outcome)
    elif outcome.fmt == "github":
        _check_github(outcome)
    elif outcome.fmt == "junit":
        _check_junit(outcome)
    elif outcome.fmt == "html":
        _check_html(outcome)
    if outcome.fmt in REPLAY_FORMATS:  # a report (``fmt -`` writes the input's own text back)
        _check_no_raw_controls(outcome)
    return outcome


@functools.cache
def scratch_folder() -> Path:
    """A folder of this process that Hypothesis targets write their random files into (one file
    per name, overwritten), removed when the process ends. A plain folder, not a pytest fixture,
    so that the long fuzz run (``python -m tests.fuzz``) can drive the same targets."""
    folder = Path(tempfile.mkdtemp(prefix="sgcheck-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


# --- running sgcheck --------------------------------------------------------------------------


def _limit_child() -> None:
    """In the child, before sgcheck starts: cap the address space; no core files."""
    assert resource is not None
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _child_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "NO_COLOR")}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _decoded(data: bytes, what: str, args: Sequence[str]) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        pytest.fail(f"sgcheck {' '.join(args)}: {what} is not UTF-8 ({error})")


def run_subprocess(
    *args: str,
    fmt: str = "json",
    stdin: Any = subprocess.DEVNULL,
    cwd: Path = REPO,
    timeout: float = HANG_GUARD_SECONDS,
) -> Outcome:
    """``python -m sgcheck ARGS --format FMT`` in a child process with bounded memory and time.

    ``stdin`` is anything :func:`subprocess.run` accepts (an open file, ``DEVNULL``).
    """
    if resource is None:
        pytest.skip("memory caps need POSIX resource limits")
    command = (*args, "--format", fmt)
    RUNS["subprocess"] += 1
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "sgcheck", *command],
            stdin=stdin,
            capture_output=True,
            cwd=cwd,
            env=_child_environment(),
            timeout=timeout,
            preexec_fn=_limit_child,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"sgcheck {' '.join(command)} hangs: it did not finish within {timeout:.0f} s")
    if completed.returncode < 0:
        signame = signal.Signals(-completed.returncode).name
        pytest.fail(
            f"sgcheck {' '.join(command)} was killed by {signame} (address space capped at {MEMORY_CAP >> 20} MiB)\n"
            f"stderr: {completed.stderr[-2000:]!r}"
        )
    return Outcome(
        command,
        fmt,
        completed.returncode,
        _decoded(completed.stdout, "standard output", command),
        _decoded(completed.stderr, "standard error", command),
    )


@contextmanager
def hang_guard(seconds: float, what: str) -> Iterator[None]:
    """Raise :class:`Hang` in this thread if the block has not finished after ``seconds``."""
    if not hasattr(signal, "setitimer"):
        pytest.skip("the in-process hang guard needs POSIX interval timers")

    def on_alarm(signum: int, frame: object) -> None:
        raise Hang(f"{what} hangs: it did not return within {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _runner() -> CliRunner:
    """A test runner that keeps standard error apart from standard output."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click 8.1
    except TypeError:  # click 8.2 and later always keep them apart
        return CliRunner()


def run_in_process(*args: str, fmt: str | None = "json", stdin: bytes | None = None) -> Outcome:
    """``sgcheck ARGS --format FMT`` through click's test runner from the repository root, with a
    hang guard; ``fmt=None`` for a command that writes no report (``fmt``)."""
    command = args if fmt is None else (*args, "--format", fmt)
    RUNS["in-process"] += 1
    files = sum(1 for arg in args if not arg.startswith("-") and Path(arg).suffix)
    guard = IN_PROCESS_HANG_GUARD_SECONDS + HANG_GUARD_PER_FILE_SECONDS * files
    with chdir(REPO), hang_guard(guard, f"sgcheck {' '.join(command)}"):
        result = _runner().invoke(main, list(command), input=stdin, prog_name="sgcheck")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else repr(result.exception)
        pytest.fail(f"sgcheck {' '.join(command)} raised instead of reporting:\n{trace}")
    return Outcome(command, fmt or "none", result.exit_code, result.stdout, result.stderr)


# --- mutations ------------------------------------------------------------------------------------

MUTATIONS = ("drop", "duplicate", "swap", "flip", "truncate")


@dataclass(frozen=True)
class Mutation:
    """One change to a file: ``drop``, ``duplicate`` or ``swap`` line ``at`` (with line ``other``),
    ``flip`` bit ``other`` of byte ``at``, or ``truncate`` the file to its first ``at`` bytes."""

    kind: str
    at: int
    other: int = 0

    def apply(self, data: bytes) -> bytes:
        lines = data.split(b"\n")
        if self.kind == "drop":
            del lines[self.at]
        elif self.kind == "duplicate":
            lines.insert(self.at, lines[self.at])
        elif self.kind == "swap":
            lines[self.at], lines[self.other] = lines[self.other], lines[self.at]
        elif self.kind == "flip":
            return data[: self.at] + bytes([data[self.at] ^ (1 << self.other)]) + data[self.at + 1 :]
        elif self.kind == "truncate":
            return data[: self.at]
        else:
            raise ValueError(f"no mutation {self.kind!r}")
        return b"\n".join(lines)


def _kinds(data: bytes) -> list[str]:
    """The mutations that change ``data`` (none for an empty file; drop and swap need two lines)."""
    if not data:
        return []
    return [kind for kind in MUTATIONS if b"\n" in data or kind not in ("drop", "swap")]


@st.composite
def mutation_of(draw: st.DrawFn, data: bytes, kind: str) -> Mutation:
    """A ``kind`` mutation of ``data``: its line, byte or bit drawn within ``data``'s bounds, so a
    failing example shrinks to the first line, the first byte, bit 0, adjacent lines."""
    last_line = data.count(b"\n")
    if kind in ("drop", "duplicate"):
        return Mutation(kind, draw(st.integers(0, last_line)))
    if kind == "swap":
        first = draw(st.integers(0, last_line - 1))
        return Mutation(kind, first, draw(st.integers(first + 1, last_line)))
    if kind == "flip":
        return Mutation(kind, draw(st.integers(0, len(data) - 1)), draw(st.integers(0, 7)))
    return Mutation(kind, draw(st.integers(0, len(data) - 1)))


#: Whether to add one more mutation: two times in three (about as many as ``st.lists`` draws);
#: shrinks to False, to fewer mutations.
_ANOTHER = st.sampled_from([False, True, True])


@st.composite
def mutations(draw: st.DrawFn, data: bytes, min_size: int = 1, max_size: int = 4) -> list[Mutation]:
    """``min_size`` to ``max_size`` mutations applied one after another, each drawn within the
    bounds of the data the previous ones left. Each is drawn after a "one more" choice, as
    ``st.lists`` does, so a failing example shrinks to the fewest and smallest mutations."""
    steps: list[Mutation] = []
    while len(steps) < max_size and (len(steps) < min_size or draw(_ANOTHER)):
        kinds = _kinds(data)
        if not kinds:
            break
        step = draw(mutation_of(data, draw(st.sampled_from(kinds))))
        data = step.apply(data)
        steps.append(step)
    return steps


def apply_mutations(data: bytes, steps: Sequence[Mutation]) -> bytes:
    """``data`` with ``steps`` applied in order."""
    for step in steps:
        data = step.apply(data)
    return data


def random_mutation(data: bytes, kind: str, rng: random.Random) -> Mutation | None:
    """A ``kind`` mutation of ``data`` chosen by ``rng`` (for fixed corpora; hypothesis tests draw
    :func:`mutations`), or None when ``kind`` cannot change ``data``."""
    if kind not in _kinds(data):
        return None
    lines = data.count(b"\n") + 1
    if kind in ("drop", "duplicate"):
        return Mutation(kind, rng.randrange(lines))
    if kind == "swap":
        i, j = rng.sample(range(lines), 2)
        return Mutation(kind, min(i, j), max(i, j))
    if kind == "flip":
        position = rng.randrange(len(data))
        return Mutation(kind, position, rng.randrange(8))
    return Mutation(kind, rng.randrange(len(data)))


def mutate(data: bytes, kind: str, rng: random.Random) -> bytes:
    """``data`` with one random line dropped, duplicated or swapped with another, one bit
    flipped, or cut short at a random byte."""
    step = random_mutation(data, kind, rng)
    return data if step is None else step.apply(data)
