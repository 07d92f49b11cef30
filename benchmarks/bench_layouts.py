"""Replay speed and memory, compiled and pure build, in every layout a log may be written in, against
python-chess in the same run: the tables of docs/benchmarks.md ("The targets").

Run from the repository root after ``pip install '.[bench]'``:

    python benchmarks/bench_layouts.py                               # every table (about 20 minutes)
    python benchmarks/bench_layouts.py --only throughput --actions 100000
    python benchmarks/bench_layouts.py --only corpus                  # 2,000 one-game logs, --jobs 1 and 2
    python benchmarks/bench_layouts.py --only cards
    python benchmarks/bench_layouts.py --only memory --layouts plain,mixed
    python benchmarks/bench_layouts.py --only profile                 # where the time goes, each build

Every sgcheck figure is measured in child processes, once in each build: as installed (compiled
when the installed sgcheck is) and with ``SGCHECK_PURE=1``; when the installed build is pure it says
"compiled build not installed" and measures the pure build only. The children import the installed
sgcheck (``--checkout``: this checkout instead). python-chess is measured in the same run, and each
figure is quoted as a ratio to it (above 1: sgcheck is faster, or for memory, smaller).

The layouts are those of ``sgcheck.replay.layouts`` (plain, capitalised, indented, brace-comments,
two-line, crlf-bom, mixed): the same generated game, rewritten as people write logs by hand.

- throughput: a generated log of ``--actions`` statements in each layout, replayed as the command line
  does (``replay_input``: reading, decoding, parsing, replay, summary), CPU time in the child, against
  python-chess reading a PGN file of as many plies (``chess.pgn.read_game``, which parses and
  validates every move); best of ``--repeats``, the builds and the peer in turn.
- corpus: ``--games`` one-game logs (``--game-actions`` actions each, as ``bench_corpus.py``) in the
  ``--corpus-layouts``, replayed by the real command line (``sgcheck replay FOLDER --jobs 1`` and
  ``--jobs 2``) against python-chess reading as many PGN files of the same plies in one process;
  ``--jobs 1`` by CPU time (of the process), ``--jobs 2`` by wall time, best of ``--repeats``.
- cards: a game in which both sides play the guide's cards against a game of the same length
  without, both against python-chess.
- memory: the peak resident set size of ``sgcheck replay --no-summary`` on ``--memory-actions``
  statements in each layout, against python-chess reading a PGN file of as many plies. A layout
  whose file is larger than the log size limit is refused (SG-P010) and measured again with as many
  whole turns as fit.
- profile: where the time of the plain long log goes in each build, timed with counters (which
  see into compiled modules): the reader alone, the core engine alone, the rest (turn loop, claim
  checks, decoding, summary); and, for the pure build only, a profile by module under cProfile.

Tables are printed in markdown, as docs/benchmarks.md quotes them. A measurement that measured
nothing (no statements, an empty corpus, python-chess missing, a replay with findings) stops the
benchmark with exit code 2. Generated inputs are cached in ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import (
    PGN_FILE_READER,
    PGN_READER,
    SGCHECK,
    Target,
    corpus,
    corpus_expect,
    count_statements,
    fail,
    fit_log,
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

from sgcheck.replay.layouts import LAYOUTS

BUILDS = ("compiled", "pure")
LONG_LOG_TARGET = {"compiled": 2.0}  # python-chess time / sgcheck time, every layout
CORPUS_TARGET = {"compiled": 2.0, "pure": 0.95}  # --jobs 1, CPU time
MEMORY_TARGET_MB = 100
WARM_BYTES = 20_000
NOT_MEASURED = "—"


def verdict(value: float, target: float | None, *, at_most: bool = False) -> str:
    if target is None:
        return "no target"
    met = value <= target if at_most else value >= target
    return f"{'≤' if at_most else '≥'} {target:g}{'' if at_most else '×'}: {'met' if met else 'NOT met'}"


def row(*cells: object) -> None:
    print("| " + " | ".join(str(cell) for cell in cells) + " |")


def header(*cells: str) -> None:
    row(*cells)
    row(*("---" for _ in cells))


def cell(seconds: float, ratio: float) -> str:
    return f"{seconds:.2f} s · {ratio:.2f}×"


def _warm(source: Path) -> Path:
    """The first whole turns of ``source``: replayed first in each child, as every run builds its parser."""
    return fit_log(source, WARM_BYTES)[0]


def replay_seconds(target: Target, build: str, log: Path, warm: Path, pack: Path | None = None) -> float:
    return min(target.work(build, "replay", log, 1, warm, pack or "-")["seconds"])


# --- throughput ----------------------------------------------------------------------------------


def throughput(target: Target, builds: Sequence[str], actions: int, layouts: list[str], repeats: int) -> None:
    from bench_replay import generated_log

    source = generated_log(actions)
    warm = _warm(source)
    print(f"\nA long log in every layout: {actions:,} actions, best of {repeats}, CPU time")
    print("(each cell: sgcheck's time · python-chess time / sgcheck time)\n")
    header("layout", "size", "statements", *(f"{b} build" for b in BUILDS), "python-chess", "target (compiled)")
    for layout in layouts:
        path, n = layout_log(source, layout)
        if n == 0:
            fail(f"the {layout} log {path.name} holds no statement: nothing to measure")
        pgn = pgn_file(n)
        ours: dict[str, list[float]] = {build: [] for build in builds}
        peer: list[float] = []
        for _ in range(repeats):  # in turn, so that a slow spell of the machine hits every side
            for build in builds:
                ours[build].append(replay_seconds(target, build, path, warm))
            peer += target.peer(pgn, 1, n)
        best_peer = min(peer)
        ratios = {build: best_peer / min(times) for build, times in ours.items()}
        cells = [cell(min(ours[b]), ratios[b]) if b in ours else NOT_MEASURED for b in BUILDS]
        goal = verdict(ratios["compiled"], LONG_LOG_TARGET["compiled"]) if "compiled" in ratios else NOT_MEASURED
        row(f"`{layout}`", f"{path.stat().st_size / 1e6:.1f} MB", f"{n:,}", *cells, f"{best_peer:.2f} s", goal)


# --- corpus --------------------------------------------------------------------------------------


def corpus_mode(
    target: Target, builds: Sequence[str], games: int, actions: int, layouts: list[str], repeats: int, jobs: int
) -> None:
    plain = corpus(games, actions)
    sglogs(plain)
    pgn, plies = pgn_corpus(plain)
    if plies == 0:
        fail(f"the corpus {plain} holds no statement: nothing to measure")
    reader = [sys.executable, "-c", PGN_READER, str(pgn)]
    print(
        f"\nThe corpus: {games:,} one-game logs of {actions} actions ({plies:,} statements with the passes),"
        f" best of {repeats}"
    )
    print(
        f"(`--jobs 1`: CPU time of the process · python-chess CPU / sgcheck CPU; `--jobs {jobs}`: wall time"
        " · python-chess wall / sgcheck wall)\n"
    )
    header("layout", "build", "`--jobs 1`", f"`--jobs {jobs}`", "python-chess (CPU, wall)", "target (`--jobs 1`)")
    expect = corpus_expect(games)
    for layout in layouts:
        folder = layout_corpus(plain, layout)
        if sglogs(folder) != games:
            fail(f"the corpus {folder} holds {sglogs(folder)} logs, not {games}")
        one: dict[str, list[float]] = {build: [] for build in builds}
        many: dict[str, list[float]] = {build: [] for build in builds}
        peer_cpu: list[float] = []
        peer_wall: list[float] = []
        for _ in range(repeats):
            for build in builds:
                one[build].append(timed(target, replay_cli(folder, 1), build, expect=expect).cpu)
                many[build].append(timed(target, replay_cli(folder, jobs), build, expect=expect).wall)
            peer = timed(target, reader, None, expect=rf"^{plies}\s*$")
            peer_cpu.append(peer.cpu)
            peer_wall.append(peer.wall)
        chess_cpu, chess_wall = min(peer_cpu), min(peer_wall)
        for build in builds:
            t1, tn = min(one[build]), min(many[build])
            row(
                f"`{layout}`",
                build,
                cell(t1, chess_cpu / t1),
                cell(tn, chess_wall / tn),
                f"{chess_cpu:.2f} s, {chess_wall:.2f} s",
                verdict(chess_cpu / t1, CORPUS_TARGET.get(build)),
            )


# --- cards in play -------------------------------------------------------------------------------


def cards(target: Target, builds: Sequence[str], actions: int, repeats: int) -> None:
    from bench_replay import CARDS_PACK, generated_log

    plain, with_cards = generated_log(actions, seed=13), generated_log(actions, seed=13, cards=True)
    n_plain = count_statements(plain.read_text(encoding="utf-8"))
    n_cards = count_statements(with_cards.read_text(encoding="utf-8"))
    if min(n_plain, n_cards) == 0:
        fail("a generated game of the cards benchmark holds no statement: nothing to measure")
    warm_plain, warm_cards = _warm(plain), _warm(with_cards)
    pgn = pgn_file(n_cards)
    print(
        f"\nCards in play: {n_cards:,} statements in which both sides play the guide's cards, against"
        f" {n_plain:,} without; best of {repeats}, CPU time"
    )
    print("(each cell: sgcheck's time · python-chess plies/s over sgcheck statements/s)\n")
    header("build", "with cards", "without cards", "python-chess", "with / without")
    timings: dict[str, tuple[list[float], list[float]]] = {build: ([], []) for build in builds}
    peer: list[float] = []
    for _ in range(repeats):
        for build in builds:
            timings[build][0].append(replay_seconds(target, build, with_cards, warm_cards, CARDS_PACK))
            timings[build][1].append(replay_seconds(target, build, plain, warm_plain))
        peer += target.peer(pgn, 1, n_cards)
    rate = n_cards / min(peer)
    for build in builds:
        ours, without = min(timings[build][0]), min(timings[build][1])
        row(
            build,
            cell(ours, (n_cards / ours) / rate),
            cell(without, (n_plain / without) / rate),
            f"{min(peer):.2f} s ({n_cards:,} plies)",
            f"{(n_cards / ours) / (n_plain / without):.2f}×",
        )


# --- memory --------------------------------------------------------------------------------------


def memory(target: Target, builds: Sequence[str], actions: int, layouts: list[str]) -> None:
    from bench_memory import measure
    from bench_replay import generated_log

    from sgcheck.lang.source import LOG_LIMIT

    limit = LOG_LIMIT.max_bytes
    source = generated_log(actions, seed=11)
    idle = {
        build: measure([sys.executable, "-c", "import sgcheck.cli"], target=target, build=build) for build in builds
    }
    print(f"\nPeak memory: `sgcheck replay --no-summary` on {actions:,} actions in each layout, peak RSS")
    print(
        "(each cell: sgcheck's peak · python-chess peak / sgcheck peak; sgcheck idle: "
        + ", ".join(f"{build} {idle[build].mb:.0f} MB" for build in builds)
        + f"; log size limit {limit / 1e6:.0f} MB)\n"
    )
    header(
        "layout",
        "statements",
        "size",
        *(f"{b} build" for b in BUILDS),
        "python-chess",
        f"target ≤ {MEMORY_TARGET_MB} MB",
    )
    over: list[str] = []
    for layout in layouts:
        path, n = layout_log(source, layout)
        if n == 0:
            fail(f"the {layout} log {path.name} holds no statement: nothing to measure")
        label = f"`{layout}`"
        if path.stat().st_size > limit:
            over.append(layout)
            path, n = fit_log(path, limit)
            label += " (the turns within the limit)"
        pgn = pgn_file(n)
        peer = measure([sys.executable, "-c", PGN_FILE_READER, str(pgn)], target=target)
        if peer.status != 0 or peer.last.strip() != str(n):
            fail(f"python-chess did not read {n} plies from {pgn.name}: exit {peer.status}, {peer.last[:200]}")
        peaks: dict[str, float] = {}
        for build in builds:
            result = measure([*SGCHECK, "replay", "--no-summary", str(path)], target=target, build=build)
            if result.status != 0:
                fail(f"{build} build: sgcheck replay {path.name} exited {result.status}: {result.last[:200]}")
            peaks[build] = result.mb
        cells = [f"{peaks[b]:.0f} MB · {peer.mb / peaks[b]:.2f}×" if b in peaks else NOT_MEASURED for b in BUILDS]
        worst = max(peaks.values())
        row(
            label,
            f"{n:,}",
            f"{path.stat().st_size / 1e6:.1f} MB",
            *cells,
            f"{peer.mb:.0f} MB",
            verdict(worst, MEMORY_TARGET_MB, at_most=True),
        )
    if over:
        print(f"\nOver the log size limit at {actions:,} actions (measured within it): {', '.join(over)}")


# --- profile -------------------------------------------------------------------------------------


def profile(target: Target, builds: Sequence[str], actions: int, repeats: int) -> None:
    from bench_replay import generated_log

    source = generated_log(actions)
    n = count_statements(source.read_text(encoding="utf-8"))
    if n == 0:
        fail(f"{source.name} holds no statement: nothing to profile")
    warm = _warm(source)
    print(f"\nWhere the time goes: the plain {actions:,}-action log ({n:,} statements), best of {repeats}, CPU time")
    print("(read: the line reader alone; engine: every engine.apply of the game alone; rest: the turn loop,")
    print("claim checks, decoding and the summary, the whole replay less the two)\n")
    header("build", "whole replay", "read", "engine", "rest", "µs per statement")
    for build in builds:
        runs = [target.work(build, "phases", source, warm, actions, 7) for _ in range(repeats)]
        whole = min(run["whole"] for run in runs)
        read = min(run["read"] for run in runs)
        engines = [run["engine"] for run in runs if run["engine"] is not None]
        if not engines:
            fail(f"the {build} build's engine could not be timed apart (the generator's engine calls were not seen)")
        engine = min(engines)
        rest = whole - read - engine

        def part(seconds: float, whole: float = whole) -> str:
            return f"{seconds:.2f} s ({100 * seconds / whole:.0f}%)"

        row(build, f"{whole:.2f} s", part(read), part(engine), part(rest), f"{1e6 * whole / n:.1f}")
    if "pure" not in builds:
        return
    answer = target.work("pure", "profile", source, warm)
    modules: dict[str, float] = answer["modules"]
    total = sum(modules.values())
    if total <= 0:
        fail("the profile of the pure build recorded no time")
    print("\nThe pure build under cProfile, own time by module (a profiler sees no function of a compiled module):\n")
    header("module", "own time", "share")
    for module, seconds in sorted(modules.items(), key=lambda item: -item[1])[:12]:
        row(f"`{module}`", f"{seconds:.2f} s", f"{100 * seconds / total:.0f}%")
    print("\nThe functions with the most own time:\n")
    header("function", "own time")
    for seconds, name in answer["functions"][:10]:
        row(f"`{name}`", f"{seconds:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("throughput", "corpus", "cards", "memory", "profile"))
    parser.add_argument("--layouts", default=",".join(LAYOUTS), help="comma-separated (default: all)")
    parser.add_argument("--actions", type=int, default=100_000, help="statements of the long log")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game-actions", type=int, default=137)
    parser.add_argument("--corpus-layouts", default="plain,mixed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--memory-actions", type=int, default=1_000_000)
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    layouts = [name for name in args.layouts.split(",") if name]
    corpus_layouts = [name for name in args.corpus_layouts.split(",") if name]
    unknown = set(layouts + corpus_layouts) - set(LAYOUTS)
    if unknown:
        parser.error(f"unknown layouts: {', '.join(sorted(unknown))}; known: {', '.join(LAYOUTS)}")
    if not layouts or not corpus_layouts or min(args.actions, args.games, args.game_actions, args.repeats) < 1:
        parser.error("nothing to measure: give at least one layout, action, game and repeat")
    chess_version = need_chess()
    commit = subprocess.run(
        ["git", "-C", str(Path(__file__).resolve().parents[1]), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(
        f"Python {platform.python_version()}, lark {version('lark')}, python-chess {chess_version},"
        f" {platform.system()} {platform.machine()}, commit {commit or 'unknown'}"
    )
    target = Target(checkout=args.checkout)
    builds = target.builds()
    if args.only in (None, "throughput"):
        throughput(target, builds, args.actions, layouts, args.repeats)
    if args.only in (None, "corpus"):
        corpus_mode(target, builds, args.games, args.game_actions, corpus_layouts, args.repeats, args.jobs)
    if args.only in (None, "cards"):
        cards(target, builds, args.actions, args.repeats)
    if args.only in (None, "memory"):
        memory(target, builds, args.memory_actions, layouts)
    if args.only in (None, "profile"):
        profile(target, builds, args.actions, args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
