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
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
sys.path.insert(0, str(ROOT))


def corpus(games: int, actions: int) -> Path:
    """``games`` legal one-game logs of about ``actions`` statements each (cached)."""
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Claims, Style, iter_game

    folder = OUT / f"corpus-{games}-{actions}"
    if folder.is_dir() and len(list(folder.glob("*.sglog"))) == games:
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for seed in range(games):
        items = iter_game(seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=10**9, max_actions=actions)
        text = "".join(format_item(item) + "\n" for item in items if not hasattr(item, "board"))  # type: ignore[arg-type]
        (folder / f"game-{seed:05d}.sglog").write_text(text, encoding="utf-8")
    return folder


def wall_time(folder: Path, jobs: int) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sgcheck", "replay", str(folder), "--jobs", str(jobs), "--no-summary"],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    elapsed = time.perf_counter() - start
    assert done.returncode == 0, done.returncode
    return elapsed


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
        one.append(wall_time(folder, 1))
        many.append(wall_time(folder, args.jobs))
    t1, tn = statistics.median(one), statistics.median(many)
    print(f"{args.games} games of ~{args.actions} actions, {os.cpu_count()} cores")
    print(f"  --jobs 1: {t1:.2f} s   --jobs {args.jobs}: {tn:.2f} s   speed-up {t1 / tn:.2f}x")


if __name__ == "__main__":
    main()
