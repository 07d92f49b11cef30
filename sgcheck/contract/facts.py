"""Facts that several rules need: about effects, about one card, and about a whole pack.

Rules read these facts and never import one another. Per effect: when a condition can
hold, attack bonuses, how much an effect shields a King, why a repair denial is too
long. Per card (:class:`CardFacts`) and per pack (:class:`PackFacts`): the same facts
gathered once, and the pack analyses (trigger cycles, growth, cap stacking), each a
cached property so that it is computed at most once per pack however many rules ask
and not at all when every rule that needs it is disabled.

Attack situations are modelled as *scenarios*: an attacker kind and a defender kind
(36 at most; the King attacks only under a house rule, R09). A condition's piece-type
predicates select a set of scenarios, kept as a bit mask so that summing bonuses per
scenario is cheap; the attacked pieces a reduction or on-hit damage names narrow the
defender kinds. Distance, camp, Gem and resource predicates are checked for
satisfiability on their own and otherwise assumed to hold together (an
over-approximation: a warning may name a combination that needs luck to line up).

What an effect adds to an attack (which category, how much, on whose attacks, on which
attacked pieces) is not decided here: :func:`sgcheck.core.cards.attack_parts.attack_part`
says it, for replay and the contract alike (R20, R23).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from sgcheck.contract.analysis.growth import Link, feedback_loops
from sgcheck.contract.analysis.stacking import Stack, worst_stack
from sgcheck.contract.analysis.triggers import Cycle, trigger_cycles
from sgcheck.contract.context import CheckContext
from sgcheck.core.caps import DAMAGE_BONUS_CAP, DAMAGE_PER_HIT, REROLL_SOURCES_CAP, TO_HIT_BONUS_CAP
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind, AttackPart, attack_part, attacked_kinds
from sgcheck.core.pieces import Kind

#: Longest move or attack a piece can make (squares; knights count jumps), core §3, R06-R09.
_ATTACK_REACH = {Kind.PAWN: 1, Kind.KNIGHT: 2, Kind.BISHOP: 7, Kind.ROOK: 7, Kind.QUEEN: 7, Kind.KING: 1}
_MOVE_REACH = {Kind.PAWN: 2, Kind.KNIGHT: 2, Kind.BISHOP: 7, Kind.ROOK: 7, Kind.QUEEN: 7, Kind.KING: 1}
_BOARD_REACH = 7


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
    """The attack scenarios in which ``effect``'s piece conditions hold, and that reach the
    attacked pieces its attack part names (``reduce damage by 1 on own Rook``: Rooks only)."""
    attackers = _role_kinds(effect.condition, A.Role.ATTACKER, attackers_universe(ctx))
    defenders = _role_kinds(effect.condition, A.Role.TARGET, A.ALL_KINDS)
    part = attack_part(effect)
    if part is not None:
        defenders = defenders & attacked_kinds(part)
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
    distances = [p for p in predicates if isinstance(p, A.DistanceIs)]
    if not distances:
        return None
    action = effect.action
    attack = attack_part(effect) is not None or (
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
    """One positive attack part: ``value`` in the scenarios of ``mask``, for ``scope``'s attacks."""

    value: int
    mask: int
    scope: A.Side
    effect: A.Effect
    part: AttackPart

    @property
    def on_hit(self) -> bool:
        """On-hit damage to the attacked piece, counted as a damage bonus (R23)."""
        return self.part.on_hit


def attack_bonuses(card: A.Card, category: AttackKind, ctx: CheckContext) -> list[Bonus]:
    """The card's positive attack parts of one category, as :func:`attack_part` classifies them.

    Damage includes ``on hit: deal N damage to …`` the attacked piece (R23). An effect whose
    condition can never hold, or that reaches no attacked piece, adds nothing.
    """
    found: list[Bonus] = []
    for effect in card.effects:
        part = attack_part(effect)
        if part is None or part.kind is not category or part.amount <= 0:
            continue
        if impossible_reason(effect, ctx) is not None:
            continue
        mask = scenario_mask(effect, ctx)
        if mask:
            found.append(Bonus(part.amount, mask, part.scope, effect, part))
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


def own_bonus_profile(category: AttackKind, ctx: CheckContext) -> Callable[[A.Card], dict[int, tuple[int, A.Effect]]]:
    """Per scenario, a card's total bonus of ``category`` on its holder's attacks (for cap stacking)."""

    def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
        result: dict[int, tuple[int, A.Effect]] = {}
        for bonus in attack_bonuses(card, category, ctx):
            if bonus.scope is not A.Side.OWN:
                continue
            mask = bonus.mask
            while mask:
                low = mask & -mask
                index = low.bit_length() - 1
                mask ^= low
                total, effect = result.get(index, (0, bonus.effect))
                result[index] = (total + bonus.value, effect)
        return result

    return profile


# --- Kings and repairs ---------------------------------------------------------------------

#: The scenarios in which a King is the target.
KING_DEFENDS = 0
for _attacker in Kind:
    KING_DEFENDS |= scenario_bit(_attacker, Kind.KING)

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
    elif part.kind is AttackKind.DAMAGE and part.scope is A.Side.ENEMY:
        shield = -part.amount
    else:
        return 0
    return shield if shield > 0 and scenario_mask(effect, ctx) & KING_DEFENDS else 0


