"""A card has no effect, or only effects that change nothing.

A card without ``effect`` clauses, or whose effects are all zero (``to_hit +0``,
``gain 0 SP``, ``reduce damage by 0``), does nothing when played: dead weight in a draft
of 3 cards.

Fails: a card without effects. Passes: any card with one real effect.
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
    code="SG-C093",
    name="no-effect",
    severity=Severity.WARNING,
    enforces="degenerate design: every card does something",
    rules=("R19",),
    scope=Scope.CARD,
)


def is_zero(action: A.Action) -> bool:
    """An action that changes nothing whatever the situation."""
    match action:
        case A.CostModifier() | A.DamageModifier():
            return action.delta == 0 and action.scale == 0  # ``double`` / ``halve`` scale instead of adding
        case A.ToHitModifier():
            return action.delta == 0
        case A.DamageReduction() | A.DealDamage():
            return action.amount == 0
        case A.ResourceChange() | A.Steal():
            return action.quantity.kind in (A.QuantityKind.FIXED, A.QuantityKind.PER) and action.quantity.value == 0
        case (
            A.Reroll()
            | A.ExtraAction()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return False  # no amount to be zero
        case _:
            assert_never(action)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    if not card.effects:
        message = f"'{card.name}' has no effect"
    elif all(is_zero(effect.action) for effect in card.effects):
        message = f"every effect of '{card.name}' is zero, so it does nothing"
    else:
        return
    yield META.diagnostic(
        message,
        card.name_span,
        fix=Fix("add an effect clause (docs/cards.md)"),
        label="does nothing",
        context=card_context(card),
    )
