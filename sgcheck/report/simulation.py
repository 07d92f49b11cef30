"""The report of a simulation, or of a gauntlet of packs, as text for a terminal and as JSON for tools."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sgcheck.simulate.stats import DOMINANT_MARGIN, ENDINGS, SMALL_SAMPLE, rate


def percent(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def rate_text(rate: dict[str, Any]) -> str:
    """``62% [48%-74%] of 50`` (with ``small sample`` when the interval is wider than 30 points);
    ``— of 0`` without games."""
    if rate["interval"] is None:
        return f"— of {rate['games']}"
    low, high = rate["interval"]
    text = f"{percent(rate['win_rate'])} [{percent(low)}-{percent(high)}] of {rate['games']}"
    return text + (" (small sample)" if rate["small_sample"] else "")


def points(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.0f}"


def impact_text(item: dict[str, Any]) -> str:
    """``+42 points [+30 to +55], p 0.0001`` (significant or not)."""
    if item["interval"] is None:
        return "— (no game)"
    low, high = item["interval"]
    return f"{points(item['impact'])} points [{points(low)} to {points(high)}], p {item['p_value']:.2g}"


def table(rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned lines, two spaces between columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def simulation_text(report: Mapping[str, Any]) -> str:
    run = report["run"]
    lines = [
        f"simulate {run['pack']} against {run['against']}: {run['games']} games "
        f"({run['games_per_side']} with each side first), policy {run['policy']}, seed {run['seed']}",
    ]
    limit = f"turn limit {run['turn_limit']}" if run["turn_limit"] else f"at most {run['max_turns']} turns"
    lines.append(f"scenario {run['scenario'] or 'none (core start)'}, {limit}, first player {run['first_player']}")
    lines.append("")
    lines.append("win rate (95% interval)")
    sides, seats = report["sides"], report["seats"]
    rows = [["side", "overall", "when first", "when second"]]
    for role in ("pack", "against"):
        rows.append([f"{role} ({run[role]})", rate_text(sides[role]), rate_text(seats[role]["first"]),
                     rate_text(seats[role]["second"])])  # fmt: skip
    lines += table(rows)
    draws = sides["pack"]["draws"]
    first = report["first_player"]
    advantage = first["advantage"]
    edge = "—" if advantage is None else f"{100 * advantage:+.0f} points over 50% of decided games"
    lines.append(f"  draws {draws}; first player wins {rate_text(first)}: {edge}")
    lines.append("")
    length = report["length"]
    lines.append(
        f"game length (turns): mean {length['mean']}, median {length['median']}, "
        f"min {length['min']}, max {length['max']}"
    )
    endings = report["endings"]
    lines.append("endings: " + ", ".join(f"{kind} {endings[kind]}" for kind in ENDINGS if endings[kind]))
    captures = report["captures"]
    lines.append(f"captures: {captures['total']} in {captures['games']} of {run['games']} games")
    if report["cards"]:
        lines.append("")
        lines.append("cards (win rate of the card's side, 95% interval)")
        rows = [["card", "side", "drafted", "played", "won when played", "won when not played", ""]]
        for card in report["cards"]:
            flag = "DOMINANT" if card["dominant"] else ("small sample" if card["small_sample"] else "")
            if card["status"] != "played":
                flag = card["status"]
            rows.append([
                card["card"], card["side"], f"{card['drafted']}", f"{card['played']}",
                rate_text({**card["when_played"], "small_sample": False}),
                rate_text({**card["when_not_played"], "small_sample": False}), flag,
            ])  # fmt: skip
        lines += table(rows)
    if report["impact"]:
        lines.append("")
        lines.append("impact (win rate with the card minus without, the same games; 95% interval, McNemar p)")
        rows = [["without", "won with", "won without", "impact", "changed", ""]]
        for item in report["impact"]:
            flag = "significant" if item["significant"] else "not significant"
            if item["small_sample"]:
                flag += ", small sample"
            rows.append([
                " + ".join(item["cards"]), rate_text({**item["with"], "small_sample": False}),
                rate_text({**item["without"], "small_sample": False}), impact_text(item),
                f"{item['better_with']} better, {item['worse_with']} worse", flag,
            ])  # fmt: skip
        lines += table(rows)
    lines.append("")
    lines.append("economy (mean LP/SP after each own turn)")
    rows = [["turn", *[f"{role} LP/SP" for role in ("pack", "against")]]]
    curves = report["economy"]
    longest = max(len(curves["pack"]), len(curves["against"]))
    for turn in _shown_turns(longest):
        cells = [str(turn)]
        for role in ("pack", "against"):
            points = curves[role]
            cells.append(f"{points[turn - 1]['lp']:.1f}/{points[turn - 1]['sp']:.1f}" if turn <= len(points) else "—")
        rows.append(cells)
    lines += table(rows) if longest else ["  no turn played"]
    lines.append("")
    if report["dominant"]:
        for name in report["dominant"]:
            card = next(c for c in report["cards"] if c["card"] == name)
            if card["impact"] is not None:
                lines.append(f"dominant: {name}: {impact_text(card['impact'])} taken away (significant)")
            else:
                lines.append(
                    f"dominant: {name}: its side wins {percent(card['when_played']['win_rate'])} played, "
                    f"{percent(card['when_not_played']['win_rate'])} not (intervals apart)"
                )
    else:
        lines.append(
            f"no dominant card (none whose side wins {100 * DOMINANT_MARGIN:.0f} points more with it, "
            "significantly when measured by --impact, intervals apart otherwise)"
        )
    lines += [f"warning: {note}" for note in report["warnings"]]
    return "\n".join(lines) + "\n"


def _shown_turns(longest: int) -> list[int]:
    """Turns 1-5, then every fifth, and the last."""
    shown = [t for t in range(1, longest + 1) if t <= 5 or t % 5 == 0 or t == longest]
    return shown


def simulation_json(report: Mapping[str, Any]) -> str:
    """A simulation's or a gauntlet's report as its JSON document."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def gauntlet_text(report: Mapping[str, Any]) -> str:
    """A gauntlet's report as text: the matches as a table, the standings, the endings."""
    run = report["run"]
    labels = report["entrants"]
    limit = f"turn limit {run['turn_limit']}" if run["turn_limit"] else f"at most {run['max_turns']} turns"
    lines = [
        f"gauntlet of {len(labels)} packs, each against each: {run['games']} games "
        f"({run['games_per_side']} with each side first a match), policy {run['policy']}, seed {run['seed']}",
        f"scenario {run['scenario'] or 'none (core start)'}, {limit}, first player {run['first_player']}",
        "",
        "results (win rate of the row against the column, 95% interval)",
    ]
    cell: dict[tuple[str, str], str] = {}
    for match in report["matches"]:
        ours = match["pack_rate"]
        theirs = rate(match["against_wins"], match["games"], match["draws"])
        cell[(match["pack"], match["against"])] = rate_text({**ours, "small_sample": False})
        cell[(match["against"], match["pack"])] = rate_text({**theirs, "small_sample": False})
    rows = [["", *labels]]
    for row in labels:
        rows.append([row, *("—" if row == col else cell.get((row, col), "") for col in labels)])
    lines += table(rows)
    lines += ["", "standings (wins and half the draws, over all games, 95% interval)"]
    rows = [["entrant", "score", "won / drawn / lost", ""]]
    for s in report["standings"]:
        if s["interval"] is None:
            score = "— of 0"
        else:
            low, high = s["interval"]
            score = f"{100 * s['score']:.0f}% [{100 * low:.0f}%-{100 * high:.0f}%] of {s['games']}"
        rows.append([s["entrant"], score, f"{s['wins']} / {s['draws']} / {s['losses']}",
                     "small sample" if s["small_sample"] else ""])  # fmt: skip
    lines += table(rows)
    endings = report["endings"]
    lines.append("")
    lines.append("endings: " + ", ".join(f"{kind} {endings[kind]}" for kind in ENDINGS if endings[kind]))
    lines.append(f"captures: {report['captures']}")
    lines += [f"warning: {note}" for note in report["warnings"]]
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
