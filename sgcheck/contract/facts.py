"""Facts about effects that several rules need: when a condition can hold, and attack bonuses.

Attack situations are modelled as *scenarios*: an attacker kind and a defender kind
(36 at most; the King attacks only under a house rule, R09). A condition's piece-type
predicates select a set of scenarios, kept as a bit mask so that summing bonuses per
scenario is cheap. Distance, camp, Gem and resource predicates are checked for
satisfiability on their own and otherwise assumed to hold together (an
over-approximation: a warning may name a combination that needs luck to line up).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from sgcheck.contract.context import CheckContext
from sgcheck.core.pieces import Kind
from sgcheck.lang import card_ast as A

#: Longest move or attack a piece can make (squares; knights count jumps), core §3, R06-R09.
_ATTACK_REACH = {Kind.PAWN: 1, Kind.KNIGHT: 2, Kind.BISHOP: 7, Kind.ROOK: 7, Kind.QUEEN: 7, Kind.KING: 1}
_MOVE_REACH = {Kind.PAWN: 2, Kind.KNIGHT: 2, Kind.BISHOP: 7, Kind.ROOK: 7, Kind.QUEEN: 7, Kind.KING: 1}
_BOARD_REACH = 7

ATTACK_ACTIONS = (A.ToHitModifier, A.DamageModifier, A.Reroll, A.DamageReduction)


def scenario_bit(attacker: Kind, defender: Kind) -> int:
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
            mask |= scenario_bit(a, d)
    return mask


def _role_kinds(condition: A.Condition | None, role: A.Role, universe: frozenset[Kind]) -> frozenset[Kind]:
    kinds = universe
    if condition is not None:
        for p in condition.predicates:
            if isinstance(p, A.PieceIs) and p.role is role:
                kinds = kinds - p.kinds if p.negated else kinds & p.kinds
    return kinds


def attackers_universe(ctx: CheckContext) -> frozenset[Kind]:
    return A.ALL_KINDS if ctx.king_can_attack else A.ALL_KINDS - {Kind.KING}


def scenario_mask(effect: A.Effect, ctx: CheckContext) -> int:
    """The attack scenarios in which ``effect``'s piece conditions hold."""
    attackers = _role_kinds(effect.condition, A.Role.ATTACKER, attackers_universe(ctx))
    defenders = _role_kinds(effect.condition, A.Role.TARGET, A.ALL_KINDS)
    return _mask(attackers, defenders)


def impossible_reason(effect: A.Effect, ctx: CheckContext) -> str | None:
    """Why ``effect``'s condition can never hold, or None if it can."""
    condition = effect.condition
    if condition is None:
        return None
    universe = attackers_universe(ctx)
    attackers = _role_kinds(condition, A.Role.ATTACKER, universe)
    defenders = _role_kinds(condition, A.Role.TARGET, A.ALL_KINDS)
    if not attackers:
        asked = _role_kinds(condition, A.Role.ATTACKER, A.ALL_KINDS)
        if asked == frozenset({Kind.KING}):
            return "the King cannot attack under the core rules (R09)"
        return "no piece can be the attacker it describes"
    if not defenders:
        return "no piece can be the target it describes"
    return (
        _distance_problem(condition.predicates, attackers, effect.action)
        or _camp_problem(condition.predicates)
        or _gem_problem(condition.predicates)
        or _resource_problem(condition.predicates)
    )


def _bounds(cmp: A.Cmp, value: int, low: int, high: int) -> tuple[int, int]:
    if cmp is A.Cmp.LT:
        return low, min(high, value - 1)
    if cmp is A.Cmp.LE:
        return low, min(high, value)
    if cmp is A.Cmp.GT:
        return max(low, value + 1), high
    if cmp is A.Cmp.GE:
        return max(low, value), high
    if cmp is A.Cmp.EQ:
        return max(low, value), min(high, value)
    return (low, high) if not (low == high == value) else (1, 0)


