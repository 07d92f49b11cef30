"""Whether a game can make a card's condition true, and how a game brings it about (core §8).

A condition (docs/cards.md, Conditions) is judged by what the core's rules let a game reach, not
by whether a probe position happens to meet it. Whether it can hold at all is the card rules' one
reading (:func:`sgcheck.contract.facts.conditions.impossible_reason`: the pieces it names, the
distances the core's geometry spans, the camps, a Gem broken and intact at once, amounts below
0, LP past 999 as 1,000 wins, core §7; and what a trigger's event tells its condition: the start of
a phase no attacker, a move no target, a capture never a King, core §4.4); to it, over a game,
this adds:

- **the reach of the position** (:data:`RESOURCE_RANGES`): a player's LP run from 0 (nothing is paid
  past what a player holds, core §2, R05) to 999 (1,000 LP wins, core §7), SP from 0 up; a Gem
  starts whole and is broken and repaired in play (core §6);
- **one entry per predicate** (:data:`KINDS`): whether it reads the position (resources, Gems:
  :func:`brought_about` sets them to the nearest level it allows for the decision, :func:`gap`
  measures how far a game's position is from it for the witness search) or the action (pieces,
  distance, camps: the decision's sweep tries every situation the core allows, and the witness's
  reach counts only the attacks the condition holds on, as the engine reads it).

Sound because each value taken is one the core allows a game to reach, and no reachable value
is left out: a condition decided unreachable never holds in any game, so its effect never acts.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.conditions import impossible_reason
from sgcheck.core import caps
from sgcheck.core.cards.model import Condition, DistanceIs, Effect, GemIs, InCamp, PieceIs, ResourceIs
from sgcheck.core.cards.parts import Cmp, Resource, Side
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.state import GameState, PlayerState

#: The least and most a player can hold of each resource while the game goes on (None: no most).
RESOURCE_RANGES: dict[Resource, tuple[int, int | None]] = {
    Resource.LP: (0, caps.LP_VICTORY - 1),
    Resource.SP: (0, None),
}

#: Some gap no position closes: the condition cannot hold.
NEVER = 10**9


def _interval(cmp: Cmp, value: int, low: int, high: int | None) -> tuple[int, int | None] | None:
    """The values within ``low``-``high`` (None: no most) that ``cmp value`` allows, as the least
    and the most of them (``!=`` narrows nothing here: its level is avoided); None: none."""
    match cmp:
        case Cmp.LT:
            high = value - 1 if high is None else min(high, value - 1)
        case Cmp.LE:
            high = value if high is None else min(high, value)
        case Cmp.GT:
            low = max(low, value + 1)
        case Cmp.GE:
            low = max(low, value)
        case Cmp.EQ:
            if value < low or (high is not None and value > high):
                return None
            low, high = value, value
        case Cmp.NE:
            pass
    if high is not None and low > high:
        return None
    return low, high


@dataclass(frozen=True, slots=True)
class ConditionKind:
    """One predicate of the card language, as the checker reasons about it over a game."""

    predicate: type[object]  # its class in the card model (the catalogue's PREDICATES)
    position: bool  # whether it reads the position (brought about) rather than the action (swept, aimed at)
    steered: str  # how a witness game brings it about (docs/contract-rules.md)


#: Every predicate of the catalogue (a test holds that none is missing).
KINDS: tuple[ConditionKind, ...] = (
    ConditionKind(PieceIs, False, "attacks by or on the pieces it names"),
    ConditionKind(DistanceIs, False, "attacks across the distances it allows"),
    ConditionKind(InCamp, False, "attacks from and onto the camps it names"),
    ConditionKind(GemIs, True, "a Gem broken by a Break or made whole by a Repair"),
    ConditionKind(ResourceIs, True, "LP paid as prices (R05) or raised by the conversion; SP spent or gathered"),
)

_POSITION = tuple(kind.predicate for kind in KINDS if kind.position)


def unreachable(effect: Effect, ruleset: Ruleset = CORE) -> str | None:
    """Why no game makes ``effect``'s condition true where it is read (None: some game does)."""
    condition = effect.condition
    if condition is None:
        return None
    why = impossible_reason(effect, CheckContext(ruleset=ruleset))
    if why is not None:
        return why
    if reach(condition) is None:
        return "no amount a game can reach satisfies it (LP run from 0 to 999, SP from 0)"
    return None


@dataclass(frozen=True, slots=True)
class Reach:
    """What a condition needs of the position: each resource within the least and most it may be
    (None: no most) and the levels it must avoid, and each Gem broken or whole."""

    resources: dict[tuple[Side, Resource], tuple[int, int | None, frozenset[int]]]
    gems: dict[Side, bool]


