"""Corpus benchmark: ``sgcheck replay --jobs 1 --no-summary`` over a folder of short one-game logs, in
every layout, and over one long log of as many statements, against python-chess reading the same
games, measured in the same run; with ``--baseline-venv`` another install (the previous release's)
side by side.

Run from the repository root after ``pip install '.[bench]'``:

    python benchmarks/bench_corpus.py                          # 2,000 games of 137 actions, every layout
    python benchmarks/bench_corpus.py --layouts plain --baseline-venv ../main-venv
    python benchmarks/bench_corpus.py --games 500 --jobs 2     # also --jobs 2, wall time

``X against the baseline's`` is the baseline's time over this install's, for the same build (above
1×: this install is faster).
    python benchmarks/bench_corpus.py --corpus FOLDER          # the legal logs of FOLDER instead

Every figure is the installed command line end to end (start-up, the folder search, reading,
replay, the report), CPU time of the process, best of ``--repeats``, the sides timed in turn (each
build of each install, then python-chess), so that a slow spell of a shared machine hits them all.
Each build is measured (compiled and pure when the compiled one is installed; benchmarks/shared.py)
in child processes that import the installed sgcheck (``--checkout``: this checkout;
``--baseline-venv PATH``: also the sgcheck installed in the environment PATH, a virtual
environment's folder or its Python).

- **corpus**: the ``--games`` logs in each of ``--layouts`` (rewritten by ``sgcheck.replay.layouts``),
  against python-chess reading one PGN file per game, each of as many plies as the log has
  statements, in one process (``chess.pgn.read_game``, which parses and validates every move);
- **long log**: one generated game with as many actions as the whole corpus, in the same layout,
  against python-chess reading a PGN file of as many plies (``--no-long``: left out);
- **per log**: what a log costs beyond its statements (finding it, reading it, the header, the set-up,
  the result and its part of the report): ``--games`` logs of one action each against one such log,
  the difference divided by the logs less one (start-up is paid once by both); and the time a
  statement costs in the short games against the long log.

Every run must replay every log without a finding: an empty corpus, a folder search that skipped
the logs or a replay with findings fails the benchmark with exit code 2. The ratios are the
figures to quote (absolute times drift on a shared machine). The games are generated once into
``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import (
    PGN_FILE_READER,
    PGN_READER,
    Target,
    corpus,
    corpus_expect,
    fail,
    guard,
    layout_corpus,
    layout_log,
    need_chess,
    pgn_corpus,
    pgn_file,
    replay_cli,
    sglogs,
    timed,
)


@dataclass(frozen=True)
class Side:
    """One thing timed: a build of an install (``label``: ``compiled``, ``baseline pure``...), or python-chess."""

    label: str
    target: Target
    build: str | None  # None: python-chess


def sides(target: Target, baseline: Target | None) -> list[Side]:
    """Each build of this install, then each build of the baseline install."""
    found = [Side(build, target, build) for build in target.builds()]
    if baseline is not None:
        found += [Side(f"baseline {build}", baseline, build) for build in baseline.builds()]
    return found


def replay_command(side: Side, path: Path, jobs: int) -> list[str]:
    """``sgcheck replay PATH --jobs N --no-summary`` as ``side`` runs it."""
    return side.target.sgcheck(*replay_cli(path, jobs)[3:])


def best(side: Side, cmd: list[str], expect: str, times: dict[str, list[float]], wall: bool = False) -> None:
    done = timed(side.target, cmd, side.build, expect=expect)
    times.setdefault(side.label, []).append(done.wall if wall else done.cpu)


def report(title: str, statements: int, times: dict[str, list[float]], peer: str) -> dict[str, float]:
    """Print the best time of each side and its ratio to ``peer``'s; the best times."""
    best_of = {label: min(values) for label, values in times.items()}
    print(f"  {title} ({statements:,} statements):")
    for label, seconds in best_of.items():
        ratio = "" if label == peer else f"   {best_of[peer] / seconds:.2f}x python-chess"
        rate = statements / seconds / 1000
        print(f"    {label:<18} {seconds:7.2f} s   {rate:6.1f}k statements/s{ratio}")
    return best_of


