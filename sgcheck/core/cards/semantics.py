"""What card effects mean: pure functions of the card model and a situation (R20, R23).

One meaning for replay and the contract checker. Replay asks these at the concrete situation
of each action (an attack, a cost, a trigger) and applies the caps of core §4.5; the
contract checker asks the same questions of the model without a game. What one effect adds
to an attack is :mod:`sgcheck.core.cards.attack_parts`, which this module sums. Nothing here
knows a card by name: every card reaches the rules as the effects it is made of.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple, assert_never

from sgcheck.core import caps
from sgcheck.core.cards import catalog
from sgcheck.core.cards.attack_parts import AttackKind, AttackPart, attack_part, part_of_hit
from sgcheck.core.cards.model import (
    CapturePiece,
    Card,
    Cmp,
    Condition,
    ConvertPiece,
    ConvertResource,
    CostKind,
    CostModifier,
    Countable,
    DamageModifier,
    DamageReduction,
    DealDamage,
    DenyRepair,
    DistanceIs,
    Effect,
    ExtraAction,
    ExtraKind,
    ExtraPhase,
    ExtraTurn,
    GemIs,
    InCamp,
    PieceIs,
    Quantity,
    QuantityKind,
    Reroll,
    Resource,
    ResourceChange,
    ResourceIs,
    Role,
    SetParameter,
    Side,
    SkipPhase,
    Steal,
    SwapPhases,
    Target,
    ToHitModifier,
)
from sgcheck.core.parameters import PARAMETERS
from sgcheck.core.pieces import KING, Color, Kind, Piece
from sgcheck.core.squares import Square, in_camp

if TYPE_CHECKING:
    from sgcheck.core.cards.table import Lasting
    from sgcheck.core.state import GameState

#: Effects that act for a while (modifiers), from the catalogue; the rest resolve once, when played or fired.
LASTING_ACTIONS = catalog.LASTING_ACTIONS


class Situation(NamedTuple):
    """An action as card conditions see it: the acting piece, the piece acted on, the distance."""

    actor: Color  # whose action it is
    piece: Kind | None = None  # the attacker, or the piece moved, summoned or teleported
    target: Kind | None = None  # the attacked piece
    distance: int | None = None
    frm: Square | None = None
    to: Square | None = None


class Share(NamedTuple):
    """One card's part in a total, for the explanation (``Eagle Eye +20``)."""

    card: str
    amount: int

    def __str__(self) -> str:
        return f"{self.card} {self.amount:+d}"


class AttackCards(NamedTuple):
    """Every card effect on one attack, before the caps."""

    to_hit: tuple[Share, ...] = ()
    damage: tuple[Share, ...] = ()  # damage bonuses per hit, on-hit damage to the attacked piece included
    reduction: tuple[Share, ...] = ()
    rerolls: tuple[tuple[str, bool], ...] = ()  # the cards granting a second roll, and whether it is advantage

    @property
    def raw_to_hit(self) -> int:
        return sum(s.amount for s in self.to_hit)

    @property
    def to_hit_bonus(self) -> int:
        """Summed, then capped at +25 (core §4.5, R20); a net malus is not capped."""
        return min(self.raw_to_hit, caps.TO_HIT_BONUS_CAP)

    @property
    def raw_damage(self) -> int:
        return sum(s.amount for s in self.damage)

    @property
    def damage_bonus(self) -> int:
        return min(self.raw_damage, caps.DAMAGE_BONUS_CAP)

    @property
    def reduced(self) -> int:
        return sum(s.amount for s in self.reduction)

    @property
    def capped(self) -> bool:
        return self.raw_to_hit > caps.TO_HIT_BONUS_CAP or self.raw_damage > caps.DAMAGE_BONUS_CAP

    def hit_damage(self) -> int:
        """Damage of one hit: 1, plus the capped bonus, less reductions, never below 0 (R23)."""
        return max(0, caps.DAMAGE_PER_HIT + self.damage_bonus - self.reduced)

    def to_hit_text(self) -> str:
        """``Knight's Banner +10, Eagle Eye +20, capped at +25``."""
        shares = ", ".join(map(str, self.to_hit))
        if self.raw_to_hit > caps.TO_HIT_BONUS_CAP:
            return f"{shares}, capped at +{caps.TO_HIT_BONUS_CAP}"
        return shares

    def damage_text(self) -> str:
        parts = [f"{caps.DAMAGE_PER_HIT}"]
        if self.damage:
            capped = self.raw_damage > caps.DAMAGE_BONUS_CAP
            bonus = ", ".join(map(str, self.damage)) + (f", capped at +{caps.DAMAGE_BONUS_CAP}" if capped else "")
            parts.append(f"+ {self.damage_bonus} ({bonus})")
        if self.reduction:
            parts.append(f"− {self.reduced} ({', '.join(f'{s.card} −{s.amount}' for s in self.reduction)})")
        total = self.hit_damage()
        raw = caps.DAMAGE_PER_HIT + self.damage_bonus - self.reduced
        return " ".join(parts) + (f" = {raw}, never below 0" if total != raw else "")


