"""The progress bar of ``sgcheck replay`` and ``--quiet``.

The bar is driven here with a fake clock and a fake terminal (no sleeping, no timing), and the
command is run with its standard error on a real pseudo-terminal to check what a person sees and
that standard output stays the same bytes.
"""

from __future__ import annotations

import io
import json
import os
import re
import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import sgcheck.cli.progress as progress
from sgcheck.cli import main
from sgcheck.cli.progress import ERASE, ProgressBar, human_bytes, human_duration

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "examples" / "logs"
LOG_COUNT = sum(1 for _ in LOGS.rglob("*.sglog"))  # every shipped log, broken ones included
MB = 1_000_000


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class FakeClock:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Screen:
    """A tiny terminal: carriage return, ``ESC [ K`` (clear to the end of the line), newline
    and plain characters, enough to see what the bar and the report leave on screen."""

    def __init__(self) -> None:
        self.lines = [""]
        self.column = 0

    def feed(self, text: str) -> None:
        for token in re.findall(r"\x1b\[K|.|\n", text, re.S):
            if token == "\r":
                self.column = 0
            elif token == "\n":
                self.lines.append("")
                self.column = 0
            elif token == "\x1b[K":
                self.lines[-1] = self.lines[-1][: self.column]
            else:
                line = self.lines[-1].ljust(self.column)
                self.lines[-1] = line[: self.column] + token + line[self.column + 1 :]
                self.column += 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class ScreenStream(io.StringIO):
    """One of the two streams (standard output, standard error) drawn on the same :class:`Screen`."""

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.screen = screen

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.screen.feed(text)
        return super().write(text)


def make_bar(
    sizes: dict[str, int | None],
    clock: FakeClock,
    stream: io.StringIO | None = None,
    *,
    enabled: bool = True,
    columns: int = 80,
) -> tuple[ProgressBar, io.StringIO]:
    """A bar over logs of the given sizes, on an 80-column fake terminal."""
    out = stream if stream is not None else FakeTerminal()
    bar = ProgressBar(
        list(sizes), out, enabled=enabled, clock=clock, columns=lambda: columns, size_of=sizes.__getitem__
    )
    return bar, out


def frames(written: str) -> list[str]:
    """The frames in what the bar wrote (each is ``\\r`` + text + clear to the end of the line)."""
    return re.findall(r"\r([^\r\x1b]+)\x1b\[K", written)


@pytest.fixture(autouse=True)
def _terminal_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")


# --- when the bar is drawn --------------------------------------------------------------------


def test_the_first_frame_waits_half_a_second() -> None:
    """A run that ends within ~0.5 s leaves no trace: no frame before FIRST_FRAME_DELAY."""
    clock = FakeClock()
    bar, out = make_bar({"a": 10, "b": 10, "c": 10}, clock)
    assert bar.active
    for step in (0.1, 0.2, 0.49):
        clock.now = 100.0 + step
        bar.in_file("a", 5)
    assert out.getvalue() == ""
    clock.now = 100.5
    bar.advance_file()
    [frame] = frames(out.getvalue())
    assert frame.startswith("1/3 files      10 B/30 B   33% [")


def test_frames_come_at_most_ten_times_a_second() -> None:
    """After a frame, events within MIN_INTERVAL (0.1 s) draw nothing; the next one after it does."""
    clock = FakeClock()
    bar, out = make_bar({f"log{i}": 1 for i in range(1000)}, clock)
    clock.now += 1.0
    for _ in range(100):  # a hundred files finishing within the same 0.09 s
        bar.advance_file()
        clock.now += 0.0009
    assert len(frames(out.getvalue())) == 1
    clock.now += 0.1
    bar.advance_file()
    drawn = frames(out.getvalue())
    assert len(drawn) == 2
    assert drawn[0].startswith("   1/1000 files") and drawn[1].startswith(" 101/1000 files")


def test_close_erases_the_line_and_a_quick_run_writes_nothing() -> None:
    """The bar's line is cleared at the end; a bar never drawn erases nothing."""
    clock = FakeClock()
    bar, out = make_bar({"a": 10, "b": 10}, clock)
    clock.now += 0.6
    bar.advance_file()
    bar.close()
    assert out.getvalue().endswith(ERASE)
    screen = Screen()
    screen.feed(out.getvalue())
    assert screen.text == ""
    bar.close()  # twice is fine
    assert out.getvalue().count(ERASE) == 1

    quick, quiet_out = make_bar({"a": 10, "b": 10}, clock)
    quick.advance_file()
    quick.advance_file()
    quick.close()
    assert quiet_out.getvalue() == ""


