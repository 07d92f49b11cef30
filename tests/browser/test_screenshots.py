"""The script that takes the screenshots in docs/ keeps working: run on small logs, into a
temporary folder."""

from __future__ import annotations

import struct
from pathlib import Path

from tests.browser import screenshots
from tests.browser.harness import ROOT, chromium


def test_the_screenshot_script_writes_both_pictures(tmp_path: Path) -> None:
    chromium()
    small = ROOT / "examples" / "logs" / "guide-example-a.sglog"
    broken = ROOT / "examples" / "logs" / "broken" / "wrong-cost.sglog"
    assert screenshots.main(["--out", str(tmp_path), "--log", str(broken), "--game", str(small)]) == 0
    for name in ("html-report.png", "html-report-game.png"):
        png = (tmp_path / name).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == screenshots.SIZE
        assert len(png) > 20_000  # a drawn page, not a blank one
