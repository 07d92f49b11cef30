"""Facts that several rules need: about effects, about one card, and about a whole pack.

Rules read these facts and never import one another. Per effect: when a condition can
hold, attack bonuses and how many copies of one can act at once, how much an effect shields
a King, why a repair denial is too long, when an effect fires in the turn and which phases
its extra actions are granted into, whether a gain is a second Soul Gem income. Per card
(:class:`CardFacts`) and per pack (:class:`PackFacts`): the same facts gathered once, and the
pack analyses (trigger cycles, growth, cap stacking, conversions), each a cached property so
that it is computed at most once per pack however many rules ask and not at all when every
rule that needs it is disabled.

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
from dataclasses import dataclass, replace
from functools import cache, cached_property
from itertools import combinations

from sgcheck.contract.analysis.conversion import (
    CardExchanges,
    Conversion,
    alone,
    card_shares,
    combinations_of,
    may_convert,
    shares_windows,
)
from sgcheck.contract.analysis.explore import Exploration, Found, explore
from sgcheck.contract.analysis.growth import Link, feedback_loops
from sgcheck.contract.analysis.profit import Profit, profits, repeated_gains
from sgcheck.contract.analysis.stacking import Stack, worst_stack
from sgcheck.contract.analysis.triggers import Cycle, trigger_cycles
from sgcheck.contract.context import CheckContext
from sgcheck.core.caps import DAMAGE_BONUS_CAP, DAMAGE_PER_HIT, REROLL_SOURCES_CAP, TO_HIT_BONUS_CAP
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind, AttackPart, attack_part, attacked_kinds
from sgcheck.core.cards.semantics import changes, forbidden, starts, until
from sgcheck.core.parameters import PARAMETERS
from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.play.cards import card_phases

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

    @property
    def doubles(self) -> bool:
        """``double damage``: worth the hit so far, which :func:`bonus_total` works out (``value``
        counts its copies, 1 each)."""
        return self.part.scale > 0


def bonus_total(bonuses: Iterable[Bonus]) -> int:
    """What ``bonuses`` add to one attack together: the added ones summed, then each doubling
    adds the hit so far (1 and the bonuses before it), as replay does (R20, R23)."""
    listed = list(bonuses)
    total = sum(b.value for b in listed if not b.doubles)
    for bonus in listed:
        if bonus.doubles:
            for _ in range(bonus.value):
                total += DAMAGE_PER_HIT + total
    return total


def attack_bonuses(card: A.Card, category: AttackKind, ctx: CheckContext) -> list[Bonus]:
    """The card's positive attack parts of one category, as :func:`attack_part` classifies them.

    Damage includes ``on hit: deal N damage to …`` the attacked piece (R23). An effect whose
    condition can never hold, or that reaches no attacked piece, adds nothing.
    """
    found: list[Bonus] = []
    for effect in card.effects:
        part = attack_part(effect)
        if part is None or part.kind is not category or (part.amount <= 0 and part.scale <= 0):
            continue
        if impossible_reason(effect, ctx) is not None:
            continue
        mask = scenario_mask(effect, ctx)
        if mask:
            found.append(Bonus(part.amount if part.scale <= 0 else 1, mask, part.scope, effect, part))
    return found


def worst_scenario(bonuses: list[Bonus], ctx: CheckContext | None = None) -> tuple[int, int, list[Bonus]]:
    """(total, scenario index, contributing bonuses) of the scenario where the bonuses add up most.

    With ``ctx``, the bonuses summed are a largest set whose conditions can hold on one attack
    together (``distance = 1`` and ``distance >= 2`` never do): the attack's pieces are the
    scenario's, and the other predicates are checked together as :func:`impossible_reason` checks
    one condition. A card has few bonuses, so the sets are tried outright, largest total first.
    """
    if len(bonuses) == 1:
        only = bonuses[0]
        return bonus_total(bonuses), (only.mask & -only.mask).bit_length() - 1, [only]
    best_total, best_index, best_used = -1, 0, list[Bonus]()
    tried: dict[tuple[int, ...], tuple[int, list[Bonus]]] = {}
    for index in range(36):
        bit = 1 << index
        applying = [b for b in bonuses if b.mask & bit]
        key = tuple(id(b) for b in applying)
        if key not in tried:
            tried[key] = _together(applying, ctx)
        total, used = tried[key]
        if total > best_total:
            best_total, best_index, best_used = total, index, used
    return best_total, best_index, best_used


_MOST_TRIED = 12  # bonuses of one card beyond which every condition is taken to hold together


def _together(bonuses: list[Bonus], ctx: CheckContext | None) -> tuple[int, list[Bonus]]:
    """The largest total of ``bonuses`` whose conditions can all hold on one attack."""
    whole = bonus_total(bonuses)
    if ctx is None or len(bonuses) > _MOST_TRIED or _possible_together(bonuses, ctx):
        return whole, bonuses
    best: tuple[int, list[Bonus]] = (0, [])
    for size in range(len(bonuses) - 1, 0, -1):
        for chosen in combinations(bonuses, size):
            total = bonus_total(chosen)
            if total > best[0] and _possible_together(list(chosen), ctx):
                best = (total, list(chosen))
    return best


def _possible_together(bonuses: list[Bonus], ctx: CheckContext) -> bool:
    conditions = [b.effect.condition for b in bonuses if b.effect.condition is not None]
    if len(conditions) < 2:
        return True
    joined = A.Condition(tuple(p for c in conditions for p in c.predicates), conditions[0].span)
    return impossible_reason(replace(bonuses[0].effect, condition=joined), ctx) is None


def own_bonus_profile(category: AttackKind, ctx: CheckContext) -> Callable[[A.Card], dict[int, tuple[int, A.Effect]]]:
    """Per scenario, a card's total bonus of ``category`` on its holder's attacks (for cap stacking).

    A doubling counts as +2 here (:data:`DOUBLING_IN_STACK`): with any other card's +1 it passes
    the +2 cap, as (1 + 1) x 2 = 4 per hit does, and alone it stays within it, as 1 x 2 does.
    """

    def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
        result: dict[int, tuple[int, A.Effect]] = {}
        for bonus in attack_bonuses(card, category, ctx):
            if bonus.scope is not A.Side.OWN:
                continue
            worth = DOUBLING_IN_STACK if bonus.doubles else bonus.value
            mask = bonus.mask
            while mask:
                low = mask & -mask
                index = low.bit_length() - 1
                mask ^= low
                total, effect = result.get(index, (0, bonus.effect))
                result[index] = (total + worth, effect)
        return result

    return profile


#: What a doubling adds in the pack's cap stacking: passing the +2 cap exactly when the other
#: cards bring +1 or more (``(1 + b) x 2 - 1 > 2`` exactly when ``b >= 1``).
DOUBLING_IN_STACK = DAMAGE_BONUS_CAP


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
    elif part.kind is AttackKind.DAMAGE and part.scope is A.Side.ENEMY and part.scale < 0:
        shield = FULL_HIT - FULL_HIT // 2  # a halving takes 2 of a fully boosted hit of 3, and a plain hit to 0
    elif part.kind is AttackKind.DAMAGE and part.scope is A.Side.ENEMY:
        shield = -part.amount
    else:
        return 0
    return shield if shield > 0 and scenario_mask(effect, ctx) & KING_DEFENDS else 0


def reaches_enemy_upkeep(card: A.Card, effect: A.Effect) -> bool:
    """Whether a deny-repair effect is still in force at an Upkeep of the opponent, the only time a
    Repair is attempted (core §6, R15): a denial that ends with the holder's own turn (``this
    turn``, ``this attack``, or no duration on a Spell, a use or a trigger, R23) refuses nothing."""
    duration = effect.duration
    if duration is None:
        return card.kind is A.CardKind.RELIC and card.mode is A.Mode.PASSIVE and effect.trigger is None
    return duration.kind not in (A.DurationKind.THIS_TURN, A.DurationKind.THIS_ATTACK)


def denial_problem(card: A.Card, effect: A.Effect) -> str | None:
    """Why this deny-repair effect can cover consecutive turns on its own (None if it cannot)."""
    duration = effect.duration
    if not reaches_enemy_upkeep(card, effect):
        return None  # it ends before any Repair could be refused
    if duration is not None and duration.kind is A.DurationKind.PERMANENT:
        return "it denies repair permanently"
    if duration is not None and duration.kind is A.DurationKind.TURNS and (duration.turns or 0) > 1:
        return f"it denies repair for {duration.turns} turns in a row"
    if card.kind is A.CardKind.RELIC:
        if effect.limit is not None and effect.limit.period is A.Period.GAME:
            return None if effect.limit.times == 1 else f"it can deny repair {effect.limit.times} times a game"
        if card.mode is A.Mode.PASSIVE and effect.trigger is None and duration is None:
            return "a passive relic's denial stays in force for the rest of the game"
        if card.mode is A.Mode.PASSIVE and effect.trigger is None:
            return None  # a passive relic's timed effect starts once, when it enters play (R22)
        return "the relic can deny repair again on the next turn"
    return None


# --- the turn: when an effect fires, which phases it grants into (core §2, R03, R22) -----------

#: Where each action may be taken (core §2, §5, R03); an extra action that names no phase is
#: granted there. Extra activations are SG-C070's (R17).
ACTION_PHASES: dict[A.ExtraKind, tuple[Phase, ...]] = {
    A.ExtraKind.MOVE: (Phase.MAIN1, Phase.MAIN2),
    A.ExtraKind.ATTACK: (Phase.BATTLE,),
    A.ExtraKind.SUMMON: (Phase.UPKEEP,),
    A.ExtraKind.BREAK: (Phase.UPKEEP,),
    A.ExtraKind.REPAIR: (Phase.UPKEEP,),
    A.ExtraKind.TELEPORT: (Phase.END,),
}

#: The phases of the holder's own turn each event can happen in, and why: attacks (and so hits,
#: misses and captures, a card's direct capture firing nothing) are made in Battle, moves in the
#: Main phases, Summons in Upkeep, Teleports at End (core §2, §5, R03, R23). Gains and losses
#: happen in any phase; ``attacked`` and ``captured`` in the opponent's turn.
EVENT_PHASES: dict[A.Event, tuple[tuple[Phase, ...], str]] = {
    A.Event.HIT: ((Phase.BATTLE,), "attacks are made in Battle"),
    A.Event.MISS: ((Phase.BATTLE,), "attacks are made in Battle"),
    A.Event.CAPTURE: ((Phase.BATTLE,), "captures happen in Battle"),
    A.Event.MOVE: ((Phase.MAIN1, Phase.MAIN2), "moves are made in the Main phases"),
    A.Event.SUMMON: ((Phase.UPKEEP,), "Summons are made in Upkeep"),
    A.Event.TELEPORT: ((Phase.END,), "Teleports are made at End"),
}


def phase_words(phases: Iterable[Phase]) -> str:
    """``Main 1 or Main 2``; ``any phase`` for all five."""
    found = sorted(set(phases))
    return "any phase" if len(found) == len(Phase) else " or ".join(p.title for p in found)


@dataclass(frozen=True, slots=True)
class Timing:
    """The phases of the holder's turn an effect fires (or is played, or used) in, and how, in words."""

    phases: tuple[Phase, ...]
    words: str  # "is played in Main 2", "fires at the start of Battle", "fires on hit (attacks are made in Battle)"


