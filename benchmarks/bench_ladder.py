"""The ladder of the simulator's policies: random < greedy < lookahead < search, each pair's score
over many games with a 95% interval, and how the games ended (docs/simulate.md, "The ladder").

Run from the repository root (this checkout's sgcheck):

    python benchmarks/bench_ladder.py --games 100 --jobs 2 --write docs/simulate.md

Each rung plays the stronger policy against the weaker on the core alone (no card on either side),
``--games`` games with each side first, seeds from ``--seed``: the same table for the same seed,
whatever ``--jobs``. A rung's *score* is the stronger policy's wins plus half its draws, over its
games, with a Wilson 95% interval; an interval above 50% says the order holds at that confidence.
``--write FILE`` replaces the table between ``<!-- ladder -->`` and ``<!-- /ladder -->`` in FILE.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sgcheck.core.ruleset import CORE  # noqa: E402
from sgcheck.play.policies import Policy  # noqa: E402
from sgcheck.simulate.games import Side  # noqa: E402
from sgcheck.simulate.run import RunPlan, plan, play  # noqa: E402
from sgcheck.simulate.stats import ENDINGS, wilson  # noqa: E402

#: The rungs, weaker first.
LADDER = (Policy.RANDOM, Policy.GREEDY, Policy.LOOKAHEAD, Policy.SEARCH)


@dataclass(frozen=True)
class Rung:
    pair: str
    games: int
    wins: int
    draws: int
    score: float
    interval: tuple[float, float]
    endings: dict[str, int]
    captures: int
    turns: float


def rung(weaker: Policy, stronger: Policy, games: int, seed: int, jobs: int, limit: int | None = None) -> Rung:
    """``games`` games with each side first, the stronger policy on the ``pack`` side."""
    run = RunPlan(Side("core"), Side("core"), games=games, seed=seed, policy=stronger, against_policy=weaker,
                  ruleset=replace(CORE, turn_limit=limit), max_turns=limit + 1 if limit else 200)  # fmt: skip
    records = list(play(plan(run), jobs=jobs))
    wins = sum(1 for r in records if r.winner_role == "pack")
    draws = sum(1 for r in records if r.winner is None)
    score = wins + draws / 2
    return Rung(
        pair=f"{stronger.value} vs {weaker.value}",
        games=len(records),
        wins=wins,
        draws=draws,
        score=score / len(records),
        interval=wilson(score, len(records)),
        endings={kind: sum(1 for r in records if r.outcome == kind) for kind in ENDINGS},
        captures=sum(r.captures for r in records),
        turns=sum(r.rounds for r in records) / len(records),
    )


def table(rows: list[Rung], games: int, seed: int, limit: int | None = None) -> str:
    rules = f"turn limit {limit} (R18)" if limit else "no turn limit"
    lines = [
        f"{2 * games} games a rung ({games} with each side first), seed {seed}, the core alone, {rules}:",
        "",
        "| rung | score of the stronger (95% interval) | won / drawn | endings | captures | mean turns |",
        "| --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for row in rows:
        low, high = row.interval
        endings = ", ".join(f"{kind} {n}" for kind, n in row.endings.items() if n)
        lines.append(
            f"| {row.pair} | {100 * row.score:.0f}% [{100 * low:.0f}%-{100 * high:.0f}%] "
            f"| {row.wins} / {row.draws} | {endings} | {row.captures} | {row.turns:.0f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games with each side first, per rung")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--turn-limit", type=int, default=0, help="end games after N rounds (R18); 0: none")
    parser.add_argument("--write", metavar="FILE", help="replace the ladder's table in FILE")
    args = parser.parse_args(argv)
    if args.games < 1:
        print("bench_ladder: --games must be at least 1", file=sys.stderr)
        return 2
    limit = args.turn_limit or None
    rows = [rung(weaker, stronger, args.games, args.seed, args.jobs, limit) for weaker, stronger in pairwise(LADDER)]
    rows.append(rung(Policy.GREEDY, Policy.SEARCH, args.games, args.seed, args.jobs, limit))
    text = table(rows, args.games, args.seed, limit)
    print(text, end="")
    if args.write:
        path = Path(args.write)
        old = path.read_text(encoding="utf-8")
        name = f"ladder-turn-limit-{limit}" if limit else "ladder"
        new, count = re.subn(rf"(<!-- {name} -->\n).*?(<!-- /{name} -->)", lambda m: m[1] + "\n" + text + "\n" + m[2],
                             old, flags=re.S)  # fmt: skip
        if count != 1:
            print(f"bench_ladder: {path} has no <!-- {name} --> ... <!-- /{name} --> section", file=sys.stderr)
            return 2
        path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
