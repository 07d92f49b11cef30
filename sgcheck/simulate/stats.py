"""What a designer reads of a run: win rates with intervals, the first player's edge, game
length, endings, each card's record, economy curves, and the cards that dominate.

Everything here is a pure function of the game records (in task order) and the run's plan, so
the report is the same bytes for the same seed however the games were spread over workers.
The report is a plain JSON-ready dict (``schemas/simulate.schema.json``); the text and HTML
renderings read it and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sgcheck.simulate.games import UNFINISHED, GameRecord
from sgcheck.simulate.run import RunPlan, first_color

#: z for a 95% interval.
Z95 = 1.959964
#: A rate whose 95% interval is wider than this is marked as resting on too small a sample: the
#: width, not a count of games, says how much a rate can be leaned on (30 points is about 40
#: games at 50%, 15 games at 90%, and every rate of 0 games).
SMALL_WIDTH = 0.30
#: Kept for the run-level note: under this many games every rate is wide whatever it is.
SMALL_SAMPLE = 30
#: A card dominates when its side wins this much more often with it played than without,
#: and the two 95% intervals do not overlap.
DOMINANT_MARGIN = 0.15
#: Kinds of ending, in the order reports list them (core §7, R18, R24).
ENDINGS = ("conversion", "turn-limit", "lp1000", "scenario", UNFINISHED)
ROLES = ("pack", "against")


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound at 0 and at every game won, unlike the
    normal approximation); (0, 1) when there are no games."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _r(x: float) -> float:
    return round(x, 4)


def rate(wins: int, games: int, draws: int = 0) -> dict[str, Any]:
    """A win rate: counts, the rate and its 95% interval (both None without games: 0 of 0 is
    unknown, not anything from 0% to 100%), and whether the interval is too wide to lean on."""
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": _r(wins / games) if games else None,
        "interval": [_r(low), _r(high)] if games else None,
        "small_sample": high - low > SMALL_WIDTH,
    }


def _role_of(record: GameRecord, color: Any) -> str:
    return "pack" if color is record.pack_color else "against"


def run_settings(run: RunPlan, games: int) -> dict[str, Any]:
    """The settings a report's ``run`` shows (its seed, games, scenario, limits, first player),
    the same for one run and for a gauntlet's."""
    return {
        "seed": run.seed,
        "games_per_side": run.games,
        "games": games,
        "scenario": run.scenario_label,
        "turn_limit": run.scenario.turn_limit
        if run.scenario is not None and run.scenario.turn_limit
        else run.ruleset.turn_limit,
        "max_turns": run.max_turns,
        "first_player": first_color(run.scenario).name.lower(),
    }


