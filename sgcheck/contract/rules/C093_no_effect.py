"""A card has no effect, or only effects that change nothing, or sets a core number to
the value the core already has.

A card without ``effect`` clauses, or whose effects are all zero (``to_hit +0``,
``gain 0 SP``, ``reduce damage by 0``), does nothing when played: dead weight in a draft
of 3 cards.

A ``set`` effect that writes the number the core already has (``set threshold.repair to
10``) changes no roll, cost or limit in any game, yet the card names a number core §8
locks; whether that breaks §8 is a judgment call, so each such effect is reported here as a
warning, whatever else the card does (a ``set`` to any other number is an error under the
code of the number's family, SG-C001 to SG-C080). Replay refuses every ``set`` effect (R23).

Fails: a card without effects; ``effect set threshold.repair to 10``. Passes: any card with
one real effect.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.core.parameters import PARAMETERS, keeps_core_number
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
    if isinstance(action, (A.CostModifier, A.DamageModifier)):
        return action.delta == 0 and action.scale == 0  # ``double`` / ``halve`` scale instead of adding
    if isinstance(action, A.ToHitModifier):
        return action.delta == 0
    if isinstance(action, (A.DamageReduction, A.DealDamage)):
        return action.amount == 0
    if isinstance(action, (A.ResourceChange, A.Steal)):
        return action.quantity.kind in (A.QuantityKind.FIXED, A.QuantityKind.PER) and action.quantity.value == 0
    if isinstance(action, A.SetParameter):
        return keeps_core_number(action.parameter, action.value)
    return False


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    same = [e for e in card.effects if isinstance(e.action, A.SetParameter) and is_zero(e.action)]
    for effect in same:
        action = effect.action
        assert isinstance(action, A.SetParameter)
        parameter = PARAMETERS[action.parameter]
        yield META.diagnostic(
            f"'{card.name}' sets {action.parameter} to {action.value}, the number the core already has "
            f"({parameter.core}): it changes nothing in play, but core §8 keeps that number out of cards' reach",
            effect.span,
            rules=("core §8", parameter.section),
            hint="a judgment call: the card claims a locked number without changing it; replay refuses it (R23)",
            fix=Fix("remove this effect"),
            label="sets a core number to itself",
            context=card_context(card),
        )
    if not card.effects:
        message = f"'{card.name}' has no effect"
    elif all(is_zero(effect.action) for effect in card.effects) and not same:
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
