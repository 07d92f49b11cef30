"""Benchmark ``sgcheck check`` on generated card packs of 1,000 and 10,000 cards.

Run from the repository root:  python benchmarks/bench_check.py [--sizes 1000 10000] [--repeat 3]

Each pack is written to a temporary folder (a manifest plus card files of 1,000 cards
each) and checked with :func:`sgcheck.contract.check_paths`: reading, parsing, every
per-card rule and every pack-level analysis (trigger cycles, growth, cap stacking,
duplicates), without the play of the pack (SG-C150-SG-C162, timed by bench_explore.py). Rendering is timed
separately. The best of ``--repeat`` runs is reported,
then the 10,000/1,000 ratio (the pack analyses must stay near-linear: target <= 12x,
and 10,000 cards <= 3 s).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import current, fail, guard

PIECES = ("Pawn", "Knight", "Bishop", "Rook", "Queen")
PHASES = ("upkeep", "main1", "battle", "main2", "end")
EFFECTS = (
    "to_hit +{small} when attacker is {piece} this attack",
    "damage +1 when target is {piece} this attack",
    "on capture: gain {small} SP",
    "on hit: gain 1 LP limit once per turn",
    "cost move -1 when distance <= 2",
    "cost summon -2 SP",
    "steal {small} SP",
    "reduce damage by 1 on own {piece}",
    "at upkeep: gain 1 LP",
    "extra move in main2",
    "extra attack in battle",
    "reroll accuracy this attack",
    "gain 1 SP per piece in own gem",
    "on attacked: to_hit -10 on enemy attacks this attack",
    "opponent loses {small} SP",
    "to_hit +5 when own gem is broken and own SP >= {small}",
    "on gain SP: extra move in main1",
    "on gain LP: gain 1 SP",
    "on gain SP pay 2 LP: gain 1 LP",
    "on captured: deal 1 damage to enemy {piece}",
)
CARDS_PER_FILE = 1000


def card_text(index: int, rnd: random.Random) -> str:
    kind = rnd.choice(("relic", "spell"))
    mode = " activated" if kind == "relic" and rnd.random() < 0.4 else ""
    effects = "\n".join(
        "    effect " + rnd.choice(EFFECTS).format(small=rnd.randint(1, 9), piece=rnd.choice(PIECES))
        for _ in range(rnd.randint(1, 3))
    )
    return (
        f'{kind} "Generated Card {index}"{mode} {{\n'
        f"    cost {rnd.randint(1, 9)} SP\n"
        f"    phase {rnd.choice(PHASES)}\n"
        f'    text "A generated card, number {index}."\n'
        f"{effects}\n}}\n\n"
    )


def write_pack(folder: Path, size: int, seed: int = 2025) -> Path:
    rnd = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for start in range(0, size, CARDS_PER_FILE):
        name = f"cards-{start // CARDS_PER_FILE:03d}.sgcard"
        names.append(name)
        text = "".join(card_text(i, rnd) for i in range(start, min(size, start + CARDS_PER_FILE)))
        (folder / name).write_text(text, encoding="utf-8")
    listing = "".join(f"  - {name}\n" for name in names)
    (folder / "sgpack.yaml").write_text(f"name: bench-{size}\nversion: 1.0.0\nruleset: core\ncards:\n{listing}")
    return folder


def best_of(repeat: int, action) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - started)
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if min(args.sizes) < 1 or args.repeat < 1:
        fail(f"packs of {args.sizes} cards, {args.repeat} repeats: nothing to measure")
    print(f"sgcheck from the checkout, {current()} build, in this process")

    from sgcheck.config import Config
    from sgcheck.contract import check_paths, code_catalogue
    from sgcheck.report import render

    # reading and the card and pack rules: the play of the pack is timed by bench_explore.py
    config = Config().with_codes(code_catalogue(), disable=("SG-C15", "SG-C16"))

    check_paths([str(Path(__file__).resolve().parent.parent / "examples" / "cards")])  # warm-up: imports, grammar
    timings: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            pack = write_pack(Path(tmp) / f"pack-{size}", size)
            seconds, run = best_of(args.repeat, lambda pack=pack: check_paths([str(pack)], config))
            render_seconds, _ = best_of(1, lambda run=run: render(run, "json"))  # type: ignore[arg-type]
            findings = len(run.diagnostics)  # type: ignore[attr-defined]
            from sgcheck.results import CardFileFacts

            checked = sum(
                f.facts.cards
                for f in run.files  # type: ignore[attr-defined]
                if f.path.endswith(".sgcard") and isinstance(f.facts, CardFileFacts)
            )
            if checked != size:
                fail(f"the pack of {size} cards was checked as {checked} cards")
            timings[size] = seconds
            print(
                f"{size:>6} cards: check {seconds:6.3f} s (best of {args.repeat}), "
                f"{findings} findings, json render {render_seconds:.3f} s"
            )
    if 1000 in timings and 10000 in timings:
        ratio = timings[10000] / timings[1000]
        print(
            f"ratio 10,000 / 1,000 cards: {ratio:.1f}x (target <= 12x); 10,000 cards within 3 s: "
            f"{'yes' if timings[10000] <= 3.0 else 'NO'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