def effect_timing(card: A.Card, effect: A.Effect) -> Timing | None:
    """When ``effect`` acts in its holder's turn (None: at no phase of it in particular).

    An effect without a trigger acts when its card is played, or, for an activated Relic, each
    time it is used, in the phases the card names (R22); a passive Relic's acts while it is in
    play. A trigger fires at the start of the phases it names, or when its event happens.
    """
    trigger = effect.trigger
    if trigger is None:
        if card.kind is A.CardKind.RELIC and card.mode is A.Mode.PASSIVE:
            return None
        phases = card_phases(card)
        verb = "is used" if card.kind is A.CardKind.RELIC else "is played"
        where = "at End" if phases == (Phase.END,) else f"in {phase_words(phases)}"
        return Timing(phases, f"{verb} {where}")
    if trigger.event is A.Event.PHASE and trigger.phase is not None:
        return Timing(trigger.phase.phases, f"fires at the start of {phase_words(trigger.phase.phases)}")
    found = EVENT_PHASES.get(trigger.event)
    if found is None:
        return None
    phases, why = found
    return Timing(phases, f"fires {trigger.label} ({why})")


def lasts_past_turn(card: A.Card, effect: A.Effect) -> bool:
    """Whether what ``effect`` starts still acts in its holder's next turn (replay's durations)."""
    relic = card.kind is A.CardKind.RELIC and card.mode is A.Mode.PASSIVE and effect.trigger is None
    last, _ = until(effect, 0, relic=relic)
    return last is None or last >= 2


