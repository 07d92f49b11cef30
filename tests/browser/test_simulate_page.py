"""The HTML page of ``sgcheck simulate`` in a real browser: headless Chromium lays out each
inline SVG plot, and the page's own script records how many plots have drawn marks (each mark
with a non-empty box), with no error and no network."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sgcheck.cli import main
from tests.browser.harness import ROOT, Dom, chromium, run_browser


def test_every_plot_of_the_simulation_page_renders(tmp_path: Path) -> None:
    chromium()  # skips, with the reason, when there is no headless Chromium
    page = tmp_path / "simulate.html"
    args = ["simulate", str(ROOT / "examples" / "packs" / "starter"), "--games", "2", "--turn-limit", "6"]
    result = CliRunner().invoke(main, [*args, "--format", "html", "-o", str(page)])
    assert result.exit_code == 0, result.output
    dom = Dom(run_browser(page, "--dump-dom"))
    [html] = dom.root.all("html")
    assert html.attrs.get("data-plots") == "4"  # win rates, game length, economy, cards
    assert html.attrs.get("data-plots-drawn") == "4"
    plots = {svg.attrs.get("data-plot"): svg for svg in dom.root.all("svg", "plot")}
    assert set(plots) == {"win rates", "game length", "economy", "cards"}
    assert len(plots["economy"].all("polyline", "series")) == 4  # LP and SP of each side
    assert len(plots["win rates"].all("rect", "mark")) == 6  # each side overall, first and second