def test_nothing_is_written_when_standard_error_is_not_a_terminal() -> None:
    """A pipe or a CI log never gets a bar, and the inputs are not even measured."""
    clock = FakeClock()

    def no_stat(path: str) -> int:
        raise AssertionError("sizes are not needed without a terminal")

    out = io.StringIO()
    bar = ProgressBar(["a", "b", "c"], out, clock=clock, columns=lambda: 80, size_of=no_stat)
    assert not bar.active
    clock.now += 5
    bar.in_file("a", 3)
    bar.advance_file()
    bar.close()
    assert out.getvalue() == ""


def test_not_enabled_means_no_bar() -> None:
    """``--quiet`` builds the bar with enabled=False: nothing is drawn."""
    clock = FakeClock()
    bar, out = make_bar({"a": 10, "b": 10}, clock, enabled=False)
    clock.now += 5
    bar.advance_file()
    bar.close()
    assert not bar.active and out.getvalue() == ""


def test_a_dumb_terminal_gets_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """TERM=dumb cannot clear a line, so no bar is drawn there."""
    monkeypatch.setenv("TERM", "dumb")
    bar, _ = make_bar({"a": 10, "b": 10}, FakeClock())
    assert not bar.active


@pytest.mark.parametrize(
    ("sizes", "shown"),
    [
        ({"a": 500}, False),  # one small log: no bar
        ({"a": MB - 1}, False),
        ({"a": MB}, True),  # one long log (1 MB or more)
        ({"a": 1, "b": 1}, True),  # many logs
        ({"-": None}, False),  # standard input alone: size unknown
        ({"-": None, "a": 1}, True),
        ({}, False),
    ],
)
def test_the_bar_is_only_for_many_or_long_logs(sizes: dict[str, int | None], shown: bool) -> None:
    """Two or more logs, or at least 1 MB in all."""
    bar, _ = make_bar(sizes, FakeClock())
    assert bar.active is shown


def test_a_write_failure_turns_the_bar_off_silently() -> None:
    """An OSError on standard error ends the bar, never the run."""

    class Broken(FakeTerminal):
        def write(self, text: str) -> int:
            raise OSError(5, "Input/output error")

    clock = FakeClock()
    bar, _ = make_bar({"a": 1, "b": 1}, clock, stream=Broken())
    clock.now += 1
    bar.advance_file()
    assert not bar.active
    bar.advance_file()
    bar.close()


# --- what a frame shows ------------------------------------------------------------------------


def test_a_frame_shows_files_bytes_percentage_bar_and_eta() -> None:
    """Files done/total, bytes in human units, a percentage, a '#'/'-' bar and an ETA, in ASCII."""
    clock = FakeClock()
    bar, out = make_bar({"a": 12_300_000, "b": 12_300_000, "c": 12_300_000, "d": 12_300_000}, clock)
    clock.now += 2.0
    bar.advance_file()
    [frame] = frames(out.getvalue())
    assert frame.startswith("1/4 files   12.3 MB/49.2 MB   25% [")
    assert frame.endswith("] ETA 0:06")  # 2 s for a quarter: 6 s to go
    bar_part = frame[frame.index("[") + 1 : frame.index("]")]
    assert set(bar_part) == {"#", "-"} and bar_part.count("#") == len(bar_part) // 4
    assert len(frame) == 79 - len(" 0:00:00") + len(" 0:06") and frame.isascii()


def test_the_frame_fits_the_terminal_width() -> None:
    """At most one column less than the terminal; a narrow one drops the bar, then the ETA, then
    cuts the counts."""
    for columns in (120, 80, 60, 50, 40, 20, 5):
        clock = FakeClock()
        bar, _ = make_bar({"a": 1234, "b": 1234}, clock, columns=columns)
        clock.now += 3.0
        bar.in_file("a", 600)
        text = bar.render(clock.now)
        assert len(text) <= columns - 1
        assert ("[" in text) is (columns >= 60)
        assert ("ETA 0:09" in text) is (columns >= 50)  # 3 s for 24%


def test_standard_input_of_unknown_size_shows_files_only() -> None:
    """With '-' among the inputs the total size is unknown: no bytes, the percentage counts files."""
    clock = FakeClock()
    bar, out = make_bar({"-": None, "a": 2000}, clock)
    clock.now += 1
    bar.in_file("-", 500)
    clock.now += 0.2
    bar.advance_file()
    first, second = frames(out.getvalue())
    assert first.startswith("0/2 files    0% [")
    assert second.startswith("1/2 files   50% [") and " B" not in second