def summarise(run: RunPlan, records: Sequence[GameRecord], impact: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The report of a run (see the module's docstring); ``impact``: the ablations measured
    (:func:`sgcheck.simulate.impact.paired`), each card's own joined to its row."""
    games = len(records)
    draws = sum(1 for r in records if r.winner is None)
    sides = {role: rate(sum(1 for r in records if r.winner_role == role), games, draws) for role in ROLES}
    by_seat: dict[str, Any] = {}
    for role in ROLES:
        leading = [r for r in records if (r.first is r.pack_color) == (role == "pack")]
        second = [r for r in records if r not in leading]
        by_seat[role] = {
            "first": rate(sum(1 for r in leading if r.winner_role == role), len(leading),
                          sum(1 for r in leading if r.winner is None)),
            "second": rate(sum(1 for r in second if r.winner_role == role), len(second),
                           sum(1 for r in second if r.winner is None)),
        }  # fmt: skip
    first_wins = sum(1 for r in records if r.winner is not None and r.winner is r.first)
    first = rate(first_wins, games, draws)
    decided = games - draws
    first["advantage"] = _r(first_wins / decided - 0.5) if decided else None
    lengths = sorted(r.rounds for r in records)
    histogram: dict[int, int] = {}
    for n in lengths:
        histogram[n] = histogram.get(n, 0) + 1
    endings = {kind: sum(1 for r in records if r.outcome == kind) for kind in ENDINGS}
    report: dict[str, Any] = {
        "version": 2,
        "run": {
            "pack": run.pack.label,
            "against": run.against.label,
            "policy": run.policy.value,
            "against_policy": (run.against_policy or run.policy).value,
            **run_settings(run, games),
        },
        "sides": sides,
        "seats": by_seat,
        "first_player": first,
        "length": {
            "mean": _r(sum(lengths) / games) if games else None,
            "median": _median(lengths),
            "min": lengths[0] if lengths else None,
            "max": lengths[-1] if lengths else None,
            "histogram": [{"turns": t, "games": n} for t, n in sorted(histogram.items())],
        },
        "endings": endings,
        "captures": {
            "total": sum(r.captures for r in records),
            "games": sum(1 for r in records if r.captures),
        },
        "cards": _cards(run, records),
        "economy": {role: _economy(records, index) for index, role in enumerate(ROLES)},
    }
    report["impact"] = list(impact)
    alone = {item["cards"][0]: item for item in impact if len(item["cards"]) == 1}
    for card in report["cards"]:
        measured = alone.get(card["card"]) if card["side"] == "pack" else None
        card["impact"] = measured
        if measured is not None:  # taking the card away says more than comparing played and not
            card["dominant"] = measured["significant"] and (measured["impact"] or 0) >= DOMINANT_MARGIN
    report["dominant"] = [card["card"] for card in report["cards"] if card["dominant"]]
    report["warnings"] = _warnings(report)
    return report


def _median(values: Sequence[int]) -> float | None:
    if not values:
        return None
    middle = len(values) // 2
    return float(values[middle]) if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def _cards(run: RunPlan, records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Each card of each side's pack: how often drafted and played, and its side's win rate
    with it played and without (every game of that side, the card not played)."""
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for index, (role, side) in enumerate((("pack", run.pack), ("against", run.against))):
        for card in side.cards:
            if (role, card.name) in seen or (index == 1 and run.against.label == run.pack.label):
                continue
            seen.add((role, card.name))
            drafted = sum(1 for r in records if card.name in r.drafted[index])
            with_card = [r for r in records if card.name in r.played[index]]
            without = [r for r in records if card.name not in r.played[index]]
            played = rate(
                sum(1 for r in with_card if r.winner_role == role),
                len(with_card),
                sum(1 for r in with_card if r.winner is None),
            )
            not_played = rate(sum(1 for r in without if r.winner_role == role), len(without),
                              sum(1 for r in without if r.winner is None))  # fmt: skip
            margin = None
            dominant = False
            if played["win_rate"] is not None and not_played["win_rate"] is not None:
                margin = _r(played["win_rate"] - not_played["win_rate"])
                dominant = margin >= DOMINANT_MARGIN and played["interval"][0] > not_played["interval"][1]
            status = "never drafted" if drafted == 0 else ("drafted, never played" if not with_card else "played")
            found.append({
                "card": card.name,
                "side": role,
                "kind": card.kind.value,
                "status": status,
                "drafted": drafted,
                "drafted_rate": _r(drafted / len(records)) if records else None,
                "played": len(with_card),
                "played_rate": _r(len(with_card) / len(records)) if records else None,
                "when_played": played,
                "when_not_played": not_played,
                "margin": margin,
                "small_sample": played["small_sample"] or not_played["small_sample"],
                "dominant": dominant,
            })  # fmt: skip
    return found


def _economy(records: Sequence[GameRecord], index: int) -> list[dict[str, Any]]:
    """The mean LP and SP of one side after each of its turns, over the games still going then."""
    longest = max((len(r.economy[index]) for r in records), default=0)
    curve = []
    for turn in range(longest):
        points = [r.economy[index][turn] for r in records if len(r.economy[index]) > turn]
        curve.append({
            "turn": turn + 1,
            "games": len(points),
            "lp": _r(sum(lp for lp, _ in points) / len(points)),
            "sp": _r(sum(sp for _, sp in points) / len(points)),
        })  # fmt: skip
    return curve


def _warnings(report: dict[str, Any]) -> list[str]:
    notes = []
    games = report["run"]["games"]
    if report["sides"]["pack"]["small_sample"]:
        notes.append(
            f"only {games} games: the win rate's interval is wider than {100 * SMALL_WIDTH:.0f} points (small sample)"
        )
    small = [c["card"] for c in report["cards"] if c["small_sample"] and c["status"] == "played"]
    if small and not report["sides"]["pack"]["small_sample"]:
        shown = ", ".join(small)
        notes.append(f"{shown}: an interval wider than {100 * SMALL_WIDTH:.0f} points with or without: read with care")
    never = [c["card"] for c in report["cards"] if c["status"] == "never drafted"]
    if never:
        notes.append("never drafted: " + ", ".join(never) + " (the draft (R19) kept other cards every time)")
    unplayed = [c["card"] for c in report["cards"] if c["status"] == "drafted, never played"]
    if unplayed:
        notes.append("drafted, never played: " + ", ".join(unplayed) + " (too dear, or never worth it to the policy)")
    always = [c["card"] for c in report["cards"] if games and c["played"] == games]
    measured = {name for item in report.get("impact", ()) for name in item["cards"]}
    always = [name for name in always if name not in measured]
    if always:
        notes.append(
            "played in every game: " + ", ".join(always) + ": nothing to compare it with here; "
            "--impact measures it by playing the same games without it"
        )
    return notes + ending_warnings(report["run"], report["endings"], report["captures"]["total"])


def ending_warnings(run: dict[str, Any], endings: dict[str, int], captures: int) -> list[str]:
    """What the way the games ended says about the rates (a run's report and a gauntlet's): most
    decided by the tiebreak, no capture at all, games no rule ended."""
    notes = []
    games = run["games"]
    if games and endings["turn-limit"] * 2 > games:
        notes.append(
            f"{endings['turn-limit']} of {games} games were decided by the tiebreak at the turn limit (R18), "
            "not by King conversion, 1000 LP or a scenario's conditions: the rates measure the tiebreak score"
        )
    if games and captures == 0:
        notes.append("no piece was captured in any game: cards about captures, Gems and income were never tested")
    unfinished = endings[UNFINISHED]
    if unfinished:
        notes.append(
            f"{unfinished} of {games} games reached round {run['max_turns']} with no rule ending them "
            "(no King converted, nobody at 1000 LP): they count as draws"
        )
    return notes
