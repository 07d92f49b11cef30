"""One card that, in a game the checker played, brings more than a cap to one attack on its own:
+25 to-hit, +2 damage per hit, one reroll or advantage source.

The checker sweeps every attack the core allows (attacker and target kinds, the distances each
kind reaches, camps) with the effects in play at each state it reaches, so a bonus that grows with
each use or trigger (`permanently`, `on attacked:`, doubling) is caught at the use that passes
the cap. Replay clamps the total (R20, SG-N304); the card still asks for more than core §8 allows.
The proof game plays on to an attack that asks past the cap; where copies of one card do it,
replay reports that attack with SG-R137 (an attack the search played so is this rule's break too).

Breaks: an activated Relic with `damage +1 permanently` (the third use asks +3). Legal: `damage +1
this turn` used twice (+2), `to_hit +15 when attacker is Knight` and `to_hit +15 when attacker is
Rook` (never on one attack).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C152",
    name="cap-in-play",
    severity=Severity.ERROR,
    enforces="core §4.5 and core §8: one card never asks past the to-hit, damage or reroll cap",
    rules=("core §4.5", "core §8", "R20"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C011", "SG-C010", "SG-C012"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    # an attack the search played, which the copies of one card took past the cap (the watch's
    # SG-R137), is this rule's break too; said when the sweep did not find that card's cap first
    swept = {(f.cards, f.what) for f in pack.facts.explored.findings if f.kind == "cap"}
    yield from play_findings(
        pack,
        META,
        ("cap", "stacking"),
        COVERED_BY,
        Severity.ERROR,
        unless=lambda found: found.kind == "stacking" and (found.cards, found.what) in swept,
    )
