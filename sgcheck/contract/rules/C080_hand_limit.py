"""A card raises the Relic Spell hand limit.

A player holds at most 3 Relic Spell cards at any time (guide draft rules, R19); the
cap-stacking analysis (SG-C120) relies on it. A card that sets ``hand_limit`` changes
what every other card can be combined with. Only a pack's draft settings may raise
the limit, explicitly (SG-C207).

Fails: ``effect set hand_limit to 5``. Passes: a card that leaves the hand alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import parameter_findings
from sgcheck.core.caps import HAND_LIMIT
from sgcheck.core.cards.model import Card
from sgcheck.core.parameters import ParamFamily
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C080",
    name="hand-limit",
    severity=Severity.ERROR,
    enforces=f"R19: a player holds at most {HAND_LIMIT} Relic Spells at any time",
    rules=("R19",),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.HAND_LIMIT, META, "the hand limit")
