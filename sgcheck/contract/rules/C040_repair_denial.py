"""A card can stop the opponent repairing their Gem on consecutive turns.

Core §6 forbids "permanent repair denial" and core §8 forbids denying repair on
consecutive turns with the same player's effects. A single denial lasting one turn is
allowed. Reported: a denial that lasts more than one turn or is permanent, and a
denial on a card that can deny again next turn (a relic, passive or activated, unless
its use is limited per game). Two one-turn spells that together cover consecutive
turns are SG-C130.

Fails: ``effect deny repair for 2 turns``. Passes: a spell with ``effect deny repair this turn``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.diagnostics import Diagnostic, Fix, Severity
from sgcheck.lang import card_ast as A

META = RuleMeta(
    code="SG-C040",
    name="repair-denial",
    severity=Severity.ERROR,
    enforces="core §6 and §8: no permanent repair denial, no denial on consecutive turns",
    rules=("core §6", "core §8"),
    scope=Scope.CARD,
)


def denial_problem(card: A.Card, effect: A.Effect) -> str | None:
    """Why this deny-repair effect can cover consecutive turns on its own (None if it cannot)."""
    duration = effect.duration
    if duration is not None and duration.kind is A.DurationKind.PERMANENT:
        return "it denies repair permanently"
    if duration is not None and duration.kind is A.DurationKind.TURNS and (duration.turns or 0) > 1:
        return f"it denies repair for {duration.turns} turns in a row"
    if card.kind is A.CardKind.RELIC:
        if effect.limit is not None and effect.limit.period is A.Period.GAME:
            return None if effect.limit.times == 1 else f"it can deny repair {effect.limit.times} times a game"
        if card.mode is A.Mode.PASSIVE and effect.trigger is None and duration is None:
            return "a passive relic's denial stays in force for the rest of the game"
        return "the relic can deny repair again on the next turn"
    return None


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        if not isinstance(effect.action, A.DenyRepair):
            continue
        problem = denial_problem(card, effect)
        if problem is not None:
            yield META.diagnostic(
                f"'{card.name}' can lock the opponent's repairs: {problem}",
                effect.span,
                hint="a denial may last one turn and must not be repeatable on the next",
                fix=Fix("make it a spell that denies repair 'this turn', or add 'limit once per game'"),
                label="repair lock",
                context=card_context(card),
            )
