"""The report of a simulation as one HTML page with its plots drawn as inline SVG.

The page has no external asset and needs no script to show its plots: each plot is an
``<svg class="plot">`` written here. A small inline script (allowed by the page's
Content-Security-Policy through its hash, nothing else) only measures what the browser laid
out and records it on ``<html data-plots=…>``, which the browser test reads.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape

from sgcheck.report.simulation import gauntlet_cells, impact_text, percent, rate_text
from sgcheck.results import GauntletReport, LengthBar, SimulationReport, WinRate

_SCRIPT = """(function () {
  var plots = document.querySelectorAll("svg.plot"), drawn = 0;
  for (var i = 0; i < plots.length; i++) {
    var marks = plots[i].querySelectorAll(".mark"), ok = marks.length > 0;
    for (var j = 0; j < marks.length; j++) {
      var box = marks[j].getBBox();
      if (!(box.width > 0 || box.height > 0)) { ok = false; }
    }
    if (ok && plots[i].getBoundingClientRect().width > 0) { drawn++; }
  }
  document.documentElement.setAttribute("data-plots", String(plots.length));
  document.documentElement.setAttribute("data-plots-drawn", String(drawn));
})();"""

_STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:60em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}
svg.plot{display:block;margin:.5em 0 1.5em}.axis{stroke:#888}.lbl{font-size:11px;fill:#444}
.pack{fill:#2b6cb0;stroke:#2b6cb0}.against{fill:#c05621;stroke:#c05621}.bar{fill:#718096}
.ci{stroke:#222;stroke-width:1.5}.series{fill:none;stroke-width:2}.dominant{color:#b00;font-weight:bold}
.warn{color:#8a5a00}"""

W, H, PAD = 560, 200, 40


def _axis_labels(x_label: str, y_label: str, height: int = H) -> list[str]:
    """Every plot names what its axes measure: x under the plot, y turned along the left edge."""
    return [
        f'<text class="lbl axis-label" data-axis="x" x="{W / 2:.0f}" y="{height - 2}" text-anchor="middle">'
        f"{escape(x_label)}</text>",
        f'<text class="lbl axis-label" data-axis="y" x="0" y="0" text-anchor="middle" '
        f'transform="translate(10 {height / 2:.0f}) rotate(-90)">{escape(y_label)}</text>',
    ]


def _legend(items: list[tuple[str, str, str]], x: float, y: float = 12) -> list[str]:
    """A legend: (class, extra attributes, label) per entry, a swatch and its words."""
    body = ['<g class="legend">']
    for i, (klass, extra, label) in enumerate(items):
        top = y + 14 * i
        body.append(f'<rect class="{klass}" x="{x:.0f}" y="{top - 9:.0f}" width="12" height="8"{extra}/>')
        body.append(f'<text class="lbl" x="{x + 16:.0f}" y="{top:.0f}">{escape(label)}</text>')
    body.append("</g>")
    return body


def _missing(x: float, y: float, label: str) -> str:
    """A rate of 0 games: no bar and no interval (unknown, not 0% to 100%), said in words."""
    return f'<text class="lbl missing" x="{x:.1f}" y="{y:.1f}">no game ({escape(label)})</text>'


def _plot(name: str, body: list[str], height: int = H) -> str:
    return (
        f'<svg class="plot" data-plot="{name}" width="{W}" height="{height}" viewBox="0 0 {W} {height}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(name)}">' + "".join(body) + "</svg>"
    )


