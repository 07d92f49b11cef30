"""When an effect's condition can hold: its piece, distance, camp, Gem and resource predicates,
and what the event of its trigger tells it.

Distance, camp, Gem and resource predicates are checked for satisfiability on their own and
otherwise assumed to hold together (an over-approximation: a warning may name a combination
that needs luck to line up). How far each piece moves and attacks is the core's geometry
(:func:`sgcheck.core.geometry.move_distances`, :func:`~sgcheck.core.geometry.attack_distances`).
"""

from __future__ import annotations

from collections.abc import Iterable

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.matchups import attackers_universe, role_kinds
from sgcheck.core.caps import LP_VICTORY
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
        _event_problem(condition.predicates, effect.trigger)
        or _distance_problem(condition.predicates, attackers, effect)
        or _camp_problem(condition.predicates)
        or _gem_problem(condition.predicates)
        or _resource_problem(condition.predicates)
    )


#: What the situation of each event tells a trigger's condition, read at that event (R23; the
#: engine's ``Situation``): an attack its attacker, target, distance and both camps; a move no
#: target; a Summon the piece and the square it lands on; a Teleport no target nor distance; the
#: start of a phase and a gain or loss of SP or LP no action at all.
_ATTACK_TELLS = frozenset({"attacker", "target", "distance", "attacker camp", "target camp"})
EVENT_TELLS: dict[A.Event, frozenset[str]] = {
    A.Event.CAPTURE: _ATTACK_TELLS,
    A.Event.CAPTURED: _ATTACK_TELLS,
    A.Event.HIT: _ATTACK_TELLS,
    A.Event.MISS: _ATTACK_TELLS,
    A.Event.ATTACKED: _ATTACK_TELLS,
    A.Event.MOVE: frozenset({"attacker", "distance", "attacker camp", "target camp"}),
    A.Event.SUMMON: frozenset({"attacker", "target camp"}),
    A.Event.TELEPORT: frozenset({"attacker", "attacker camp", "target camp"}),
    A.Event.PHASE: frozenset(),
    A.Event.GAIN_SP: frozenset(),
    A.Event.GAIN_LP: frozenset(),
    A.Event.LOSE_SP: frozenset(),
    A.Event.LOSE_LP: frozenset(),
}


def _told(p: A.Predicate) -> str | None:
    """What a predicate about the action needs its event to tell (None: it reads the position)."""
    if isinstance(p, A.PieceIs):
        return "attacker" if p.role is A.Role.ATTACKER else "target"
    if isinstance(p, A.DistanceIs):
        return "distance"
    if isinstance(p, A.InCamp):
        return "attacker camp" if p.role is A.Role.ATTACKER else "target camp"
    return None


def _event_problem(predicates: Iterable[A.Predicate], trigger: A.Trigger | None) -> str | None:
    """A trigger's condition about what its event does not tell never holds there; and the King is
    never captured (its 20 hits end the game, core §4.4), so a capture never has a King target."""
    if trigger is None:
        return None
    tells = EVENT_TELLS[trigger.event]
    for p in predicates:
        need = _told(p)
        if need is not None and need not in tells:
            event = "the start of a phase" if trigger.event is A.Event.PHASE else f"'on {trigger.event}'"
            return f"{event} tells no {need}, so the trigger never fires"
        if (
            trigger.event in (A.Event.CAPTURE, A.Event.CAPTURED)
            and isinstance(p, A.PieceIs)
            and p.role is A.Role.TARGET
            and role_kinds(A.Condition((p,), p.span), A.Role.TARGET, A.ALL_KINDS) == {Kind.KING}
        ):
            return "a King is never captured (its 20 hits end the game, core §4.4), so the trigger never fires"
    return None


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
            # LP below 1,000 while the game goes on: 1,000 LP wins it (core §7)
            most = LP_VICTORY - 1 if p.resource is A.Resource.LP else unbounded
            low, high = bounds.get((p.side, p.resource), (0, most))
            bounds[(p.side, p.resource)] = _bounds(p.cmp, p.value, low, high)
    for (side, resource), (low, high) in bounds.items():
        if low > high:
            return (
                f"no amount of {side.value} {resource.value} satisfies it "
                f"(LP and SP are never negative, and {LP_VICTORY} LP ends the game)"
            )
    return None