def test_bytes_of_the_log_being_replayed_count_once() -> None:
    """In-progress bytes (from the replay hook) are replaced, not added to, when the result comes;
    they never exceed the log's size, and a call about another log is ignored."""
    bar, _ = make_bar({"a": 1000, "b": 3000}, FakeClock())
    bar.in_file("a", 400)
    assert bar.fraction() == 0.1
    bar.in_file("a", 5000)  # decoded text can be counted differently from bytes on disk
    assert bar.fraction() == 0.25
    bar.in_file("b", 3000)  # not the log due next
    assert bar.fraction() == 0.25
    bar.advance_file()
    assert bar.fraction() == 0.25
    bar.in_file("b", 1500)
    assert bar.fraction() == 0.625
    bar.advance_file()
    assert bar.fraction() == 1.0


def test_inputs_that_cannot_be_measured_count_for_nothing(tmp_path: Path) -> None:
    """``log_size``: a file's size, 0 when it cannot be read, None for standard input."""
    log = tmp_path / "a.sglog"
    log.write_bytes(b"x" * 1234)
    assert progress.log_size(str(log)) == 1234
    assert progress.log_size(str(tmp_path / "missing.sglog")) == 0
    assert progress.log_size("-") is None


def test_human_units() -> None:
    """Sizes in decimal units with one decimal; durations as m:ss or h:mm:ss."""
    assert [human_bytes(n) for n in (0, 999, 1000, 12_345, 999_949, 999_950, 12_300_000, 5 * 10**9)] == [
        "0 B",
        "999 B",
        "1.0 kB",
        "12.3 kB",
        "999.9 kB",
        "1.0 MB",
        "12.3 MB",
        "5.0 GB",
    ]
    assert [human_duration(s) for s in (0, 6.4, 65, 3600 + 125)] == ["0:00", "0:06", "1:05", "1:02:05"]


# --- the bar and the report on the same terminal ------------------------------------------------


def test_the_report_never_shares_a_line_with_the_bar() -> None:
    """When standard output is the same terminal, the bar is erased before each piece of the
    report and drawn again below it; at the end the screen shows exactly the report."""
    screen = Screen()
    stdout, stderr = ScreenStream(screen), ScreenStream(screen)
    clock = FakeClock()
    paths = [f"log{i}" for i in range(6)]
    bar = ProgressBar(paths, stderr, clock=clock, columns=lambda: 60, size_of=lambda p: 100)
    parts = [(path, f"{path}: legal game\n\n" if i % 2 else "") for i, path in enumerate(paths)]

    def replayed() -> Iterator[tuple[str, str]]:
        for path, part in parts:
            clock.now += 0.3
            bar.in_file(path, 50)
            yield path, part

    try:
        for _, part in bar.follow(replayed(), shares_terminal=True):
            stdout.write(part)
            assert screen.lines[-1] == "" or "files" in screen.lines[-1]  # the bar sits below the report
        stdout.write("6 files checked: no problems found\n")
    finally:
        bar.close()
    report = "".join(part for _, part in parts) + "6 files checked: no problems found\n"
    assert len(frames(stderr.getvalue())) >= 3
    assert screen.text == report


# --- through the command line --------------------------------------------------------------------


@pytest.fixture
def instant_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bar drawn at every event, so a quick test run shows one."""
    monkeypatch.setattr(progress, "FIRST_FRAME_DELAY", 0.0)
    monkeypatch.setattr(progress, "MIN_INTERVAL", 0.0)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["replay", *args], catch_exceptions=False)


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_quiet_is_no_summary_on_the_report(fmt: str) -> None:
    """``--quiet`` prints the findings and the totals line only, as ``--no-summary`` does."""
    logs = [str(LOGS / "guide-example-a.sglog"), str(LOGS / "broken" / "wrong-hit.sglog")]
    quiet = invoke("--quiet", "--format", fmt, *logs)
    assert quiet.stdout == invoke("--no-summary", "--format", fmt, *logs).stdout
    assert quiet.exit_code == 1
    assert quiet.stderr == ""
    if fmt == "text":
        assert quiet.stdout.splitlines()[-1].startswith("2 files checked:")
        assert "legal game" not in quiet.stdout and "SG-R204" in quiet.stdout
    if fmt == "json":
        assert all(entry["summary"] is None for entry in json.loads(quiet.stdout)["files"])
    assert invoke("-q", "--format", fmt, *logs).stdout == quiet.stdout


def test_help_documents_quiet() -> None:
    help_text = invoke("--help").stdout
    assert "-q, --quiet" in help_text and "progress bar" in help_text


def test_no_bar_when_standard_error_is_not_a_terminal(instant_bar: None) -> None:
    """Click's runner gives the command a standard error that is not a terminal: nothing on it."""
    result = invoke(str(LOGS))
    assert f"{LOG_COUNT} files checked" in result.stdout
    assert result.stderr == ""


