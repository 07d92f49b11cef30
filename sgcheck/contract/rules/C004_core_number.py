"""A card rewrites another number of the locked core.

Besides values, costs and formulas, the core fixes the King's 20 HP, 1 damage per hit,
the capture reward (5 x value SP), Soul Gem income (2 x value SP), the Pass bonus
(+6 LP), the starting LP and SP and the 1000 LP victory. The reading of core §8 in the
rulings (anything that rewrites a value, formula, rate or threshold is a violation)
covers them too.

Fails: ``effect set king.hp to 30``. Passes: ``effect gain 2 SP``.
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
    code="SG-C004",
    name="core-number-rewrite",
    severity=Severity.ERROR,
    enforces="core §8 (as read in RULINGS): no card rewrites a value, rate or threshold of the core",
    rules=("core §8",),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.OTHER, META, "the core number")
