"""The HTML replay report in a real browser: headless Chromium runs the page's script, and the
DOM it leaves behind is checked (the board drawn, the pieces, the finding marked and opened at,
the plot), and a screenshot is taken. Chromium runs a few times for the whole module: every
shipped example goes into one page (its script draws each log's section), so the suite stays fast.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from tests.browser.harness import ROOT, Dom, chromium, run_browser, write_page

EXAMPLES = sorted(
    [
        *(ROOT / "examples" / "logs").rglob("*.sglog"),
        *(ROOT / "examples" / "scenarios").glob("*.sglog"),
        *(ROOT / "examples" / "modules").glob("*.sglog"),
    ]
)
WRONG_HIT = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"
EXAMPLES_BY_NAME = {path.name: path for path in EXAMPLES}


@pytest.fixture(scope="module")
def examples_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Dom, list[dict[str, object]]]:
    chromium()
    page = tmp_path_factory.mktemp("browser") / "examples.html"
    data = write_page(page, EXAMPLES)
    return Dom(run_browser(page, "--dump-dom")), data


def test_the_script_ran_without_errors(examples_page: tuple[Dom, list[dict[str, object]]]) -> None:
    dom, _ = examples_page
    [html] = dom.root.all("html")
    assert "data-script-error" not in html.attrs
    assert float(html.attrs["data-ready"] or "nan") > 0


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[str(p.relative_to(ROOT)) for p in EXAMPLES])
def test_each_example_is_drawn(index: int, examples_page: tuple[Dom, list[dict[str, object]]]) -> None:
    dom, data = examples_page
    section = next(s for s in dom.root.all("section", "log") if s.attrs.get("id") == f"log-{index}")
    log = data[index]
    frames, findings = log["frames"], log["findings"]
    assert isinstance(frames, list) and isinstance(findings, list)
    if not frames:  # replay stopped before play began: the log and the finding, no board
        assert not section.all("svg", "board") and section.all("div", "noboard")
        assert section.attrs.get("data-finding") == "0"
        return
    [board] = section.all("svg", "board")
    assert len(board.all("rect", "sq")) == 64
    pieces = board.all("g", "pc")
    assert len(board.all("g", "king")) == 2 and len(pieces) >= 2
    [plot] = section.all("svg", "plot")
    assert len(plot.all("polyline", "series")) == 6
    assert len(plot.all("line", "now")) == 1
    opened = log["open"]
    assert isinstance(opened, int)
    frame = section.attrs.get("data-frame")
    if opened < 0:  # a legal game opens at its last position
        assert frame == str(len(frames) - 1)
        return
    finding = findings[opened]
    assert frame == str(finding["frame"])  # the page opened at the first error
    assert section.attrs.get("data-finding") == str(opened)
    [box] = section.all("div", "finding-box")
    assert "hidden" not in box.attrs and "error" in box.classes
    texts = " ".join(n.attrs.get("class") or "" for n in box.walk())
    assert "code" in texts and "msg" in texts
    marked = board.all("rect", "bad")
    assert len(marked) == (finding["from"] >= 0) + (finding["to"] >= 0)
    [current] = [li for li in section.all("li", "finding") if "current" in li.classes]
    assert current.attrs["data-finding"] == str(opened)
    [source] = section.all("ol", "src")
    if finding["source"] == log["source"] and finding["line"]:
        [shown] = [li for li in source.all("li") if "at" in li.classes]  # the finding's line, in view
        assert shown.attrs["data-line"] == str(finding["line"])
    drawn = [int(li.attrs["data-line"] or 0) for li in source.all("li")]
    assert drawn == list(range(drawn[0], drawn[0] + len(drawn)))  # a window of the log, in order
    assert len(drawn) <= 200 or len(drawn) == len(log["lines"])  # type: ignore[arg-type]


def test_keep_going_findings_are_all_listed(tmp_path: Path) -> None:
    chromium()
    logs = [p for p in EXAMPLES if "broken" in p.parts][:8]
    data = write_page(tmp_path / "keep-going.html", logs, keep_going=True)
    dom = Dom(run_browser(tmp_path / "keep-going.html", "--dump-dom"))
    sections = dom.root.all("section", "log")
    assert len(sections) == len(logs)
    for section, log in zip(sections, data, strict=True):
        assert len(section.all("li", "finding")) == len(log["findings"])  # type: ignore[arg-type]
    visible = [s for s in sections if "hidden" not in s.attrs]
    assert len(visible) == 1  # one log at a time, chosen with the selector


def test_a_screenshot_of_a_broken_log(tmp_path: Path) -> None:
    chromium()
    page, shot = tmp_path / "wrong-hit.html", tmp_path / "wrong-hit.png"
    write_page(page, [WRONG_HIT])
    run_browser(page, "--hide-scrollbars", "--window-size=1280,900", f"--screenshot={shot}")
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1280, 900)
    assert len(png) > 20_000  # a drawn page, not a blank one


def test_a_link_opens_a_log_at_a_position(tmp_path: Path) -> None:
    """#log-K/N opens log K at position N: a position of a dispute can be linked to."""
    chromium()
    page = tmp_path / "two.html"
    data = write_page(page, [EXAMPLES_BY_NAME["full-game.sglog"], WRONG_HIT])
    dom = Dom(run_browser(page, "--dump-dom", fragment="log-0/7"))
    first, second = dom.root.all("section", "log")
    assert "hidden" not in first.attrs and "hidden" in second.attrs
    assert first.attrs.get("data-frame") == "7"
    frames = data[0]["frames"]
    assert isinstance(frames, list) and len(frames) > 7
    # without a link the page opens at the log with the error, at its finding
    dom = Dom(run_browser(page, "--dump-dom"))
    first, second = dom.root.all("section", "log")
    assert "hidden" in first.attrs and "hidden" not in second.attrs