@dataclass(frozen=True, slots=True)
class Grant:
    """An extra action: when its effect fires, and the phases it is granted into."""

    effect: A.Effect
    action: A.ExtraAction
    timing: Timing
    into: tuple[Phase, ...]

    @property
    def goes_back(self) -> bool:
        """Whenever it fires, every phase it grants into is already over: taking the action
        would take the turn back to a phase that has ended (R03)."""
        return max(self.into) < min(self.timing.phases)

    @property
    def ahead(self) -> tuple[Phase, ...]:
        """The phases of its action still to come when it fires first (where to grant it instead)."""
        start = min(self.timing.phases)
        return tuple(p for p in ACTION_PHASES[self.action.action] if p >= start)


def extra_grants(card: A.Card) -> tuple[Grant, ...]:
    """Each extra action of ``card`` that lasts only the turn it is granted in, with its timing.

    Those granted outside their action's window, and those lasting into a later turn (a
    passive Relic's, ``for 2 turns``, ``permanently``), are left out: the first change the
    structure anyway, the second can be taken in a later turn without going back.
    """
    found: list[Grant] = []
    for effect in card.effects:
        action = effect.action
        if not isinstance(action, A.ExtraAction) or action.action not in ACTION_PHASES:
            continue
        window = ACTION_PHASES[action.action]
        into = tuple(p for p in (action.phase.phases if action.phase is not None else window) if p in window)
        timing = effect_timing(card, effect)
        if not into or timing is None or lasts_past_turn(card, effect):
            continue
        found.append(Grant(effect, action, timing, into))
    return tuple(found)


