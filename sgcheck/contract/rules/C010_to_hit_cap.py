"""A card can add more than +25 to-hit to one attack.

Core §4.5 caps the total to-hit bonus on any single attack at +25 (percentage points),
and core §8 forbids cards from getting around the cap. The checker sums the card's
positive to-hit modifiers that can apply to the same attack (same attacker and
defender kinds, conditions that can hold together: ``distance = 1`` and ``distance >= 2``
never do) and reports the card if the worst case exceeds +25, or if it rewrites the cap
itself (``set cap.to_hit``). A bonus that each use of an activated Relic or each firing of a
trigger starts again counts once per copy that can act on one attack (R17, R23): a permanent
+10 per use reaches +30 at the third. Combinations of several cards are SG-C120's business:
the runtime clamps those (R20).

Fails: ``effect to_hit +30 this attack``. Passes: ``effect to_hit +25 when attacker is Knight``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import cap_findings
from sgcheck.core.caps import TO_HIT_BONUS_CAP
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C010",
    name="to-hit-cap",
    severity=Severity.ERROR,
    enforces=f"core §4.5 cap: at most +{TO_HIT_BONUS_CAP} total to-hit bonus on one attack",
    rules=("core §4.5", "core §8"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from cap_findings(card, AttackKind.TO_HIT, TO_HIT_BONUS_CAP, META, "cap.to_hit", ctx)
