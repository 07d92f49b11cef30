"""HTML replay report benchmark: page size and render time, and time to interactive in a browser.

Run from the repository root:

    python benchmarks/bench_html.py                  # the shipped 120-turn game and a 10,000-turn log
    python benchmarks/bench_html.py --turns 2000     # a shorter generated log

For each log it reports the page's size, the time to replay it with the timeline recorded and
to render the page (best of ``--repeats``), the same replay without the timeline for comparison,
and, when headless Chromium is installed, the time from navigation until the page's script has
drawn everything (``data-ready``, which the script sets to ``performance.now()`` when it is done).
Generated logs are cached in ``benchmarks/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from shared import OUT, fail, guard  # noqa: E402

FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"


def generated_log(turns: int, seed: int = 5) -> Path:
    """A legal generated log of ``turns`` turns (both sides' turns counted; cached)."""
    from sgcheck.core.state import GameState
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Claims, Style, iter_game

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"html-{turns}-{seed}.sglog"
    if not path.exists():
        items = iter_game(seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=(turns + 1) // 2)
        text = "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))  # type: ignore[arg-type]
        path.write_text(text, encoding="utf-8")
    return path


def render(path: Path, *, timeline: bool) -> tuple[str, float, float]:
    """The page for ``path``, the replay time and the render time."""
    from sgcheck.codes import CATALOGUE
    from sgcheck.replay.files import LogInput, replay_input
    from sgcheck.replay.interpreter import ReplayOptions
    from sgcheck.report import ReportStream

    start = time.perf_counter()
    result, sources = replay_input(LogInput(str(path)), ReplayOptions(timeline=timeline))
    text = dict(sources)  # the log's text joined, as the renderer will ask for it
    replayed = time.perf_counter()
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="bench")
    stream.add(result, text)
    page = stream.close()
    return page, replayed - start, time.perf_counter() - replayed


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def time_to_interactive(browser: str, page: Path) -> float:
    """``data-ready`` of the page after headless Chromium loaded it: milliseconds since navigation."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=30000",
                "--dump-dom",
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
    marker = 'data-ready="'
    at = done.stdout.find(marker)
    if at < 0:
        raise RuntimeError("the page's script did not finish")
    return float(done.stdout[at + len(marker) : done.stdout.index('"', at + len(marker))])


def measure(label: str, path: Path, repeats: int, browser: str | None) -> None:
    turns = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line[:1].isdigit())
    best = min((render(path, timeline=True) for _ in range(repeats)), key=lambda r: r[1] + r[2])
    page, replay_time, render_time = best
    plain = min(render(path, timeline=False)[1] for _ in range(repeats))
    size = len(page.encode("utf-8"))
    if turns == 0 or "data-ready" not in page:
        fail(f"{label}: {turns} turn lines, a page of {size} bytes without its script: nothing to measure")
    print(f"{label}: {path.name}, {turns:,} turn lines, log {path.stat().st_size / 1e6:.2f} MB")
    print(f"  page {size / 1e6:.2f} MB ({size / path.stat().st_size:.1f}x the log)")
    print(
        f"  replay with the timeline {replay_time:.2f} s (without: {plain:.2f} s, {replay_time / plain:.1f}x); "
        f"render {render_time:.3f} s"
    )
    if browser is None:
        print("  time to interactive: headless Chromium not found")
        return
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "report.html"
        target.write_text(page, encoding="utf-8")
        ready = min(time_to_interactive(browser, target) for _ in range(repeats))
    print(f"  time to interactive in headless Chromium: {ready:.0f} ms (best of {repeats})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true", help="leave out the time to interactive")
    args = parser.parse_args(argv)
    if args.turns < 1 or args.repeats < 1:
        fail("--turns and --repeats must be at least 1")
    browser = None if args.no_browser else chromium()
    measure("shipped game", FULL_GAME, args.repeats, browser)
    measure("generated game", generated_log(args.turns), args.repeats, browser)
    return 0


if __name__ == "__main__":
    raise SystemExit(guard(main))
