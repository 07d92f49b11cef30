"""Games between equal sides: how the default search policy's games end, and whether captures, SP
and cards happen in them (docs/simulate.md, "Why equal sides race the Pass").

Run from the repository root (this checkout's sgcheck):

    python benchmarks/bench_equal.py --games 100 --seed 1 --jobs 2 --write docs/simulate.md
    python benchmarks/bench_equal.py --no-core --pack examples/logs/relic-pack \
        --scenario examples/scenarios/gem-siege.scenario.yaml

Each row plays the search against the search, ``--games`` games with each side first, seeds from
``--seed`` (the same table for the same seed, whatever ``--jobs``): the core against itself, then
each ``--pack`` against the core, as ``sgcheck simulate PACK`` plays it (the pack checked as
``sgcheck check`` checks it). The columns: how the games ended (core §4.4, §7, a scenario's
conditions, or unfinished at round 200), their mean length in rounds, captures per game and the
share of games with one (core §4.3), SP earned per game by both sides together (captures, income,
cards: core §6), cards played per game, and the first player's wins. ``--write FILE`` replaces
the table between ``<!-- equal-sides -->`` and ``<!-- /equal-sides -->`` in FILE.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sgcheck.core.ruleset import CORE  # noqa: E402
from sgcheck.core.scenario import Scenario  # noqa: E402
from sgcheck.diagnostics import Diagnostic  # noqa: E402
from sgcheck.play.game_scenario import load_game_scenario  # noqa: E402
from sgcheck.play.pack import load_game_pack  # noqa: E402
from sgcheck.play.policies import Policy  # noqa: E402
from sgcheck.simulate.games import Side  # noqa: E402
from sgcheck.simulate.run import RunPlan, plan, play  # noqa: E402
from sgcheck.simulate.stats import ENDINGS  # noqa: E402


class Refused(Exception):
    """A pack or scenario that cannot be played: the benchmark stops with exit 2."""


@dataclass(frozen=True)
class Row:
    sides: str
    games: int
    endings: dict[str, int]
    turns: float
    captures: float
    with_capture: int
    sp_earned: float
    cards: float
    first_won: int


def side(path: str) -> Side:
    """The core alone, or a pack's cards as ``sgcheck simulate`` loads them (R22)."""
    if path == "core":
        return Side("core")
    loaded = load_game_pack(path, log_folder=None, from_tag=False)
    if isinstance(loaded, Diagnostic):
        raise Refused(loaded.message)
    if loaded.breaks_contract or not loaded.cards:
        raise Refused(f"{path} breaks the contract or has no card that loads (`sgcheck check {path}` says why)")
    return Side(path, loaded.cards, loaded.draw, min(loaded.keep, loaded.hand_limit))


def scenario(path: str | None) -> Scenario | None:
    if path is None:
        return None
    loaded = load_game_scenario(path, log_folder=None, from_tag=False)
    if isinstance(loaded, Diagnostic):
        raise Refused(loaded.message)
    if loaded.refused or loaded.scenario is None:
        raise Refused(f"{path} is not a playable scenario (`sgcheck check {path}` says why)")
    return loaded.scenario


def row(path: str, games: int, seed: int, jobs: int, scene: Scenario | None, label: str | None) -> Row:
    """``games`` games with each side first, the search on both sides."""
    run = RunPlan(side(path), Side("core"), games=games, seed=seed, policy=Policy.SEARCH, ruleset=CORE,
                  scenario=scene, scenario_label=label)  # fmt: skip
    records = list(play(plan(run), jobs=jobs))
    n = len(records)
    return Row(
        sides="the core against itself" if path == "core" else f"{path} against the core",
        games=n,
        endings={kind: sum(1 for r in records if r.outcome == kind) for kind in ENDINGS},
        turns=sum(r.rounds for r in records) / n,
        captures=sum(r.captures for r in records) / n,
        with_capture=sum(1 for r in records if r.captures),
        sp_earned=sum(sum(r.sp_earned) for r in records) / n,
        cards=sum(len(r.played[0]) + len(r.played[1]) for r in records) / n,
        first_won=sum(1 for r in records if r.winner is not None and r.winner is r.first),
    )


def table(rows: list[Row], games: int, seed: int, label: str | None) -> str:
    where = f"scenario {label}" if label else "no scenario, no turn limit"
    lines = [
        f"{2 * games} games a row ({games} with each side first), seed {seed}, the search on both sides, {where}:",
        "",
        "| sides | endings | mean turns | captures a game (games with one) | SP earned a game | cards played a game "
        "| first player won |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        endings = ", ".join(f"{kind} {n}" for kind, n in r.endings.items() if n)
        lines.append(
            f"| {r.sides} | {endings} | {r.turns:.1f} | {r.captures:.2f} ({r.with_capture} of {r.games}) "
            f"| {r.sp_earned:.1f} | {r.cards:.2f} | {r.first_won} of {r.games} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games with each side first, per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pack", action="append", default=[], help="a pack against the core (repeatable)")
    parser.add_argument("--no-core", action="store_true", help="leave out the core against itself")
    parser.add_argument("--scenario", help="a scenario file every game starts from (R24)")
    parser.add_argument("--write", metavar="FILE", help="replace the table in FILE")
    args = parser.parse_args(argv)
    if args.games < 1:
        print("bench_equal: --games must be at least 1", file=sys.stderr)
        return 2
    paths = ([] if args.no_core else ["core"]) + args.pack
    if not paths:
        print("bench_equal: nothing to play (--no-core and no --pack)", file=sys.stderr)
        return 2
    try:
        scene = scenario(args.scenario)
        rows = [row(path, args.games, args.seed, args.jobs, scene, args.scenario) for path in paths]
    except Refused as refused:
        print(f"bench_equal: {refused}", file=sys.stderr)
        return 2
    text = table(rows, args.games, args.seed, args.scenario)
    print(text, end="")
    if args.write:
        path = Path(args.write)
        old = path.read_text(encoding="utf-8")
        name = "equal-sides-scenario" if args.scenario else "equal-sides"
        new, count = re.subn(rf"(<!-- {name} -->\n).*?(<!-- /{name} -->)", lambda m: m[1] + "\n" + text + "\n" + m[2],
                             old, flags=re.S)  # fmt: skip
        if count != 1:
            print(f"bench_equal: {path} has no <!-- {name} --> ... <!-- /{name} --> section", file=sys.stderr)
            return 2
        path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