def test_the_command_draws_and_erases_the_bar_without_touching_the_report(
    instant_bar: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With standard error taken for a terminal, frames go there only, the line is erased at the
    end, and standard output is the same bytes as without a bar; ``--quiet`` draws none."""
    plain = invoke("--jobs", "1", str(LOGS))
    monkeypatch.setattr(progress, "is_terminal", lambda stream: True)
    with_bar = invoke("--jobs", "1", str(LOGS))
    assert with_bar.stdout == plain.stdout
    assert with_bar.exit_code == plain.exit_code
    drawn = frames(with_bar.stderr)
    assert drawn and drawn[-1].startswith(f"{LOG_COUNT}/{LOG_COUNT} files") and "100% [####" in drawn[-1]
    assert with_bar.stderr.endswith(ERASE)
    assert invoke("--quiet", str(LOGS)).stderr == ""


def test_the_bar_is_erased_when_the_run_is_interrupted(instant_bar: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the middle of a run (exit 2) still leaves a clean line."""
    from sgcheck.replay import files

    real_replay_all = files.replay_all

    def interrupted(*args: object, **kwargs: object) -> Iterator[tuple[object, str]]:
        for count, item in enumerate(real_replay_all(*args, **kwargs)):  # type: ignore[arg-type]
            if count == 3:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(files, "replay_all", interrupted)
    monkeypatch.setattr(progress, "is_terminal", lambda stream: True)
    result = invoke("--jobs", "1", str(LOGS))
    assert result.exit_code == 2
    assert frames(result.stderr)
    screen = Screen()
    screen.feed(result.stderr)
    assert result.stderr.endswith(ERASE) and screen.text == ""


# --- on a real terminal ----------------------------------------------------------------------------

PROBE = (
    "import sys; import sgcheck.cli.progress as p; p.FIRST_FRAME_DELAY = 0.0; p.MIN_INTERVAL = 0.0; "
    "from sgcheck.launcher import run; run(sys.argv[1:])"
)


def run_sgcheck(args: list[str], *, terminal_stderr: bool) -> tuple[bytes, bytes, int]:
    """Run sgcheck (bar drawn at every event) with standard output on a pipe and standard error
    on a pseudo-terminal or a pipe; return both outputs and the exit status."""
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "60"}
    env.pop("FORCE_COLOR", None)
    if not terminal_stderr:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, *args], capture_output=True, stdin=subprocess.DEVNULL, cwd=ROOT, env=env
        )
        return done.stdout, done.stderr, done.returncode
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", PROBE, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
        cwd=ROOT,
        env=env,
    )
    os.close(slave)
    assert proc.stdout is not None
    out_fd = proc.stdout.fileno()
    chunks: dict[int, list[bytes]] = {master: [], out_fd: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            for key, _ in selector.select(timeout=60):
                try:
                    data = os.read(key.fd, 65536)
                except OSError:  # the terminal's last writer has gone (EIO)
                    data = b""
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
    status = proc.wait(timeout=60)
    proc.stdout.close()
    os.close(master)
    return b"".join(chunks[out_fd]), b"".join(chunks[master]), status


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_on_a_real_terminal_standard_output_is_unchanged(jobs: str) -> None:
    """Standard error on a pseudo-terminal: frames (ASCII, as wide as COLUMNS allows) are drawn
    and erased there; standard output holds the same bytes as when standard error is a pipe,
    which gets nothing; ``--quiet`` draws nothing on the terminal either."""
    args = ["replay", "--jobs", jobs, str(LOGS)]
    out_bar, err_bar, status_bar = run_sgcheck(args, terminal_stderr=True)
    out_plain, err_plain, status_plain = run_sgcheck(args, terminal_stderr=False)
    assert out_bar == out_plain and f"{LOG_COUNT} files checked".encode() in out_plain
    assert status_bar == status_plain
    assert err_plain == b""
    text = err_bar.decode("ascii")
    drawn = frames(text)
    assert drawn and drawn[-1].startswith(f"{LOG_COUNT}/{LOG_COUNT} files") and "100% [#" in drawn[-1]
    assert all(len(frame) <= 59 for frame in drawn)
    assert text.endswith(ERASE)
    _, err_quiet, _ = run_sgcheck([*args[:1], "--quiet", *args[1:]], terminal_stderr=True)
    assert err_quiet == b""
