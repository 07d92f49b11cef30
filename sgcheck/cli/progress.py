"""A progress bar on standard error for long ``sgcheck replay`` runs.

A corpus of thousands of logs, or one log of tens of megabytes, can take a while; the report
only appears as files finish, so a person at a terminal is told how far the run has got. The bar
is for people only: it is drawn on standard error and only when that is a terminal, so standard
output (the report) is the same bytes with or without it, and CI logs and pipes never see it.
It stays out of the way: nothing is drawn for a run that ends within half a second, frames come
at most ten times a second, and the line is erased when the run ends.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TypeVar

#: Nothing is drawn before this many seconds: a quick run should leave no trace on the terminal.
FIRST_FRAME_DELAY = 0.5
#: At least this many seconds between two frames, so a fast run does not flood the terminal.
MIN_INTERVAL = 0.1
#: A run reading at least this many bytes gets a bar even when it is a single log.
LARGE_INPUT = 1_000_000
#: Below this many columns for the ``#``/``-`` part, the bar is left out and only the counts show.
MIN_BAR_WIDTH = 5
#: Room kept for the ETA (``ETA 1:02:03``) and for a size (``999.9 kB``), so frames keep their layout.
ETA_WIDTH = len("ETA 0:00:00")
BYTES_WIDTH = len("999.9 kB")
#: No ETA before this many seconds: an estimate from the first instants is noise.
MIN_ETA_ELAPSED = 1.0

#: Goes back to the start of the line and clears it (ASCII: carriage return, then ``ESC [ K``).
ERASE = "\r\x1b[K"
STDIN = "-"

T = TypeVar("T")


def log_size(path: str) -> int | None:
    """The size of one input in bytes: None for standard input (unknown), 0 when it cannot be
    read (it is reported as a finding, and counts for nothing)."""
    if path == STDIN:
        return None
    try:
        return os.path.getsize(path)
    except (OSError, ValueError):
        return 0


def human_bytes(count: int) -> str:
    """``12.3 MB``: decimal units, as file managers show sizes."""
    if count < 1000:
        return f"{count} B"
    value = float(count)
    for unit in ("kB", "MB", "GB", "TB"):
        value /= 1000
        if value < 999.95 or unit == "TB":
            return f"{value:.1f} {unit}"
    raise AssertionError("unreachable")  # pragma: no cover


def human_duration(seconds: float) -> str:
    """``1:05`` or ``2:03:07``, like a media player: short, and no unit word to translate."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def is_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` is a terminal; a closed or odd stream is not."""
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def terminal_columns(stream: IO[str]) -> int:
    """The width of the terminal ``stream`` writes to: ``COLUMNS`` first, then the terminal of
    ``stream`` itself (standard output may be redirected while standard error is not), then what
    :func:`shutil.get_terminal_size` finds (80 when nothing is known)."""
    if not os.environ.get("COLUMNS"):
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
            if columns > 0:
                return columns
        except (AttributeError, OSError, ValueError):
            pass
    return shutil.get_terminal_size().columns


