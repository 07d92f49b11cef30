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

Before a command runs, what importing made is set aside from the cycle collector
(``gc.freeze``: it lives as long as the process), and a collection of the young objects waits
for :data:`YOUNG_OBJECTS` new ones instead of 700. A replay makes millions of small objects that
reference counting frees (states, actions, a turn's steps), none of them in a cycle; with the
default threshold the collector looked at them every 700 allocations and walked the modules'
objects at each full collection, about a tenth of a long replay's time (docs/benchmarks.md).
Objects in cycles are still collected, a few thousand allocations later.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from sgcheck import __version__
from sgcheck.streams import ClosedOutput, cannot_write, end_quietly, is_closed_pipe

HELP_FILE = Path(__file__).with_name("_help.txt")

#: New container objects between two collections of the youngest generation (Python's default: 700).
YOUNG_OBJECTS = 10_000


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

    collect_less()
    main(args=args, prog_name="sgcheck")


def collect_less() -> None:
    """Keep the cycle collector off what importing made, and let it wait for more new objects."""
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, old)


if __name__ == "__main__":
    run()
