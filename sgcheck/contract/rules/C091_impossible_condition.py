"""A condition that can never be true.

An effect whose condition cannot hold is dead text, and usually a typo: a distance
outside 1-7 (``distance > 9``), a Pawn attacking at distance 2 or more (pawns attack one
square, R08), a knight beyond 2 jumps (R07), the King as attacker under the core
(R09), a piece in both camps, a Gem both broken and intact, a negative or
contradictory resource threshold (``own SP < 0``), LP of 1,000 or more (they win the
game, core §7), or what a trigger's event does not tell (``at upkeep: ... when attacker
is Queen``: the start of a phase has no attacker; ``on capture: ... when target is
King``: a King is never captured, core §4.4).

Fails: ``effect to_hit +5 when attacker is Pawn and distance >= 3``. Passes:
``effect to_hit +5 when attacker is Pawn and distance = 1``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.conditions import impossible_reason
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C091",
    name="impossible-condition",
    severity=Severity.WARNING,
    enforces="degenerate design: every condition can be true in some game (core §3, R06-R09)",
    rules=("core §3", "R07", "R08", "R09"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        if effect.condition is None:
            continue
        reason = impossible_reason(effect, ctx)
        if reason is not None:
            yield META.diagnostic(
                f"the condition of this effect of '{card.name}' can never be true: {reason}",
                effect.condition.span,
                fix=Fix("correct the condition or remove the effect"),
                label="never true",
                context=card_context(card),
            )
