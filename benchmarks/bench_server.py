"""The language server's replay as you type: a change at the end of a long log, replayed from a kept
state (sgcheck/replay/resume.py), against a replay of the whole log, its peer, in the same run
(docs/benchmarks.md, "sgcheck server: a change to a long log").

Run from the repository root:

    python benchmarks/bench_server.py                 # a generated 10,000-turn log
    python benchmarks/bench_server.py --turns 400 --repeats 1

Each figure is measured in a child process (the installed sgcheck, in each build it has;
``--checkout``: this checkout), best of ``--repeats``, CPU time:

- from the start: the whole log replayed, as a first opening does;
- from the start, keeping states: the same, keeping a state every 25 turns (what the server keeps);
- resumed at the end: a comment added after the last line, replayed from the last kept state;
- resumed, worst case: the first line of the turn the last state was kept before changed, so the
  replay goes on from the state before it (25 turns and the rest to play again).

Each resumed replay must give the result of a replay from the start (the child checks it), and a
log that replays with findings, or keeps no state, stops the benchmark with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared import OUT, Target, fail, guard

#: The child: replays ``path`` every way, checks the resumed results, prints the CPU times as JSON.
CHILD = """
import json, sys, time
from sgcheck.build import current
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import replay_source
from sgcheck.replay.resume import first_change, replay_kept, usable

path, repeats = sys.argv[1], int(sys.argv[2])
text = open(path, encoding="utf-8").read()

def best(work):
    times, out = [], None
    for _ in range(repeats):
        start = time.process_time()
        out = work()
        times.append(time.process_time() - start)
    return min(times), out

replay_source(SourceText("long.sglog", text))  # imports and caches warmed up, as in a running server
full_time, full = best(lambda: replay_source(SourceText("long.sglog", text)))
kept_time, (_, points) = best(lambda: replay_kept(SourceText("long.sglog", text)))
if full.diagnostics or not points:
    print(json.dumps({"error": f"{len(full.diagnostics)} findings, {len(points)} states kept"}))
    sys.exit(0)
lines = text.split("\\n")
at_end = text + "; a note at the end\\n"
last = points[-1]
# the first line of the last kept state's turn: that state no longer holds, the one before does
worst = "\\n".join([*lines[: last.line - 1], lines[last.line - 1] + " ; a note", *lines[last.line :]])
out = {"build": current(), "turns": full.turns, "states": len(points), "from the start": full_time,
       "keeping states": kept_time}
for name, changed in (("at the end", at_end), ("worst case", worst)):
    start, _ = usable(points, first_change(text, changed))
    if start is None:
        out["error"] = f"no state kept before the change {name}"
        break
    seconds, (resumed, _) = best(lambda: replay_kept(SourceText("long.sglog", changed), start=start))
    if resumed != replay_source(SourceText("long.sglog", changed)):
        out["error"] = f"the replay resumed {name} differs from a replay from the start"
        break
    out[name] = seconds
print(json.dumps(out))
"""


def generated_log(turns: int, seed: int = 7) -> Path:
    """A legal generated log of ``turns`` turns (both sides' turns counted; cached in the output folder)."""
    from sgcheck.core.state import GameState
    from sgcheck.lang.logs.from_actions import Claims
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Style, iter_game

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"server-{turns}-{seed}.sglog"
    if not path.exists():
        items = iter_game(seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=(turns + 1) // 2)
        text = "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))  # type: ignore[arg-type]
        path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=10_000, help="turns of the generated log (both sides')")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    if args.turns < 60:
        fail("--turns must be at least 60 (a state is kept every 25 turns)")
    target = Target(args.checkout)
    builds = target.builds()
    log = generated_log(args.turns)
    print(f"a generated log of {args.turns:,} turns ({log.stat().st_size:,} bytes), best of {args.repeats}, CPU time")
    print()
    print("| build | from the start | keeping states | resumed at the end | resumed, worst case | end / start |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for build in builds:
        done = target.run([sys.executable, "-c", CHILD, str(log), str(args.repeats)], build, capture_output=True)
        if done.returncode != 0:
            fail(f"the {build} build could not replay {log.name}: {done.stderr.strip()[-400:]}")
        answer = json.loads(done.stdout.strip().splitlines()[-1])
        if "error" in answer:
            fail(f"the {build} build: {answer['error']}")
        if answer["build"] != build:
            fail(f"asked for the {build} build, the child ran the {answer['build']} build")
        ms = {name: 1000 * answer[name] for name in ("from the start", "keeping states", "at the end", "worst case")}
        ratio = answer["from the start"] / max(answer["at the end"], 1e-6)
        print(
            f"| {build} | {ms['from the start']:.1f} ms | {ms['keeping states']:.1f} ms "
            f"({answer['states']} states) | {ms['at the end']:.2f} ms | {ms['worst case']:.2f} ms | {ratio:,.0f}× |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(guard(main))
