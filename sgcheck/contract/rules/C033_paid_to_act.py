"""A card pays more for an action than the action costs, and the action repeats freely.

The core limits neither the moves of a Main phase nor the attacks of a Battle (core §2, R03);
each costs LP or SP (core §3, §4.1). A trigger on such an action that gives back more than it
costs makes every repetition a profit, so one turn can make SP or LP without bound, which
core §8 forbids. The net flow of one action is worked out from the action's cheapest price (a
King step costs 1, R09; a Pawn attack at distance 1 costs 3), the holder's standing discounts
on it, the trigger's own price, and what the trigger gains (a ``per`` count at its most). In a
pack, the largest discounts of up to two other cards join it (a hand holds 3, R19). A cost
never goes below 0 in play (R23), so a discount alone is SG-C005, not this.

Not reported: triggers with a ``limit``, or on actions a turn does not repeat freely (a capture,
a Summon, a Teleport, a Pawn's move: a Pawn only advances, R06, so its moves run out). A trigger
on an activated Relic is reported as on a passive one: it is set up when the Relic is played and
fires on every event; the 2 activations a turn (R17) bound the Relic's uses, not its triggers.

Fails: ``effect on move: gain 3 SP``. Passes: ``effect on move: gain 1 SP limit once per turn``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.analysis.profit import Profit
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import CardFacts, PackView
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C033",
    name="paid-to-act",
    severity=Severity.ERROR,
    enforces="core §8: no action that repeats freely may return more LP/SP than it costs (unbounded SP/LP)",
    rules=("core §2", "core §8", "R03"),
    scope=Scope.CARD,
)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for profit in CardFacts(card, ctx).profits:
        yield _finding(profit, together=False)


def check_pack(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    for profit in pack.facts.profits:
        yield _finding(profit, together=True)


def _finding(profit: Profit, *, together: bool) -> Diagnostic:
    unit = profit.resource.value
    names = " and ".join(f"'{c.name}'" for c in profit.cards)
    who = f"{names} together" if together else names
    message = (
        f"{who} pay{'' if together else 's'} more than each {profit.action} costs: {profit.chain()} "
        f"each time, and a turn repeats it without limit, so {unit} grows without bound"
    )
    context = card_context(profit.card)
    if together:
        context = (("cards", names), *((f"'{c.name}'", f"{c.kind.value} at {c.span}") for c in profit.cards))
    return META.diagnostic(
        message,
        profit.effect.span,
        rules=(*META.rules, "R19") if together else META.rules,
        hint="a gain on a move or an attack must not exceed what the action costs, or must be bounded",
        fix=Fix(
            f"gain at most {profit.paid} {unit}, or add 'limit once per turn'"
            if profit.paid
            else "the discounts make the action free: bound the gain ('limit once per turn')"
        ),
        label="an action that pays",
        context=context,
    )