# --- a lasting bonus that adds up with itself (core §4.5, R17, R23) -------------------------------

#: What one firing of each event is called, one and several.
_EVENT_NOUNS: dict[A.Event, tuple[str, str]] = {
    A.Event.CAPTURE: ("capture", "captures"),
    A.Event.HIT: ("hit", "hits"),
    A.Event.MISS: ("miss", "misses"),
    A.Event.MOVE: ("move", "moves"),
    A.Event.SUMMON: ("Summon", "Summons"),
    A.Event.TELEPORT: ("Teleport", "Teleports"),
    A.Event.GAIN_SP: ("SP gain", "SP gains"),
    A.Event.GAIN_LP: ("LP gain", "LP gains"),
    A.Event.LOSE_SP: ("SP loss", "SP losses"),
    A.Event.LOSE_LP: ("LP loss", "LP losses"),
}
_ATTACK_EVENTS = frozenset({A.Event.HIT, A.Event.MISS, A.Event.CAPTURE})


@dataclass(frozen=True, slots=True)
class Repeats:
    """How many copies of one lasting attack bonus of a card can act on one attack at once."""

    copies: int | None  # None: no bound
    each: tuple[str, str]  # what adds a copy, one and several: ("activation", "activations")
    lasting: str  # how long each copy lasts: "permanently", "for the turn"


