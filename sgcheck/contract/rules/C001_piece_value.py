"""A card changes a piece's value.

Piece values (Pawn 1, Knight 3, Bishop 3, Rook 5, Queen 9; the King has none) drive
every cost, every accuracy threshold and every capture reward, so core §8 forbids cards
from changing them. A ``set value.<piece>`` effect is reported even when it names the
value the core already uses: the number belongs to the core, not to the card.

Fails: ``effect set value.rook to 6``. Passes: ``effect damage +1 when attacker is Rook``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import parameter_findings
from sgcheck.core.cards.model import Card
from sgcheck.core.parameters import ParamFamily
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C001",
    name="piece-value-rewrite",
    severity=Severity.ERROR,
    enforces="core §8: cards must not change piece values",
    rules=("core §3", "core §8"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from parameter_findings(card, ParamFamily.PIECE_VALUE, META, "the piece value")
