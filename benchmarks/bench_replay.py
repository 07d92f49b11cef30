"""Replay benchmarks: throughput against python-chess, cards against no cards, peak memory, start-up time.

Run from the repository root after ``pip install '.[bench]'``:

    python benchmarks/bench_replay.py                 # all four, default sizes
    python benchmarks/bench_replay.py --actions 200000 --memory-actions 1000000
    python benchmarks/bench_replay.py --only cards    # a game with cards against one without

Every figure is compared with a peer measured in the same run (python-chess reading
the same number of plies; a bare ``python -c pass``), because absolute timings on a
shared machine drift. Every sgcheck figure is measured in child processes, in each build
(compiled and pure when the compiled one is installed; benchmarks/shared.py), of the installed
sgcheck (``--checkout``: this checkout). A measurement that measured nothing fails the benchmark
with exit code 2. Generated logs are cached in ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # shared.py, as the other benchmarks import it

from shared import (  # noqa: E402
    OUT,
    PGN_FILE_READER,
    SGCHECK,
    Target,
    count_statements,
    fail,
    fit_log,
    guard,
    need_chess,
    pgn_file,
)

#: The pack of the game with cards: the guide's Relic Spells that keep the contract.
CARDS_PACK = ROOT / "examples" / "logs" / "relic-pack"


def generated_log(actions: int, seed: int = 7, *, cards: bool = False) -> Path:
    """A legal generated log with at least ``actions`` statements (cached); with ``cards`` both
    sides draft from :data:`CARDS_PACK` and play their cards."""
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.play.pack import GamePack, load_game_pack
    from sgcheck.replay.generate import Claims, Style, iter_game

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"legal-{actions}-{seed}{'-cards' if cards else ''}.sglog"
    if path.exists():
        return path
    pack = load_game_pack(str(CARDS_PACK), log_folder=None, from_tag=False) if cards else None
    assert pack is None or isinstance(pack, GamePack), pack
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        for item in iter_game(
            seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=10**9, max_actions=actions, pack=pack
        ):
            if not hasattr(item, "board"):
                out.write(format_item(item))  # type: ignore[arg-type]
                out.write("\n")
    tmp.rename(path)
    return path


def count_actions(path: Path) -> int:
    """The statements of a log (actions, card plays and passes); a log without any fails the benchmark."""
    n = count_statements(path.read_text(encoding="utf-8"))
    if n == 0:
        fail(f"{path.name} holds no statement: nothing to measure")
    return n


def warm_log(path: Path) -> Path:
    """The first whole turns of ``path``: replayed first in each child, as every run builds its parser."""
    return fit_log(path, 20_000)[0]


def best_alternating(
    target: Target, builds: Sequence[str], log: Path, pgn: Path, plies: int, repeats: int, *, pack: Path | None = None
) -> tuple[dict[str, float], float]:
    """The best of ``repeats`` CPU times of replaying ``log`` in each build and of python-chess reading
    ``pgn``, taken in turn, so that a slow spell of a shared machine hits every side rather than one."""
    warm = warm_log(log)
    mine: dict[str, list[float]] = {build: [] for build in builds}
    theirs: list[float] = []
    for _ in range(repeats):
        for build in builds:
            mine[build] += target.work(build, "replay", log, 1, warm, pack or "-")["seconds"]
        theirs += target.peer(pgn, 1, plies)
    return {build: min(times) for build, times in mine.items()}, min(theirs)


def throughput(target: Target, builds: Sequence[str], actions: int, repeats: int) -> None:
    path = generated_log(actions)
    n = count_actions(path)
    pgn = pgn_file(n)
    ours, peer = best_alternating(target, builds, path, pgn, n, repeats)
    print(
        f"throughput: {n} actions ({path.stat().st_size / 1e6:.1f} MB) vs {n} plies of PGN"
        f" ({pgn.stat().st_size / 1e6:.1f} MB), best of {repeats}, CPU time"
    )
    print(f"  python-chess read_game (parse + SAN validation): {peer:.2f} s = {n / peer:,.0f} plies/s")
    for build in builds:
        print(
            f"  sgcheck replay, {build} build (parse + full validation): {ours[build]:.2f} s"
            f" = {n / ours[build]:,.0f} actions/s; ratio sgcheck/python-chess: {peer / ours[build]:.2f}x"
        )


def cards_against_none(target: Target, builds: Sequence[str], actions: int, repeats: int) -> None:
    """A game with cards against a game of the same length without: what cards cost per action.

    Both are generated by the same policy from the same seed; the card game's players draft from
    the guide's pack and play what they keep (Relics stay in play for the rest of the game, so
    their effects are consulted on every attack and cost after that). The pack is loaded and
    contract-checked once per process (while the short warm-up log is replayed), so the figures
    measure the replay itself; python-chess reads as many plies as the game with cards has.
    """
    plain, with_cards = generated_log(actions, seed=13), generated_log(actions, seed=13, cards=True)
    n_plain, n_cards = count_actions(plain), count_actions(with_cards)
    pgn = pgn_file(n_cards)
    ours, peer = best_alternating(target, builds, with_cards, pgn, n_cards, repeats, pack=CARDS_PACK)
    without, _ = best_alternating(target, builds, plain, pgn, n_cards, 1)
    print(f"cards: {n_cards} actions with the guide's cards against {n_plain} actions without, best of {repeats}")
    print(f"  python-chess: {peer:.2f} s = {n_cards / peer:,.0f} plies/s")
    for build in builds:
        rate, rate_without = n_cards / ours[build], n_plain / without[build]
        print(
            f"  {build} build: with cards {ours[build]:.2f} s = {rate:,.0f} actions/s ({rate * peer / n_cards:.2f}x"
            f" python-chess); without {without[build]:.2f} s = {rate_without:,.0f} actions/s; ratio with/without:"
            f" {rate / rate_without:.2f}x"
        )


def peak_memory(target: Target, builds: Sequence[str], actions: int) -> None:
    from bench_memory import measure

    path = generated_log(actions, seed=11)
    n = count_actions(path)
    pgn = pgn_file(n)
    peer = measure([sys.executable, "-c", PGN_FILE_READER, str(pgn)], target=target)
    if peer.status != 0 or peer.last.strip() != str(n):
        fail(f"python-chess did not read {n} plies from {pgn.name}: exit {peer.status}, {peer.last[:200]}")
    print(f"memory: replaying {actions:,} actions ({path.stat().st_size / 1e6:.0f} MB of log text)")
    print(f"  python-chess reading as many plies: peak RSS {peer.mb:.0f} MB")
    for build in builds:
        base = measure([sys.executable, "-c", "import sgcheck.cli"], target=target, build=build)
        peak = measure([*SGCHECK, "replay", "--no-summary", str(path)], target=target, build=build)
        if peak.status != 0:
            fail(f"{build} build: sgcheck replay {path.name} exited {peak.status}: {peak.last[:200]}")
        print(
            f"  {build} build: peak RSS {peak.mb:.0f} MB (interpreter + sgcheck imported, idle: {base.mb:.0f} MB);"
            f" python-chess / sgcheck {peer.mb / peak.mb:.2f}x"
        )


def startup(target: Target, builds: Sequence[str], runs: int) -> None:
    def median(cmd: list[str], build: str | None) -> float:
        target.run(cmd, build, stdout=subprocess.DEVNULL)  # warm the caches
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            done = target.run(cmd, build, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                fail(f"{' '.join(cmd[1:])} exited {done.returncode}")
        return statistics.median(times)

    bare = median([sys.executable, "-c", "pass"], None)
    print(f"start-up: median of {runs} runs; python -c pass: {bare * 1000:.0f} ms")
    for build in builds:
        helped = median([*SGCHECK, "--help"], build)
        print(f"  {build} build: sgcheck --help: {helped * 1000:.0f} ms; ratio {helped / bare:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--memory-actions", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", choices=("throughput", "cards", "memory", "startup"))
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    if min(args.actions, args.memory_actions, args.repeats, args.runs) < 1:
        parser.error("nothing to measure: every size, --repeats and --runs must be at least 1")
    if args.only != "startup":
        need_chess()
    target = Target(checkout=args.checkout)
    builds = target.builds()
    if args.only in (None, "throughput"):
        throughput(target, builds, args.actions, args.repeats)
    if args.only in (None, "cards"):
        cards_against_none(target, builds, args.actions, args.repeats)
    if args.only in (None, "memory"):
        peak_memory(target, builds, args.memory_actions)
    if args.only in (None, "startup"):
        startup(target, builds, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