def _duration_words(duration: A.Duration | None) -> str:
    if duration is None:
        return "for the turn"
    if duration.kind is A.DurationKind.PERMANENT:
        return "permanently"
    if duration.kind is A.DurationKind.THIS_TURN:
        return "for the turn"
    if duration.kind is A.DurationKind.THIS_ATTACK:
        return "for the next attack"
    if duration.kind is A.DurationKind.TURNS:
        return f"for {duration.turns} turn{'s' if duration.turns != 1 else ''}"
    return duration.kind.value


def _at_most(value: int | None, bound: int | None) -> int | None:
    if bound is None:
        return value
    return bound if value is None else min(value, bound)


def repeats(card: A.Card, effect: A.Effect, ctx: CheckContext) -> Repeats | None:
    """How many copies of ``effect``'s bonus can act on one of the holder's attacks (None: one).

    Each use of an activated Relic, and each firing of a trigger, starts a new copy of what the
    effect does, for its duration, beside the copies still acting (R17, R23): two uses a turn of
    a permanent +1 give +2, the next turn's +4. Copies started this turn act on an attack if they
    can start before it (a use or a phase up to Battle, or any event but a Teleport); an ``on
    hit:`` (``miss``, ``capture``) copy that lasts ``this attack`` ends with the next attack. A
    ``limit`` per turn bounds the copies of a turn, one per game all of them. The bonuses on the
    enemy's attacks and on-hit damage (part of each hit, R23) are not repeated here.
    """
    part = attack_part(effect)
    if part is None or part.on_hit or part.scope is not A.Side.OWN:
        return None
    trigger = effect.trigger
    limits: tuple[A.Effect, ...] = (effect,)
    each: tuple[str, str]
    per_turn: int | None
    early: int | None  # copies of this turn that can start before an attack
    if trigger is None:
        if card.kind is not A.CardKind.RELIC or card.mode is not A.Mode.ACTIVATED:
            return None
        limits = card.effects  # a limit on any effect of an activated Relic counts its uses (R22)
        per_turn, each = ctx.activations, ("activation", "activations")
        early = per_turn if any(p <= Phase.BATTLE for p in card_phases(card)) else 0
    elif trigger.event is A.Event.PHASE and trigger.phase is not None:
        phases = trigger.phase.phases
        per_turn = len(phases)
        early = sum(1 for p in phases if p <= Phase.BATTLE)
        each = ("Main phase", "Main phases") if len(phases) > 1 else (phases[0].title, f"{phases[0].title} phases")
    elif trigger.event in _EVENT_NOUNS:
        per_turn, each = None, _EVENT_NOUNS[trigger.event]
        early = 0 if trigger.event is A.Event.TELEPORT else None
        if trigger.event in (A.Event.SUMMON, A.Event.TELEPORT) and not _grants_more(card, trigger.event):
            # one Summon an Upkeep, one Teleport an End (R12, R13), unless the card grants more
            per_turn = 1
            early = 0 if trigger.event is A.Event.TELEPORT else 1
        duration = effect.duration
        if trigger.event in _ATTACK_EVENTS and duration is not None and duration.kind is A.DurationKind.THIS_ATTACK:
            return None  # each copy ends with the next attack, before the next event can start one
    else:
        return None  # ``attacked``, ``captured``: the opponent's turn
    game: int | None = None
    for limited in limits:
        if limited.limit is None:
            continue
        if limited.limit.period is A.Period.TURN:
            per_turn, early = _at_most(per_turn, limited.limit.times), _at_most(early, limited.limit.times)
        else:
            game = _at_most(game, limited.limit.times)
    copies = _copies(effect, per_turn, early)
    copies = _at_most(copies, game)
    if copies is not None and copies <= 1:
        return None
    return Repeats(copies, each, _duration_words(effect.duration))


