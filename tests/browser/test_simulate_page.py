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


def test_every_plot_names_its_axes_and_has_a_legend_and_0_of_0_is_drawn_as_missing(tmp_path: Path) -> None:
    """A card in every game has no "not played" games: its rate is unknown, drawn as missing words,
    never as a bar or a 0%-100% interval; the impact plot (--impact) renders like the others."""
    chromium()
    page = tmp_path / "simulate.html"
    planted = ROOT / "examples" / "packs" / "planted"
    args = ["simulate", str(planted), "--games", "2", "--turn-limit", "6", "--policy", "greedy", "--impact"]
    result = CliRunner().invoke(main, [*args, "--jobs", "1", "--format", "html", "-o", str(page)])
    assert result.exit_code == 0, result.output
    dom = Dom(run_browser(page, "--dump-dom"))
    [html] = dom.root.all("html")
    assert html.attrs.get("data-plots") == html.attrs.get("data-plots-drawn") == "5"
    plots = {svg.attrs.get("data-plot"): svg for svg in dom.root.all("svg", "plot")}
    assert set(plots) == {"win rates", "game length", "economy", "cards", "impact"}
    for name, svg in plots.items():
        axes = {text.attrs.get("data-axis") for text in svg.all("text", "axis-label")}
        assert axes == {"x", "y"}, name
        assert svg.all("g", "legend"), name
    missing = plots["cards"].all("text", "missing")
    assert len(missing) == 3  # each of the three cards was played in every game: "not played" is 0 of 0
    assert len(plots["cards"].all("rect", "mark")) == 3  # the "played" bars only
