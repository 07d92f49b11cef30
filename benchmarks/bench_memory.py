"""Peak memory and time of sgcheck on the largest and the most hostile inputs it accepts or refuses.

Run from the repository root:

    python benchmarks/bench_memory.py                  # everything
    python benchmarks/bench_memory.py --only logs      # the 1,000,000-action log in three forms
    python benchmarks/bench_memory.py --only refused   # inputs over a limit, devices, endless input
    python benchmarks/bench_memory.py --only cards     # the worst card files within the limits
    python benchmarks/bench_memory.py --only fmt       # sgcheck fmt on the 1,000,000-action and the largest log

Every command runs in a child process; its peak resident set size is the child's
``ru_maxrss`` (``resource.getrusage(RUSAGE_CHILDREN)`` in a small probe that starts only
that child). A bare interpreter and an interpreter that has imported ``sgcheck.cli`` are
measured in the same run as the baseline. The generated log (``bench_replay.py``'s, seed 11)
and its variants are cached in ``benchmarks/out/`` (git-ignored); generating the log takes a
few minutes the first time.

Targets (docs/benchmarks.md, docs/limits.md): ``sgcheck replay`` on the 1,000,000-action log
in LF, CRLF+BOM and single-line-garbage forms peaks at no more than 120 MB each, and so does
``sgcheck fmt`` (rewriting a copy in place) on the 1,000,000-action log and the largest log
accepted.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

SGCHECK = [sys.executable, "-m", "sgcheck"]
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


def measure(cmd: list[str], *, stdin: Path | None = None, pipe_from: list[str] | None = None) -> Measure:
    """Peak RSS, wall time, exit status and last output line of ``cmd`` in a fresh child."""
    args = [sys.executable, "-c", _PROBE, str(stdin) if stdin else "-"]
    args += ["--pipe-from", json.dumps(pipe_from), json.dumps(cmd)] if pipe_from else cmd
    done = subprocess.run(args, check=True, capture_output=True, text=True, cwd=ROOT)
    return Measure(**json.loads(done.stdout.strip().splitlines()[-1]))


def show(label: str, result: Measure, baseline: Measure | None = None) -> None:
    over = f" (+{result.mb - baseline.mb:.0f} MB over sgcheck idle)" if baseline else ""
    print(f"  {label:<44} {result.mb:6.0f} MB{over}  {result.seconds:6.1f} s  exit {result.status}  {result.last[:70]}")


def baselines() -> Measure:
    print("baseline")
    show("python -c pass", measure([sys.executable, "-c", "pass"]))
    idle = measure([sys.executable, "-c", "import sgcheck.cli"])
    show("python -c 'import sgcheck.cli'", idle)
    return idle


# --- logs ---------------------------------------------------------------------------------------


def log_forms() -> dict[str, Path]:
    """The 1,000,000-action log as written, with CRLF and a BOM, and with its line ends lost."""
    from bench_replay import generated_log

    lf = generated_log(LOG_ACTIONS, seed=11)
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


def largest_log(lf: Path) -> Path:
    """The LF log padded with comment lines to exactly the largest size a log may have."""
    from sgcheck.lang.source import LOG_LIMIT

    path = OUT / "largest-accepted.sglog"
    if not path.exists() or path.stat().st_size != LOG_LIMIT.max_bytes:
        data = lf.read_bytes()
        line = b"; " + b"padding " * 8 + b"\n"
        missing = LOG_LIMIT.max_bytes - len(data)
        pad = line * (missing // len(line))
        pad += b";" + b" " * (missing - len(pad) - 2) + b"\n"
        path.write_bytes(data + pad)
    return path


def logs(idle: Measure) -> None:
    forms = log_forms()
    print(f"sgcheck replay --no-summary, {LOG_ACTIONS:,}-action log (target: at most {TARGET_MB} MB each)")
    peaks = []
    for name, path in forms.items():
        result = measure([*SGCHECK, "replay", "--no-summary", str(path)])
        show(f"{name} ({path.stat().st_size / 1e6:.1f} MB)", result, idle)
        peaks.append(result.mb)
    verdict = "met" if max(peaks) <= TARGET_MB else "NOT met"
    print(f"  target {verdict}: {', '.join(f'{peak:.0f}' for peak in peaks)} MB")
    largest = largest_log(forms["LF"])
    result = measure([*SGCHECK, "replay", "--no-summary", str(largest)])
    show(f"largest accepted log ({largest.stat().st_size / 1e6:.1f} MB, LF)", result, idle)
    result = measure([*SGCHECK, "replay", "--no-summary", "-"], stdin=forms["CRLF+BOM"])
    show("CRLF+BOM on standard input", result, idle)


def fmt_logs(idle: Measure, logs: dict[str, Path]) -> list[Measure]:
    """``sgcheck fmt`` rewriting a copy of each log in place (the copy is made again each run)."""
    print(f"sgcheck fmt, rewriting a copy in place (target: at most {TARGET_MB} MB each)")
    results = []
    for name, path in logs.items():
        copy = path.with_name(f"fmt-{path.name}")
        copy.write_bytes(path.read_bytes())
        result = measure([*SGCHECK, "fmt", str(copy)])
        show(f"{name} ({path.stat().st_size / 1e6:.1f} MB)", result, idle)
        results.append(result)
        copy.unlink()
    verdict = "met" if max(r.mb for r in results) <= TARGET_MB else "NOT met"
    print(f"  target {verdict}: {', '.join(f'{r.mb:.0f}' for r in results)} MB")
    return results


def fmt(idle: Measure) -> None:
    lf = log_forms()["LF"]
    fmt_logs(idle, {f"{LOG_ACTIONS:,}-action log, LF": lf, "largest accepted log, LF": largest_log(lf)})


# --- refused inputs -----------------------------------------------------------------------------


def refused(idle: Measure) -> None:
    from sgcheck.lang.source import LOG_LIMIT

    print("inputs sgcheck refuses")
    big = OUT / "over-limit.sglog"
    if not big.exists():
        with big.open("wb") as handle:  # 100 MB of log text
            line = b"; " + b"x" * 97 + b"\n"
            for _ in range(1_000_000):
                handle.write(line)
    show("100 MB log file", measure([*SGCHECK, "replay", str(big)]), idle)
    show("100 MB log on standard input (- < file)", measure([*SGCHECK, "replay", "-"], stdin=big), idle)
    show("/dev/zero", measure([*SGCHECK, "replay", "/dev/zero"]), idle)
    show("- < /dev/zero", measure([*SGCHECK, "replay", "-"], stdin=Path("/dev/zero")), idle)
    endless = [sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'; endless\\n' * 10000)"]
    show(
        f"endless text through a pipe (stops at {LOG_LIMIT.max_bytes / 1e6:.0f} MB)",
        measure([*SGCHECK, "replay", "-"], pipe_from=endless),
        idle,
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


def _largest_yaml(path: Path, unit: Callable[[int], str]) -> Path:
    """As many ``unit`` cards as a YAML card file may hold (bytes and nodes)."""
    from sgcheck.lang.source import YAML_CARD_LIMIT
    from sgcheck.lang.yaml.tree import compose

    def text(count: int) -> str:
        return "cards:\n" + "".join(unit(i) for i in range(count))

    low, high = 1, 200_000
    while low < high:
        middle = (low + high + 1) // 2
        candidate = text(middle)
        fits = len(candidate.encode()) <= YAML_CARD_LIMIT.max_bytes and not hasattr(compose(candidate, "x"), "code")
        low, high = (middle, high) if fits else (low, middle - 1)
    path.write_text(text(low), encoding="utf-8")
    return path


def cards(idle: Measure) -> None:
    from bench_check import card_text

    from sgcheck.lang.source import CARD_LIMIT, MANIFEST_LIMIT

    print(f"sgcheck check on the worst files within the limits (.sgcard: {CARD_LIMIT.max_bytes:,} bytes)")
    size = CARD_LIMIT.max_bytes
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
        ),
        "YAML: most invalid cards": _largest_yaml(OUT / "cards-invalid.sgcard.yaml", lambda i: f"  - {{name: C{i}}}\n"),
    }
    pack = OUT / "largest-manifest"
    pack.mkdir(exist_ok=True)
    (pack / "a.sgcard").write_text('spell "A" { cost 1 SP phase main1 effect gain 1 SP }\n', encoding="utf-8")
    _fill(
        pack / "sgpack.yaml",
        MANIFEST_LIMIT.max_bytes,
        lambda i: f"  - a.sgcard  # entry {i:07d}\n",
        "name: largest\nversion: 1.0.0\ncards:\n",
    )
    files["manifest of one file listed over and over"] = pack
    for fmt in ("text", "json"):
        print(f"  --format {fmt}")
        for name, path in files.items():
            size_mb = sum(p.stat().st_size for p in ([path] if path.is_file() else path.iterdir())) / 1e6
            show(f"{name} ({size_mb:.2f} MB)", measure([*SGCHECK, "check", "--format", fmt, str(path)]), idle)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("logs", "refused", "cards", "fmt"))
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    idle = baselines()
    if args.only in (None, "logs"):
        logs(idle)
    if args.only in (None, "refused"):
        refused(idle)
    if args.only in (None, "cards"):
        cards(idle)
    if args.only in (None, "fmt"):
        fmt(idle)


if __name__ == "__main__":
    main()