def reach(condition: Condition | None) -> Reach | None:
    """What ``condition`` needs of the position (None: no position a game reaches meets it)."""
    resources: dict[tuple[Side, Resource], tuple[int, int | None, frozenset[int]]] = {}
    gems: dict[Side, bool] = {}
    for p in condition.predicates if condition is not None else ():
        if isinstance(p, GemIs):
            if gems.get(p.side, p.broken) != p.broken:
                return None
            gems[p.side] = p.broken
        elif isinstance(p, ResourceIs):
            low, high = RESOURCE_RANGES[p.resource]
            low, high, avoid = resources.get((p.side, p.resource), (low, high, frozenset()))
            narrowed = _interval(p.cmp, p.value, low, high)
            if narrowed is None:
                return None
            low, high = narrowed
            if p.cmp is Cmp.NE:
                avoid = avoid | {p.value}
            if high is not None and high - low < len(avoid) and all(v in avoid for v in range(low, high + 1)):
                return None
            resources[p.side, p.resource] = (low, high, avoid)
    return Reach(resources, gems)


def position_part(condition: Condition | None) -> Condition | None:
    """The predicates of ``condition`` about the position (resources, Gems), or None."""
    if condition is None:
        return None
    kept = tuple(p for p in condition.predicates if isinstance(p, _POSITION))
    return Condition(kept, condition.span) if kept else None


def action_part(condition: Condition | None) -> Condition | None:
    """The predicates of ``condition`` about the action (pieces, distance, camps), or None."""
    if condition is None:
        return None
    kept = tuple(p for p in condition.predicates if not isinstance(p, _POSITION))
    return Condition(kept, condition.span) if kept else None


def _nearest(have: int, low: int, high: int | None, avoid: frozenset[int]) -> int:
    """The value within ``low``-``high`` (None: no most) nearest ``have``, none of ``avoid``."""
    value = max(low, have) if high is None else min(max(low, have), high)
    for delta in range(len(avoid) + 1):
        for near in (value - delta, value + delta):
            if near >= low and (high is None or near <= high) and near not in avoid:
                return near
    return value


def brought_about(state: GameState, owner: Color, condition: Condition | None) -> GameState | None:
    """``state`` with the position's part of ``condition`` true for the card's ``owner``: each
    resource it reads moved to the nearest level it allows, each Gem it names broken or whole
    (None: no game makes it true). The attack's part is the sweep's to try."""
    needs = reach(condition)
    if needs is None:
        return None
    for (side, resource), (low, high, avoid) in needs.resources.items():
        color = owner if side is Side.OWN else owner.other
        player = state.players[color]
        have = player.lp if resource is Resource.LP else player.sp
        value = _nearest(have, low, high, avoid)
        if value != have:
            lp, sp = (value, player.sp) if resource is Resource.LP else (player.lp, value)
            state = state.with_player(color, player.with_funds(lp, sp))
    for side, broken in needs.gems.items():
        color = owner if side is Side.OWN else owner.other
        player = state.players[color]
        if player.gem_broken != broken:
            changed = PlayerState(player.lp, player.sp, player.gem, broken, player.king_damage, player.turns_started)
            state = state.with_player(color, changed)
    return state


def gap(state: GameState, owner: Color, condition: Condition | None) -> int:
    """How far ``state`` is from the position's part of ``condition``: the LP and SP to move and the
    Gems to break or repair (0: it holds, whatever the attack; :data:`NEVER`: no game makes it)."""
    needs = reach(condition)
    if needs is None:
        return NEVER
    total = 0
    for (side, resource), (low, high, avoid) in needs.resources.items():
        player = state.players[owner if side is Side.OWN else owner.other]
        have = player.lp if resource is Resource.LP else player.sp
        total += abs(_nearest(have, low, high, avoid) - have)
    for side, broken in needs.gems.items():
        total += state.players[owner if side is Side.OWN else owner.other].gem_broken != broken
    return total


def lowers(condition: Condition | None, owner: Color) -> frozenset[tuple[Color, Resource]]:
    """The players' resources ``condition`` wants below some level (``own LP < 5``): a witness game
    pays its prices from them."""
    found: set[tuple[Color, Resource]] = set()
    for p in condition.predicates if condition is not None else ():
        if isinstance(p, ResourceIs) and p.cmp in (Cmp.LT, Cmp.LE):
            found.add((owner if p.side is Side.OWN else owner.other, p.resource))
    return frozenset(found)


def raises(condition: Condition | None, owner: Color) -> frozenset[tuple[Color, Resource]]:
    """The players' resources ``condition`` wants above some level (``own LP > 40``)."""
    found: set[tuple[Color, Resource]] = set()
    for p in condition.predicates if condition is not None else ():
        if isinstance(p, ResourceIs) and p.cmp in (Cmp.GT, Cmp.GE):
            found.add((owner if p.side is Side.OWN else owner.other, p.resource))
    return frozenset(found)


__all__ = [
    "KINDS",
    "NEVER",
    "RESOURCE_RANGES",
    "ConditionKind",
    "Reach",
    "action_part",
    "brought_about",
    "gap",
    "lowers",
    "position_part",
    "raises",
    "reach",
    "unreachable",
]