class ProgressBar:
    """Files done / total, bytes done / total, a percentage, a ``#``/``-`` bar and an ETA.

    Inactive (every method does nothing) unless ``enabled``, ``stream`` is a terminal that
    understands cursor controls (``TERM`` is not ``dumb``) and the run is worth a bar: two or
    more logs, or at least :data:`LARGE_INPUT` bytes. A failure to write to ``stream``
    turns it off for good, silently: a progress bar must never end a run.

    ``paths`` are the inputs in the order their results come (``-`` is standard input, of
    unknown size: then only files are counted). ``clock``, ``columns`` and ``size_of`` are
    there so tests can drive the bar without a real terminal or real time.
    """

    def __init__(
        self,
        paths: Sequence[str],
        stream: IO[str],
        *,
        enabled: bool = True,
        clock: Callable[[], float] = time.monotonic,
        columns: Callable[[], int] | None = None,
        size_of: Callable[[str], int | None] = log_size,
    ) -> None:
        self.stream = stream
        self.clock = clock
        self.columns = columns if columns is not None else (lambda: terminal_columns(stream))
        self.paths = list(paths)
        self.active = enabled and bool(self.paths) and is_terminal(stream) and os.environ.get("TERM") != "dumb"
        self.sizes: list[int] = []
        self.total_bytes: int | None = None
        if self.active:  # stat thousands of files only when a bar may be drawn
            measured = [size_of(path) for path in self.paths]
            self.sizes = [size or 0 for size in measured]
            if all(size is not None for size in measured):
                self.total_bytes = sum(self.sizes)
            self.active = len(self.paths) >= 2 or (self.total_bytes or 0) >= LARGE_INPUT
        self.files_done = 0
        self.bytes_done = 0
        self._partial = 0  # bytes read of the log being replayed now, not yet counted as done
        self._started = clock()
        self._last_frame_at: float | None = None
        self._frame = ""  # the last frame drawn
        self._visible = False  # a frame is on the line now
        self._hidden = False  # erased to let the report through; repainted at the next event

    # --- what the run tells the bar ----------------------------------------------------------

    def in_file(self, path: str, bytes_done: int) -> None:
        """``bytes_done`` of ``path``, the log being replayed in this process, have been read.

        Matches :data:`sgcheck.replay.files.Progress`. Counted only for the next log due, and
        never beyond its size, so a log is not counted twice when its result comes.
        """
        if not self.active or self.files_done >= len(self.paths) or path != self.paths[self.files_done]:
            return
        self._partial = max(0, min(bytes_done, self.sizes[self.files_done]))
        self._tick()

    def advance_file(self) -> None:
        """The next log's result has come (replayed here or by a worker): count it whole."""
        if not self.active or self.files_done >= len(self.paths):
            return
        self.bytes_done += self.sizes[self.files_done]
        self.files_done += 1
        self._partial = 0
        self._tick()

    def follow(self, results: Iterable[tuple[T, str]], *, shares_terminal: bool) -> Iterator[tuple[T, str]]:
        """Pass on ``results`` (a result and the report text to write for it), counting each.

        With ``shares_terminal`` (standard output is a terminal too) the bar is erased before
        each piece of report text is written, so the report never lands on the bar's line, and
        drawn again under it afterwards. The bar is erased for good once the last result is
        through, before the report's closing lines are written.
        """
        for result, text in results:
            if text and shares_terminal:
                self.hide()
            yield result, text
            self.advance_file()
        self.close()

    def hide(self) -> None:
        """Erase the bar while something else is written to the terminal; the next event draws it again."""
        if self._visible:
            self._write(ERASE)
            self._visible = False
            self._hidden = True

    def close(self) -> None:
        """Erase the bar and stop: the terminal is left showing only the report. Safe to call twice."""
        if self._visible:
            self._write(ERASE)
        self._visible = False
        self._hidden = False
        self.active = False

    # --- drawing -----------------------------------------------------------------------------

    def _tick(self) -> None:
        now = self.clock()
        due = now - self._started >= FIRST_FRAME_DELAY and (
            self._last_frame_at is None or now - self._last_frame_at >= MIN_INTERVAL
        )
        if due:
            frame = self.render(now)
            self._last_frame_at = now
            if frame != self._frame or not self._visible:
                self._frame = frame
                self._write(f"\r{frame}\x1b[K")
                self._visible = self.active
        elif self._hidden and self._frame:  # put back the last frame under the report text
            self._write(f"\r{self._frame}\x1b[K")
            self._visible = self.active
        self._hidden = False

    def fraction(self) -> float:
        """How much of the run is done, by bytes when the total is known, else by files."""
        if self.total_bytes:
            return min(1.0, (self.bytes_done + self._partial) / self.total_bytes)
        return self.files_done / len(self.paths) if self.paths else 1.0

    def render(self, now: float) -> str:
        """One frame, at most one column narrower than the terminal (the last column would wrap).

        The counts are padded and room is kept for the ETA, so the bar does not change width
        (and seem to jump) as the numbers grow.
        """
        width = max(1, self.columns() - 1)
        fraction = self.fraction()
        total = str(len(self.paths))
        parts = [f"{self.files_done:>{len(total)}}/{total} files"]
        if self.total_bytes:
            done = min(self.bytes_done + self._partial, self.total_bytes)
            parts.append(f"{human_bytes(done):>{BYTES_WIDTH}}/{human_bytes(self.total_bytes)}")
        parts.append(f"{int(fraction * 100):3d}%")
        head = "  ".join(parts)
        elapsed = now - self._started
        eta = ""
        if 0 < fraction < 1 and elapsed >= MIN_ETA_ELAPSED:
            eta = f"ETA {human_duration(elapsed * (1 - fraction) / fraction)}"
        bar_width = width - len(head) - len(" [] ") - max(len(eta), ETA_WIDTH)
        if bar_width >= MIN_BAR_WIDTH:
            filled = int(fraction * bar_width)
            return f"{head} [{'#' * filled}{'-' * (bar_width - filled)}] {eta}".rstrip()
        text = f"{head}  {eta}".rstrip()
        return text if len(text) <= width else head[:width]  # a narrow terminal: the ETA goes first

    def _write(self, text: str) -> None:
        if not self.active:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken terminal: give up on the bar, not the run
            self.active = False
            self._visible = False


