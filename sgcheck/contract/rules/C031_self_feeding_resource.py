"""A card's gain scales with the resource it produces.

"Gain SP equal to your SP" doubles your SP each time it resolves; "gain LP equal to
your SP" together with "gain SP equal to your LP" on the same card feeds itself the same
way. Nothing bounds such growth, and core §8 forbids effects that create unbounded SP or
LP. Amounts that count something bounded (``1 SP per piece in own gem``) or read the
opponent's resources while you gain are fine. The same feedback spread over several
cards is SG-C110.

Fails: ``effect gain SP equal to own SP``. Passes: ``effect gain 1 SP per piece in own gem``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.analysis.growth import feedback_loops
from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C031",
    name="self-feeding-resource",
    severity=Severity.ERROR,
    enforces="core §8: cards must not create unbounded SP/LP",
    rules=("core §8",),
    scope=Scope.CARD,
)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    if not any(_scaled(effect) for effect in card.effects):
        return
    for loop in feedback_loops([card]):
        first = loop[0]
        yield META.diagnostic(
            f"'{card.name}' grows without bound: {'; '.join(link.describe() for link in loop)}",
            first.effect.span,
            hint="use a fixed amount, or one that counts something bounded (pieces in a Gem)",
            fix=Fix("replace the scaled amount with a fixed one, e.g. 'gain 5 SP'"),
            label="amount feeds on its own result",
            context=card_context(card),
        )


def _scaled(effect: A.Effect) -> bool:
    action = effect.action
    quantity = action.quantity if isinstance(action, (A.ResourceChange, A.Steal)) else None
    return quantity is not None and quantity.kind is A.QuantityKind.SCALED