def _rates_plot(report: SimulationReport) -> str:
    """Win rate of each side overall and in each seat, with its interval."""
    rows: list[tuple[str, str, WinRate]] = []
    for role in ("pack", "against"):
        rows.append((role, f"{role} overall", report.sides.of(role)))
        rows.append((role, f"{role} first", report.seats.of(role).first))
        rows.append((role, f"{role} second", report.seats.of(role).second))
    height = PAD + 26 * len(rows) + 20
    span = W - 2 * PAD - 80 - 90
    body = [f'<line class="axis" x1="{PAD + 80}" y1="10" x2="{PAD + 80}" y2="{height - 36}"/>']
    x50 = PAD + 80 + span / 2
    body.append(f'<line class="axis" x1="{x50}" y1="10" x2="{x50}" y2="{height - 36}" stroke-dasharray="3 3"/>')
    body.append(f'<text class="lbl" x="{x50 - 10}" y="{height - 22}">50%</text>')
    body.append(f'<text class="lbl" x="{PAD + 80}" y="{height - 22}">0%</text>')
    body.append(f'<text class="lbl" x="{PAD + 80 + span - 20}" y="{height - 22}">100%</text>')
    body += _axis_labels("win rate (bar) and its 95% interval (line)", "side and seat", height)
    body += _legend([("pack", ' opacity="0.7"', "pack"), ("against", ' opacity="0.7"', "against")],
                    PAD + 80 + span + 10)  # fmt: skip
    for i, (role, label, rate) in enumerate(rows):
        y = 20 + 26 * i
        body.append(f'<text class="lbl" x="22" y="{y + 12}">{escape(label)}</text>')
        if rate.interval is None:
            body.append(_missing(PAD + 84, y + 12, "0 of 0"))
            continue
        win = rate.win_rate or 0.0
        low, high = rate.interval
        body.append(
            f'<rect class="mark {role}" x="{PAD + 80}" y="{y}" width="{max(1.0, span * win):.1f}" height="16" '
            f'opacity="0.7"><title>{escape(label)}: {escape(rate_text(rate))}</title></rect>'
        )
        body.append(
            f'<line class="ci" x1="{PAD + 80 + span * low:.1f}" y1="{y + 8}" '
            f'x2="{PAD + 80 + span * high:.1f}" y2="{y + 8}"/>'
        )
    return _plot("win rates", body, height)


def _length_plot(report: SimulationReport) -> str:
    """How many games lasted each number of turns."""
    histogram = report.length.histogram or (LengthBar(turns=0, games=0),)
    most = max(h.games for h in histogram) or 1
    low, high = histogram[0].turns, histogram[-1].turns
    width = (W - 2 * PAD) / max(1, high - low + 1)
    body = [f'<line class="axis" x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}"/>']
    for h in histogram:
        bar = (H - 2 * PAD) * h.games / most
        x = PAD + (h.turns - low) * width
        body.append(
            f'<rect class="mark bar" x="{x:.1f}" y="{H - PAD - bar:.1f}" width="{max(1.0, width - 1):.1f}" '
            f'height="{max(1.0, bar):.1f}"><title>{h.turns} turns: {h.games} games</title></rect>'
        )
    body.append(f'<line class="axis" x1="{PAD}" y1="10" x2="{PAD}" y2="{H - PAD}"/>')
    body.append(f'<text class="lbl" x="{PAD - 14}" y="18">{most}</text>')
    body.append(f'<text class="lbl" x="{PAD}" y="{H - PAD + 16}">{low}</text>')
    body.append(f'<text class="lbl" x="{W - PAD - 16}" y="{H - PAD + 16}">{high}</text>')
    body += _axis_labels("turns the game lasted", "games", H)
    body += _legend([("bar", "", "games that lasted so many turns")], W - PAD - 190)
    return _plot("game length", body)


