"""A card rewrites what an action costs.

Moving costs value + distance, attacking 2 x value + distance, summoning and
teleporting value + 5, a Break 20 and a Repair 10 (core §3-§6). Core §8 lets a card
*add* a cost modifier (``cost move -1``) but not replace a cost formula; a
``set cost.<action>`` effect is a rewrite and is reported.

Fails: ``effect set cost.attack to 4``. Passes: ``effect cost summon -2 SP``.
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
    code="SG-C002",
    name="cost-formula-rewrite",
    severity=Severity.ERROR,
    enforces="core §8: cards must not change attack or move costs",
    rules=("core §8",),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.COST, META, "the cost")
