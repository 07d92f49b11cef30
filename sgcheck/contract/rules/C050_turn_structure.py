"""A card changes the turn structure.

A turn runs Upkeep, Main 1, Battle, Main 2, End, in that order, and each action has its
window: Summon, Break and Repair in Upkeep, moves in the Main phases, attacks in
Battle, Teleport at End (core §2, §5, R03). Core §8 forbids changing that structure.
Reported: an extra phase ("take an extra Movement Phase"), skipping or swapping phases,
and an extra action granted in a phase where that action is not allowed (an attack in
Main 1 moves attacks out of Battle). Extra actions *inside* their own phase (an extra
attack in Battle) are allowed: they do not change the structure (RULINGS note on §8).

Fails: ``effect extra phase movement``. Passes: ``effect extra move in main2``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.core.pieces import Phase
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C050",
    name="turn-structure",
    severity=Severity.ERROR,
    enforces="core §8: cards must not change the turn structure ordering",
    rules=("core §2", "core §8", "R03"),
    scope=Scope.CARD,
)

#: Where each action may happen (core §2, §5, R03).
WINDOWS: dict[A.ExtraKind, tuple[Phase, ...]] = {
    A.ExtraKind.MOVE: (Phase.MAIN1, Phase.MAIN2),
    A.ExtraKind.ATTACK: (Phase.BATTLE,),
    A.ExtraKind.SUMMON: (Phase.UPKEEP,),
    A.ExtraKind.BREAK: (Phase.UPKEEP,),
    A.ExtraKind.REPAIR: (Phase.UPKEEP,),
    A.ExtraKind.TELEPORT: (Phase.END,),
}


def _problem(action: A.Action) -> tuple[str, str] | None:
    if isinstance(action, A.ExtraPhase):
        where = f" after {action.after.word}" if action.after else ""
        return f"adds a whole '{action.name}' phase{where} to the turn", "grant extra actions inside a phase instead"
    if isinstance(action, A.SkipPhase):
        return f"skips the {action.phase.word} phase", "phases can be left empty but never removed"
    if isinstance(action, A.SwapPhases):
        return f"swaps {action.first.word} and {action.second.word}", "the phase order is fixed"
    if isinstance(action, A.ExtraAction) and action.phase is not None and action.action in WINDOWS:
        allowed = WINDOWS[action.action]
        wrong = [p for p in action.phase.phases if p not in allowed]
        if wrong:
            return (
                f"grants an extra {action.action.value} in {action.phase.word}, outside its window "
                f"({', '.join(p.title for p in allowed)})",
                f"grant the extra {action.action.value} in {allowed[0].title.lower().replace(' ', '')}",
            )
    return None


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        found = _problem(effect.action)
        if found is not None:
            problem, advice = found
            yield META.diagnostic(
                f"'{card.name}' {problem}",
                effect.span,
                hint="an extra action inside an existing phase is allowed; a new, skipped or reordered phase is not "
                "(RULINGS note on core §8)",
                fix=Fix(advice),
                label="changes the turn structure",
                context=card_context(card),
            )
