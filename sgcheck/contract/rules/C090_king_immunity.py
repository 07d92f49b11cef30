"""A card makes a King immune to unboosted hits.

Every hit deals 1 damage (core §4.3); a King falls at 20 (core §4.4). A reduction of
1 or more on hits against a King (``reduce damage by 2 on own King``, or
``damage -1 on enemy attacks`` where the target can be the King) means an attack
without a damage bonus can never hurt it, and at 3 or more (1 + the +2 cap) no attack
can. The game's primary victory then depends on damage bonuses alone: a degenerate
design, reported as a warning. The guide's Soul Ward (-2 on your King) is the
textbook case.

Fails: ``effect reduce damage by 2 on own King``. Passes: ``effect reduce damage by 1 on own Rook``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import CardFacts
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.caps import DAMAGE_BONUS_CAP, DAMAGE_PER_HIT
from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C090",
    name="king-immunity",
    severity=Severity.WARNING,
    enforces="degenerate design: every hit must be able to damage a King (core §4.3, §4.4)",
    rules=("core §4.3", "core §4.4", "core §4.5"),
    scope=Scope.CARD,
)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect, shield in CardFacts(card, ctx).king_shields:
        if shield < DAMAGE_PER_HIT:
            continue
        whose = (
            "the opponent's"
            if isinstance(effect.action, A.DamageReduction) and effect.action.target.side is A.Side.ENEMY
            else "your"
        )
        full = DAMAGE_PER_HIT + DAMAGE_BONUS_CAP
        worse = (
            f"; at {shield} even a fully boosted hit ({DAMAGE_PER_HIT} + {DAMAGE_BONUS_CAP}) does nothing"
            if shield >= full
            else ""
        )
        action = effect.action
        if isinstance(action, A.DamageModifier) and action.scale < 0:
            lowers = f"halves damage to {whose} King, rounded down:"
        else:
            lowers = f"lowers damage to {whose} King by {shield}:"
        yield META.diagnostic(
            f"'{card.name}' {lowers} a hit deals {DAMAGE_PER_HIT}, so the King is immune to unboosted hits{worse}",
            effect.span,
            hint="a King must stay hittable: lower the enemy's to-hit against it instead, or protect other pieces",
            fix=Fix(
                "protect other pieces (e.g. 'on own Rook'), or use 'to_hit -10 on enemy attacks when target is King'"
            ),
            label="King immune",
            context=card_context(card),
        )
