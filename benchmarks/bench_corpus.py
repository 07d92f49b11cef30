"""Corpus benchmark: one ``sgcheck replay`` process over a folder of one-game logs, with
``--jobs 1`` and ``--jobs N``, measured in the same run.

Run from the repository root:

    python benchmarks/bench_corpus.py                 # 2,000 games of about 137 actions
    python benchmarks/bench_corpus.py --games 500 --jobs 2

The ratio ``--jobs 1`` / ``--jobs N`` is the figure to quote (absolute times drift on a shared
machine). The games are generated once into ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import corpus, replay_cli, wall_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=137)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    folder = corpus(args.games, args.actions)
    one, many = [], []
    for _ in range(args.repeats):  # interleaved, so drift hits both alike
        one.append(wall_time(replay_cli(folder, 1)))
        many.append(wall_time(replay_cli(folder, args.jobs)))
    t1, tn = statistics.median(one), statistics.median(many)
    print(f"{args.games} games of ~{args.actions} actions, {os.cpu_count()} cores")
    print(f"  --jobs 1: {t1:.2f} s   --jobs {args.jobs}: {tn:.2f} s   speed-up {t1 / tn:.2f}x")


if __name__ == "__main__":
    main()
