"""A card rewrites the accuracy formula.

Against a piece an attack hits on d100 <= 20 + 10 x (attacker value - defender value);
against the King on d100 <= 10 x attacker value; both clamped to 5..95 (core §4.2,
§4.4). Core §8 forbids cards from changing these formulas. A card may add a
conditional to-hit bonus instead, within the +25 cap (SG-C010).

Fails: ``effect set accuracy.base to 30``. Passes: ``effect to_hit +10 when distance <= 1``.
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
    code="SG-C003",
    name="accuracy-formula-rewrite",
    severity=Severity.ERROR,
    enforces="core §8: cards must not change accuracy formulas",
    rules=("core §4.2", "core §4.4", "core §8"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.ACCURACY, META, "the accuracy parameter")