def _economy_plot(report: SimulationReport) -> str:
    """Mean LP and SP after each own turn, one line per side and resource."""
    curves = report.economy
    both = (curves.pack, curves.against)
    longest = max(1, len(curves.pack), len(curves.against))
    top = max([1.0, *(p.lp for c in both for p in c), *(p.sp for c in both for p in c)])
    body = [
        f'<line class="axis" x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}"/>',
        f'<line class="axis" x1="{PAD}" y1="10" x2="{PAD}" y2="{H - PAD}"/>',
        f'<text class="lbl" x="16" y="18">{top:.0f}</text>',
    ]
    for role in ("pack", "against"):
        for resource, dash in (("lp", ""), ("sp", ' stroke-dasharray="5 3"')):
            points = " ".join(
                f"{PAD + (W - 2 * PAD) * (p.turn - 1) / max(1, longest - 1):.1f},"
                f"{H - PAD - (H - PAD - 10) * (p.lp if resource == 'lp' else p.sp) / top:.1f}"
                for p in curves.of(role)
            )
            if curves.of(role):
                body.append(
                    f'<polyline class="mark series {role}" data-series="{role}-{resource}" points="{points}"{dash}>'
                    f"<title>{role} {resource.upper()}</title></polyline>"
                )
    body.append(f'<text class="lbl" x="{W - PAD - 40}" y="{H - PAD + 16}">turn {longest}</text>')
    body += _axis_labels("own turn", "mean LP or SP", H)
    body += _legend([("pack", "", "pack LP"), ("pack", ' fill-opacity="0.3"', "pack SP (dashed)"),
                     ("against", "", "against LP"), ("against", ' fill-opacity="0.3"', "against SP (dashed)")],
                    W - PAD - 120)  # fmt: skip
    return _plot("economy", body)


def _cards_plot(report: SimulationReport) -> str:
    """Each card's side win rate played (filled) and not played (hollow), with intervals."""
    cards = report.cards
    height = PAD + 34 * max(1, len(cards)) + 20
    span = W - 2 * PAD - 120 - 100
    left = PAD + 120
    body = [f'<line class="axis" x1="{left}" y1="10" x2="{left}" y2="{height - 36}"/>']
    body.append(f'<text class="lbl" x="{left}" y="{height - 22}">0%</text>')
    body.append(f'<text class="lbl" x="{left + span - 20}" y="{height - 22}">100%</text>')
    body += _axis_labels("win rate of the card's side (bar) and its 95% interval (line)", "card", height)
    body += _legend([("pack", "", "played (pack)"), ("pack", ' fill-opacity="0.25"', "not played (pack)"),
                     ("against", "", "played (against)"), ("against", ' fill-opacity="0.25"', "not played")],
                    left + span + 8)  # fmt: skip
    for i, card in enumerate(cards):
        y = 20 + 34 * i
        body.append(f'<text class="lbl" x="22" y="{y + 14}">{escape(card.card[:16])}</text>')
        for offset, key, rate, fill in (
            (0, "when played", card.when_played, ""),
            (14, "when not played", card.when_not_played, ' fill-opacity="0.25"'),
        ):
            if rate.interval is None:
                body.append(_missing(left + 4, y + offset + 10, key + ": 0 of 0"))
                continue
            win = rate.win_rate or 0.0
            low, high = rate.interval
            body.append(
                f'<rect class="mark {card.side}" x="{left}" y="{y + offset}" width="{max(1.0, span * win):.1f}" '
                f'height="12"{fill}><title>{escape(card.card)} {key}: '
                f"{escape(rate_text(rate))}</title></rect>"
            )
            body.append(
                f'<line class="ci" x1="{left + span * low:.1f}" y1="{y + offset + 6}" '
                f'x2="{left + span * high:.1f}" y2="{y + offset + 6}"/>'
            )
    return _plot("cards", body, height)


def _impact_plot(report: SimulationReport) -> str:
    """Each ablation's impact (win rate with minus without) and its 95% interval, around zero."""
    items = report.impact
    height = PAD + 26 * len(items) + 20
    left = PAD + 140
    span = W - left - PAD - 100
    zero = left + span / 2
    body = [f'<line class="axis" x1="{zero:.1f}" y1="10" x2="{zero:.1f}" y2="{height - 36}"/>']
    body.append(f'<text class="lbl" x="{left}" y="{height - 22}">-100</text>')
    body.append(f'<text class="lbl" x="{zero - 4:.1f}" y="{height - 22}">0</text>')
    body.append(f'<text class="lbl" x="{left + span - 24}" y="{height - 22}">+100</text>')
    body += _axis_labels("impact: win rate with minus without, in points (95% interval)", "cards taken away", height)
    body += _legend([("pack", ' opacity="0.7"', "significant"), ("pack", ' fill-opacity="0.2"', "not significant")],
                    left + span + 8)  # fmt: skip
    for i, item in enumerate(items):
        y = 20 + 26 * i
        label = " + ".join(item.cards)
        body.append(f'<text class="lbl" x="22" y="{y + 12}">{escape(label[:20])}</text>')
        if item.interval is None or item.impact is None:
            body.append(_missing(zero + 4, y + 12, "no game"))
            continue
        x = zero + span / 2 * item.impact
        low, high = item.interval
        fill = ' opacity="0.7"' if item.significant else ' fill-opacity="0.2"'
        body.append(
            f'<rect class="mark pack" x="{min(x, zero):.1f}" y="{y}" width="{max(1.0, abs(x - zero)):.1f}" '
            f'height="16"{fill}><title>{escape(label)}: {escape(impact_text(item))}</title></rect>'
        )
        body.append(
            f'<line class="ci" x1="{zero + span / 2 * low:.1f}" y1="{y + 8}" x2="{zero + span / 2 * high:.1f}" '
            f'y2="{y + 8}"/>'
        )
    return _plot("impact", body, height)


