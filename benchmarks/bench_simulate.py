"""Simulation throughput: games per second per core, for the core alone and with the guide's
cards, and the scaling of ``sgcheck simulate`` from 1 to 2 workers (docs/benchmarks.md,
"Simulation").

Run from the repository root:

    python benchmarks/bench_simulate.py                        # 40 games per measurement
    python benchmarks/bench_simulate.py --games 10 --turn-limit 10 --policy lookahead

Each figure is measured in a child process (the installed sgcheck; ``--checkout``: this checkout):

- per core: ``--games`` games played one after another in one process with the greedy policy
  (or ``--policy``), CPU time of the child; once with the core alone (no cards on either side)
  and once with the guide's Relic Spells (examples/logs/relic-pack) on one side, as
  ``sgcheck simulate PACK`` plays them against the core.
- scaling: the real command line, ``sgcheck simulate PACK --games N/2 --jobs 1`` and ``--jobs 2``
  (N games in all), wall time; the speed-up is the ratio. On a machine with one core it is 1×
  at best.

A measurement that played no game, or a command that fails, stops the benchmark with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import ROOT, SGCHECK, Target, fail, guard, timed

GUIDE = ROOT / "examples" / "logs" / "relic-pack"

#: The child: plays the games in this process and prints their count and CPU time as JSON.
CHILD = """
import json, sys, time
from dataclasses import replace
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE
from sgcheck.simulate.games import GameTask, Side, game_seed, play_task
from sgcheck.simulate.policies import Policy
pack_path, games, limit, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Policy(sys.argv[4])
side = Side("core")
if pack_path != "core":
    from sgcheck.replay.pack import load_game_pack
    loaded = load_game_pack(pack_path, log_folder=None, from_tag=False)
    side = Side(pack_path, loaded.cards, loaded.draw, min(loaded.keep, loaded.hand_limit))
ruleset = replace(CORE, turn_limit=limit)
start = time.process_time()
played = 0
turns = 0
for index in range(games):
    color = Color.WHITE if index % 2 == 0 else Color.BLACK
    record = play_task(GameTask(index, game_seed(1, index), side, Side("core"), color, policy, ruleset))
    played += 1
    turns += record.rounds
print(json.dumps({"games": played, "turns": turns, "cpu": time.process_time() - start}))
"""


def per_core(target: Target, pack: str, games: int, limit: int, policy: str) -> tuple[float, int]:
    done = target.run([sys.executable, "-c", CHILD, pack, str(games), str(limit), policy], capture_output=True)
    if done.returncode != 0:
        fail(f"the child could not play {pack}: {done.stderr.strip()[-400:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    if answer["games"] == 0 or answer["cpu"] <= 0:
        fail(f"no game played with {pack}")
    return answer["games"] / answer["cpu"], answer["turns"] // answer["games"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per measurement")
    parser.add_argument("--turn-limit", type=int, default=30)
    parser.add_argument("--policy", default="greedy", choices=("greedy", "lookahead", "random"))
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    if args.games < 2:
        fail("--games must be at least 2 (one game with each side first)")
    target = Target(args.checkout)
    print(f"{args.games} games per measurement, policy {args.policy}, turn limit {args.turn_limit}")
    print()
    print("| games | games/s per core | turns per game |")
    print("| --- | ---: | ---: |")
    for label, pack in (("core alone", "core"), ("the guide's cards on one side", str(GUIDE))):
        speed, turns = per_core(target, pack, args.games, args.turn_limit, args.policy)
        print(f"| {label} | {speed:.2f} | {turns} |")
    print()
    walls = {}
    for jobs in (1, 2):
        cmd = [*SGCHECK, "simulate", str(GUIDE), "--games", str(args.games // 2), "--turn-limit",
               str(args.turn_limit), "--policy", args.policy, "--jobs", str(jobs), "--format", "json"]  # fmt: skip
        walls[jobs] = timed(target, cmd, None, expect=r'"games": \d+').wall
    print("| workers | wall time | games/s | speed-up |")
    print("| ---: | ---: | ---: | ---: |")
    total = 2 * (args.games // 2)
    for jobs, wall in walls.items():
        print(f"| {jobs} | {wall:.2f} s | {total / wall:.2f} | {walls[1] / wall:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(guard(main))
