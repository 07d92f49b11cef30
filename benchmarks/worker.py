"""One measurement in a child process, in the build the child was started in (benchmarks/shared.py).

    python -P benchmarks/worker.py build
    python -P benchmarks/worker.py replay LOG REPEATS WARM PACK      # CPU time of each replay
    python -P benchmarks/worker.py chess PGN REPEATS PLIES           # python-chess reading the PGN
    python -P benchmarks/worker.py phases LOG WARM ACTIONS SEED      # read, engine, whole replay
    python -P benchmarks/worker.py profile LOG WARM                  # cProfile by module (pure build)

Each job prints one JSON line (the build it ran, where sgcheck was imported from, and its figures)
and exits 0, or says what went wrong on standard error and exits 2. The worker imports nothing of
the checkout by itself: run with ``-P`` (or ``PYTHONSAFEPATH=1``), it imports the sgcheck that is
installed, or the one ``PYTHONPATH`` names. ``WARM`` is a short log replayed first (the parser is
built once per process, as in any run, before its first log); ``PACK`` is ``-`` for none.
"""

from __future__ import annotations

import json
import re
import sys
import time
from typing import Any


def which_build() -> dict[str, Any]:
    import sgcheck

    try:
        from sgcheck.build import current
    except ImportError:  # a checkout from before the compiled build: always pure
        return {"build": "pure", "file": sgcheck.__file__, "version": sgcheck.__version__}
    return {"build": current(), "file": sgcheck.__file__, "version": sgcheck.__version__}


def replay_once(path: str, pack: str | None = None) -> float:
    """CPU time of replaying ``path`` as the command line does (reading, decoding, parsing, replay,
    summary); a log with any finding is not the legal log it is timed as."""
    from sgcheck.replay.files import LogInput, replay_input
    from sgcheck.replay.interpreter import ReplayOptions

    start = time.process_time()
    result, _ = replay_input(LogInput(path), ReplayOptions(pack=pack))
    elapsed = time.process_time() - start
    if result.diagnostics:
        first = result.diagnostics[0]
        raise SystemExit(f"{path}: {len(result.diagnostics)} findings, the first {first.code}: {first.message}")
    return elapsed


def replay(path: str, repeats: str, warm: str, pack: str) -> dict[str, Any]:
    chosen = None if pack == "-" else pack
    replay_once(warm, chosen)
    return {"seconds": [replay_once(path, chosen) for _ in range(int(repeats))]}


def chess(path: str, repeats: str, plies: str) -> dict[str, Any]:
    import chess.pgn

    seconds = []
    for _ in range(int(repeats)):
        start = time.process_time()
        read = 0
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                if game.errors:
                    raise SystemExit(f"{path}: python-chess found errors: {game.errors[:3]}")
                read += sum(1 for _ in game.mainline_moves())
        seconds.append(time.process_time() - start)
        if read != int(plies):
            raise SystemExit(f"{path}: python-chess read {read} plies, not {plies}")
    return {"seconds": seconds}


def phases(path: str, warm: str, actions: str, seed: str) -> dict[str, Any]:
    """Where the time of one replay goes, timed with counters, so it works for compiled modules
    (which a profiler does not see into):

    - read: the line reader alone, drained over the log's text;
    - engine: the core engine alone, every ``engine.apply`` the game needs (its statements, phase
      labels and ends of turn), from the states the generator reached when it wrote the log (the
      log is ``bench_replay.generated_log``'s, so the same seed gives the same calls);
    - whole: the replay as the command line does it; what is left (the turn loop, claim checks,
      decoding, the summary) is whole - read - engine.
    """
    from sgcheck.lang.logs.reader import read_log
    from sgcheck.lang.source import SourceText
    from sgcheck.play import loop
    from sgcheck.replay.generate import Claims, Style, iter_game

    replay_once(warm)
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    start = time.process_time()
    for _ in read_log(SourceText(path, text)):
        pass
    read = time.process_time() - start

    calls: list[tuple[Any, Any]] = []
    engine = loop.engine  # the generator applies its actions in sgcheck.play.loop

    class Recorder:
        def __getattr__(self, name: str) -> Any:
            return getattr(engine, name)

        @staticmethod
        def apply(state: Any, action: Any) -> Any:
            calls.append((state, action))
            return engine.apply(state, action)

    loop.engine = Recorder()  # type: ignore[assignment]
    try:
        for _ in iter_game(
            int(seed), style=Style.ENDLESS, claims=Claims.SOME, max_turns=10**9, max_actions=int(actions)
        ):
            pass
    finally:
        loop.engine = engine
    apply = engine.apply
    start = time.process_time()
    for state, action in calls:
        apply(state, action)
    engine_seconds = time.process_time() - start if calls else None
    calls.clear()
    whole = replay_once(path)
    return {"read": read, "engine": engine_seconds, "whole": whole}


def profile(path: str, warm: str) -> dict[str, Any]:
    """cProfile of one replay, own time summed by module: meaningful for the pure build only (a
    profiler sees no function of a compiled module)."""
    import cProfile
    import pstats

    replay_once(warm)
    profiler = cProfile.Profile()
    profiler.enable()
    replay_once(path)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    by_module: dict[str, float] = {}
    functions: list[tuple[float, str]] = []
    for (filename, line, name), (_, _, own, _, _) in stats.items():
        module = _module(filename)
        by_module[module] = by_module.get(module, 0.0) + own
        functions.append((own, f"{module}:{line} {re.sub(r' at 0x[0-9a-f]+', '', name)}"))
    functions.sort(reverse=True)
    return {"modules": by_module, "functions": functions[:15]}


def _module(filename: str) -> str:
    marker = "/sgcheck/"
    if marker in filename:
        return "sgcheck." + filename.rsplit(marker, 1)[1].removesuffix(".py").replace("/", ".")
    if filename.startswith("~") or filename.startswith("<"):
        return "built-in"
    return "other: " + filename.rsplit("/", 2)[-2]


JOBS = {"replay": replay, "chess": chess, "phases": phases, "profile": profile}


def main(argv: list[str]) -> int:
    job, *args = argv
    answer = which_build() if job != "chess" else {"build": None, "file": None, "version": None}
    if job != "build":
        try:
            answer.update(JOBS[job](*args))
        except SystemExit as problem:
            print(problem, file=sys.stderr)
            return 2
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
