"""The dispute section of the HTML report (``replay --dispute``, docs/disputes.md) in headless
Chromium: the page's script still runs, and the section is shown open, below the board, as wide
as the board, the panel and the log together."""

from __future__ import annotations

from pathlib import Path

from sgcheck.codes import CATALOGUE
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions
from sgcheck.report import ReportStream
from tests.browser.harness import chromium, probe

CAPTURE = "examples/logs/broken/illegal-capture.sglog"

BODY = """
var box = document.querySelector("details.dispute");
var own = box.getBoundingClientRect();
var stage = document.querySelector(".stage").getBoundingClientRect();
results.open = box.open;
results.text = box.querySelector("pre.dispute").textContent;
results.below = own.top >= stage.bottom;
var source = document.querySelector(".source").getBoundingClientRect();
results.wide = own.left <= stage.left + 1 && own.right >= source.right - 1;
results.shown = own.height > 40;
"""


def test_the_dispute_section_shows_under_the_board(tmp_path: Path) -> None:
    chromium()
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    result, sources = replay_input(LogInput(CAPTURE), ReplayOptions(timeline=True, dispute=True))
    stream.add(result, sources)
    _, found = probe(tmp_path / "dispute.html", stream.close(), BODY)
    assert found["open"] is True and found["shown"] is True
    assert found["below"] is True and found["wide"] is True
    text = found["text"]
    assert isinstance(text, str)
    assert "first illegal action: examples/logs/broken/illegal-capture.sglog:18:25" in text  # core §4.1, R08
    assert "action-undone   * the attack on line 18 is removed" in text