def _distance_problem(predicates: Iterable[A.Predicate], attackers: frozenset[Kind], action: A.Action) -> str | None:
    distances = [p for p in predicates if isinstance(p, A.DistanceIs)]
    if not distances:
        return None
    attack = isinstance(action, ATTACK_ACTIONS) or (
        isinstance(action, A.CostModifier) and action.cost is A.CostKind.ATTACK
    )
    reach_table = _ATTACK_REACH if attack else _MOVE_REACH
    reach = max(reach_table[k] for k in attackers) if attackers else _BOARD_REACH
    low, high = 1, _BOARD_REACH
    for p in distances:
        low, high = _bounds(p.cmp, p.value, low, high)
    if low > high:
        return "no distance satisfies it (distances run from 1 to 7 squares)"
    if low > reach:
        who = " or ".join(sorted(k.title for k in attackers))
        verb = "attack" if attack else "move"
        return f"a {who} can {verb} at most {reach} square(s), never {low} or more"
    return None


def _camp_problem(predicates: Iterable[A.Predicate]) -> str | None:
    required: dict[A.Role, set[A.Side]] = {}
    excluded: dict[A.Role, set[A.Side]] = {}
    for p in predicates:
        if isinstance(p, A.InCamp):
            (excluded if p.negated else required).setdefault(p.role, set()).add(p.side)
    for role, sides in required.items():
        if len(sides) > 1:
            return f"the {role.value} cannot stand in both camps (ranks 1-4 and 5-8 do not overlap)"
        if sides & excluded.get(role, set()):
            return f"the {role.value} is required to be in and not in the same camp"
    return None


def _gem_problem(predicates: Iterable[A.Predicate]) -> str | None:
    states: dict[A.Side, set[bool]] = {}
    for p in predicates:
        if isinstance(p, A.GemIs):
            states.setdefault(p.side, set()).add(p.broken)
    for side, found in states.items():
        if len(found) > 1:
            return f"the {side.value} Gem cannot be broken and intact at once"
    return None


def _resource_problem(predicates: Iterable[A.Predicate]) -> str | None:
    bounds: dict[tuple[A.Side, A.Resource], tuple[int, int]] = {}
    unbounded = 10**12
    for p in predicates:
        if isinstance(p, A.ResourceIs):
            low, high = bounds.get((p.side, p.resource), (0, unbounded))
            bounds[(p.side, p.resource)] = _bounds(p.cmp, p.value, low, high)
    for (side, resource), (low, high) in bounds.items():
        if low > high:
            return f"no amount of {side.value} {resource.value} satisfies it (LP and SP are never negative)"
    return None


# --- attack bonuses -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bonus:
    """One positive attack modifier: ``value`` in the scenarios of ``mask``, for ``scope``'s attacks."""

    value: int
    mask: int
    scope: A.Side
    effect: A.Effect


def attack_bonuses(card: A.Card, category: type, ctx: CheckContext) -> list[Bonus]:
    """The card's positive bonuses of one category (ToHitModifier, DamageModifier or Reroll)."""
    found: list[Bonus] = []
    for effect in card.effects:
        action = effect.action
        if type(action) is not category:
            continue
        if isinstance(action, A.Reroll):
            value, scope = action.count, action.scope
        elif isinstance(action, (A.ToHitModifier, A.DamageModifier)):
            value, scope = action.delta, action.scope
        else:  # pragma: no cover - only the three categories are asked for
            continue
        if value <= 0 or impossible_reason(effect, ctx) is not None:
            continue
        found.append(Bonus(value, scenario_mask(effect, ctx), scope, effect))
    return found


def worst_scenario(bonuses: list[Bonus]) -> tuple[int, int, list[Bonus]]:
    """(total, scenario index, contributing bonuses) of the scenario where the bonuses add up most."""
    if len(bonuses) == 1:
        only = bonuses[0]
        return only.value, (only.mask & -only.mask).bit_length() - 1, [only]
    best_total, best_index = -1, 0
    for index in range(36):
        bit = 1 << index
        total = sum(b.value for b in bonuses if b.mask & bit)
        if total > best_total:
            best_total, best_index = total, index
    bit = 1 << best_index
    return best_total, best_index, [b for b in bonuses if b.mask & bit]
