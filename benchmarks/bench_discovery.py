"""Why exclude patterns may hold at most two runs of ``*``: matching time on hostile paths.

    python benchmarks/bench_discovery.py

pathspec matches with regular expressions that backtrack, so a pattern's cost on a path that
almost matches grows with a power of the path's length, one power per run of ``*``. This times
``Patterns.decide`` (patterns sgcheck accepts, at most two runs) on a 1,500-folder-deep path and
a 255-character name, against pathspec matching patterns of three runs (which sgcheck refuses)
on paths of 600 to 2,400 characters: each doubling costs about eight times more.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import fail, guard


def timed(decide, paths: list[str]) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    for path in paths:
        decide(path)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    from pathspec import GitIgnoreSpec

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", type=int, default=1500, help="folders of the deep path the accepted patterns meet")
    parser.add_argument("--depths", type=int, nargs="+", default=[300, 600, 1200], help="folders of the refused paths")
    args = parser.parse_args(argv)
    if args.deep < 1 or not args.depths or min(args.depths) < 1:
        fail("paths of no folder: nothing to measure")

    from sgcheck.discovery import patterns

    base = tempfile.mkdtemp()
    accepted = patterns(base, ["**/a/**/b", "*a*b", "a*a/**"])
    long_paths = [os.path.join(base, *(["a"] * args.deep)), os.path.join(base, "a" * 255)]
    two = timed(lambda p: (accepted.decide(p, False), accepted.decide(p, True)), long_paths)
    print(f"accepted patterns (two runs of '*'), paths of {len(long_paths[0]):,} and 255 characters: {two:.3f} s")
    refused = GitIgnoreSpec.from_lines(["*a*a*b", "**/a/**/a/**/b"])
    for depth in args.depths:
        path = "/".join(["a"] * depth)
        three = timed(refused.check_file, [path])
        print(f"refused patterns (three runs of '*'), a path of {len(path):,} characters: {three:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
