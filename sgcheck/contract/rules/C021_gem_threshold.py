"""A card rewrites the Gem Break or Repair threshold.

A Break succeeds on 12+ and a Repair on 10+ on 3d6 (core §6, R15). Core §8 forbids
removing or rewriting these thresholds; ``set threshold.break`` or
``set threshold.repair`` is reported. Changing what a Break or Repair *costs* is a cost
modifier (allowed within reason, see SG-C005).

Fails: ``effect set threshold.repair to 4``. Passes: ``effect cost repair -2``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import parameter_findings
from sgcheck.core.cards.model import Card
from sgcheck.core.parameters import ParamFamily
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C021",
    name="gem-threshold-rewrite",
    severity=Severity.ERROR,
    enforces="core §8: cards must not remove or rewrite the Gem Break/Repair thresholds (12+/10+ on 3d6)",
    rules=("core §6", "core §8", "R15"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.GEM_THRESHOLD, META, "the Gem threshold")
