"""Several cards that, in a game the checker played, can be brought to one attack together past a
cap (+25 to-hit, +2 damage per hit, one reroll or advantage source), or to one action together
below its cost floor of 0.

A warning, as R20 says: each card keeps the contract on its own, the player chooses to bring them
together, and play clamps the total (SG-N304; a cost is charged 0, R23) or, for a second reroll
source or a cost below 0, replay reports it in that game (SG-R132, SG-R131). The finding names the
situation and each card's share. One card that passes a cap or the floor alone is SG-C152 or
SG-C151, an error.

Warns: `to_hit +20 this turn` and `to_hit +10 this turn` on two Spells of one hand; `cost move -1`
on two passive Relics (a King step costs 1). Clean: the same bonuses on attacks that can never meet
(one on Knights only, the other on Rooks only).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C153",
    name="caps-together-in-play",
    severity=Severity.WARNING,
    enforces="core §4.5, R20 and R23: several cards together past a per-attack cap or a cost's floor",
    rules=("core §4.5", "R20", "R23"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C011", "SG-C010", "SG-C012", "SG-C120", "SG-C005"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("caps-stacked", "reroll", "negative-cost-stacked"), COVERED_BY)
