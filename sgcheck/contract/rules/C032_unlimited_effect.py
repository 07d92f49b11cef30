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
from typing import assert_never

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


def _unbounded(action: A.Action) -> str | None:
    """What ``action`` gives without a bound, or None."""
    match action:
        case A.ResourceChange() | A.Steal():
            unlimited = action.quantity.kind is A.QuantityKind.UNLIMITED
            return f"an unlimited amount of {action.quantity.resource.value}" if unlimited else None
        case A.ExtraAction():
            counted = action.count is not None or action.action in _UNCOUNTED
            return None if counted else f"unlimited extra {action.action.value}s"
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
            | A.DealDamage()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return None  # has no amount that could be unlimited
        case _:
            assert_never(action)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        what = _unbounded(effect.action)
        if what is not None:
            yield META.diagnostic(
                f"'{card.name}' gives {what}",
                effect.span,
                fix=Fix("replace 'unlimited' with a number"),
                label="no bound",
                context=card_context(card),
            )
