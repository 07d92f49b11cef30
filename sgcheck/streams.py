"""Output that cannot be written: a full disk, a standard output closed before the run, a closed pipe.

Whatever writes it (a command's report, click's own help and version text, the launcher's fast
answers), such a failure is one line on standard error, ``sgcheck: cannot write the report: …``,
and exit status 2 (:func:`cannot_write`), never a traceback or an internal error.

A closed pipe is not a failure: the reader took what it wanted and went away
(``sgcheck replay big.sglog | head -1``), as ruff and ripgrep take it. The run ends quietly, no
message: a report goes on to its end unwritten, so the exit status is the run's own
(:func:`reader_gone`, then ``Output`` in :mod:`sgcheck.cli.common` drops what is left); anything
else that met it (help text, ``explain``, ``schema``) has nothing left to do and exits 0
(:func:`end_quietly`). No import of click here: the launcher answers ``--help`` without it.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import NoReturn

#: The errors of a write that failed because of where the output goes (a full disk or quota, a
#: file grown past its limit, a reader that went away, a standard output closed before the run),
#: never because of sgcheck.
WRITE_ERRNOS = frozenset(
    code for code in (getattr(errno, name, None) for name in ("EPIPE", "ENOSPC", "EDQUOT", "EFBIG", "EBADF")) if code
)


def is_closed_pipe(error: BaseException) -> bool:
    """``error`` is a write to a pipe (or socket) whose reader went away."""
    return isinstance(error, BrokenPipeError) or (isinstance(error, OSError) and error.errno == errno.EPIPE)


_gone = False


def reader_gone() -> None:
    """The reader of standard output went away: from now on standard output is the null device,
    so what is still written (the rest of a report, the interpreter's final flush) goes nowhere,
    without a message."""
    global _gone
    _gone = True
    quiet_stdout()


def stdout_gone() -> bool:
    """Standard output's reader went away earlier in the run (:func:`reader_gone`)."""
    return _gone


def end_quietly() -> NoReturn:
    """A closed pipe met where nothing is left to do: no message, exit 0 (the reader had what it wanted)."""
    reader_gone()
    sys.exit(0)


def is_write_failure(error: BaseException) -> bool:
    """``error`` is a write to the output that failed (see :data:`WRITE_ERRNOS`)."""
    return isinstance(error, BrokenPipeError) or (isinstance(error, OSError) and error.errno in WRITE_ERRNOS)


def quiet_stdout() -> None:
    """Point stdout at the null device so the interpreter's final flush cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def cannot_write(error: BaseException) -> NoReturn:
    """Say that the output cannot be written, on standard error, and exit 2."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    quiet_stdout()
    try:
        sys.stderr.write(f"sgcheck: cannot write the report: {reason}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # standard error is gone too: the exit status still says it
    sys.exit(2)


class ClosedOutput(io.TextIOBase):
    """Standard output when the run started with it closed (``sgcheck ... >&-``; Python then has
    ``sys.stdout = None``): writing anything to it is a write that fails (EBADF), so it is
    reported as any other output that cannot be written, while ``--output-file`` still works."""

    encoding = "utf-8"
    errors = "strict"

    @property
    def buffer(self) -> ClosedOutput:  # bytes written to it fail the same way
        return self

    def writable(self) -> bool:
        return True

    def write(self, text: str | bytes) -> int:
        if not text:
            return 0
        raise OSError(errno.EBADF, "standard output is closed")
