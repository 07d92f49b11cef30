"""An action whose core cost, with the card modifiers acting on it, falls below 0 in some situation.

The checker tries every action a card prices in every situation the core allows (each piece kind
at each distance it can move or attack, in and out of its camp; Summons, Teleports, Break and
Repair), with the modifiers the cards have in play at each state of the games it plays,
accumulated copies included, and the conditions read there. Play charges 0 (R23), but a cost
below zero is an action that pays, which core §8 does not let a modifier do.

Breaks: `cost move -2` (a King step costs 1); `cost move -1` and `cost distance -1` on one card.
Legal: `cost move -3 when distance >= 6` (only a sliding piece moves 6 squares, at 9 or more).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C151",
    name="cost-below-zero-in-play",
    severity=Severity.ERROR,
    enforces="core §8: cost modifiers stay within their floor; no action may pay its taker",
    rules=("core §3", "core §4.1", "core §8", "R23"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C005"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("negative-cost",), COVERED_BY)
