"""A King's damage that, in a game the checker played, changed through something other than an
attack: a card's direct damage, capture or conversion reaching a King by another road.

The same holds for the other side of it: reductions on a King that leave every hit, however
boosted (1 + the +2 cap), at 0 make the King immune, which changes its 20 hit points in all but
name (core §4.4; R26: shields guarding the King break the contract, shields on other pieces do
not). The proof game attacks that King: replay reports the attack with SG-R138.

Breaks: `reduce damage by 3 on own King`, and as much from several cards that one player can hold
together (unlike caps passed together, which play clamps, nothing clamps reductions: the King is
immune in that game; SG-C121 reads the same from the cards).
Legal: `reduce damage by 1 on own King` (a boosted hit still deals 2; SG-C090 warns of the
unboosted hit), `to_hit +10 when target is King` (an attack, within the caps).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C156",
    name="king-damage-in-play",
    severity=Severity.ERROR,
    enforces="core §4.4, core §8 and R19: the King is damaged by attacks only",
    rules=("core §4.4", "core §8", "R19"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C060", "SG-C121"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("king-damage", "king-immune"), COVERED_BY, Severity.ERROR)
