"""The ``sgcheck`` executable.

``sgcheck --help`` and ``sgcheck --version`` are answered without importing click, whose
import alone costs several times a bare interpreter start (the version line names the build
that runs, :func:`sgcheck.build.describe`); everything else goes to the click
application in :mod:`sgcheck.cli`. The stored help text is click's own output, and a test
fails if it drifts from what click would print.

Output that cannot be written (a full disk, a closed standard output) is one line on standard
error, ``sgcheck: cannot write the report: …``, and exit status 2, whatever wrote it: a command's
report, click's own help and version text, or the fast answers here
(:func:`sgcheck.streams.cannot_write`, called from here, from
:func:`sgcheck.cli.common.guarded` and from the click group). A closed pipe (``| head -1``) ends
the run quietly with its own status (:mod:`sgcheck.streams`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from sgcheck import __version__
from sgcheck.streams import ClosedOutput, cannot_write, end_quietly, is_closed_pipe

HELP_FILE = Path(__file__).with_name("_help.txt")


def _write(text: str) -> None:
    """``text`` on standard output, flushed now, so that a failure is seen here and not at exit."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        if is_closed_pipe(error):
            end_quietly()
        cannot_write(error)


def run(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if args in (["--help"], ["-h"]):
        try:
            text = HELP_FILE.read_text(encoding="utf-8")
        except OSError:
            text = ""  # fall through to click
        if text:
            _write(text)
            return
    elif args in (["--version"], ["-V"]):
        from sgcheck.build import describe

        _write(f"sgcheck, version {__version__} ({describe()})\n")
        return
    from sgcheck.cli import main

    main(args=args, prog_name="sgcheck")


if __name__ == "__main__":
    run()
