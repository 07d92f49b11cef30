"""Peak memory and time of sgcheck on the largest and the most hostile inputs it accepts or refuses.

Run from the repository root:

    python benchmarks/bench_memory.py                  # everything
    python benchmarks/bench_memory.py --only logs      # the 1,000,000-action log in three forms
    python benchmarks/bench_memory.py --only refused   # inputs over a limit, devices, endless input
    python benchmarks/bench_memory.py --only cards     # the worst card files within the limits
    python benchmarks/bench_memory.py --only fmt       # sgcheck fmt on the 1,000,000-action and the largest log

Every command runs in a child process, in each build (compiled and pure when the compiled one is
installed, benchmarks/shared.py; ``--checkout`` measures this checkout instead of the installed
sgcheck); its peak resident set size is the child's ``ru_maxrss``
(``resource.getrusage(RUSAGE_CHILDREN)`` in a small probe that starts only that child). A bare
interpreter and an interpreter that has imported ``sgcheck.cli`` are measured in the same run as
the baseline. A command that does not end as it should (a legal log replayed with exit 0, an
input over a limit refused with a finding, exit 1) fails the benchmark with exit code 2. The
generated log (``bench_replay.py``'s, seed 11; ``--actions``) and its variants are cached in
``benchmarks/out/`` (git-ignored); generating the log takes a few minutes the first time.

Targets (docs/benchmarks.md, docs/limits.md): ``sgcheck replay`` on the 1,000,000-action log
in LF, CRLF+BOM and single-line-garbage forms peaks at no more than 120 MB each, and so does
``sgcheck fmt`` (rewriting a copy in place) on the 1,000,000-action log and the largest log
accepted.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from shared import OUT, SGCHECK, Target, fail, guard  # noqa: E402

INSTALLED = Target()

LOG_ACTIONS = 1_000_000
TARGET_MB = 120

_PROBE = """
import json, resource, subprocess, sys, time
stdin_path = sys.argv[1]
stdin = subprocess.DEVNULL if stdin_path == "-" else open(stdin_path, "rb")
start = time.perf_counter()
if sys.argv[2] == "--pipe-from":  # a producer process feeds the command through a pipe
    producer = subprocess.Popen(json.loads(sys.argv[3]), stdout=subprocess.PIPE)
    done = subprocess.run(json.loads(sys.argv[4]), stdin=producer.stdout, capture_output=True, text=True)
    producer.kill()
    producer.wait()
else:
    done = subprocess.run(sys.argv[2:], stdin=stdin, capture_output=True, text=True)
elapsed = time.perf_counter() - start
lines = done.stdout.strip().splitlines()
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, "seconds": elapsed,
                  "status": done.returncode, "last": lines[-1] if lines else done.stderr.strip()[-200:]}))
