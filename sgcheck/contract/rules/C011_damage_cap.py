"""A card can add more than +2 damage to each hit.

Each hit deals 1 damage; core §4.5 caps the bonus at +2 per hit after all effects, and
core §8 forbids cards from bypassing it. The card's positive damage modifiers that can
apply to the same hit are summed (per attacker and defender kind), and so is its on-hit
damage to the attacked piece (``on hit: deal 2 damage to enemy Rook``), which counts toward
the +2 per hit as it does in play (R23); a worst case above +2, or a ``set cap.damage``
effect, is reported. A bonus that each use of an activated Relic or each firing of a trigger
starts again counts once per copy that can act on one hit (R17, R23): ``damage +1
permanently`` on an activated Relic gives +3 at the third use, ``on capture: damage +1 this
turn`` +3 after three captures. Several cards together are SG-C120.

Fails: ``effect damage +3 this attack``. Passes: ``effect damage +2 when target is Queen``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import cap_findings
from sgcheck.core.caps import DAMAGE_BONUS_CAP
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Severity

META = RuleMeta(
    code="SG-C011",
    name="damage-cap",
    severity=Severity.ERROR,
    enforces=f"core §4.5 cap: at most +{DAMAGE_BONUS_CAP} damage per hit after all effects",
    rules=("core §4.5", "core §8"),
    scope=Scope.CARD,
)


def check(card: Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from cap_findings(card, AttackKind.DAMAGE, DAMAGE_BONUS_CAP, META, "cap.damage", ctx)
