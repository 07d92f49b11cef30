"""The report of a simulation, or of a gauntlet of packs, as text for a terminal and as JSON for tools."""

from __future__ import annotations

import json

from sgcheck.results import Endings, GauntletReport, Impact, RunSettings, SimulationReport, Standing, WinRate
from sgcheck.simulate.stats import DOMINANT_MARGIN, SMALL_SAMPLE, rate


def percent(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def rate_text(rate: WinRate, *, flag_small: bool = True) -> str:
    """``62% [48%-74%] of 50`` (with ``small sample`` when the interval is wider than 30 points,
    unless ``flag_small`` is false: a table that flags it in a column of its own); ``— of 0``
    without games."""
    if rate.interval is None:
        return f"— of {rate.games}"
    low, high = rate.interval
    text = f"{percent(rate.win_rate)} [{percent(low)}-{percent(high)}] of {rate.games}"
    return text + (" (small sample)" if flag_small and rate.small_sample else "")


def points(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.0f}"


def impact_text(item: Impact) -> str:
    """``+42 points [+30 to +55], p 0.0001`` (significant or not)."""
    if item.interval is None:
        return "— (no game)"
    low, high = item.interval
    return f"{points(item.impact)} points [{points(low)} to {points(high)}], p {item.p_value:.2g}"


def table(rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned lines, two spaces between columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def limit_text(run: RunSettings) -> str:
    """The run's turn limit, or the most rounds a game may last when it has none."""
    return f"turn limit {run.turn_limit}" if run.turn_limit else f"at most {run.max_turns} turns"


def endings_text(endings: Endings) -> str:
    """``endings: conversion 12, turn-limit 8``: each kind of ending that happened, in order."""
    return "endings: " + ", ".join(f"{kind} {count}" for kind, count in endings.counts() if count)


def simulation_text(report: SimulationReport) -> str:
    run, settings = report.run, report.run.settings
    lines = [
        f"simulate {run.pack} against {run.against}: {settings.games} games "
        f"({settings.games_per_side} with each side first), policy {settings.policy}, seed {settings.seed}",
    ]
    lines.append(
        f"scenario {settings.scenario or 'none (core start)'}, {limit_text(settings)}, "
        f"first player {settings.first_player}"
    )
    lines.append("")
    lines.append("win rate (95% interval)")
    sides, seats = report.sides, report.seats
    rows = [["side", "overall", "when first", "when second"]]
    for role in ("pack", "against"):
        rows.append([f"{role} ({run.label(role)})", rate_text(sides.of(role)), rate_text(seats.of(role).first),
                     rate_text(seats.of(role).second)])  # fmt: skip
    lines += table(rows)
    draws = sides.pack.draws
    first = report.first_player
    advantage = first.advantage
    edge = "—" if advantage is None else f"{100 * advantage:+.0f} points over 50% of decided games"
    lines.append(f"  draws {draws}; first player wins {rate_text(first)}: {edge}")
    lines.append("")
    length = report.length
    lines.append(f"game length (turns): mean {length.mean}, median {length.median}, min {length.min}, max {length.max}")
    lines.append(endings_text(report.endings))
    captures = report.captures
    lines.append(f"captures: {captures.total} in {captures.games} of {settings.games} games")
    if report.cards:
        lines.append("")
        lines.append("cards (win rate of the card's side, 95% interval)")
        rows = [["card", "side", "drafted", "played", "won when played", "won when not played", ""]]
        for card in report.cards:
            flag = "DOMINANT" if card.dominant else ("small sample" if card.small_sample else "")
            if card.status != "played":
                flag = card.status
            rows.append([
                card.card, card.side, f"{card.drafted}", f"{card.played}",
                rate_text(card.when_played, flag_small=False),
                rate_text(card.when_not_played, flag_small=False), flag,
            ])  # fmt: skip
        lines += table(rows)
    if report.impact:
        lines.append("")
        lines.append("impact (win rate with the card minus without, the same games; 95% interval, McNemar p)")
        rows = [["without", "won with", "won without", "impact", "changed", ""]]
        for item in report.impact:
            flag = "significant" if item.significant else "not significant"
            if item.small_sample:
                flag += ", small sample"
            rows.append([
                " + ".join(item.cards), rate_text(item.with_cards, flag_small=False),
                rate_text(item.without_cards, flag_small=False), impact_text(item),
                f"{item.better_with} better, {item.worse_with} worse", flag,
            ])  # fmt: skip
        lines += table(rows)
    lines.append("")
    lines.append("economy (mean LP/SP after each own turn)")
    rows = [["turn", *[f"{role} LP/SP" for role in ("pack", "against")]]]
    curves = report.economy
    longest = max(len(curves.pack), len(curves.against))
    for turn in _shown_turns(longest):
        cells = [str(turn)]
        for role in ("pack", "against"):
            points = curves.of(role)
            cells.append(f"{points[turn - 1].lp:.1f}/{points[turn - 1].sp:.1f}" if turn <= len(points) else "—")
        rows.append(cells)
    lines += table(rows) if longest else ["  no turn played"]
    lines.append("")
    if report.dominant:
        for name in report.dominant:
            card = report.card(name)
            if card.impact is not None:
                lines.append(f"dominant: {name}: {impact_text(card.impact)} taken away (significant)")
            else:
                lines.append(
                    f"dominant: {name}: its side wins {percent(card.when_played.win_rate)} played, "
                    f"{percent(card.when_not_played.win_rate)} not (intervals apart)"
                )
    else:
        lines.append(
            f"no dominant card (none whose side wins {100 * DOMINANT_MARGIN:.0f} points more with it, "
            "significantly when measured by --impact, intervals apart otherwise)"
        )
    lines += [f"warning: {note}" for note in report.warnings]
    return "\n".join(lines) + "\n"


def _shown_turns(longest: int) -> list[int]:
    """Turns 1-5, then every fifth, and the last."""
    shown = [t for t in range(1, longest + 1) if t <= 5 or t % 5 == 0 or t == longest]
    return shown


def simulation_json(report: SimulationReport | GauntletReport) -> str:
    """A simulation's or a gauntlet's report as its JSON document."""
    return json.dumps(report.as_json(), indent=2, ensure_ascii=False) + "\n"


def standing_text(standing: Standing) -> str:
    """``62% [48%-74%] of 50``: an entrant's score and its interval; ``— of 0`` without games."""
    if standing.interval is None or standing.score is None:
        return "— of 0"
    low, high = standing.interval
    return f"{100 * standing.score:.0f}% [{100 * low:.0f}%-{100 * high:.0f}%] of {standing.games}"


def gauntlet_cells(report: GauntletReport) -> dict[tuple[str, str], WinRate]:
    """The win rate of each entrant (row) against each other (column), from its matches."""
    cell: dict[tuple[str, str], WinRate] = {}
    for match in report.matches:
        cell[(match.pack, match.against)] = match.pack_rate
        cell[(match.against, match.pack)] = rate(match.against_wins, match.games, match.draws)
    return cell


def gauntlet_text(report: GauntletReport) -> str:
    """A gauntlet's report as text: the matches as a table, the standings, the endings."""
    run = report.run
    labels = report.entrants
    lines = [
        f"gauntlet of {len(labels)} packs, each against each: {run.games} games "
        f"({run.games_per_side} with each side first a match), policy {run.policy}, seed {run.seed}",
        f"scenario {run.scenario or 'none (core start)'}, {limit_text(run)}, first player {run.first_player}",
        "",
        "results (win rate of the row against the column, 95% interval)",
    ]
    cell = {pair: rate_text(found, flag_small=False) for pair, found in gauntlet_cells(report).items()}
    rows = [["", *labels]]
    for row in labels:
        rows.append([row, *("—" if row == col else cell.get((row, col), "") for col in labels)])
    lines += table(rows)
    lines += ["", "standings (wins and half the draws, over all games, 95% interval)"]
    rows = [["entrant", "score", "won / drawn / lost", ""]]
    for s in report.standings:
        rows.append([s.entrant, standing_text(s), f"{s.wins} / {s.draws} / {s.losses}",
                     "small sample" if s.small_sample else ""])  # fmt: skip
    lines += table(rows)
    lines.append("")
    lines.append(endings_text(report.endings))
    lines.append(f"captures: {report.captures}")
    lines += [f"warning: {note}" for note in report.warnings]
    return "\n".join(lines) + "\n"


__all__ = [
    "SMALL_SAMPLE",
    "gauntlet_text",
    "impact_text",
    "percent",
    "rate_text",
    "simulation_json",
    "simulation_text",
    "table",
]
