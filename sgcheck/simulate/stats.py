"""What a designer reads of a run: win rates with intervals, the first player's edge, game
length, endings, each card's record, economy curves, and the cards that dominate.

Everything here is a pure function of the game records (in task order) and the run's plan, so
the report is the same bytes for the same seed however the games were spread over workers.
The report is a tree of typed records (:class:`sgcheck.results.SimulationReport`), whose
``as_json`` is the JSON document (``schemas/simulate.schema.json``); the text and HTML renderings
read its fields and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from sgcheck.results import (
    BySide,
    Captures,
    CardRecord,
    Economy,
    EconomyPoint,
    Endings,
    FirstPlayerRate,
    GameLength,
    Impact,
    LengthBar,
    RunSettings,
    SeatRates,
    SimulationReport,
    SimulationRun,
    WinRate,
)
from sgcheck.simulate.games import GameRecord
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
ENDINGS = Endings.KINDS
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


def rate(wins: int, games: int, draws: int = 0) -> WinRate:
    """A win rate: counts, the rate and its 95% interval (both None without games: 0 of 0 is
    unknown, not anything from 0% to 100%), and whether the interval is too wide to lean on."""
    low, high = wilson(wins, games)
    return WinRate(
        games=games,
        wins=wins,
        draws=draws,
        losses=games - wins - draws,
        win_rate=_r(wins / games) if games else None,
        interval=(_r(low), _r(high)) if games else None,
        small_sample=high - low > SMALL_WIDTH,
    )


def run_settings(run: RunPlan, games: int) -> RunSettings:
    """The settings a report's ``run`` shows (its policy, seed, games, scenario, limits, first
    player), the same for one run and for a gauntlet's."""
    return RunSettings(
        policy=run.policy.value,
        seed=run.seed,
        games_per_side=run.games,
        games=games,
        scenario=run.scenario_label,
        turn_limit=run.scenario.turn_limit
        if run.scenario is not None and run.scenario.turn_limit
        else run.ruleset.turn_limit,
        max_turns=run.max_turns,
        first_player=first_color(run.scenario).name.lower(),
    )


def summarise(run: RunPlan, records: Sequence[GameRecord], impact: Sequence[Impact] = ()) -> SimulationReport:
    """The report of a run (see the module's docstring); ``impact``: the ablations measured
    (:func:`sgcheck.simulate.impact.paired`), each card's own joined to its record."""
    games = len(records)
    draws = sum(1 for r in records if r.winner is None)

    def overall(role: str) -> WinRate:
        return rate(sum(1 for r in records if r.winner_role == role), games, draws)

    def by_seat(role: str) -> SeatRates:
        leading = [r for r in records if (r.first is r.pack_color) == (role == "pack")]
        second = [r for r in records if r not in leading]
        return SeatRates(
            first=rate(sum(1 for r in leading if r.winner_role == role), len(leading),
                       sum(1 for r in leading if r.winner is None)),
            second=rate(sum(1 for r in second if r.winner_role == role), len(second),
                        sum(1 for r in second if r.winner is None)),
        )  # fmt: skip

    first_wins = sum(1 for r in records if r.winner is not None and r.winner is r.first)
    decided = games - draws
    first = FirstPlayerRate(
        *_fields(rate(first_wins, games, draws)), advantage=_r(first_wins / decided - 0.5) if decided else None
    )
    lengths = sorted(r.rounds for r in records)
    histogram: dict[int, int] = {}
    for n in lengths:
        histogram[n] = histogram.get(n, 0) + 1
    endings = Endings.counted({kind: sum(1 for r in records if r.outcome == kind) for kind in ENDINGS})
    captures = Captures(total=sum(r.captures for r in records), games=sum(1 for r in records if r.captures))
    alone = {item.cards[0]: item for item in impact if len(item.cards) == 1}
    cards = tuple(_joined(card, alone.get(card.card) if card.side == "pack" else None) for card in _cards(run, records))
    settings = run_settings(run, games)
    report = SimulationReport(
        run=SimulationRun(
            pack=run.pack.label,
            against=run.against.label,
            against_policy=(run.against_policy or run.policy).value,
            settings=settings,
        ),
        sides=BySide(pack=overall("pack"), against=overall("against")),
        seats=BySide(pack=by_seat("pack"), against=by_seat("against")),
        first_player=first,
        length=GameLength(
            mean=_r(sum(lengths) / games) if games else None,
            median=_median(lengths),
            min=lengths[0] if lengths else None,
            max=lengths[-1] if lengths else None,
            histogram=tuple(LengthBar(turns=t, games=n) for t, n in sorted(histogram.items())),
        ),
        endings=endings,
        captures=captures,
        cards=cards,
        economy=Economy(pack=_economy(records, 0), against=_economy(records, 1)),
        impact=tuple(impact),
        dominant=tuple(card.card for card in cards if card.dominant),
        warnings=(),
    )
    return _with_warnings(report)