def _head(title: str) -> list[str]:
    """The page's head (its Content-Security-Policy allows the inline script by its hash) and title."""
    digest = base64.b64encode(hashlib.sha256(_SCRIPT.encode("utf-8")).digest()).decode("ascii")
    policy = f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; img-src data:"
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(policy)}">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
    ]


def simulation_html(report: SimulationReport) -> str:
    run, settings = report.run, report.run.settings
    title = f"sgcheck simulate {run.pack} against {run.against}"
    parts = [
        *_head(title),
        f"<p>{settings.games} games ({settings.games_per_side} with each side first), "
        f"policy {escape(settings.policy)}, seed {settings.seed}, scenario {escape(settings.scenario or 'none')}, "
        f"turn limit {settings.turn_limit or '—'}.</p>",
        "<h2>Win rates</h2>",
        "<table><tr><th>side</th><th>overall</th><th>when first</th><th>when second</th></tr>",
    ]
    for role in ("pack", "against"):
        seats = report.seats.of(role)
        parts.append(
            f"<tr><td>{role} ({escape(run.label(role))})</td><td>{escape(rate_text(report.sides.of(role)))}</td>"
            f"<td>{escape(rate_text(seats.first))}</td><td>{escape(rate_text(seats.second))}</td></tr>"
        )
    parts.append("</table>")
    first = report.first_player
    parts.append(f"<p>First player wins {escape(rate_text(first))}.</p>")
    parts.append(_rates_plot(report))
    length = report.length
    parts.append("<h2>Game length</h2>")
    parts.append(
        f"<p>Mean {length.mean} turns, median {length.median}, from {length.min} to {length.max}. "
        "Endings: " + ", ".join(f"{escape(k)} {v}" for k, v in report.endings.counts() if v) + ". "
        f"Captures: {report.captures.total} in {report.captures.games} games.</p>"
    )
    parts.append(_length_plot(report))
    parts.append("<h2>Economy</h2><p>Mean LP (solid) and SP (dashed) after each own turn: "
                 '<span class="pack" style="background:none">pack</span>, '
                 '<span class="against" style="background:none">against</span>.</p>')  # fmt: skip
    parts.append(_economy_plot(report))
    if report.cards:
        parts.append("<h2>Cards</h2>")
        parts.append(
            "<table><tr><th>card</th><th>side</th><th>drafted</th><th>played</th>"
            "<th>won when played</th><th>won when not played</th><th></th></tr>"
        )
        for card in report.cards:
            flag = '<span class="dominant">dominant</span>' if card.dominant else (
                "small sample" if card.small_sample else "")  # fmt: skip
            if card.status != "played":
                flag = escape(card.status)
            parts.append(
                f"<tr><td>{escape(card.card)}</td><td>{card.side}</td><td>{card.drafted}</td>"
                f"<td>{card.played}</td><td>{escape(rate_text(card.when_played))}</td>"
                f"<td>{escape(rate_text(card.when_not_played))}</td><td>{flag}</td></tr>"
            )
        parts.append("</table>")
        parts.append(_cards_plot(report))
    if report.impact:
        parts.append("<h2>Impact</h2><p>The same games played without the cards: the pack side's win rate with "
                     "them minus without, its 95% interval, and McNemar's exact test.</p>")  # fmt: skip
        parts.append("<table><tr><th>without</th><th>won with</th><th>won without</th><th>impact</th><th></th></tr>")
        for item in report.impact:
            verdict = "significant" if item.significant else "not significant"
            parts.append(
                f"<tr><td>{escape(' + '.join(item.cards))}</td><td>{escape(rate_text(item.with_cards))}</td>"
                f"<td>{escape(rate_text(item.without_cards))}</td><td>{escape(impact_text(item))}</td>"
                f"<td>{verdict}</td></tr>"
            )
        parts.append("</table>")
        parts.append(_impact_plot(report))
    for name in report.dominant:
        parts.append(f'<p class="dominant">Dominant: {escape(name)}.</p>')
    for note in report.warnings:
        parts.append(f'<p class="warn">Warning: {escape(note)}</p>')
    data = escape(json.dumps({"dominant": list(report.dominant), "games": settings.games}))
    parts.append(f'<div id="data" hidden data-report="{data}"></div>')
    parts.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