"""


@dataclass(frozen=True)
class Measure:
    rss: int
    seconds: float
    status: int
    last: str

    @property
    def mb(self) -> float:
        return self.rss / 1e6


def measure(
    cmd: list[str],
    *,
    stdin: Path | None = None,
    pipe_from: list[str] | None = None,
    target: Target = INSTALLED,
    build: str | None = None,
) -> Measure:
    """Peak RSS, wall time, exit status and last output line of ``cmd`` in a fresh child, in ``build``."""
    args = [sys.executable, "-c", _PROBE, str(stdin) if stdin else "-"]
    args += ["--pipe-from", json.dumps(pipe_from), json.dumps(cmd)] if pipe_from else cmd
    done = target.run(args, build, capture_output=True)
    if done.returncode != 0:
        fail(f"the memory probe of {' '.join(cmd)[-120:]} failed: {done.stderr.strip()[-400:]}")
    return Measure(**json.loads(done.stdout.strip().splitlines()[-1]))


def show(label: str, result: Measure, baseline: Measure | None = None) -> None:
    over = f" (+{result.mb - baseline.mb:.0f} MB over sgcheck idle)" if baseline else ""
    print(f"  {label:<44} {result.mb:6.0f} MB{over}  {result.seconds:6.1f} s  exit {result.status}  {result.last[:70]}")


#: What a command that did its job prints last: a summary of the files it checked or rewrote.
DONE = re.compile(r"\b\d+ files? (checked|reformatted|left unchanged)")


def expect(label: str, result: Measure, status: int | tuple[int, ...], done: re.Pattern[str] = DONE) -> Measure:
    """``result``, which must have ended with ``status`` (one of them) and its summary line: a
    command that did anything else (a traceback, a usage error) measured nothing."""
    allowed = (status,) if isinstance(status, int) else status
    if result.status not in allowed or not done.search(result.last):
        fail(f"{label}: exit {result.status} (expected {' or '.join(map(str, allowed))}): {result.last[:200]}")
    return result


@dataclass(frozen=True)
class Run:
    """Where the measured commands run: the sgcheck they import, the build, its idle baseline."""

    target: Target
    build: str
    idle: Measure

    def sgcheck(
        self,
        label: str,
        args: list[str],
        status: int | tuple[int, ...],
        *,
        stdin: Path | None = None,
        pipe_from: list[str] | None = None,
        done: re.Pattern[str] = DONE,
    ) -> Measure:
        result = measure([*SGCHECK, *args], stdin=stdin, pipe_from=pipe_from, target=self.target, build=self.build)
        show(f"{label} [{self.build}]", result, self.idle)
        return expect(f"{label} [{self.build}]", result, status, done)


def baselines(target: Target = INSTALLED, builds: Sequence[str] = ("pure",)) -> dict[str, Measure]:
    print("baseline")
    show("python -c pass", measure([sys.executable, "-c", "pass"], target=target))
    idle = {}
    for build in builds:
        idle[build] = measure([sys.executable, "-c", "import sgcheck.cli"], target=target, build=build)
        show(f"python -c 'import sgcheck.cli' [{build}]", idle[build])
    return idle


# --- logs ---------------------------------------------------------------------------------------


def log_forms(actions: int) -> dict[str, Path]:
    """The ``actions``-action log as written, with CRLF and a BOM, and with its line ends lost."""
    from bench_replay import generated_log

    lf = generated_log(actions, seed=11)
    forms = {"LF": lf}
    for name, convert in (
        ("CRLF+BOM", lambda data: b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")),
        ("single-line garbage", lambda data: data.replace(b"\n", b" ")),
    ):
        path = lf.with_name(f"{lf.stem}-{name.split()[0].replace('+', '-').lower()}.sglog")
        if not path.exists():
            path.write_bytes(convert(lf.read_bytes()))
        forms[name] = path
    return forms


def largest_log(lf: Path, size: int | None = None) -> Path:
    """The LF log padded with comment lines to ``size`` bytes: by default the largest size a log may have."""
    from sgcheck.lang.source import LOG_LIMIT

    size = size or LOG_LIMIT.max_bytes
    path = OUT / f"largest-{size}-{lf.stem}.sglog"
    if not path.exists() or path.stat().st_size != size:
        data = lf.read_bytes()
        line = b"; " + b"padding " * 8 + b"\n"
        missing = size - len(data)
        if missing < 2:
            fail(f"the log {lf.name} is already {len(data):,} bytes: it cannot be padded to {size:,}")
        pad = line * (missing // len(line))
        pad += b";" + b" " * (missing - len(pad) - 2) + b"\n"
        path.write_bytes(data + pad)
    return path


def logs(run: Run, actions: int, largest_bytes: int | None) -> None:
    forms = log_forms(actions)
    print(f"sgcheck replay --no-summary, {actions:,}-action log (target: at most {TARGET_MB} MB each)")
    peaks = []
    for name, path in forms.items():
        status = 1 if name == "single-line garbage" else 0  # a log without line ends does not read
        result = run.sgcheck(
            f"{name} ({path.stat().st_size / 1e6:.1f} MB)", ["replay", "--no-summary", str(path)], status
        )
        peaks.append(result.mb)
    verdict = "met" if max(peaks) <= TARGET_MB else "NOT met"
    print(f"  target {verdict}: {', '.join(f'{peak:.0f}' for peak in peaks)} MB")
    largest = largest_log(forms["LF"], largest_bytes)
    run.sgcheck(
        f"largest accepted log ({largest.stat().st_size / 1e6:.1f} MB, LF)", ["replay", "--no-summary", str(largest)], 0
    )
    run.sgcheck("CRLF+BOM on standard input", ["replay", "--no-summary", "-"], 0, stdin=forms["CRLF+BOM"])


def fmt_logs(run: Run, logs: dict[str, Path]) -> list[Measure]:
    """``sgcheck fmt`` rewriting a copy of each log in place (the copy is made again each run)."""
    print(f"sgcheck fmt, rewriting a copy in place (target: at most {TARGET_MB} MB each)")
    results = []
    for name, path in logs.items():
        copy = path.with_name(f"fmt-{path.name}")
        copy.write_bytes(path.read_bytes())
        try:
            results.append(run.sgcheck(f"{name} ({path.stat().st_size / 1e6:.1f} MB)", ["fmt", str(copy)], 0))
        finally:
            copy.unlink()
    verdict = "met" if max(r.mb for r in results) <= TARGET_MB else "NOT met"
    print(f"  target {verdict}: {', '.join(f'{r.mb:.0f}' for r in results)} MB")
    return results


def fmt(run: Run, actions: int, largest_bytes: int | None) -> None:
    lf = log_forms(actions)["LF"]
    fmt_logs(run, {f"{actions:,}-action log, LF": lf, "largest accepted log, LF": largest_log(lf, largest_bytes)})


# --- refused inputs -----------------------------------------------------------------------------

#: The last line of a report in JSON.
JSON_END = re.compile(r"^\}$")

#: An input over a limit is a finding (exit 1), or an input that cannot be read (exit 2).
REFUSED = (1, 2)


def refused(run: Run) -> None:
    from sgcheck.lang.source import LOG_LIMIT

    print("inputs sgcheck refuses")
    big = OUT / "over-limit.sglog"
    if not big.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        with big.open("wb") as handle:  # 100 MB of log text
            line = b"; " + b"x" * 97 + b"\n"
            for _ in range(1_000_000):
                handle.write(line)
    run.sgcheck("100 MB log file", ["replay", str(big)], REFUSED)
    run.sgcheck("100 MB log on standard input (- < file)", ["replay", "-"], REFUSED, stdin=big)
    run.sgcheck("/dev/zero", ["replay", "/dev/zero"], REFUSED)
    run.sgcheck("- < /dev/zero", ["replay", "-"], REFUSED, stdin=Path("/dev/zero"))
    endless = [sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'; endless\\n' * 10000)"]
    run.sgcheck(
        f"endless text through a pipe (stops at {LOG_LIMIT.max_bytes / 1e6:.0f} MB)",
        ["replay", "-"],
        REFUSED,
        pipe_from=endless,
    )


# --- card files ---------------------------------------------------------------------------------


def _fill(path: Path, size: int, unit: Callable[[int], str], head: str = "", tail: str = "") -> Path:
    """``head``, then ``unit(i)`` for i = 0, 1, ... while the file stays within ``size`` bytes, then ``tail``."""
    parts, total, index = [head], len(head.encode()) + len(tail.encode()), 0
    while True:
        piece = unit(index)
        if total + len(piece.encode()) > size:
            break
        parts.append(piece)
        total += len(piece.encode())
        index += 1
    parts.append(tail)
    path.write_text("".join(parts), encoding="utf-8")
    return path


def _largest_yaml(path: Path, unit: Callable[[int], str], most: int) -> Path:
    """As many ``unit`` cards as a YAML card file may hold (bytes and nodes), within ``most`` bytes."""
    from sgcheck.lang.source import YAML_CARD_LIMIT
    from sgcheck.lang.yaml.tree import compose

    def text(count: int) -> str:
        return "cards:\n" + "".join(unit(i) for i in range(count))

    low, high = 1, 200_000
    while low < high:
        middle = (low + high + 1) // 2
        candidate = text(middle)
        fits = len(candidate.encode()) <= min(most, YAML_CARD_LIMIT.max_bytes) and not hasattr(
            compose(candidate, "x"), "code"
        )
        low, high = (middle, high) if fits else (low, middle - 1)
    path.write_text(text(low), encoding="utf-8")
    return path


def cards(run: Run, most: int | None) -> None:
    """``sgcheck check`` on the worst card files within the limits (``most``: within that many bytes)."""
    from bench_check import card_text

    from sgcheck.lang.source import CARD_LIMIT, MANIFEST_LIMIT, YAML_CARD_LIMIT

    size = min(most or CARD_LIMIT.max_bytes, CARD_LIMIT.max_bytes)
    yaml_size = min(most or YAML_CARD_LIMIT.max_bytes, YAML_CARD_LIMIT.max_bytes)
    print(f"sgcheck check on the worst files within the limits (.sgcard: {size:,} bytes)")
    rnd = random.Random(2025)
    guide = (ROOT / "examples/cards/guide-relics.sgcard.yaml").read_text(encoding="utf-8").split("cards:\n", 1)[1]
    yaml_cards = [block + "\n\n" for block in guide.split("\n\n") if block.strip()]
    files = {
        "benchmark-layout cards": _fill(OUT / "cards-bench.sgcard", size, lambda i: card_text(i, rnd)),
        "smallest cards (one finding each)": _fill(
            OUT / "cards-tiny.sgcard", size, lambda i: f'spell "C{i}" {{ cost 1 SP }}\n'
        ),
        "a syntax error in every card": _fill(
            OUT / "cards-broken.sgcard", size, lambda i: f'spell "C{i}" {{ cost SP }}\n'
        ),
        "one card with every effect": _fill(
            OUT / "cards-one.sgcard", size, lambda i: "  effect on capture: gain 1 SP\n", 'relic "X" {\n', "}\n"
        ),
        "YAML: most guide cards": _largest_yaml(
            OUT / "cards-guide.sgcard.yaml",
            lambda i: yaml_cards[i % len(yaml_cards)].replace("name: ", f"name: C{i} ", 1),
            yaml_size,
        ),
        "YAML: most invalid cards": _largest_yaml(
            OUT / "cards-invalid.sgcard.yaml", lambda i: f"  - {{name: C{i}}}\n", yaml_size
        ),
    }
    pack = OUT / "largest-manifest"
    pack.mkdir(exist_ok=True)
    (pack / "a.sgcard").write_text('spell "A" { cost 1 SP phase main1 effect gain 1 SP }\n', encoding="utf-8")
    _fill(
        pack / "sgpack.yaml",
        min(most or MANIFEST_LIMIT.max_bytes, MANIFEST_LIMIT.max_bytes),
        lambda i: f"  - a.sgcard  # entry {i:07d}\n",
        "name: largest\nversion: 1.0.0\ncards:\n",
    )
    files["manifest of one file listed over and over"] = pack
    for fmt in ("text", "json"):
        print(f"  --format {fmt}")
        for name, path in files.items():
            size_mb = sum(p.stat().st_size for p in ([path] if path.is_file() else path.iterdir())) / 1e6
            run.sgcheck(
                f"{name} ({size_mb:.2f} MB)",
                ["check", "--format", fmt, str(path)],
                (0, 1),
                done=DONE if fmt == "text" else JSON_END,
            )


def main(argv: list[str] | None = None) -> int:
    from sgcheck.lang.source import LOG_LIMIT

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("logs", "refused", "cards", "fmt"))
    parser.add_argument("--actions", type=int, default=LOG_ACTIONS, help="statements of the long log")
    parser.add_argument(
        "--largest-bytes", type=int, default=LOG_LIMIT.max_bytes, help="size of the padded log (default: the limit)"
    )
    parser.add_argument("--card-bytes", type=int, help="largest card file and manifest (default: the limits)")
    parser.add_argument("--checkout", action="store_true", help="measure this checkout, not the installed sgcheck")
    args = parser.parse_args(argv)
    if args.actions < 1 or not 0 < args.largest_bytes <= LOG_LIMIT.max_bytes:
        parser.error(f"--actions must be positive, --largest-bytes within 1 and {LOG_LIMIT.max_bytes:,}")
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    target = Target(checkout=args.checkout)
    builds = target.builds()
    idle = baselines(target, builds)
    for build in builds:
        run = Run(target, build, idle[build])
        if args.only in (None, "logs"):
            logs(run, args.actions, args.largest_bytes)
        if args.only in (None, "refused"):
            refused(run)
        if args.only in (None, "cards"):
            cards(run, args.card_bytes)
        if args.only in (None, "fmt"):
            fmt(run, args.actions, args.largest_bytes)
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
