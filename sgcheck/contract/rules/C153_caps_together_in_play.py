"""Several cards that, in a game the checker played, can be brought to one attack together past a
cap: +25 to-hit, +2 damage per hit, one reroll or advantage source.

A warning, as R20 says: each card keeps the contract on its own, the player chooses to bring them
to one attack, and replay clamps the total (SG-N304) or, for a second reroll source, reports it
(SG-R132). The finding names the attack and each card's share.

Warns: `to_hit +20 this turn` and `to_hit +10 this turn` on two Spells of one hand. Clean: the same
bonuses on attacks that can never meet (one on Knights only, the other on Rooks only).
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
    enforces="core §4.5 and R20: several cards together past a per-attack cap",
    rules=("core §4.5", "R20"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C011", "SG-C010", "SG-C012", "SG-C120"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("caps-stacked", "reroll"), COVERED_BY)
