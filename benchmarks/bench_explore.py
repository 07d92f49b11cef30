"""Benchmark the contract checker's play of a pack (core §8; sgcheck/contract/analysis/explore.py).

Run from the repository root:  python benchmarks/bench_explore.py [--dense 200] [--apart 1000 10000] [--jobs 1 2]

Three measurements, each a whole ``check_paths`` (reading, every rule, the play of the pack), CPU
time of this process, with the size of the play (combinations of cards played, states visited):

- the guide's six cards (examples/cards/guide-relics.sgcard);
- a dense generated pack (``--dense`` cards of bench_check.py's generator: one to three effects a
  card, most of them triggers and gains that meet many other cards);
- packs of cards that do not meet (``--apart`` sizes: to-hit bonuses of different sizes, costs,
  pieces and distances), whose time per card must stay about constant as the pack grows.

It ends with how many such cards, and how many dense ones, check in a minute at the measured rates.
The dense pack is also checked by the command line, ``sgcheck check --jobs N`` for each ``--jobs``,
wall time, in a child importing the installed sgcheck (``--checkout``: this checkout), in each build.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_check import card_text  # noqa: E402  (the benchmarks' generator of dense cards)
from shared import SGCHECK, Target, fail, guard, timed  # noqa: E402

PIECES = ("Pawn", "Knight", "Bishop", "Rook", "Queen")


def apart_text(size: int) -> str:
    """``size`` cards that share no signal (each a to-hit bonus of its own shape)."""
    out = []
    for i in range(size):
        piece = PIECES[i % 5]
        bonus = (i // 5) % 20 + 1
        distance = (i // 100) % 7 + 1
        cost = (i // 700) % 15 + 1
        out.append(
            f'relic "Apart {i}" passive {{ cost {cost} SP effect to_hit +{bonus} when attacker is {piece} '
            f"and distance <= {distance} }}\n"
        )
    return "".join(out)


def dense_text(size: int, seed: int = 2025) -> str:
    rnd = random.Random(seed)
    return "".join(card_text(i, rnd) for i in range(size))


def measure(label: str, path: Path) -> tuple[float, int]:
    from sgcheck.contract.analysis import explore as explore_module
    from sgcheck.contract.checker import check_paths

    sizes: list[tuple[int, int]] = []
    original = explore_module.explore

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = original(*args, **kwargs)
        sizes.append((result.combinations, result.states))
        return result

    explore_module.explore = counted  # type: ignore[assignment]
    import sgcheck.contract.facts.pack_facts as facts_module

    facts_module.explore = counted  # type: ignore[attr-defined]
    try:
        started = time.process_time()
        run = check_paths([str(path)])
        seconds = time.process_time() - started
    finally:
        explore_module.explore = original  # type: ignore[assignment]
        facts_module.explore = original  # type: ignore[attr-defined]
    combos = sum(c for c, _ in sizes)
    if combos == 0:
        fail(f"{label}: the pack was not played (no combination of cards)")
    states = sum(s for _, s in sizes)
    from sgcheck.results import CardFileFacts, ManifestFacts

    cards = sum(f.facts.cards for f in run.files if isinstance(f.facts, CardFileFacts | ManifestFacts))
    print(
        f"{label:<28} {cards:>6} cards  {seconds:8.2f} s CPU  {1000 * seconds / max(cards, 1):7.2f} ms/card  "
        f"{combos:>6} combinations  {states:>9,} states  {len(run.diagnostics)} findings"
    )
    return seconds, cards


def spread(target: Target, pack: Path, jobs: list[int]) -> None:
    """The dense pack checked by the command line with ``--jobs N``, wall time, in a child that
    imports the installed sgcheck (compiled where it could be built), each build it has."""
    if min(jobs, default=0) < 1:
        fail(f"--jobs {jobs}: nothing to measure")
    for build in target.builds():
        walls = {}
        for n in jobs:
            cmd = [*SGCHECK, "check", str(pack), "--isolated", "--exit-zero", "--jobs", str(n)]
            walls[n] = timed(target, cmd, build, expect=r"1 file checked").wall
        shown = ", ".join(f"--jobs {n}: {wall:.2f} s" for n, wall in walls.items())
        first = walls[jobs[0]]
        ratios = ", ".join(f"{first / wall:.2f}×" for wall in list(walls.values())[1:])
        print(f"  sgcheck check, {build} build, wall time: {shown}" + (f" (speed-up {ratios})" if ratios else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense", type=int, default=200, help="cards in the dense generated pack")
    parser.add_argument("--apart", type=int, nargs="+", default=[1000, 10000], help="sizes of packs of cards apart")
    parser.add_argument(
        "--jobs", type=int, nargs="+", default=[1, 2], help="the dense pack with `sgcheck check --jobs N`, wall time"
    )
    parser.add_argument("--checkout", action="store_true", help="the --jobs runs on this checkout, not the install")
    args = parser.parse_args(argv)
    if args.dense < 1 or not args.apart or min(args.apart) < 1:
        fail(f"a dense pack of {args.dense} cards, packs apart of {args.apart} cards: nothing to measure")

    measure("warm-up (the guide's cards)", ROOT / "examples" / "cards" / "guide-relics.sgcard")
    measure("the guide's cards", ROOT / "examples" / "cards" / "guide-relics.sgcard")
    with tempfile.TemporaryDirectory() as tmp:
        dense = Path(tmp) / "dense.sgcard"
        dense.write_text(dense_text(args.dense), encoding="utf-8")
        dense_seconds, dense_cards = measure("dense generated pack", dense)
        spread(Target(args.checkout), dense, args.jobs)
        rates: list[float] = []
        for size in args.apart:
            apart = Path(tmp) / f"apart-{size}.sgcard"
            apart.write_text(apart_text(size), encoding="utf-8")
            seconds, cards = measure("cards that do not meet", apart)
            rates.append(seconds / max(cards, 1))
    if len(rates) > 1:
        print(f"time per card, largest / smallest pack apart: {rates[-1] / rates[0]:.2f}x")
    print(
        f"in a minute at these rates: about {int(60 / rates[-1]):,} cards that do not meet, "
        f"{int(60 * dense_cards / max(dense_seconds, 1e-9)):,} dense generated cards"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
