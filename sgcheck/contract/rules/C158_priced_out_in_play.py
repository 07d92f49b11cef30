"""An action the opponent's cards price past what any player can hold: even the cheapest of its
kind costs 1,000 more (a player who held that much LP would have won, core §7).

The checker sweeps every situation of each kind of action with the cards in play and takes the
least the opponent's cards add to it. An attack, a move, a Summon or a Teleport that can never be
paid is a phase taken out of the turn in all but name (core §2, §8: the turn structure); a Break or
a Repair that can never be paid rewrites the Gem's thresholds or denies repair for good (core §6).
The proof game reaches the start of a turn of the player so priced: replay reports it there with
SG-R139.

Breaks: `opponent cost attack +999999`. Legal: `opponent cost attack +2 when attacker is Queen`
(the cheapest attacks are not surcharged).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C158",
    name="priced-out-in-play",
    severity=Severity.ERROR,
    enforces="core §2, core §6 and core §8: no phase or Repair made unusable by the opponent's prices",
    rules=("core §2", "core §6", "core §7", "core §8"),
    scope=Scope.PLAY,
)

#: No card or pack rule reads this consequence from the cards themselves.
COVERED_BY: frozenset[str] = frozenset()


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("priced-out",), COVERED_BY)