# --- conditions -------------------------------------------------------------------------------------


def _side(owner: Color, side: Side) -> Color:
    return owner if side is Side.OWN else owner.other


def _compare(left: int, cmp: Cmp, right: int) -> bool:
    match cmp:
        case Cmp.LT:
            return left < right
        case Cmp.LE:
            return left <= right
        case Cmp.GT:
            return left > right
        case Cmp.GE:
            return left >= right
        case Cmp.EQ:
            return left == right
    return left != right


def holds(condition: Condition | None, owner: Color, state: GameState, at: Situation | None) -> bool:
    """Whether every predicate of ``condition`` holds for the card's ``owner`` in this situation.

    A predicate about an attack (a piece, a distance, a camp) does not hold outside one.
    """
    if condition is None:
        return True
    for p in condition.predicates:
        match p:
            case PieceIs():
                kind = None if at is None else (at.piece if p.role is Role.ATTACKER else at.target)
                if kind is None or (kind in p.kinds) == p.negated:
                    return False
            case DistanceIs():
                if at is None or at.distance is None or not _compare(at.distance, p.cmp, p.value):
                    return False
            case InCamp():
                sq = None if at is None else (at.frm if p.role is Role.ATTACKER else at.to)
                if sq is None or in_camp(sq, _side(owner, p.side)) == p.negated:
                    return False
            case GemIs():
                if state.players[_side(owner, p.side)].gem_broken != p.broken:
                    return False
            case ResourceIs():
                player = state.players[_side(owner, p.side)]
                have = player.sp if p.resource is Resource.SP else player.lp
                if not _compare(have, p.cmp, p.value):
                    return False
    return True


def targets(target: Target, owner: Color, victim: Piece) -> bool:
    """Whether ``victim`` is one of the pieces ``target`` names, seen from the card's owner."""
    return victim.color is _side(owner, target.side) and victim.kind in target.kinds


# --- amounts ----------------------------------------------------------------------------------------


def amount(quantity: Quantity, owner: Color, state: GameState) -> int:
    """How much a ``gain``/``lose``/``steal`` moves now (an unlimited one is refused before this)."""
    match quantity.kind:
        case QuantityKind.FIXED:
            return quantity.value
        case QuantityKind.PER:
            return quantity.value * _count(quantity.per, owner, state)
        case QuantityKind.SCALED:
            side = _side(owner, quantity.scale_side or Side.OWN)
            player = state.players[side]
            have = player.sp if quantity.scale_resource is Resource.SP else player.lp
            return have * quantity.multiply // max(1, quantity.divide)
    return 0


def _count(what: Countable | None, owner: Color, state: GameState) -> int:
    if what in (Countable.OWN_GEM, Countable.ENEMY_GEM):
        side = owner if what is Countable.OWN_GEM else owner.other
        base = side.other * 6  # a Gem holds the pieces of the other colour
        return sum(state.players[side].gem[base : base + 6])
    if what in (Countable.OWN_BOARD, Countable.ENEMY_BOARD):
        side = owner if what is Countable.OWN_BOARD else owner.other
        return sum(1 for p in state.board if p is not None and p.color is side and p.kind is not KING)
    return 0


# --- what the contract forbids in every game ---------------------------------------------------------


