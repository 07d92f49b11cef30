"""Replay speed and memory in every layout a log may be written in, against python-chess.

Run from the repository root after ``pip install '.[bench]'``:

    python benchmarks/bench_layouts.py                              # all three modes
    python benchmarks/bench_layouts.py --only throughput --actions 100000
    python benchmarks/bench_layouts.py --only corpus                 # 2,000 one-game logs, --jobs 1 and 2
    python benchmarks/bench_layouts.py --only memory --layouts plain,mixed

The layouts are those of ``sgcheck.replay.layouts`` (plain, capitalised, indented, brace-comments,
two-line, crlf-bom, mixed): the same generated game, rewritten as people write logs by hand.

- throughput: a generated log of ``--actions`` statements in each layout, written to a file and
  replayed as the command line does (``replay_input``: reading, decoding, parsing, replay, summary),
  against python-chess reading a PGN file of as many plies (``chess.pgn.read_game``, which parses
  and validates every move), the two interleaved in the same run; best of ``--repeats``, CPU time
  of this process (``--clock wall`` for wall time).
- corpus: 2,000 one-game logs (about 137 statements each, as ``bench_corpus.py``) in the plain and
  mixed layouts, replayed by the real command line (``sgcheck replay FOLDER --jobs 1`` and
  ``--jobs 2``, output to /dev/null) against a python-chess process reading 2,000 PGN files with
  the same number of plies each; wall time, best of ``--repeats``, interleaved.
- memory: the peak resident set size of ``sgcheck replay --no-summary`` in a child process (as
  ``bench_memory.py``) on ``--memory-actions`` statements in each layout. A layout whose file is
  larger than the log size limit is refused (SG-P010); it is measured again with as many whole
  turns as fit within the limit.

Ratios are python-chess's time over sgcheck's (above 1: sgcheck is faster) and ``--jobs 1`` over
``--jobs 2``. Generated inputs are cached in ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import (
    PGN_READER,
    SGCHECK,
    corpus,
    fit_log,
    layout_corpus,
    layout_log,
    pgn_corpus,
    replay_cli,
    wall_time,
)

from sgcheck.replay.layouts import LAYOUTS

THROUGHPUT_TARGET = 1.5  # every layout, python-chess time / sgcheck time
PLAIN_TARGET = 2.0
CORPUS_TARGET = 1.5  # --jobs 1 against python-chess
JOBS_TARGET = 1.8  # --jobs 2 against --jobs 1
MEMORY_TARGET_MB = 100


def verdict(value: float, target: float, *, at_most: bool = False) -> str:
    met = value <= target if at_most else value >= target
    return "met" if met else "NOT met"


# --- throughput ----------------------------------------------------------------------------------


def _timer(clock: str) -> Callable[[], float]:
    return time.process_time if clock == "cpu" else time.perf_counter


def time_sgcheck(path: Path, clock: Callable[[], float]) -> float:
    from sgcheck.replay.files import LogInput, replay_input
    from sgcheck.replay.interpreter import ReplayOptions

    start = clock()
    result, _ = replay_input(LogInput(str(path)), ReplayOptions())
    elapsed = clock() - start
    assert not result.diagnostics, result.diagnostics[:3]
    return elapsed


def time_chess(path: Path, plies: int, clock: Callable[[], float]) -> float:
    import chess.pgn

    start = clock()
    read = 0
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors, game.errors
            read += sum(1 for _ in game.mainline_moves())
    elapsed = clock() - start
    assert read == plies, (read, plies)
    return elapsed


def throughput(actions: int, layouts: list[str], repeats: int, clock_name: str) -> None:
    from bench_replay import chess_pgn, generated_log

    clock = _timer(clock_name)
    source = generated_log(actions)
    print(f"throughput: {actions:,}-action generated log in each layout, best of {repeats}, {clock_name} time")
    print(
        f"  target: python-chess time / sgcheck time >= {THROUGHPUT_TARGET}x in every layout, plain >= {PLAIN_TARGET}x"
    )
    print(f"  {'layout':<15} {'size MB':>8} {'sgcheck s':>10} {'actions/s':>10} {'chess s':>8} {'ratio':>6}  target")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        warm = folder / "warm.sglog"
        warm.write_text(source.read_text(encoding="utf-8")[:20_000].rsplit("\n", 30)[0] + "\n", encoding="utf-8")
        time_sgcheck(warm, clock)  # builds the parser once, as any run does before its first log
        pgn: Path | None = None
        for layout in layouts:
            cached, n = layout_log(source, layout)
            path = folder / f"game-{layout}.sglog"
            path.write_bytes(cached.read_bytes())
            if pgn is None:
                pgn = folder / "peer.pgn"
                pgn.write_text(chess_pgn(n), encoding="utf-8")
            ours, peer = [], []
            for _ in range(repeats):  # interleaved, so drift hits both alike
                ours.append(time_sgcheck(path, clock))
                peer.append(time_chess(pgn, n, clock))
            best, best_peer = min(ours), min(peer)
            ratio = best_peer / best
            target = PLAIN_TARGET if layout == "plain" else THROUGHPUT_TARGET
            print(
                f"  {layout:<15} {path.stat().st_size / 1e6:8.1f} {best:10.2f} {n / best:10,.0f} {best_peer:8.2f}"
                f" {ratio:5.2f}x  >= {target}x {verdict(ratio, target)}"
            )
            path.unlink()


# --- corpus --------------------------------------------------------------------------------------


def corpus_mode(games: int, actions: int, layouts: list[str], repeats: int, jobs: int) -> None:
    plain = corpus(games, actions)
    pgn, plies = pgn_corpus(plain)
    reader = [sys.executable, "-c", PGN_READER, str(pgn)]
    print(
        f"corpus: {games:,} one-game logs of ~{actions} actions ({plies:,} statements with the passes),"
        f" best of {repeats}, wall time"
    )
    print(f"  peer: python-chess reading {games:,} PGN files of the same plies in one process")
    print(f"  targets: --jobs 1 >= {CORPUS_TARGET}x python-chess; --jobs {jobs} >= {JOBS_TARGET}x --jobs 1")
    print(
        f"  {'layout':<15} {'--jobs 1 s':>10} {f'--jobs {jobs} s':>10} {'chess s':>8}"
        f" {'jobs1/chess':>11} {f'jobs{jobs}/jobs1':>11}"
    )
    for layout in layouts:
        folder = layout_corpus(plain, layout)
        one, many, peer = [], [], []
        for _ in range(repeats):
            one.append(wall_time(replay_cli(folder, 1)))
            many.append(wall_time(replay_cli(folder, jobs)))
            peer.append(wall_time(reader, expect=str(plies)))
        t1, tn, tp = min(one), min(many), min(peer)
        print(
            f"  {layout:<15} {t1:10.2f} {tn:10.2f} {tp:8.2f} {tp / t1:10.2f}x {t1 / tn:10.2f}x"
            f"  ({verdict(tp / t1, CORPUS_TARGET)}; {verdict(t1 / tn, JOBS_TARGET)})"
        )


# --- memory --------------------------------------------------------------------------------------


def memory(actions: int, layouts: list[str]) -> None:
    from bench_memory import baselines, measure
    from bench_replay import generated_log

    from sgcheck.lang.source import LOG_LIMIT

    limit = LOG_LIMIT.max_bytes
    source = generated_log(actions, seed=11)
    idle = baselines()
    print(f"memory: sgcheck replay --no-summary, {actions:,}-action log in each layout")
    print(f"  target: at most {MEMORY_TARGET_MB} MB in every layout; log size limit {limit:,} bytes")
    print(f"  {'layout':<15} {'statements':>10} {'size MB':>8} {'peak MB':>8} {'+idle':>6} {'s':>6}  result")
    peaks: dict[str, float] = {}
    over: list[str] = []
    for layout in layouts:
        path, n = layout_log(source, layout)
        size = path.stat().st_size
        rows = [(layout, path, n)]
        if size > limit:
            over.append(layout)
            fitted, fitted_n = fit_log(path, limit)
            rows.append(("  within limit", fitted, fitted_n))
        for label, file, count in rows:
            result = measure([*SGCHECK, "replay", "--no-summary", str(file)])
            print(
                f"  {label:<15} {count:10,} {file.stat().st_size / 1e6:8.1f} {result.mb:8.0f}"
                f" {result.mb - idle.mb:+6.0f} {result.seconds:6.1f}  exit {result.status}: {result.last[:60]}"
            )
            if file.stat().st_size <= limit:
                peaks[layout] = result.mb
    worst = max(peaks.values())
    met = verdict(worst, MEMORY_TARGET_MB, at_most=True)
    print(f"  target (<= {MEMORY_TARGET_MB} MB) {met}: highest {worst:.0f} MB among the logs within the limit")
    if over:
        print(f"  over the log size limit ({limit / 1e6:.0f} MB) at {actions:,} actions: {', '.join(over)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("throughput", "corpus", "memory"))
    parser.add_argument("--layouts", default=",".join(LAYOUTS), help="comma-separated (default: all)")
    parser.add_argument("--actions", type=int, default=100_000, help="statements of the throughput log")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="throughput clock")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game-actions", type=int, default=137)
    parser.add_argument("--corpus-layouts", default="plain,mixed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--memory-actions", type=int, default=1_000_000)
    args = parser.parse_args()
    layouts = [name for name in args.layouts.split(",") if name]
    unknown = set(layouts + args.corpus_layouts.split(",")) - set(LAYOUTS)
    if unknown:
        parser.error(f"unknown layouts: {', '.join(sorted(unknown))}; known: {', '.join(LAYOUTS)}")
    print(
        f"Python {platform.python_version()}, lark {version('lark')}, python-chess {version('chess')},"
        f" {platform.system()} {platform.machine()}"
    )
    if args.only in (None, "throughput"):
        throughput(args.actions, layouts, args.repeats, args.clock)
    if args.only in (None, "corpus"):
        corpus_mode(args.games, args.game_actions, args.corpus_layouts.split(","), args.repeats, args.jobs)
    if args.only in (None, "memory"):
        memory(args.memory_actions, layouts)


if __name__ == "__main__":
    main()
