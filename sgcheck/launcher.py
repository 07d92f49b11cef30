"""The ``sgcheck`` executable.

``sgcheck --help`` and ``sgcheck --version`` are answered without importing click, whose
import alone costs several times a bare interpreter start; everything else goes to the click
application in :mod:`sgcheck.cli`. The stored help text is click's own output, and a test
fails if it drifts from what click would print.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sgcheck import __version__

HELP_FILE = Path(__file__).with_name("_help.txt")


def run(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--help"], ["-h"]):
        try:
            sys.stdout.write(HELP_FILE.read_text(encoding="utf-8"))
            return
        except OSError:
            pass  # fall through to click
    elif args in (["--version"], ["-V"]):
        sys.stdout.write(f"sgcheck, version {__version__}\n")
        return
    from sgcheck.cli import main

    main(args=args, prog_name="sgcheck")


if __name__ == "__main__":
    run()