def _fields(rate: WinRate) -> tuple[int, int, int, int, float | None, tuple[float, float] | None, bool]:
    """A rate's fields in order, to make a record that extends it."""
    return (rate.games, rate.wins, rate.draws, rate.losses, rate.win_rate, rate.interval, rate.small_sample)


def _joined(card: CardRecord, measured: Impact | None) -> CardRecord:
    """A card's record with its impact by ablation, when measured: taking the card away says more
    than comparing played and not, so then it alone says whether the card dominates."""
    if measured is None:
        return card
    dominant = measured.significant and (measured.impact or 0) >= DOMINANT_MARGIN
    return replace(card, impact=measured, dominant=dominant)


def _median(values: Sequence[int]) -> float | None:
    if not values:
        return None
    middle = len(values) // 2
    return float(values[middle]) if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def _cards(run: RunPlan, records: Sequence[GameRecord]) -> list[CardRecord]:
    """Each card of each side's pack: how often drafted and played, and its side's win rate
    with it played and without (every game of that side, the card not played)."""
    found: list[CardRecord] = []
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
            if (
                played.win_rate is not None
                and not_played.win_rate is not None
                and played.interval is not None
                and not_played.interval is not None
            ):
                margin = _r(played.win_rate - not_played.win_rate)
                dominant = margin >= DOMINANT_MARGIN and played.interval[0] > not_played.interval[1]
            status = "never drafted" if drafted == 0 else ("drafted, never played" if not with_card else "played")
            found.append(CardRecord(
                card=card.name,
                side=role,
                kind=card.kind.value,
                status=status,
                drafted=drafted,
                drafted_rate=_r(drafted / len(records)) if records else None,
                played=len(with_card),
                played_rate=_r(len(with_card) / len(records)) if records else None,
                when_played=played,
                when_not_played=not_played,
                margin=margin,
                small_sample=played.small_sample or not_played.small_sample,
                dominant=dominant,
            ))  # fmt: skip
    return found


def _economy(records: Sequence[GameRecord], index: int) -> tuple[EconomyPoint, ...]:
    """The mean LP and SP of one side after each of its turns, over the games still going then."""
    longest = max((len(r.economy[index]) for r in records), default=0)
    curve = []
    for turn in range(longest):
        points = [r.economy[index][turn] for r in records if len(r.economy[index]) > turn]
        curve.append(EconomyPoint(
            turn=turn + 1,
            games=len(points),
            lp=_r(sum(lp for lp, _ in points) / len(points)),
            sp=_r(sum(sp for _, sp in points) / len(points)),
        ))  # fmt: skip
    return tuple(curve)


def _with_warnings(report: SimulationReport) -> SimulationReport:
    """The report with what its figures warn of: a small sample, cards never drafted or never
    played, cards played in every game and not measured, and what the endings say."""
    notes = []
    games = report.run.settings.games
    if report.sides.pack.small_sample:
        notes.append(
            f"only {games} games: the win rate's interval is wider than {100 * SMALL_WIDTH:.0f} points (small sample)"
        )
    small = [c.card for c in report.cards if c.small_sample and c.status == "played"]
    if small and not report.sides.pack.small_sample:
        shown = ", ".join(small)
        notes.append(f"{shown}: an interval wider than {100 * SMALL_WIDTH:.0f} points with or without: read with care")
    never = [c.card for c in report.cards if c.status == "never drafted"]
    if never:
        notes.append("never drafted: " + ", ".join(never) + " (the draft (R19) kept other cards every time)")
    unplayed = [c.card for c in report.cards if c.status == "drafted, never played"]
    if unplayed:
        notes.append("drafted, never played: " + ", ".join(unplayed) + " (too dear, or never worth it to the policy)")
    always = [c.card for c in report.cards if games and c.played == games]
    measured = {name for item in report.impact for name in item.cards}
    always = [name for name in always if name not in measured]
    if always:
        notes.append(
            "played in every game: " + ", ".join(always) + ": nothing to compare it with here; "
            "--impact measures it by playing the same games without it"
        )
    notes += ending_warnings(report.run.settings, report.endings, report.captures.total)
    return replace(report, warnings=tuple(notes))


def ending_warnings(run: RunSettings, endings: Endings, captures: int) -> list[str]:
    """What the way the games ended says about the rates (a run's report and a gauntlet's): most
    decided by the tiebreak, no capture at all, games no rule ended."""
    notes = []
    games = run.games
    if games and endings.turn_limit * 2 > games:
        notes.append(
            f"{endings.turn_limit} of {games} games were decided by the tiebreak at the turn limit (R18), "
            "not by King conversion, 1000 LP or a scenario's conditions: the rates measure the tiebreak score"
        )
    if games and captures == 0:
        notes.append("no piece was captured in any game: cards about captures, Gems and income were never tested")
    unfinished = endings.unfinished
    if unfinished:
        notes.append(
            f"{unfinished} of {games} games reached round {run.max_turns} with no rule ending them "
            "(no King converted, nobody at 1000 LP): they count as draws"
        )
    return notes
