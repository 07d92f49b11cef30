"""Break or Repair attempts that, in a game the checker played, a player makes twice in one Upkeep,
each at the core's full price.

Extra actions inside a phase are what core §8 lets cards grant (timing variants), and each attempt
here pays its 20 or 10 in full, so the thresholds of core §6 still decide every roll. But a second
roll of the 3d6 each Upkeep is a reroll of the Gem's roll bought with SP, which the thresholds of
core §6 and the single-reroll cap of core §4.5 exist to prevent. Where an extra attempt stops being
a timing variant is a judgment call: the checker warns, with the price paid, and the designer
decides (docs/contract-rules.md, "Readings"). An attempt cheaper than the core's price, repeated,
is SG-C155, an error.

Warns: `extra break in upkeep`. Clean: `extra attack in battle` (attacks have no threshold on 3d6).
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import play_findings
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C161",
    name="repeated-attempts-in-play",
    severity=Severity.WARNING,
    enforces="core §6 and core §8: one roll at the Break and Repair thresholds an Upkeep (a judgment call)",
    rules=("core §4.5", "core §6", "core §8"),
    scope=Scope.PLAY,
)

#: The card and pack rules that read the same consequence from the cards themselves.
COVERED_BY = frozenset({"SG-C021", "SG-C155"})


def check(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from play_findings(pack, META, ("paid-attempt",), COVERED_BY)
