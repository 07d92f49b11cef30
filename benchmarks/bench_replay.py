"""Replay benchmarks: throughput against python-chess, cards against no cards, peak memory, start-up time.

Run from the repository root after ``pip install '.[bench]'``:

    python benchmarks/bench_replay.py                 # all four, default sizes
    python benchmarks/bench_replay.py --actions 200000 --memory-actions 1000000
    python benchmarks/bench_replay.py --only cards    # a game with cards against one without

Every figure is compared with a peer measured in the same run (python-chess reading
the same number of plies; a bare ``python -c pass``), because absolute timings on a
shared machine drift. Generated logs are cached in ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # shared.py, as the other benchmarks import it


#: The pack of the game with cards: the guide's Relic Spells that keep the contract.
CARDS_PACK = ROOT / "examples" / "logs" / "relic-pack"


def generated_log(actions: int, seed: int = 7, *, cards: bool = False) -> Path:
    """A legal generated log with at least ``actions`` statements (cached); with ``cards`` both
    sides draft from :data:`CARDS_PACK` and play their cards."""
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Claims, Style, iter_game
    from sgcheck.replay.pack import GamePack, load_game_pack

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
    """The statements of a log (actions, card plays and passes), as the grammar reads them."""
    from sgcheck.lang.logs.ast import Turn
    from sgcheck.lang.logs.grammar import grammar_items
    from sgcheck.lang.source import SourceText

    text = path.read_text(encoding="utf-8")
    return sum(
        sum(len(b.statements) for b in item.phases)
        for item in grammar_items(SourceText(path.name, text))
        if isinstance(item, Turn)
    )


def chess_pgn(plies: int, seed: int = 7) -> str:
    """Random legal chess games of 200 plies (the last one shorter) totalling ``plies``, as PGN text."""
    from shared import chess_game

    games: list[str] = []
    total = 0
    while total < plies:
        length = min(200, plies - total)
        games.append(chess_game(length, seed=seed + len(games)).rstrip("\n"))
        total += length
    return "\n\n".join(games) + "\n"


def time_sgcheck(path: Path, pack: Path | None = None) -> float:
    from sgcheck.replay.interpreter import ReplayOptions, replay_text

    text = path.read_text(encoding="utf-8")
    options = ReplayOptions(pack=None if pack is None else str(pack))
    start = time.perf_counter()
    result = replay_text(text, path.name, options)
    elapsed = time.perf_counter() - start
    assert result.ok, result.diagnostics[:3]
    return elapsed


def time_chess(pgn: str) -> float:
    import chess.pgn

    start = time.perf_counter()
    handle = io.StringIO(pgn)
    plies = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        plies += sum(1 for _ in game.mainline_moves())
    return time.perf_counter() - start


def best_alternating(ours: Callable[[], float], peer: Callable[[], float], repeats: int) -> tuple[float, float]:
    """The best of ``repeats`` timings of each, taken in turn, so that a slow spell of a shared
    machine hits both sides rather than one."""
    mine, theirs = [], []
    for _ in range(repeats):
        mine.append(ours())
        theirs.append(peer())
    return min(mine), min(theirs)


def throughput(actions: int, repeats: int) -> None:
    path = generated_log(actions)
    n = count_actions(path)
    pgn = chess_pgn(n)
    ours, peer = best_alternating(lambda: time_sgcheck(path), lambda: time_chess(pgn), repeats)
    print(
        f"throughput: {n} actions ({path.stat().st_size / 1e6:.1f} MB) vs {n} plies of PGN ({len(pgn) / 1e6:.1f} MB)"
    )
    print(f"  sgcheck replay (parse + full validation): {ours:.2f} s = {n / ours:,.0f} actions/s")
    print(f"  python-chess read_game (parse + SAN validation): {peer:.2f} s = {n / peer:,.0f} plies/s")
    print(f"  ratio sgcheck/python-chess: {(n / ours) / (n / peer):.2f}x")


def cards_against_none(actions: int, repeats: int) -> None:
    """A game with cards against a game of the same length without: what cards cost per action.

    Both are generated by the same policy from the same seed; the card game's players draft from
    the guide's pack and play what they keep (Relics stay in play for the rest of the game, so
    their effects are consulted on every attack and cost after that). The pack is loaded and
    contract-checked once per process and cached, so the best of ``repeats`` alternating runs
    measures the replay itself.
    """
    plain, with_cards = generated_log(actions, seed=13), generated_log(actions, seed=13, cards=True)
    n_plain, n_cards = count_actions(plain), count_actions(with_cards)
    ours, peer = best_alternating(lambda: time_sgcheck(with_cards, CARDS_PACK), lambda: time_sgcheck(plain), repeats)
    print(f"cards: {n_cards} actions with the guide's cards against {n_plain} actions without")
    print(f"  with cards: {ours:.2f} s = {n_cards / ours:,.0f} actions/s")
    print(f"  without cards: {peer:.2f} s = {n_plain / peer:,.0f} actions/s")
    print(f"  ratio with/without: {(n_cards / ours) / (n_plain / peer):.2f}x")


def peak_memory(actions: int) -> None:
    path = generated_log(actions, seed=11)
    size = path.stat().st_size / 1e6
    cmd = [sys.executable, "-m", "sgcheck", "replay", "--no-summary", str(path)]
    base = _max_rss([sys.executable, "-c", "import sgcheck.cli"])
    peak = _max_rss(cmd)
    print(f"memory: replaying {actions:,} actions ({size:.0f} MB of log text)")
    print(f"  peak RSS {peak / 1e6:.0f} MB (interpreter + sgcheck imported, idle: {base / 1e6:.0f} MB)")


def _max_rss(cmd: list[str]) -> int:
    """Peak resident set size of a child process, in bytes (Linux reports KiB)."""
    proc = subprocess.run(
        [sys.executable, "-c", _RSS_PROBE, *cmd], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return int(proc.stdout.strip().splitlines()[-1])


_RSS_PROBE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def startup(runs: int) -> None:
    # Byte-code caching on, as after a normal install (pip compiles modules at install time).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def median(cmd: list[str]) -> float:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)  # warm the caches
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    bare = median([sys.executable, "-c", "pass"])
    helped = median([sys.executable, "-m", "sgcheck", "--help"])
    print(f"start-up: median of {runs} runs")
    print(
        f"  python -c pass: {bare * 1000:.0f} ms; sgcheck --help: {helped * 1000:.0f} ms; ratio {helped / bare:.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--memory-actions", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", choices=("throughput", "cards", "memory", "startup"))
    args = parser.parse_args()
    if args.only in (None, "throughput"):
        throughput(args.actions, args.repeats)
    if args.only in (None, "cards"):
        cards_against_none(args.actions, args.repeats)
    if args.only in (None, "memory"):
        peak_memory(args.memory_actions)
    if args.only in (None, "startup"):
        startup(args.runs)


if __name__ == "__main__":
    main()
