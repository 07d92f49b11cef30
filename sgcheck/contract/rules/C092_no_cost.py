"""A card states no cost, or costs nothing.

Cards are paid for in LP and/or SP before they are played (guide, "Playing Relic
Spells"); a card with no ``cost`` clause, or one that costs 0, is strictly better to
play than to hold and distorts every draft. If a card is meant to be free, suppress
this finding on it with a reason (``# sgcheck: ignore SG-C092 -- why``).

Fails: a card without ``cost``. Passes: ``cost 3 SP``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C092",
    name="no-cost",
    severity=Severity.WARNING,
    enforces="degenerate design: every card has a price in LP or SP",
    rules=("R05", "R19"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    if card.cost is None:
        message, span = f"'{card.name}' states no cost", card.name_span
    elif card.cost.total == 0:
        message, span = f"'{card.name}' costs nothing", card.cost.span
    else:
        return
    yield META.diagnostic(
        message, span, fix=Fix("add a cost clause, e.g. 'cost 3 SP'"), label="free card", context=card_context(card)
    )
