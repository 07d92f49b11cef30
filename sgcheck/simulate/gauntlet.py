"""A gauntlet: several packs, each against each, both seats; a table of results and standings.

``sgcheck simulate A --against B --against C`` plays A-B, A-C and B-C, each match as a run of
its own (:func:`matches`: each side first in half its games, the seeds of the run's seed), and
reports each pack's win rate against each other one, and its standing over all its games: wins
plus half the draws, with a Wilson 95% interval. ``core`` may be one of the entrants: the side
with no card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sgcheck.results import Endings, GauntletReport, Match, Standing
from sgcheck.simulate.games import GameRecord, Side
from sgcheck.simulate.run import RunPlan
from sgcheck.simulate.stats import ENDINGS, SMALL_WIDTH, ending_warnings, rate, run_settings, wilson


def matches(base: RunPlan, entrants: Sequence[Side]) -> list[RunPlan]:
    """Each entrant against each later one, as ``base`` says (games, seed, policy, scenario)."""
    return [
        replace(base, pack=first, against=second, samples=0)
        for i, first in enumerate(entrants)
        for second in entrants[i + 1 :]
    ]


def summarise(base: RunPlan, entrants: Sequence[Side], runs: Sequence[RunPlan],
              played: Sequence[Sequence[GameRecord]]) -> GauntletReport:  # fmt: skip
    """The gauntlet's report: each match, and each entrant's standing over all its games."""
    labels = [side.label for side in entrants]
    found = []
    totals = {label: [0, 0, 0] for label in labels}  # wins, draws, games
    endings = dict.fromkeys(ENDINGS, 0)
    captures = 0
    for run, records in zip(runs, played, strict=True):
        wins = sum(1 for r in records if r.winner_role == "pack")
        losses = sum(1 for r in records if r.winner_role == "against")
        draws = len(records) - wins - losses
        for label, won in ((run.pack.label, wins), (run.against.label, losses)):
            totals[label][0] += won
            totals[label][1] += draws
            totals[label][2] += len(records)
        match_endings = {kind: sum(1 for r in records if r.outcome == kind) for kind in ENDINGS}
        for kind, n in match_endings.items():
            endings[kind] += n
        captures += sum(r.captures for r in records)
        found.append(Match(
            pack=run.pack.label,
            against=run.against.label,
            games=len(records),
            pack_wins=wins,
            against_wins=losses,
            draws=draws,
            pack_rate=rate(wins, len(records), draws),
            endings=Endings.counted(match_endings),
        ))  # fmt: skip
    standings: list[Standing] = []
    for label in labels:
        wins, draws, games = totals[label]
        score = wins + draws / 2
        low, high = wilson(score, games)
        standings.append(Standing(
            entrant=label,
            games=games,
            wins=wins,
            draws=draws,
            losses=games - wins - draws,
            score=round(score / games, 4) if games else None,
            interval=(round(low, 4), round(high, 4)) if games else None,
            small_sample=high - low > SMALL_WIDTH,
        ))  # fmt: skip
    standings.sort(key=lambda s: (-(s.score or 0.0), labels.index(s.entrant)))
    settings = run_settings(base, sum(len(r) for r in played))
    ended = Endings.counted(endings)
    notes = ending_warnings(settings, ended, captures)
    if any(s.small_sample for s in standings):
        notes.append(f"a standing's interval is wider than {100 * SMALL_WIDTH:.0f} points: play more --games")
    return GauntletReport(
        run=settings,
        entrants=tuple(labels),
        matches=tuple(found),
        standings=tuple(standings),
        endings=ended,
        captures=captures,
        warnings=tuple(notes),
    )


__all__ = ["matches", "summarise"]
