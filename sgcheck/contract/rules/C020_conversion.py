"""A card changes the SP to LP conversion rate or its per-turn cap.

In Main 2 a player may convert SP into LP at 2 SP for 1 LP, at most 20 SP a turn
(core §2, R16). Core §8 names both numbers as untouchable: a ``set conversion.rate`` or
``set conversion.cap`` effect is reported.

Fails: ``effect set conversion.rate to 1``. Passes: ``effect gain 2 LP``.
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
    code="SG-C020",
    name="conversion-rewrite",
    severity=Severity.ERROR,
    enforces="core §8: cards must not alter the SP->LP rate (2:1) or the 20 SP/turn conversion cap",
    rules=("core §2", "core §8", "R16"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.CONVERSION, META, "the conversion setting")
