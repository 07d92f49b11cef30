"""A card grants extra activations or rewrites the activation limit.

A player activates at most 2 Relic or Spell abilities a turn, across all phases;
passive effects do not count (core §0, R17). A card that hands out more activations
(``extra activation``) or sets ``activations`` breaks that limit. Extra *actions* such
as an extra move are fine (they are not activations).

Fails: ``effect extra activation in main1``. Passes: ``effect extra move in main2``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.card_edits import removal_fix
from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context, parameter_findings
from sgcheck.core.caps import ACTIVATIONS_PER_TURN
from sgcheck.core.cards import model as A
from sgcheck.core.parameters import ParamFamily
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C070",
    name="activation-limit",
    severity=Severity.ERROR,
    enforces=f"R17: at most {ACTIVATIONS_PER_TURN} card activations a turn; passive effects do not count",
    rules=("core §0", "R17"),
    scope=Scope.CARD,
)


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.ACTIVATIONS, META, "the activation limit")
    for effect in card.effects:
        action = effect.action
        if isinstance(action, A.ExtraAction) and action.action is A.ExtraKind.ACTIVATION:
            how_many = "unlimited" if action.count is None else str(action.count)
            yield META.diagnostic(
                f"'{card.name}' grants {how_many} extra activation(s); a turn allows {ACTIVATIONS_PER_TURN} at most",
                effect.span,
                hint="grant an extra action (move, attack...) instead, or make the effect passive",
                fix=removal_fix(effect, "remove the extra activation"),
                label="breaks the activation limit",
                context=card_context(card),
            )
