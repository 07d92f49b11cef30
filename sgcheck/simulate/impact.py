"""A card's impact by ablation: the pack's win rate minus the win rate of the pack without the card
(or without a pair of cards), played on the same seeds.

Comparing the games where a card was played with those where it was not says little: a card played
in every game has nothing to compare with, and a side that is ahead plays more cards. Taking the card
away does not have either fault. Each game of the run is played again with the card out of the pack
and *the same seed* (:func:`plans`): the same roll-off, King placements and dice stream (the draft
draws from a stream of its own, :func:`sgcheck.simulate.games.play_task`), so two games differ only
by what the card changed, and the noise of the dice largely cancels in the difference.

The statistics are paired (:func:`paired`): game ``i`` with the card and game ``i`` without it
make one pair, scored 1 for a win of the pack's side, ½ for a draw, 0 for a loss.

- **The impact** is the mean of the paired differences (the win rate with the card minus without);
  its 95% interval is the normal interval of that mean (mean ± 1.96 × its standard error), which
  is sound for the few hundred pairs a run plays and accounts for the pairing.
- **The test** is McNemar's exact test, read as a sign test: only the pairs whose result changed
  say anything about the card, and under "the card changes nothing" a change is as likely to go
  either way, so the count of changes for the better is Binomial(changes, ½). Exact, it holds for
  the handful of changes a small run gives; the p-value is two-sided, and an impact is
  *significant* below :data:`ALPHA`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from sgcheck.results import Impact, WinRate
from sgcheck.simulate.games import GameRecord, Side
from sgcheck.simulate.run import RunPlan
from sgcheck.simulate.stats import SMALL_WIDTH, Z95, rate

#: The significance level of the test.
ALPHA = 0.05
#: Above this many changed results the sign test's binomial is read from its normal approximation.
EXACT_UP_TO = 2000


def without(side: Side, names: Sequence[str]) -> Side:
    """``side`` with the cards ``names`` taken out of its pack (the draft draws from what is left)."""
    return replace(side, cards=tuple(card for card in side.cards if card.name not in names))


def plans(run: RunPlan, removals: Sequence[tuple[str, ...]]) -> list[RunPlan]:
    """The run played again once per removal, on the same seeds, without sampled logs."""
    return [replace(run, pack=without(run.pack, names), samples=0) for names in removals]


def _score(record: GameRecord) -> float:
    if record.winner is None:
        return 0.5
    return 1.0 if record.winner_role == "pack" else 0.0


def sign_test(better: int, worse: int) -> float:
    """The two-sided p-value of ``better`` changes one way and ``worse`` the other under a fair coin
    (McNemar's exact test); 1.0 when nothing changed."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    if n > EXACT_UP_TO:
        z = (abs(better - worse) - 1) / math.sqrt(n)  # with continuity correction
        return min(1.0, math.erfc(max(0.0, z) / math.sqrt(2)))
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2.0 * float(tail))


def paired(names: tuple[str, ...], full: Sequence[GameRecord], ablated: Sequence[GameRecord]) -> Impact:
    """The impact of ``names`` from the run's records and the same games without them (same order)."""
    if len(full) != len(ablated) or any(a.index != b.index for a, b in zip(full, ablated, strict=True)):
        raise ValueError("paired games must be the same games, in the same order")
    diffs = [_score(a) - _score(b) for a, b in zip(full, ablated, strict=True)]
    n = len(diffs)
    better = sum(1 for d in diffs if d > 0)
    worse = sum(1 for d in diffs if d < 0)
    mean = sum(diffs) / n if n else 0.0
    if n > 1:
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        half = Z95 * math.sqrt(variance / n)
    else:
        half = 1.0
    low, high = max(-1.0, mean - half), min(1.0, mean + half)
    p_value = sign_test(better, worse)

    def wins(records: Sequence[GameRecord]) -> WinRate:
        return rate(sum(1 for r in records if r.winner_role == "pack"), len(records),
                    sum(1 for r in records if r.winner is None))  # fmt: skip

    return Impact(
        cards=names,
        games=n,
        with_cards=wins(full),
        without_cards=wins(ablated),
        impact=round(mean, 4) if n else None,
        interval=(round(low, 4), round(high, 4)) if n else None,
        better_with=better,
        worse_with=worse,
        p_value=round(p_value, 6),
        significant=n > 0 and p_value < ALPHA,
        small_sample=high - low > SMALL_WIDTH,
    )


__all__ = ["ALPHA", "paired", "plans", "sign_test", "without"]
