"""What one card effect adds to an attack: the one classification replay and the contract share.

Part of the effect semantics (:mod:`sgcheck.core.cards.semantics`), kept on its own because it
depends on the card model alone: the cards in play (:mod:`sgcheck.core.cards.table`) pair each
lasting effect with its part when it enters play, and the contract checker builds its attack
facts from the same parts (R20, R23).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple, assert_never

from sgcheck.core.cards.model import (
    ALL_KINDS,
    CapturePiece,
    ConvertPiece,
    ConvertResource,
    CostModifier,
    DamageModifier,
    DamageReduction,
    DealDamage,
    DenyRepair,
    Effect,
    Event,
    ExtraAction,
    ExtraPhase,
    ExtraTurn,
    PieceIs,
    Reroll,
    ResourceChange,
    Role,
    SetParameter,
    Side,
    SkipPhase,
    Steal,
    SwapPhases,
    Target,
    ToHitModifier,
)
from sgcheck.core.pieces import Kind


class AttackKind(StrEnum):
    """What a part of an attack changes; to-hit, damage and rerolls are capped (core §4.5, R20)."""

    TO_HIT = "to-hit"
    DAMAGE = "damage"  # per hit; on-hit damage to the attacked piece included (R23)
    REDUCTION = "reduction"
    REROLL = "reroll"


class AttackPart(NamedTuple):
    """What one effect adds to the attacks it applies to, whatever the situation.

    ``amount`` is the to-hit or damage delta, the reduction, the on-hit damage or the number
    of reroll sources. ``scope`` says whose attacks: ``own`` the holder's own attacks,
    ``enemy`` the attacks made on the holder's pieces. ``target`` (reductions and on-hit
    damage) names the attacked pieces it applies to, seen from the holder.
    """

    kind: AttackKind
    amount: int
    scope: Side
    target: Target | None = None
    advantage: bool = False  # a reroll source that grants advantage
    on_hit: bool = False  # ``on hit: deal N damage to …`` the attacked piece: part of the hit (R23)
    scale: int = 0  # ``double damage`` 1, ``halve damage`` -1: the hit is multiplied, ``amount`` is 0

    @property
    def label(self) -> str:
        """``+2``, ``on hit +2`` for on-hit damage, ``doubles`` or ``halves``."""
        if self.scale:
            return "doubles" if self.scale > 0 else "halves"
        return f"on hit {self.amount:+d}" if self.on_hit else f"{self.amount:+d}"


def attack_part(effect: Effect) -> AttackPart | None:
    """What ``effect`` adds to an attack (None: nothing), the one answer replay and the contract share.

    A modifier behind a trigger other than ``on hit: deal …`` is classified by what it does
    once fired (it then acts as a lasting effect of its own, R23). On-hit damage to the
    attacked piece is damage on the holder's own attacks and counts toward +2 per hit (R23);
    on-hit damage to the holder's own pieces never reaches the attacked piece, so it is none.
    """
    action = effect.action
    match action:
        case DealDamage():
            trigger = effect.trigger
            if trigger is None or trigger.event is not Event.HIT or action.target.side is not Side.ENEMY:
                return None
            return AttackPart(AttackKind.DAMAGE, action.amount, Side.OWN, action.target, on_hit=True)
        case ToHitModifier():
            return AttackPart(AttackKind.TO_HIT, action.delta, action.scope)
        case DamageModifier():
            return AttackPart(AttackKind.DAMAGE, action.delta, action.scope, scale=action.scale)
        case DamageReduction():
            # a reduction on enemy pieces lowers the holder's own attacks on them, and the other way round
            scope = Side.OWN if action.target.side is Side.ENEMY else Side.ENEMY
            return AttackPart(AttackKind.REDUCTION, action.amount, scope, action.target)
        case Reroll():
            return AttackPart(AttackKind.REROLL, action.count, action.scope, advantage="advantage" in action.word)
        case (
            CostModifier()
            | ResourceChange()
            | Steal()
            | ExtraAction()
            | ExtraPhase()
            | ExtraTurn()
            | ConvertResource()
            | SkipPhase()
            | SwapPhases()
            | SetParameter()
            | DenyRepair()
            | CapturePiece()
            | ConvertPiece()
        ):
            return None
        case _:
            assert_never(action)


def part_of_hit(effect: Effect) -> bool:
    """Whether ``effect`` is on-hit damage confined to hits on a piece its target names
    (``on hit: deal 1 damage to enemy King when target is King``): it then adds to that hit and
    never reaches another piece, so it damages a King only as part of an attack on the King,
    within the +2 per hit (R23, core §4.5). Without such a condition (``on hit: deal 1 damage to
    enemy King``) the card reads as damage to that piece whatever piece was hit."""
    part = attack_part(effect)
    if part is None or not part.on_hit or part.target is None or effect.condition is None:
        return False
    for predicate in effect.condition.predicates:
        if isinstance(predicate, PieceIs) and predicate.role is Role.TARGET:
            hit = ALL_KINDS - predicate.kinds if predicate.negated else predicate.kinds
            if hit <= part.target.kinds:
                return True
    return False


def attacked_kinds(part: AttackPart) -> frozenset[Kind]:
    """The kinds of attacked piece ``part`` applies to: its target's, when the target is on the attacked side."""
    if part.target is None:
        return ALL_KINDS
    attacked = Side.ENEMY if part.scope is Side.OWN else Side.OWN  # whose pieces those attacks are made on
    return part.target.kinds if part.target.side is attacked else frozenset()
