"""Maluses that, in a game the checker played, hold every attack on a King without a bonus at the
5 floor of to-hit, whoever attacks, from wherever.

Core §8 caps the bonuses cards add, not the maluses, and a King held at 5 can still be hit, so
this is not the immunity of SG-C156. But the primary victory (core §7) then hangs on a 1-in-20
roll for every attack a player makes without stacking bonuses: the King is out of reach in all
but name, as SG-C090 reads a King that unboosted hits cannot damage. Where a malus stops being a
defence and becomes a rewrite of the accuracy formula (core §4.4) is a judgment call, so the
checker warns, with the numbers and the mildest case (docs/contract-rules.md, "Readings").

Warns: `to_hit -90 on enemy attacks when target is King` (a Queen's 90 falls to the floor).
Clean: `to_hit -15 on enemy attacks when target is King and attacker is Queen` (every other
attacker keeps its odds, and a Queen 75).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C160",
    name="king-out-of-reach-in-play",
    severity=Severity.WARNING,
    enforces="core §4.4, core §7 and core §8: a King every attack can still hope to hit (a judgment call)",
    rules=("core §4.4", "core §4.5", "core §7", "core §8", "R10"),
    scope=Scope.PLAY,
)

#: No card or pack rule reads this consequence from the cards themselves.
COVERED_BY: frozenset[str] = frozenset()


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("king-fogged",), COVERED_BY)
