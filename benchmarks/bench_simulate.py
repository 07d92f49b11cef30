"""Simulation throughput: games per second per core for each policy, against another source tree
(the previous commit) in the same run, and the scaling of ``sgcheck simulate`` with ``--jobs`` and
a local Dask cluster (docs/benchmarks.md, "Simulation").

Run from the repository root:

    python benchmarks/bench_simulate.py --checkout                     # 20 games a figure, every policy
    git archive main | tar -x -C ../sgcheck-main                       # the previous commit's sources
    python benchmarks/bench_simulate.py --checkout --baseline ../sgcheck-main --repeats 3

Each figure is measured in a child process (the installed sgcheck; ``--checkout``: this checkout;
``--baseline DIR``: the sources in DIR, for the same figures side by side):

- per core: ``--games`` games played one after another in one process with each policy of
  ``--policies``, CPU time of the child, best of ``--repeats`` with this build and the baseline
  interleaved (the machine may be loaded: the two are measured under the same load); once with the
  core alone and once with the guide's Relic Spells (examples/logs/relic-pack) on one side, as
  ``sgcheck simulate PACK`` plays them against the core, under ``--turn-limit`` (0: none, the
  default of ``sgcheck simulate`` since the search policy; the previous default was 30). A policy
  the baseline does not have is shown as "—".
- scaling: the real command line, ``sgcheck simulate PACK --games N/2`` with ``--jobs 1``,
  ``--jobs 2`` and ``--cluster local --jobs 4`` (a local Dask cluster of 4 workers; skipped with
  ``--no-cluster``), N = ``--scaling-games`` games in all, wall time; the speed-up is the ratio to
  one worker. On a machine with two cores, four workers cannot beat two.

A measurement that played no game, or a command that fails, stops the benchmark with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dataclasses import dataclass

from shared import ROOT, SGCHECK, Target, fail, guard, timed

GUIDE = ROOT / "examples" / "logs" / "relic-pack"

#: The child: plays the games in this process and prints their count and CPU time as JSON.
CHILD = """
import json, sys, time
from dataclasses import replace
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE
from sgcheck.simulate.games import GameTask, Side, game_seed, play_task
try:
    from sgcheck.play.policies import Policy
except ImportError:  # a tree from before sgcheck/play/ (a baseline)
    from sgcheck.simulate.policies import Policy
pack_path, games, limit, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) or None, sys.argv[4]
if policy not in {p.value for p in Policy}:
    print(json.dumps({"games": 0, "missing": policy}))
    sys.exit(0)
policy = Policy(policy)
side = Side("core")
if pack_path != "core":
    try:
        from sgcheck.play.pack import load_game_pack
    except ImportError:
        from sgcheck.replay.pack import load_game_pack
    loaded = load_game_pack(pack_path, log_folder=None, from_tag=False)
    side = Side(pack_path, loaded.cards, loaded.draw, min(loaded.keep, loaded.hand_limit))
ruleset = replace(CORE, turn_limit=limit)
start = time.process_time()
played = 0
turns = 0
for index in range(games):
    color = Color.WHITE if index % 2 == 0 else Color.BLACK
    record = play_task(GameTask(index, game_seed(1, index), side, Side("core"), color, policy, ruleset, max_turns=200))
    played += 1
    turns += record.rounds
print(json.dumps({"games": played, "turns": turns, "cpu": time.process_time() - start}))
"""


@dataclass(frozen=True)
class Tree(Target):
    """The sources in ``path`` (another commit's tree), whatever is installed."""

    path: str = ""

    def env(self, build: str | None = None) -> dict[str, str]:
        env = super().env(build)
        env["PYTHONPATH"] = self.path
        return env


def per_core(target: Target, pack: str, games: int, limit: int, policy: str) -> tuple[float, int] | None:
    """Games per CPU second and turns per game; None when ``target`` has no such policy."""
    done = target.run([sys.executable, "-c", CHILD, pack, str(games), str(limit), policy], capture_output=True)
    if done.returncode != 0:
        fail(f"the child could not play {pack}: {done.stderr.strip()[-400:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    if answer.get("missing"):
        return None
    if answer["games"] == 0 or answer["cpu"] <= 0:
        fail(f"no game played with {pack}")
    return answer["games"] / answer["cpu"], answer["turns"] // answer["games"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per measurement")
    parser.add_argument("--turn-limit", type=int, default=30, help="0: no turn limit")
    parser.add_argument("--policies", nargs="+", default=["random", "greedy", "lookahead", "search"],
                        choices=("random", "greedy", "lookahead", "search"))  # fmt: skip
    parser.add_argument("--policy", choices=("random", "greedy", "lookahead", "search"), help="one policy only")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many, interleaved")
    parser.add_argument("--baseline", metavar="DIR", help="another source tree, measured in the same run")
    parser.add_argument("--scaling-games", type=int, default=0, help="games of the scaling runs (0: --games)")
    parser.add_argument("--scaling-policy", default="search", choices=("random", "greedy", "lookahead", "search"))
    parser.add_argument("--no-cluster", action="store_true", help="skip the local Dask cluster")
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    if args.games < 2:
        fail("--games must be at least 2 (one game with each side first)")
    policies = [args.policy] if args.policy else args.policies
    target = Target(args.checkout)
    baseline = Tree(path=str(Path(args.baseline).resolve())) if args.baseline else None
    limit = f"turn limit {args.turn_limit}" if args.turn_limit else "no turn limit"
    print(f"{args.games} games per measurement, policies {', '.join(policies)}, {limit}, best of {args.repeats}")
    print()
    print("| policy | games | games/s per core | baseline games/s per core | turns per game |")
    print("| --- | --- | ---: | ---: | ---: |")
    for policy in policies:
        for label, pack in (("core alone", "core"), ("the guide's cards on one side", str(GUIDE))):
            mine: list[tuple[float, int]] = []
            theirs: list[tuple[float, int]] = []
            for _ in range(args.repeats):  # interleaved: both under the same load
                found = per_core(target, pack, args.games, args.turn_limit, policy)
                if found is None:
                    fail(f"this build has no policy {policy}")
                mine.append(found)
                if baseline is not None:
                    other = per_core(baseline, pack, args.games, args.turn_limit, policy)
                    if other is not None:
                        theirs.append(other)
            speed, turns = max(mine)
            peer = f"{max(theirs)[0]:.2f}" if theirs else "—"
            print(f"| {policy} | {label} | {speed:.2f} | {peer} | {turns} |")
    print()
    games = (args.scaling_games or args.games) // 2
    walls: dict[str, float] = {}
    setups = [("1 process", ["--jobs", "1"]), ("2 processes", ["--jobs", "2"])]
    if not args.no_cluster:
        setups.append(("local Dask cluster, 4 workers", ["--cluster", "local", "--jobs", "4"]))
    for label, extra in setups:
        limit_args = ["--turn-limit", str(args.turn_limit)] if args.turn_limit else []
        cmd = [*SGCHECK, "simulate", str(GUIDE), "--games", str(games), "--policy", args.scaling_policy,
               *limit_args, *extra, "--format", "json"]  # fmt: skip
        walls[label] = timed(target, cmd, None, expect=r'"games": \d+').wall
    print(f"scaling: policy {args.scaling_policy}, {2 * games} games of the guide's cards")
    print()
    print("| workers | wall time | games/s | speed-up |")
    print("| --- | ---: | ---: | ---: |")
    first = walls["1 process"]
    for label, wall in walls.items():
        print(f"| {label} | {wall:.2f} s | {2 * games / wall:.2f} | {first / wall:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(guard(main))