def main(argv: list[str] | None = None) -> int:
    from sgcheck.replay.layouts import LAYOUTS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=137)
    parser.add_argument("--layouts", default=",".join(LAYOUTS), help="comma-separated (default: every layout)")
    parser.add_argument("--jobs", type=int, default=1, help="also time --jobs N (wall time) when above 1")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-long", action="store_true", help="leave out the long log and the per-log cost")
    parser.add_argument("--corpus", type=Path, help="a folder of legal logs to replay instead of the generated games")
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    parser.add_argument(
        "--baseline-venv", type=Path, metavar="PATH", help="also measure the sgcheck installed in this environment"
    )
    args = parser.parse_args(argv)
    layouts = [name for name in args.layouts.split(",") if name]
    if min(args.repeats, args.jobs) < 1:
        parser.error("--repeats and --jobs must be at least 1")
    if not layouts or set(layouts) - set(LAYOUTS):
        parser.error(f"--layouts: choose among {', '.join(LAYOUTS)}")
    need_chess()
    if args.corpus is not None:
        plain = args.corpus.resolve()
        if not plain.is_dir():
            fail(f"{args.corpus} is not a folder")
        layouts = ["as given"]
    elif args.games < 1 or args.actions < 1:
        fail(f"a corpus of {args.games} games of {args.actions} actions: nothing to measure")
    else:
        plain = corpus(args.games, args.actions)
    games = sglogs(plain)
    pgn, plies = pgn_corpus(plain)
    if plies == 0:
        fail(f"the logs of {plain} hold no statement: nothing to measure")
    target = Target(checkout=args.checkout)
    baseline = Target.baseline(args.baseline_venv.resolve()) if args.baseline_venv is not None else None
    timed_sides = sides(target, baseline)
    chess = Side("python-chess", target, None)
    long = None
    if not args.no_long and args.corpus is None:
        from bench_replay import generated_log

        long = generated_log(args.games * args.actions)
    print(
        f"{games:,} one-game logs, {plies:,} statements with the passes, {os.cpu_count()} cores,"
        f" CPU time of the process, best of {args.repeats}"
    )
    for layout in layouts:
        folder = plain if layout in ("plain", "as given") else layout_corpus(plain, layout)
        if sglogs(folder) != games:
            fail(f"the corpus {folder} holds {sglogs(folder)} logs, not {games}")
        print(f"\nlayout {layout}:")
        one: dict[str, list[float]] = {}
        many: dict[str, list[float]] = {}
        expect = corpus_expect(games)
        for _ in range(args.repeats):  # in turn, so drift hits every side alike
            for side in timed_sides:
                best(side, replay_command(side, folder, 1), expect, one)
                if args.jobs > 1:
                    best(side, replay_command(side, folder, args.jobs), expect, many, wall=True)
            best(chess, [sys.executable, "-c", PGN_READER, str(pgn)], rf"^{plies}\s*$", one)
            if args.jobs > 1:
                best(chess, [sys.executable, "-c", PGN_READER, str(pgn)], rf"^{plies}\s*$", many, wall=True)
        shorts = report(f"{games:,} logs, --jobs 1", plies, one, chess.label)
        if args.jobs > 1:
            report(f"{games:,} logs, --jobs {args.jobs}, wall time", plies, many, chess.label)
        if baseline is not None:
            for side in timed_sides:
                if side.label.startswith("baseline "):
                    this = side.label.removeprefix("baseline ")
                    if this in shorts:
                        print(f"    {this} against the baseline's: {shorts[side.label] / shorts[this]:.2f}x")
        if long is None:
            continue
        path, statements = layout_log(long, layout)
        if statements == 0:
            fail(f"the long log {path.name} holds no statement: nothing to measure")
        peer = pgn_file(statements)
        lengths: dict[str, list[float]] = {}
        for _ in range(args.repeats):
            for side in timed_sides:
                best(side, replay_command(side, path, 1), corpus_expect(1), lengths)
            best(chess, [sys.executable, "-c", PGN_FILE_READER, str(peer)], rf"^{statements}\s*$", lengths)
        longs = report("one long log of the same game length in total", statements, lengths, chess.label)
        print("    a statement in the short games, and in the long log:")
        for side in timed_sides:
            short_us, long_us = shorts[side.label] / plies * 1e6, longs[side.label] / statements * 1e6
            print(f"    {side.label:<18} {short_us:6.2f} µs, {long_us:6.2f} µs")
        per_log(timed_sides, games, layout, args.repeats, shorts)
    return 0


def per_log(timed_sides: list[Side], games: int, layout: str, repeats: int, shorts: dict[str, float]) -> None:
    """What a log costs beyond its statements: ``games`` logs of one action each against one."""
    if games < 2:
        return
    many = layout_corpus(corpus(games, 1), layout)
    one = layout_corpus(corpus(1, 1), layout)
    times: dict[str, list[float]] = {}
    ones: dict[str, list[float]] = {}
    for _ in range(repeats):
        for side in timed_sides:
            best(side, replay_command(side, many, 1), corpus_expect(games), times)
            best(side, replay_command(side, one, 1), corpus_expect(1), ones)
    print(f"    per log: {games:,} logs of one action against one such log, the difference per log:")
    for side in timed_sides:
        fixed = (min(times[side.label]) - min(ones[side.label])) / (games - 1)
        share = fixed * games / shorts[side.label]
        print(f"    {side.label:<18} {fixed * 1000:7.3f} ms a log   ({share:.0%} of the time of the {games:,} games)")


if __name__ == "__main__":
    raise SystemExit(guard(main))
