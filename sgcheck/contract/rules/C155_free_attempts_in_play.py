"""Break or Repair attempts that, in a game the checker played, can be repeated in one Upkeep for
nothing. A threshold on 3d6 that can be tried again for free is a matter of patience: the 12+ and
10+ of core §6, which core §8 locks, no longer decide anything.

Breaks: `extra 3 repairs in upkeep` with `cost repair -10`. Legal: `cost repair -5`; and
`extra repair in upkeep` is no free attempt (each still costs 10), though SG-C161 warns of it.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C155",
    name="free-attempts-in-play",
    severity=Severity.ERROR,
    enforces="core §6 and core §8: the Break 12+ and Repair 10+ thresholds stay meaningful",
    rules=("core §6", "core §8"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C021"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("free-attempt",), COVERED_BY)
