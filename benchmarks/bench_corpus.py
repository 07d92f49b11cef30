"""Corpus benchmark: one ``sgcheck replay`` process over a folder of one-game logs, with
``--jobs 1`` and ``--jobs N``, against python-chess reading as many PGN files of the same plies
in one process, measured in the same run.

Run from the repository root after ``pip install '.[bench]'``:

    python benchmarks/bench_corpus.py                 # 2,000 games of 137 actions
    python benchmarks/bench_corpus.py --games 500 --jobs 2
    python benchmarks/bench_corpus.py --corpus FOLDER # the legal logs of FOLDER instead

Each build is measured (compiled and pure when the compiled one is installed; benchmarks/shared.py)
by the real command line, in child processes that import the installed sgcheck (``--checkout``:
this checkout). Every run must replay every log of the corpus without a finding: an empty corpus,
a folder search that skipped the logs or a replay with findings fails the benchmark with exit code 2.
The ratios are the figures to quote (absolute times drift on a shared machine): python-chess time
over sgcheck time (CPU time for ``--jobs 1``, wall time for ``--jobs N``) and ``--jobs 1`` over
``--jobs N`` (wall time). The games are generated once into ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import (
    PGN_READER,
    Target,
    Timing,
    corpus,
    corpus_expect,
    fail,
    guard,
    need_chess,
    pgn_corpus,
    replay_cli,
    sglogs,
    timed,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=137)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--corpus", type=Path, help="a folder of legal logs to replay instead of the generated games")
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    if min(args.repeats, args.jobs) < 1:
        parser.error("--repeats and --jobs must be at least 1")
    need_chess()
    if args.corpus is not None:
        folder = args.corpus.resolve()
        if not folder.is_dir():
            fail(f"{args.corpus} is not a folder")
    elif args.games < 1 or args.actions < 1:
        fail(f"a corpus of {args.games} games of {args.actions} actions: nothing to measure")
    else:
        folder = corpus(args.games, args.actions)
    games = sglogs(folder)
    pgn, plies = pgn_corpus(folder)
    if plies == 0:
        fail(f"the logs of {folder} hold no statement: nothing to measure")
    target = Target(checkout=args.checkout)
    builds = target.builds()
    expect = corpus_expect(games)
    reader = [sys.executable, "-c", PGN_READER, str(pgn)]
    one: dict[str, list[Timing]] = {build: [] for build in builds}
    many: dict[str, list[float]] = {build: [] for build in builds}
    peer_cpu, peer_wall = [], []
    for _ in range(args.repeats):  # in turn, so drift hits every side alike
        for build in builds:
            one[build].append(timed(target, replay_cli(folder, 1), build, expect=expect))
            many[build].append(timed(target, replay_cli(folder, args.jobs), build, expect=expect).wall)
        peer = timed(target, reader, None, expect=rf"^{plies}\s*$")
        peer_cpu.append(peer.cpu)
        peer_wall.append(peer.wall)
    chess_cpu, chess_wall = min(peer_cpu), min(peer_wall)
    print(f"{games} games, {plies:,} statements with the passes, {os.cpu_count()} cores, best of {args.repeats}")
    print(f"  python-chess: {chess_cpu:.2f} s CPU, {chess_wall:.2f} s wall")
    for build in builds:
        t1, w1, tn = min(t.cpu for t in one[build]), min(t.wall for t in one[build]), min(many[build])
        print(
            f"  {build} build: --jobs 1: {t1:.2f} s CPU ({chess_cpu / t1:.2f}x python-chess)"
            f"   --jobs {args.jobs}: {tn:.2f} s wall ({chess_wall / tn:.2f}x python-chess)"
            f"   speed-up {w1 / tn:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
