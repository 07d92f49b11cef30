"""When an effect's condition can hold: its piece, distance, camp, Gem and resource predicates.

Distance, camp, Gem and resource predicates are checked for satisfiability on their own and
otherwise assumed to hold together (an over-approximation: a warning may name a combination
that needs luck to line up). How far each piece moves and attacks is the core's geometry
(:func:`sgcheck.core.geometry.move_distances`, :func:`~sgcheck.core.geometry.attack_distances`).
"""

from __future__ import annotations

from collections.abc import Iterable

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.matchups import attackers_universe, role_kinds
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import attack_part
from sgcheck.core.cards.semantics import changes
from sgcheck.core.geometry import attack_distances, longest_distance, move_distances
from sgcheck.core.pieces import Kind


def _prices_or_follows_moves(effect: A.Effect) -> bool:
    """Whether ``effect`` acts on moves: a trigger on a move, or a cost modifier that prices moves."""
    if effect.trigger is not None:
        return effect.trigger.event is A.Event.MOVE
    action = effect.action
    return isinstance(action, A.CostModifier) and A.CostKind.MOVE in changes(action)


def impossible_reason(effect: A.Effect, ctx: CheckContext) -> str | None:
    """Why ``effect``'s condition can never hold, or None if it can."""
    condition = effect.condition
    if condition is None:
        return None
    # on a move, ``attacker`` is the piece moved, and the King moves (docs/cards.md)
    universe = A.ALL_KINDS if _prices_or_follows_moves(effect) else attackers_universe(ctx)
    attackers = role_kinds(condition, A.Role.ATTACKER, universe)
    defenders = role_kinds(condition, A.Role.TARGET, A.ALL_KINDS)
    if not attackers:
        asked = role_kinds(condition, A.Role.ATTACKER, A.ALL_KINDS)
        if asked == frozenset({Kind.KING}):
            return "the King cannot attack under the core rules (R09)"
        return "no piece can be the attacker it describes"
    if not defenders:
        return "no piece can be the target it describes"
    return (
        _distance_problem(condition.predicates, attackers, effect)
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


def _distance_problem(predicates: Iterable[A.Predicate], attackers: frozenset[Kind], effect: A.Effect) -> str | None:
    asked = [p for p in predicates if isinstance(p, A.DistanceIs)]
    if not asked:
        return None
    action = effect.action
    attack = attack_part(effect) is not None or (
        isinstance(action, A.CostModifier) and action.cost is A.CostKind.ATTACK
    )
    # how far the piece goes: the core's geometry (core §3, R06-R09; a Knight counts jumps)
    distances = attack_distances if attack else move_distances
    longest = longest_distance()
    reach = max(distances(k)[-1] for k in attackers) if attackers else longest
    low, high = 1, longest
    for p in asked:
        low, high = _bounds(p.cmp, p.value, low, high)
    if low > high:
        return f"no distance satisfies it (distances run from 1 to {longest} squares)"
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
