"""The long fuzz run: every Hypothesis target of ``tests/fuzz`` driven for as long as asked.

    python -m tests.fuzz --minutes 180           # about a million inputs on one core
    python -m tests.fuzz --inputs 1000000        # stop after that many inputs
    python -m tests.fuzz --replay FINDINGS/x.bin  # run one saved input again, with its traceback

The test suite runs each target with a fixed number of examples (CI keeps a fixed budget);
this runner feeds the same targets bytes for as long as it is given, through Hypothesis's
``fuzz_one_input``: half fresh random bytes, half mutations (bit flips, cuts, splices) of
inputs that already ran. The targets take turns of the same time (a second each, at least 25
inputs), so a cheap target runs more inputs than a costly one. Each input is one run of sgcheck
in process (``fmt`` targets run twice: formatting, then formatting the result again), with the
harness's hang guard and checks.

A failing input is saved to ``--findings`` (one file per input, named by target and a hash of
the bytes) and to Hypothesis's example database, so ``python -m pytest tests/fuzz`` replays and
shrinks it; ``--replay FILE`` runs it again and prints what failed. The run ends with one line
of figures (inputs, runs of sgcheck, failures, minutes); exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import math
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import installed

if installed.wanted():
    installed.use_installed()  # the installed sgcheck (compiled, say), before the targets import it

from .harness import RUNS, Hang

#: What a failing input raises: any error, the harness's hang guard, or ``pytest.fail`` (a
#: BaseException); Ctrl-C still stops the run.
FAILURES = (Exception, Hang, pytest.fail.Exception)
#: The modules whose Hypothesis targets the long run drives.
MODULES = (
    "test_random_inputs",
    "test_scenario_inputs",
    "test_fmt_inputs",
    "test_lookalike_letters",
    "test_attack_inputs",
)
#: Inputs kept to mutate, per target; the oldest go first.
POOL_SIZE = 256
#: Length of a fresh random input, in bytes (Hypothesis reads what its strategies draw).
FRESH_BYTES = (16, 4096)
#: Time each target runs before the next one's turn (at least 25 inputs).
SLICE_SECONDS = 1.0
#: Failures kept per target and kind of failure: a bug found once is found again and again.
KEPT_PER_FAILURE = 3


@dataclass
class Target:
    """One Hypothesis test function and the inputs that ran through it."""

    name: str
    run: Callable[[bytes], bytes | None]
    pool: list[bytes] = field(default_factory=list)
    inputs: int = 0
    #: Inputs Hypothesis could not read as a test case (too short, say): they ran nothing.
    unread: int = 0


def targets(modules: tuple[str, ...] = MODULES, only: str = "") -> list[Target]:
    """Every Hypothesis test of ``modules`` whose name contains ``only`` (or one of its comma-separated parts)."""
    found = []
    wanted = only.split(",")
    for name in modules:
        module: ModuleType = importlib.import_module(f"{__package__}.{name}")
        for attribute, value in sorted(vars(module).items()):
            hypothesis: Any = getattr(value, "hypothesis", None)
            if attribute.startswith("test_") and hypothesis is not None and any(part in attribute for part in wanted):
                found.append(Target(f"{name}.{attribute}", hypothesis.fuzz_one_input))
    return found


def _mutated(pool: list[bytes], rng: random.Random) -> bytes:
    data = bytearray(rng.choice(pool))
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(4)
        if kind == 0 and data:  # flip a bit
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1 and data:  # cut
            del data[rng.randrange(len(data)) :]
        elif kind == 2:  # splice another input in
            other = rng.choice(pool)
            at = rng.randrange(len(data) + 1)
            data[at:at] = other[rng.randrange(len(other) + 1) :]
        else:  # random bytes in
            at = rng.randrange(len(data) + 1)
            data[at:at] = rng.randbytes(rng.randint(1, 32))
    return bytes(data)


def inputs_for(target: Target, rng: random.Random) -> Iterator[bytes]:
    while True:
        if target.pool and rng.random() < 0.5:
            yield _mutated(target.pool, rng)
        else:
            yield rng.randbytes(rng.randint(*FRESH_BYTES))


@dataclass
class Findings:
    """The failures of a run, saved as they are found."""

    folder: Path
    seen: Counter[tuple[str, str]] = field(default_factory=Counter)
    count: int = 0

    def add(self, target: Target, data: bytes, error: BaseException) -> None:
        self.count += 1
        summary = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
        key = (target.name, summary[:200])
        self.seen[key] += 1
        if self.seen[key] > KEPT_PER_FAILURE:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        stem = f"{target.name}-{hashlib.blake2b(data, digest_size=8).hexdigest()}"
        (self.folder / f"{stem}.bin").write_bytes(data)
        (self.folder / f"{stem}.txt").write_text(
            "".join(traceback.format_exception(error)), encoding="utf-8", errors="replace"
        )
        print(f"FAIL {target.name}: {summary[:300]}\n     saved as {self.folder / stem}.bin", file=sys.stderr)


def fuzz(chosen: list[Target], *, seconds: float, max_inputs: int, seed: int, findings: Findings) -> int:
    """Drive ``chosen`` in turn, a batch each, until the time or the inputs run out; the inputs run."""
    rng = random.Random(seed)
    streams = {target.name: inputs_for(target, rng) for target in chosen}
    deadline = time.monotonic() + seconds
    total = 0
    while total < max_inputs and time.monotonic() < deadline:
        for target in chosen:
            # each target gets the same time, a slice at a time: a cheap one runs more inputs
            slice_end = time.monotonic() + SLICE_SECONDS
            for count in range(max_inputs - total):
                if count >= 25 and time.monotonic() >= slice_end:
                    break
                data = next(streams[target.name])
                target.inputs += 1
                total += 1
                try:
                    kept = target.run(data)
                except FAILURES as error:
                    findings.add(target, data, error)
                    continue
                if kept is None:
                    target.unread += 1
                else:
                    target.pool.append(kept)
                    del target.pool[:-POOL_SIZE]
            if total >= max_inputs or time.monotonic() >= deadline:
                break
    return total


def replay(path: Path) -> int:
    """Run one saved input again through its target, printing the failure in full."""
    name = path.name.rsplit("-", 1)[0]
    module = name.partition(".")[0]
    chosen = [t for t in targets((module,)) if t.name == name] if module in MODULES else []
    if not chosen:
        print(f"no fuzz target {name!r} (from the file name {path.name!r})", file=sys.stderr)
        return 2
    try:
        chosen[0].run(path.read_bytes())
    except FAILURES:
        traceback.print_exc()
        return 1
    print(f"{name}: the input passes now")
    return 0


def _seconds(options: argparse.Namespace) -> float:
    """The run's time limit: ``--minutes``; else none when ``--inputs`` bounds it; else 10 minutes."""
    if options.minutes is not None:
        return float(options.minutes) * 60
    return math.inf if options.inputs != sys.maxsize else 600.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--minutes", type=float, default=None, help="how long to run (default 10, or no limit with --inputs)"
    )
    parser.add_argument("--inputs", type=int, default=sys.maxsize, help="stop after this many inputs")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random inputs (default: the time)")
    parser.add_argument(
        "--only", default="", help="drive only the targets whose name contains this (or one of these, comma-separated)"
    )
    parser.add_argument("--findings", type=Path, default=Path("fuzz-findings"), help="where failing inputs go")
    parser.add_argument("--replay", type=Path, metavar="FILE", help="run one saved input again")
    parser.add_argument("--list", action="store_true", help="list the targets and stop")
    options = parser.parse_args(argv)
    if options.replay is not None:
        return replay(options.replay)
    chosen = targets(only=options.only)
    if options.list or not chosen:
        for target in chosen:
            print(target.name)
        return 0 if chosen else 2
    seed = options.seed if options.seed is not None else time.time_ns() % 2**32
    findings = Findings(options.findings)
    started = time.monotonic()
    try:
        total = fuzz(chosen, seconds=_seconds(options), max_inputs=options.inputs, seed=seed, findings=findings)
    except KeyboardInterrupt:
        total = sum(target.inputs for target in chosen)
    minutes = (time.monotonic() - started) / 60
    for target in chosen:
        print(f"  {target.inputs:>9,} inputs ({target.unread:,} unread)  {target.name}")
    unread = sum(target.unread for target in chosen)
    print(
        f"fuzz: {total:,} inputs ({unread:,} unread), {sum(RUNS.values()):,} runs of sgcheck,"
        f" {findings.count:,} failures ({len(findings.seen)} kinds) in {minutes:.1f} min"
        f" over {len(chosen)} targets (seed {seed})"
    )
    return 1 if findings.count else 0


if __name__ == "__main__":
    sys.exit(main())
