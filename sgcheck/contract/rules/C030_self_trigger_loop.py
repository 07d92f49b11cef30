"""A card's effect fires its own trigger, for free, forever.

An effect that causes the very event it waits for (``on gain SP: gain 1 SP``), directly
or through another effect of the same card, repeats without end unless something
limits each firing. Core §8 forbids effects that create infinite loops. A firing is
limited when the card is a spell (discarded after use), has a use limit (``limit once per
turn``) or pays a real price that the loop does not give back. An activated relic's triggers
are not limited by its 2 uses a turn (R17): they are set up when it is played and fire on every
event, as a passive relic's do. Loops through several cards are
SG-C101; loops that are limited are SG-C102, and so are loops whose firings only gain back
exactly the price they pay (``on gain SP pay 1 SP: gain 1 SP``): they repeat without end but
change no pool, so whether they break §8's ban on infinite loops is a judgment call.

Fails: ``effect on gain SP: gain 1 SP`` on a passive relic. Passes: the same effect with
``limit once per turn``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.analysis.flow import SELF, causes, listens
from sgcheck.contract.analysis.triggers import trigger_cycles
from sgcheck.contract.card_edits import bounded_fix
from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C030",
    name="self-trigger-loop",
    severity=Severity.ERROR,
    enforces="core §8: cards must not create infinite loops",
    rules=("core §8",),
    scope=Scope.CARD,
)


def _may_feed_itself(card: Card) -> bool:
    """Cheap pre-check: does any effect cause (for its holder) an event the card waits for?"""
    waits = {key for effect in card.effects for key in listens(effect)}
    if not waits:
        return False
    return any(side == SELF and key in waits for effect in card.effects for side, key in causes(effect))


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    if not _may_feed_itself(card):
        return
    for cycle in trigger_cycles([card]):
        if not cycle.infinite or cycle.break_even:
            continue
        first = cycle.steps[0]
        trigger = first.effect.trigger.label if first.effect.trigger is not None else "its trigger"
        yield META.diagnostic(
            f"'{card.name}' triggers itself without end: its effect causes '{trigger}' again, "
            f"and {cycle.unbounded_because}",
            first.effect.span,
            hint="bound each firing: a use limit ('limit once per turn'), a price ('on ... pay 1 SP:'), "
            "or make the card a spell",
            fix=bounded_fix(first.effect, "add 'limit once per turn' to the effect"),
            label="feeds its own trigger",
            context=(*card_context(card), *((f"step {i + 1}", s.describe()) for i, s in enumerate(cycle.steps))),
        )
