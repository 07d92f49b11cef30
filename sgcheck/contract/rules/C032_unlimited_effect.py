"""A card has an effect with no bound at all.

``gain unlimited SP``, ``extra unlimited repairs`` and the like have no number to
check, and core §8 forbids effects that create unbounded SP/LP or loops. Give the
effect a finite amount. Moves and attacks are not counted by the core (any number a Main
phase or a Battle, each at its price, R03), so extra moves or attacks without a count change
nothing in play and are not reported.

Fails: ``effect extra unlimited repairs in upkeep``. Passes: ``effect extra unlimited moves in main1``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C032",
    name="unlimited-effect",
    severity=Severity.ERROR,
    enforces="core §8: cards must not create unbounded SP/LP or infinite loops",
    rules=("core §8",),
    scope=Scope.CARD,
)


#: The actions the core does not count in a turn: more of them is nothing a card grants (R03).
_UNCOUNTED = frozenset({A.ExtraKind.MOVE, A.ExtraKind.ATTACK})


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        action = effect.action
        what = None
        if isinstance(action, (A.ResourceChange, A.Steal)) and action.quantity.kind is A.QuantityKind.UNLIMITED:
            what = f"an unlimited amount of {action.quantity.resource.value}"
        elif isinstance(action, A.ExtraAction) and action.count is None and action.action not in _UNCOUNTED:
            what = f"unlimited extra {action.action.value}s"
        if what is not None:
            yield META.diagnostic(
                f"'{card.name}' gives {what}",
                effect.span,
                fix=Fix("replace 'unlimited' with a number"),
                label="no bound",
                context=card_context(card),
            )