def forbidden(effect: Effect) -> tuple[str, str] | None:
    """The contract code and reason when ``effect`` may never act (core §8, R19); else None.

    These are refused when a card is played, also under --allow-violations: the turn
    structure, the core's numbers and the King's immunity to direct effects are what every
    game relies on.
    """
    action = effect.action
    match action:
        case ExtraPhase() | SkipPhase() | SwapPhases():
            return "SG-C050", "it changes the turn structure (a phase added, skipped or swapped)"
        case ExtraTurn():
            return "SG-C050", "it changes the turn structure (a whole turn added)"
        case CostModifier():
            if action.cost is CostKind.CONVERT:
                return "SG-C020", "it changes what the conversion costs, which is its rate (core §2, R16)"
            return None
        case ConvertResource():
            if action.is_conversion and not at_core_rate(action):
                return "SG-C020", (
                    f"it converts at {action.give} SP for {action.get} LP; the core's rate is "
                    f"{caps.CONVERSION_SP_PER_LP} SP for 1 LP (R16)"
                )
            return None
        case ExtraAction():
            if action.action is ExtraKind.ACTIVATION:
                return "SG-C070", f"it grants extra activations beyond the {caps.ACTIVATIONS_PER_TURN} of R17"
            return None
        case SetParameter():
            known = PARAMETERS.get(action.parameter)
            return known.code if known else "SG-C004", f"it rewrites a number of the core ({action.parameter})"
        case DealDamage() | CapturePiece() | ConvertPiece():
            # damage added to a hit on the King is the attack's (R23)
            if action.target.includes_king and not part_of_hit(effect):
                return "SG-C060", "it acts on a King directly (R19: only attacks may damage a King)"
            return None
        case ResourceChange() | Steal():
            if action.quantity.kind is QuantityKind.UNLIMITED:
                return "SG-C032", "it moves an unlimited amount"
            return None
        case ToHitModifier() | DamageModifier() | DamageReduction() | Reroll() | DenyRepair():
            return None  # a damage reduction on a King is allowed; the contract checker judges the rest
        case _:
            assert_never(action)


def at_core_rate(action: ConvertResource) -> bool:
    """Whether a card's conversion of SP into LP is at the core's rate (2 SP for 1 LP, R16)."""
    return action.give == caps.CONVERSION_SP_PER_LP * action.get


def forbidden_in(card: Card) -> tuple[str, str] | None:
    for effect in card.effects:
        found = forbidden(effect)
        if found is not None:
            return found
    return None


# --- what an effect adds to an attack ----------------------------------------------------------------


# --- modifiers at a situation ------------------------------------------------------------------------


def attack_cards(lasting: Iterable[Lasting], state: GameState, at: Situation, victim: Piece) -> AttackCards:
    """Every lasting effect on this attack, with each card's share (R20, R23), as :func:`attack_part` says."""
    return parts_on_attack(((item, attack_part(item.effect)) for item in lasting), state, at, victim)


_TO_HIT, _DAMAGE, _REDUCTION, _REROLL = AttackKind.TO_HIT, AttackKind.DAMAGE, AttackKind.REDUCTION, AttackKind.REROLL
_OWN = Side.OWN
NO_ATTACK_CARDS = AttackCards()


def parts_on_attack(
    entries: Iterable[tuple[Lasting, AttackPart | None]], state: GameState, at: Situation, victim: Piece
) -> AttackCards:
    """:func:`attack_cards` for lasting effects paired with their :func:`attack_part` already
    (replay keeps the pairs with the cards in play, see ``LastingIndex.attacking``)."""
    to_hit: list[Share] = []
    damage: list[Share] = []
    reduction: list[Share] = []
    rerolls: list[tuple[str, bool]] = []
    scaled: list[tuple[str, int]] = []
    actor = at.actor
    for item, part in entries:
        if part is None:
            continue
        effect, owner = item.effect, item.owner
        if effect.trigger is not None and not part.on_hit:
            continue  # a waiting trigger: what it starts joins the lasting effects when it fires
        if (owner is actor) != (part.scope is _OWN):
            continue  # ``own`` parts change the owner's attacks, ``enemy`` ones the attacks on the owner
        if part.target is not None and not targets(part.target, owner, victim):
            continue
        if effect.condition is not None and not holds(effect.condition, owner, state, at):
            continue
        kind = part.kind
        if kind is _TO_HIT:
            to_hit.append(Share(item.card, part.amount))
        elif kind is _DAMAGE:
            if part.scale:
                scaled.append((item.card, part.scale))
            else:
                damage.append(Share(item.card, part.amount))  # on-hit damage counts toward +2 per hit (R23)
        elif kind is _REDUCTION:
            reduction.append(Share(item.card, part.amount))
        else:
            rerolls.append((item.card, part.advantage))
    if scaled:
        _scale_hit(scaled, damage, reduction)
    if not (to_hit or damage or reduction or rerolls):
        return NO_ATTACK_CARDS
    return AttackCards(tuple(to_hit), tuple(damage), tuple(reduction), tuple(rerolls))


