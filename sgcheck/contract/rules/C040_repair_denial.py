"""A card can stop the opponent repairing their Gem on consecutive turns.

Core §6 forbids "permanent repair denial" and core §8 forbids denying repair on
consecutive turns with the same player's effects. A single denial lasting one turn is
allowed. Reported: a denial that lasts more than one turn or is permanent, and a
denial on a card that can deny again next turn (an activated relic or a triggered effect,
unless its use is limited per game; a passive relic's own denial without a duration). As in
play, a denial must reach an Upkeep of the opponent to refuse anything: one that ends with the
holder's own turn (``this turn``) denies nothing, and a passive relic's timed denial starts once,
when it enters play. Two one-turn spells that together cover consecutive turns are SG-C130.

Fails: ``effect deny repair for 2 turns``. Passes: a spell with ``effect deny repair for 1 turn``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import CardFacts
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C040",
    name="repair-denial",
    severity=Severity.ERROR,
    enforces="core §6 and §8: no permanent repair denial, no denial on consecutive turns",
    rules=("core §6", "core §8"),
    scope=Scope.CARD,
)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect, problem in CardFacts(card, ctx).repair_denials:
        if problem is not None:
            yield META.diagnostic(
                f"'{card.name}' can lock the opponent's repairs: {problem}",
                effect.span,
                hint="a denial may last one turn and must not be repeatable on the next",
                fix=Fix("make it a spell that denies repair 'this turn', or add 'limit once per game'"),
                label="repair lock",
                context=card_context(card),
            )