class CountBar:
    """A bar for runs counted in items rather than files (``sgcheck simulate``'s games): done /
    total, the rate per second, a ``#``/``-`` bar and the time left. Drawn on the terms of
    :class:`ProgressBar`: on a terminal that understands cursor controls only, not before
    :data:`FIRST_FRAME_DELAY`, at most every :data:`MIN_INTERVAL`, erased at the end, and a
    failure to write turns it off for good."""

    def __init__(
        self,
        total: int,
        stream: IO[str],
        *,
        unit: str = "games",
        enabled: bool = True,
        clock: Callable[[], float] = time.monotonic,
        columns: Callable[[], int] | None = None,
    ) -> None:
        self.stream = stream
        self.total = total
        self.unit = unit
        self.clock = clock
        self.columns = columns if columns is not None else (lambda: terminal_columns(stream))
        self.active = enabled and total > 0 and is_terminal(stream) and os.environ.get("TERM") != "dumb"
        self.done = 0
        self._started = clock()
        self._last_frame_at: float | None = None
        self._visible = False

    def advance(self, count: int = 1) -> None:
        self.done += count
        if not self.active:
            return
        now = self.clock()
        if now - self._started < FIRST_FRAME_DELAY:
            return
        if self._last_frame_at is not None and now - self._last_frame_at < MIN_INTERVAL and self.done < self.total:
            return
        self._last_frame_at = now
        self._write(f"\r{self.render(now)}\x1b[K")
        self._visible = self.active

    def render(self, now: float) -> str:
        """One frame: ``37/200 games  12.3/s [####------] ETA 0:13``, narrower than the terminal."""
        width = max(1, self.columns() - 1)
        elapsed = max(1e-9, now - self._started)
        speed = self.done / elapsed
        total = str(self.total)
        head = f"{self.done:>{len(total)}}/{total} {self.unit}  {speed:7.1f}/s"
        eta = ""
        if 0 < self.done < self.total and elapsed >= MIN_ETA_ELAPSED:
            eta = f"ETA {human_duration((self.total - self.done) / speed)}"
        bar_width = width - len(head) - len(" [] ") - max(len(eta), ETA_WIDTH)
        if bar_width >= MIN_BAR_WIDTH:
            filled = int(self.done / self.total * bar_width)
            return f"{head} [{'#' * filled}{'-' * (bar_width - filled)}] {eta}".rstrip()
        text = f"{head}  {eta}".rstrip()
        return text if len(text) <= width else head[:width]

    def close(self) -> None:
        if self._visible:
            self._write(ERASE)
        self._visible = False
        self.active = False

    def _write(self, text: str) -> None:
        if not self.active:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.active = False
            self._visible = False