def _scale_hit(scaled: list[tuple[str, int]], damage: list[Share], reduction: list[Share]) -> None:
    """``double damage`` adds the whole hit so far as a bonus, which the +2 cap then bounds (R20);
    ``halve damage`` takes half of the hit after the capped bonuses, rounded in the defender's
    favour, as a reduction (R23: reductions apply after the bonuses)."""
    raw = sum(s.amount for s in damage)
    for card, scale in scaled:
        if scale > 0:
            doubled = caps.DAMAGE_PER_HIT + raw
            damage.append(Share(f"{card} doubling", doubled))
            raw += doubled
    hit = caps.DAMAGE_PER_HIT + min(raw, caps.DAMAGE_BONUS_CAP)
    for card, scale in scaled:
        if scale < 0:
            halved = hit - hit // 2
            reduction.append(Share(f"{card} halving", halved))
            hit -= halved


#: The actions each cost modifier changes; ``distance`` changes every action that has one.
_COSTED: dict[CostKind, frozenset[CostKind]] = {
    CostKind.DISTANCE: frozenset({CostKind.MOVE, CostKind.ATTACK, CostKind.SUMMON, CostKind.TELEPORT}),
}


def costed(cost: CostKind) -> frozenset[CostKind]:
    """The kinds of action whose cost a ``cost <cost>`` modifier changes (each by the whole delta)."""
    return _COSTED.get(cost, frozenset({cost}))


def changes(action: CostModifier) -> frozenset[CostKind]:
    """The kinds of action ``action`` prices: :func:`costed`, narrowed by ``only``
    (``cost summon distance -1`` changes Summons alone)."""
    kinds = costed(action.cost)
    return kinds & {action.only} if action.only is not None else kinds


def cost_shares(
    lasting: Iterable[Lasting], state: GameState, kind: CostKind, at: Situation, base: int = 0
) -> tuple[Share, ...]:
    """The card modifiers on what the actor's ``kind`` of action costs: the actor's own
    modifiers, and the opponent's that price the other side's actions (``opponent cost``).

    ``double``/``halve`` act on ``base`` (the core's cost) changed by the other modifiers, in
    the order of R23; a halved cost is rounded up, so halving never makes an action free.
    """
    shares: list[Share] = []
    scaled: list[tuple[str, int]] = []
    for item in lasting:
        action = item.effect.action
        if not isinstance(action, CostModifier) or item.effect.trigger is not None:
            continue
        if (item.owner is at.actor) != (action.who is _OWN):
            continue
        if kind in changes(action) and holds(item.effect.condition, item.owner, state, at):
            if action.scale:
                scaled.append((item.card, action.scale))
            else:
                shares.append(Share(item.card, action.delta))
    if scaled:
        running = max(0, base + sum(s.amount for s in shares))
        for card, scale in scaled:
            change = running if scale > 0 else -(running // 2)
            shares.append(Share(f"{card} {'doubling' if scale > 0 else 'halving'}", change))
            running += change
    return tuple(shares)


def starts(effect: Effect, now: int) -> int:
    """The first ply an effect acts in: ``next turn`` waits for this turn to end (its catalogue window)."""
    duration = effect.duration
    if duration is None:
        return now
    return now + catalog.window(duration.kind, duration.turns)[0]


def until(effect: Effect, now: int, *, relic: bool, theirs: bool = False) -> tuple[int | None, bool]:
    """The last ply an effect acts in (None: as long as its card) and whether only for one attack.

    A Relic's effects last while it is in play; a Spell's for its duration, this turn by default.
    Each duration covers the plies :data:`~sgcheck.core.cards.catalog.DURATIONS` gives it, named
    from the holder's side (ruling CR4; ``theirs``: it starts in the opponent's turn): ``N turns``
    this turn and the following plies up to the end of the opponent's N-th turn that begins after
    it starts; ``until your next turn`` until the holder's next turn begins; ``next turn`` from the
    end of this turn to the end of the holder's next (it starts when this turn ends, see
    :func:`starts`).
    """
    duration = effect.duration
    if duration is None:
        return (None, False) if relic else (now, False)
    _, last, attack_only = catalog.window(duration.kind, duration.turns, theirs=theirs)
    return (None if last is None else now + last), attack_only