def denial_problem(card: A.Card, effect: A.Effect) -> str | None:
    """Why this deny-repair effect can cover consecutive turns on its own (None if it cannot)."""
    duration = effect.duration
    if duration is not None and duration.kind is A.DurationKind.PERMANENT:
        return "it denies repair permanently"
    if duration is not None and duration.kind is A.DurationKind.TURNS and (duration.turns or 0) > 1:
        return f"it denies repair for {duration.turns} turns in a row"
    if card.kind is A.CardKind.RELIC:
        if effect.limit is not None and effect.limit.period is A.Period.GAME:
            return None if effect.limit.times == 1 else f"it can deny repair {effect.limit.times} times a game"
        if card.mode is A.Mode.PASSIVE and effect.trigger is None and duration is None:
            return "a passive relic's denial stays in force for the rest of the game"
        return "the relic can deny repair again on the next turn"
    return None


# --- one card, one pack ----------------------------------------------------------------------


class CardFacts:
    """What the rules ask about one card, each computed once."""

    def __init__(self, card: A.Card, ctx: CheckContext) -> None:
        self.card = card
        self.context = ctx

    @cached_property
    def king_shields(self) -> tuple[tuple[A.Effect, int], ...]:
        """Each effect that lowers the damage of hits on a King, with by how much."""
        found = ((effect, king_shield(effect, self.context)) for effect in self.card.effects)
        return tuple((effect, shield) for effect, shield in found if shield > 0)

    @cached_property
    def repair_denials(self) -> tuple[tuple[A.Effect, str | None], ...]:
        """Each deny-repair effect with why it covers consecutive turns on its own (None: it does not)."""
        return tuple(
            (effect, denial_problem(self.card, effect))
            for effect in self.card.effects
            if isinstance(effect.action, A.DenyRepair)
        )


#: The per-attack caps of core §4.5, by bonus category.
ATTACK_CAPS: dict[AttackKind, int] = {
    AttackKind.TO_HIT: TO_HIT_BONUS_CAP,
    AttackKind.DAMAGE: DAMAGE_BONUS_CAP,
    AttackKind.REROLL: REROLL_SOURCES_CAP,
}


class PackFacts:
    """What the pack rules ask about one pack, built once per pack by the engine.

    Every analysis is a cached property: computed on first use, then shared by every rule
    that reads it.
    """

    def __init__(self, cards: tuple[A.Card, ...], ctx: CheckContext) -> None:
        self.cards = cards
        self.context = ctx

    @cached_property
    def card_facts(self) -> tuple[CardFacts, ...]:
        """The facts of each card, in pack order."""
        return tuple(CardFacts(card, self.context) for card in self.cards)

    @cached_property
    def trigger_cycles(self) -> tuple[Cycle, ...]:
        """Every distinct trigger cycle of the pack (infinite and bounded)."""
        return tuple(trigger_cycles(self.cards))

    @cached_property
    def growth_loops(self) -> tuple[tuple[Link, ...], ...]:
        """Feedback loops between the scaled amounts of the pack's cards."""
        return tuple(feedback_loops([card for card in self.cards if scales(card)]))

    @cached_property
    def cap_stacks(self) -> dict[AttackKind, Stack | None]:
        """Per bonus category of :data:`ATTACK_CAPS`, the worst stack past its cap (None: none)."""
        return {
            category: worst_stack(self.cards, own_bonus_profile(category, self.context), cap, self.context)
            for category, cap in ATTACK_CAPS.items()
        }

    @cached_property
    def king_immunity_stack(self) -> Stack | None:
        """The fewest cards whose reductions on a King reach a fully boosted hit (None: no such set)."""
        shields = {id(facts.card): facts.king_shields for facts in self.card_facts}
        ctx = self.context

        def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
            result: dict[int, tuple[int, A.Effect]] = {}
            for effect, shield in shields[id(card)]:
                mask = scenario_mask(effect, ctx)
                for attacker in Kind:
                    index = scenario_bit(attacker, Kind.KING).bit_length() - 1
                    if mask >> index & 1:
                        total, first = result.get(index, (0, effect))
                        result[index] = (total + shield, first)
            return result

        return worst_stack(self.cards, profile, FULL_HIT, ctx, strictly_above=False)

    @cached_property
    def repair_deniers(self) -> tuple[tuple[A.Card, A.Effect], ...]:
        """Cards with a one-turn repair denial (legal alone), each with its first such effect."""
        found: list[tuple[A.Card, A.Effect]] = []
        for facts in self.card_facts:
            first = next((effect for effect, problem in facts.repair_denials if problem is None), None)
            if first is not None:
                found.append((facts.card, first))
        return tuple(found)


def scales(card: A.Card) -> bool:
    """Does any effect gain or take an amount scaled by something (``equal to own SP``)?"""
    for effect in card.effects:
        action = effect.action
        if isinstance(action, (A.ResourceChange, A.Steal)) and action.quantity.kind is A.QuantityKind.SCALED:
            return True
    return False


@dataclass(frozen=True, slots=True)
class PackView:
    """What pack-level rules look at: every card of a pack that could be read, and the pack's
    facts (:class:`PackFacts`, built once per pack by the engine), whose
    cached analyses every pack rule reads instead of computing its own."""

    name: str
    facts: PackFacts

    @property
    def cards(self) -> tuple[A.Card, ...]:
        return self.facts.cards