def _grants_more(card: A.Card, event: A.Event) -> bool:
    """Whether ``card`` itself grants extra actions of the kind ``event`` follows (a Summon, a Teleport)."""
    kind = A.ExtraKind.SUMMON if event is A.Event.SUMMON else A.ExtraKind.TELEPORT
    return any(isinstance(e.action, A.ExtraAction) and e.action.action is kind for e in card.effects)


def _copies(effect: A.Effect, per_turn: int | None, early: int | None) -> int | None:
    """Copies acting at once: those of earlier turns still acting, and this turn's early ones."""
    first, last = starts(effect, 0), until(effect, 0, relic=False)[0]
    now = early if first == 0 else 0
    if last is None:
        return None if per_turn is None or per_turn > 0 else now
    earlier = max(0, last // 2 - max(1, (first + 1) // 2) + 1)  # own turns before this one still acting
    if earlier == 0:
        return now
    return None if per_turn is None or now is None else per_turn * earlier + now


# --- income under another name (core §6, §8) -------------------------------------------------------

#: Predicates about an attack or a move; at the start of a phase none of them holds.
_ACTION_PREDICATES = (A.PieceIs, A.DistanceIs, A.InCamp)


@dataclass(frozen=True, slots=True)
class Income:
    """A gain that recurs every turn, counted on the holder's own Gem: Soul Gem income again."""

    effect: A.Effect
    amount: str  # "2 SP per piece in own gem"
    when: str  # "at the start of every Upkeep", "at each use (Upkeep)"
    while_broken: bool  # it pays while the holder's Gem is broken, when core §6 pays nothing


def second_income(card: A.Card, effect: A.Effect, ctx: CheckContext) -> Income | None:
    """Whether ``effect`` pays its holder again and again by the pieces in their own Gem.

    The core pays income at each Upkeep, 2 x the value of the pieces in the holder's Gem
    (core §6, R14). A Relic that gains per piece in the holder's own Gem at the start of a
    phase of every turn, or at each use of an activated Relic, pays it a second time under
    another name, whatever the phase and however the Gem is counted. Left out: a Spell or a
    passive Relic's one-off gain (once a game), a gain on an event (a reward), a fixed amount,
    a ``limit`` per game, and a condition that cannot hold then (one about an attack).
    """
    action = effect.action
    gains = isinstance(action, A.ResourceChange) and action.gain and action.who is A.Side.OWN
    if not (gains or isinstance(action, A.Steal)):
        return None
    assert isinstance(action, (A.ResourceChange, A.Steal))
    quantity = action.quantity
    if quantity.kind is not A.QuantityKind.PER or quantity.per is not A.Countable.OWN_GEM:
        return None
    if card.kind is not A.CardKind.RELIC:
        return None
    trigger = effect.trigger
    limits: tuple[A.Effect, ...] = (effect,)
    if trigger is None:
        if card.mode is not A.Mode.ACTIVATED:
            return None
        limits = card.effects
        when = f"at each use ({phase_words(card_phases(card))})"
    elif trigger.event is A.Event.PHASE and trigger.phase is not None:
        when = f"at the start of every {phase_words(trigger.phase.phases)}"
    else:
        return None
    if any(e.limit is not None and e.limit.period is A.Period.GAME for e in limits):
        return None
    condition = effect.condition
    predicates = condition.predicates if condition is not None else ()
    if impossible_reason(effect, ctx) is not None or any(isinstance(p, _ACTION_PREDICATES) for p in predicates):
        return None
    broken = any(isinstance(p, A.GemIs) and p.side is A.Side.OWN and p.broken for p in predicates)
    words = f"{quantity.value} {quantity.resource.value} per {quantity.per.value}"
    return Income(effect, words, when, broken)


#: What the core's Soul Gem income is (core §6), as the parameter table says it.
INCOME = PARAMETERS["income.rate"]


# --- conversions (core §2, §8, R16) ------------------------------------------------------------------


def exchange_acts(ctx: CheckContext) -> Callable[[A.Effect], bool]:
    """The effects whose resources count in an exchange: those whose condition can hold, and not a
    conversion at another rate than the core's, which is SG-C020's (it is refused in play)."""

    def acts(effect: A.Effect) -> bool:
        if impossible_reason(effect, ctx) is not None:
            return False
        refused = forbidden(effect)
        return refused is None or refused[0] != "SG-C020"

    return acts


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

    @cached_property
    def grants(self) -> tuple[Grant, ...]:
        """Each extra action lasting the turn it is granted in, with when it is granted (R03)."""
        return extra_grants(self.card)

    @cached_property
    def incomes(self) -> tuple[Income, ...]:
        """Each gain that pays Soul Gem income again under another name (core §6)."""
        found = (second_income(self.card, effect, self.context) for effect in self.card.effects)
        return tuple(income for income in found if income is not None)

    @cached_property
    def exchanges(self) -> CardExchanges:
        """Every window the card moves its holder's SP and LP in (core §2, R16)."""
        return card_shares(self.card, exchange_acts(self.context), self.context.activations)

    @cached_property
    def profits(self) -> tuple[Profit, ...]:
        """The card's triggers on a freely repeated action that return more than it costs."""
        return tuple(profits(self.card, (), self.context, with_others=0))

    @cached_property
    def conversions(self) -> tuple[Conversion, ...]:
        """What the card converts from SP into LP on its own past the core's rate or cap (R16)."""
        if not may_convert(self.card):
            return ()  # no LP gained anywhere: its moves are not worked out
        return tuple(alone(self.exchanges, self.context.activations))


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
        # the codes the card and pack rules reported on each card, and which of those codes are
        # errors, handed over by the engine before the rules of play run (they leave out what
        # is already said)
        self.known_findings: dict[str, frozenset[str]] = {}
        self.known_error_codes: frozenset[str] = frozenset()
        # the breaks of play the rules reported, for their proofs (``check --explain-break``)
        self.reported_play: list[Found] = []

    @cached_property
    def explored(self) -> Exploration:
        """What playing the pack found (:mod:`sgcheck.contract.analysis.explore`), for the rules of play."""
        ctx = self.context
        return explore(self.cards, ctx.ruleset, ctx.hand_limit)

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
    def conversions(self) -> tuple[Conversion, ...]:
        """Conversions past the core's rate or cap that need several cards (R16, R19); the
        cards that convert on their own are left out of them (the per-card part reports those)."""
        ctx = self.context
        taking = [f for f in self.card_facts if shares_windows(f.card) or may_convert(f.card)]
        by_card = {id(f.card): list(f.conversions) for f in taking}
        return tuple(combinations_of([f.exchanges for f in taking], by_card, ctx.activations, ctx.hand_limit))

    @cached_property
    def profits(self) -> tuple[Profit, ...]:
        """Triggers that return more than their action costs only with the discounts of other cards
        in the same hand (R19); those that do alone are the per-card part's."""
        found: list[Profit] = []
        for facts in self.card_facts:
            if facts.profits or not any(True for _ in repeated_gains(facts.card)):
                continue
            others = [card for card in self.cards if card is not facts.card]
            found.extend(profits(facts.card, others, self.context, with_others=self.context.hand_limit - 1))
        return tuple(found)

    @cached_property
    def repair_deniers(self) -> tuple[tuple[A.Card, A.Effect], ...]:
        """Cards with a one-turn repair denial (legal alone), each with its first such effect."""
        found: list[tuple[A.Card, A.Effect]] = []
        for facts in self.card_facts:
            first = next(
                (
                    effect
                    for effect, problem in facts.repair_denials
                    if problem is None and reaches_enemy_upkeep(facts.card, effect)
                ),
                None,
            )
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
