"""A card rewrites another number of the locked core.

Besides values, costs and formulas, the core fixes the King's 20 HP, 1 damage per hit,
the capture reward (5 x value SP), Soul Gem income (2 x value SP), the Pass bonus
(+6 LP), the starting LP and SP and the 1000 LP victory. The reading of core §8 in the
rulings (anything that rewrites a value, formula, rate or threshold is a violation)
covers them too.

A number can be rewritten without naming it. Soul Gem income is paid at each Upkeep, 2 x the
value of the pieces in the holder's own Gem (core §6, R14): a Relic that gains an amount *per
piece in own gem* at the start of a phase of every turn, or at each use of an activated Relic,
pays that income a second time under another name, and is reported as a rewrite of
``income.rate`` (the same code as ``set income.rate``), all the more when it pays while the Gem
is broken, when core §6 pays nothing. Not reported: a fixed gain at Upkeep, a Spell's or a
passive Relic's one-off gain counted on the Gem (once a game), a gain on an event, and one
limited per game.

Fails: ``effect set king.hp to 30``. Passes: ``effect gain 2 SP``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.income import INCOME
from sgcheck.contract.facts.pack_facts import CardFacts
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context, parameter_findings
from sgcheck.core.cards.model import Card
from sgcheck.core.parameters import ParamFamily
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C004",
    name="core-number-rewrite",
    severity=Severity.ERROR,
    enforces="core §8 (as read in RULINGS): no card rewrites a value, rate or threshold of the core",
    rules=("core §8",),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.OTHER, META, "the core number")
    for income in CardFacts(card, ctx).incomes:
        broken = ", even while its Gem is broken, when core §6 pays nothing" if income.while_broken else ""
        yield META.diagnostic(
            f"'{card.name}' gains {income.amount} {income.when}{broken}: that is Soul Gem income under another "
            f"name, a second {INCOME.name} beside the core's {INCOME.core}",
            income.effect.span,
            rules=(*META.rules, INCOME.section),
            hint="the core pays Soul Gem income once, at Upkeep (core §6, R14); a card may add a fixed, bounded "
            "gain, or a one-off counted on the Gem",
            fix=Fix("gain a fixed amount ('gain 2 SP'), or make it a one-off (a Spell, or 'limit once per game')"),
            label="rewrites the income",
            context=(*card_context(card), (INCOME.name, INCOME.core)),
        )