def _standings_plot(report: GauntletReport) -> str:
    """Each entrant's score over all its games, with its interval."""
    rows = report.standings
    height = PAD + 26 * len(rows) + 20
    left = PAD + 120
    span = W - left - PAD - 90
    body = [f'<line class="axis" x1="{left}" y1="10" x2="{left}" y2="{height - 36}"/>']
    body.append(f'<text class="lbl" x="{left}" y="{height - 22}">0%</text>')
    body.append(f'<text class="lbl" x="{left + span - 20}" y="{height - 22}">100%</text>')
    body += _axis_labels("score: wins and half the draws (bar), 95% interval (line)", "pack", height)
    body += _legend([("pack", ' opacity="0.7"', "score")], left + span + 8)
    for i, standing in enumerate(rows):
        y = 20 + 26 * i
        body.append(f'<text class="lbl" x="22" y="{y + 12}">{escape(standing.entrant[-18:])}</text>')
        if standing.interval is None or standing.score is None:
            body.append(_missing(left + 4, y + 12, "0 of 0"))
            continue
        low, high = standing.interval
        body.append(
            f'<rect class="mark pack" x="{left}" y="{y}" width="{max(1.0, span * standing.score):.1f}" '
            f'height="16" opacity="0.7"><title>{escape(standing.entrant)}</title></rect>'
        )
        body.append(
            f'<line class="ci" x1="{left + span * low:.1f}" y1="{y + 8}" x2="{left + span * high:.1f}" y2="{y + 8}"/>'
        )
    return _plot("standings", body, height)


def gauntlet_html(report: GauntletReport) -> str:
    """The gauntlet's page: the table of results, the standings and their plot."""
    run = report.run
    title = f"sgcheck simulate: a gauntlet of {len(report.entrants)} packs"
    labels = report.entrants
    cell = {pair: rate_text(found) for pair, found in gauntlet_cells(report).items()}
    parts = [
        *_head(title),
        f"<p>{run.games} games, {run.games_per_side} with each side first in each match, policy "
        f"{escape(run.policy)}, seed {run.seed}, turn limit {run.turn_limit or '—'}.</p>",
        "<h2>Results</h2><p>Win rate of the row against the column, with its 95% interval.</p>",
        "<table><tr><th></th>" + "".join(f"<th>{escape(label)}</th>" for label in labels) + "</tr>",
    ]
    for row in labels:
        cells = "".join(f"<td>{escape('—' if row == col else cell.get((row, col), ''))}</td>" for col in labels)
        parts.append(f"<tr><th>{escape(row)}</th>{cells}</tr>")
    parts.append("</table><h2>Standings</h2>")
    parts.append(_standings_plot(report))
    for note in report.warnings:
        parts.append(f'<p class="warn">Warning: {escape(note)}</p>')
    parts.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


__all__ = ["gauntlet_html", "percent", "simulation_html"]
