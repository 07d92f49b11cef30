"""Attack matchups: an attacker kind against a defender kind, as bits of a mask.

There are 36 matchups at most (the King attacks only under a house rule, R09). A condition's
piece-type predicates select a set of matchups, kept as a bit mask so that summing bonuses per
matchup is cheap; the attacked pieces a reduction or on-hit damage names narrow the defender
kinds (:func:`sgcheck.core.cards.attack_parts.attacked_kinds`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from sgcheck.contract.context import CheckContext
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import attack_part, attacked_kinds
from sgcheck.core.pieces import Kind


def matchup_bit(attacker: Kind, defender: Kind) -> int:
    return 1 << (attacker * 6 + defender)


def describe_mask(mask: int, ctx: CheckContext) -> str:
    """Attacks covered by ``mask`` in words: "any attack", "a Knight attacking any piece"..."""
    attackers = sorted({Kind(i // 6) for i in range(36) if mask >> i & 1})
    defenders = sorted({Kind(i % 6) for i in range(36) if mask >> i & 1})
    if not attackers:
        return "no attack"
    every_attacker = set(attackers) >= attackers_universe(ctx)
    every_defender = len(defenders) == len(Kind)
    if every_attacker and every_defender:
        return "any attack"
    who = "any piece" if every_attacker else " or ".join(k.title for k in attackers)
    whom = "any piece" if every_defender else " or ".join(k.title for k in defenders)
    return f"{who} attacking {whom}"


def common_mask(masks: Iterable[int]) -> int:
    result = (1 << 36) - 1
    for mask in masks:
        result &= mask
    return result


@cache
def _mask(attackers: frozenset[Kind], defenders: frozenset[Kind]) -> int:
    mask = 0
    for a in attackers:
        for d in defenders:
            mask |= matchup_bit(a, d)
    return mask


def role_kinds(condition: A.Condition | None, role: A.Role, universe: frozenset[Kind]) -> frozenset[Kind]:
    kinds = universe
    if condition is not None:
        for p in condition.predicates:
            if isinstance(p, A.PieceIs) and p.role is role:
                kinds = kinds - p.kinds if p.negated else kinds & p.kinds
    return kinds


def attackers_universe(ctx: CheckContext) -> frozenset[Kind]:
    return A.ALL_KINDS if ctx.king_can_attack else A.ALL_KINDS - {Kind.KING}


def matchup_mask(effect: A.Effect, ctx: CheckContext) -> int:
    """The attack matchups in which ``effect``'s piece conditions hold, and that reach the
    attacked pieces its attack part names (``reduce damage by 1 on own Rook``: Rooks only)."""
    attackers = role_kinds(effect.condition, A.Role.ATTACKER, attackers_universe(ctx))
    defenders = role_kinds(effect.condition, A.Role.TARGET, A.ALL_KINDS)
    part = attack_part(effect)
    if part is not None:
        defenders = defenders & attacked_kinds(part)
    return _mask(attackers, defenders)


#: The matchups in which a King is the target.
KING_DEFENDS = 0
for _attacker in Kind:
    KING_DEFENDS |= matchup_bit(_attacker, Kind.KING)
