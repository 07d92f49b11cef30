"""How much an effect shields a King from a hit (core §4.3, §4.5, R19, R20)."""

from __future__ import annotations

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.conditions import impossible_reason
from sgcheck.contract.facts.matchups import KING_DEFENDS, matchup_mask
from sgcheck.core.caps import DAMAGE_BONUS_CAP, DAMAGE_PER_HIT
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind, attack_part

#: The damage of a fully boosted hit: 1 plus the +2 cap (core §4.3, §4.5).
FULL_HIT = DAMAGE_PER_HIT + DAMAGE_BONUS_CAP


def king_shield(effect: A.Effect, ctx: CheckContext) -> int:
    """How much ``effect`` lowers the damage of a hit on a King (0 if it does not apply to Kings).

    A damage reduction whose attacked pieces include a King, or a damage malus on the enemy's
    attacks (on the holder's pieces) that a King can be the target of, as :func:`attack_part` says.
    """
    part = attack_part(effect)
    if part is None or impossible_reason(effect, ctx) is not None:
        return 0
    if part.kind is AttackKind.REDUCTION:
        shield = part.amount
    elif part.kind is AttackKind.DAMAGE and part.scope is A.Side.ENEMY and part.scale < 0:
        shield = FULL_HIT - FULL_HIT // 2  # a halving takes 2 of a fully boosted hit of 3, and a plain hit to 0
    elif part.kind is AttackKind.DAMAGE and part.scope is A.Side.ENEMY:
        shield = -part.amount
    else:
        return 0
    return shield if shield > 0 and matchup_mask(effect, ctx) & KING_DEFENDS else 0
