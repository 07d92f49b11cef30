"""The screenshots of the HTML report in docs/, taken in headless Chromium.

    python -m tests.browser.screenshots            # rewrites docs/html-report.png and docs/html-report-game.png
    python -m tests.browser.screenshots --out DIR  # writes them to DIR instead

``html-report.png`` is the page of examples/logs/broken/wrong-hit.sglog, open at its finding;
``html-report-game.png`` the page of examples/logs/full-game.sglog at an attack (the squares of
the statement marked, its line highlighted). ``--log`` takes another log for the first, and
``--game`` another for the second (tests/browser/test_screenshots.py runs this on small logs).
"""

from __future__ import annotations

import argparse
import struct
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.browser.harness import ROOT, find_chromium, run_browser, write_page

SIZE = (1280, 900)
BROKEN = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"
GAME = ROOT / "examples" / "logs" / "full-game.sglog"


def attack_position(data: dict[str, object]) -> int:
    """A position of the game worth showing: an attack in its second half, else its last position."""
    frames, lines = data["frames"], data.get("lines", [])
    assert isinstance(frames, list) and isinstance(lines, list)
    for index in range(len(frames) // 2, len(frames)):
        line, kind = frames[index][0], frames[index][1]
        if kind == 2 and 0 < line <= len(lines) and "attack" in lines[line - 1] and " hit" in lines[line - 1]:
            return index
    return len(frames) - 1


def shoot(log: Path, shot: Path, browser: str, *, at_attack: bool = False) -> None:
    """A screenshot of the page of ``log``: as it opens, or at an attack."""
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "report.html"
        [data] = write_page(page, [log])
        fragment = f"log-0/{attack_position(data)}" if at_attack else ""
        run_browser(
            page,
            "--hide-scrollbars",
            f"--window-size={SIZE[0]},{SIZE[1]}",
            f"--screenshot={shot}",
            fragment=fragment,
            browser=browser,
        )
    png = shot.read_bytes()
    if png[:8] != b"\x89PNG\r\n\x1a\n" or struct.unpack(">II", png[16:24]) != SIZE:
        raise RuntimeError(f"{shot}: not a {SIZE[0]}x{SIZE[1]} PNG")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.browser.screenshots", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="the folder to write to (docs/)")
    parser.add_argument("--log", type=Path, default=BROKEN, help="the log of html-report.png")
    parser.add_argument("--game", type=Path, default=GAME, help="the log of html-report-game.png")
    options = parser.parse_args(argv)
    browser = find_chromium()
    if browser is None:
        print("headless Chromium not found (or it cannot start here)", file=sys.stderr)
        return 2
    options.out.mkdir(parents=True, exist_ok=True)
    shoot(options.log.resolve(), options.out / "html-report.png", browser)
    shoot(options.game.resolve(), options.out / "html-report-game.png", browser, at_attack=True)
    for name in ("html-report.png", "html-report-game.png"):
        print(options.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
