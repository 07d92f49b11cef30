"""Actions that pay: a trigger on an action a turn repeats freely that returns more than it costs.

The core does not limit how many moves a Main phase holds or attacks a Battle holds (core §2,
R03); each is paid for (core §3, §4.1). A card that gives back more LP or SP on such an action
than the action costs makes every repetition a profit, so a turn can make SP or LP without
bound, which core §8 forbids. This is the net resource flow of one action: the trigger's gain,
less the action's cheapest price (after the discounts of the cards that can be in play with it,
a hand holds 3, R19) and the trigger's own price. A cost never goes below 0 in play (R23).

Only what a turn repeats without limit is judged: moves (``on move:``) and attacks (``on hit:``,
``on miss:``). Captures run out with the opponent's pieces, a Summon or Teleport comes once a
turn, and an effect with a ``limit`` is bounded. A trigger fires on each event, whatever the
card: an activated Relic's triggers are set up when it is played and wait like a passive
Relic's (docs/cards.md), so its 2 uses a turn (R17) bound its uses, never its triggers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sgcheck.contract.analysis.probes import ATTACK_REACH, MOVE_REACH
from sgcheck.contract.context import CheckContext
from sgcheck.core import caps
from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import changes
from sgcheck.core.pieces import PIECE_VALUES, Kind

#: The actions a turn repeats without limit, by the event a trigger waits for, and their cost.
REPEATED: dict[A.Event, tuple[A.CostKind, str]] = {
    A.Event.MOVE: (A.CostKind.MOVE, "move"),
    A.Event.HIT: (A.CostKind.ATTACK, "attack that hits"),
    A.Event.MISS: (A.CostKind.ATTACK, "attack that misses"),
}
#: Most pieces a Gem or the board holds for one side (a ``per`` count at its most).
MOST_COUNTED = 15


def cheapest_price(
    cost: A.CostKind, kinds: frozenset[Kind], ctx: CheckContext, distances: tuple[int, int] | None = None
) -> tuple[int, str]:
    """The smallest price of ``cost`` for the allowed piece kinds, and which piece pays it.

    ``distances`` (low, high) narrows moves and attacks to the distances a condition allows: a
    piece is priced at the shortest distance it can reach within them (a King steps 1 square
    only, so ``distance >= 6`` leaves the sliding pieces). A distance condition never holds for
    Summons, Teleports, Break and Repair, which have no distance (``(0, "nothing")``).
    """
    if distances is not None and cost not in (A.CostKind.MOVE, A.CostKind.ATTACK):
        return 0, "nothing"
    if cost is A.CostKind.BREAK:
        return caps.BREAK_COST, "a Break"
    if cost is A.CostKind.REPAIR:
        return caps.REPAIR_COST, "a Repair"
    low, high = distances if distances is not None else (1, 7)
    prices: list[tuple[int, str]] = []
    for kind in kinds:
        value = ctx.ruleset.value_of(kind)
        if cost is A.CostKind.MOVE:
            reach = [d for d in MOVE_REACH[kind] if low <= d <= high]
            if reach and kind is Kind.KING:
                price = value + 1 if value is not None else caps.KING_MOVE_COST
                prices.append((price, f"a {kind.title} moving one square"))
            elif reach:
                d = reach[0]
                price = caps.KNIGHT_JUMP_COST * d if kind is Kind.KNIGHT else PIECE_VALUES[kind] + d
                unit = "jump" if kind is Kind.KNIGHT else "square"
                count = "one" if d == 1 else str(d)
                prices.append((price, f"a {kind.title} moving {count} {unit}{'s' if d > 1 else ''}"))
        elif value is not None and cost is A.CostKind.ATTACK:
            reach = [d for d in ATTACK_REACH.get(kind, (1,)) if low <= d <= high]
            if reach:
                d = reach[0]
                prices.append((caps.ATTACK_VALUE_MULTIPLIER * value + d, f"a {kind.title} attacking at distance {d}"))
        elif value is not None and kind is not Kind.KING and cost is not A.CostKind.CONVERT:  # summon / teleport
            prices.append((value + caps.SUMMON_BASE_COST, f"a {kind.title} placed on its starting square"))
    return min(prices) if prices else (0, "nothing")


def distance_bounds(effect: A.Effect) -> tuple[int, int] | None:
    """The distances ``effect``'s condition allows, as (low, high); None without a distance condition."""
    if effect.condition is None:
        return None
    low, high, found = 0, 99, False
    for p in effect.condition.predicates:
        if not isinstance(p, A.DistanceIs):
            continue
        found = True
        match p.cmp:
            case A.Cmp.LT:
                high = min(high, p.value - 1)
            case A.Cmp.LE:
                high = min(high, p.value)
            case A.Cmp.GT:
                low = max(low, p.value + 1)
            case A.Cmp.GE:
                low = max(low, p.value)
            case A.Cmp.EQ:
                low, high = max(low, p.value), min(high, p.value)
    return (low, high) if found else None


def acting_kinds(effect: A.Effect, universe: frozenset[Kind]) -> frozenset[Kind]:
    """The pieces that may be the acting piece (``attacker``) under ``effect``'s condition."""
    kinds = universe
    if effect.condition is not None:
        for p in effect.condition.predicates:
            if isinstance(p, A.PieceIs) and p.role is A.Role.ATTACKER:
                kinds = kinds - p.kinds if p.negated else kinds & p.kinds
    return kinds


@dataclass(frozen=True, slots=True)
class Discount:
    """A cost modifier that lowers the holder's price of an action, from one card."""

    card: A.Card
    effect: A.Effect
    amount: int  # positive: what it takes off

    def describe(self) -> str:
        return f"'{self.card.name}' -{self.amount}"


@dataclass(frozen=True, slots=True)
class Profit:
    """One trigger that returns more than the repeated action costs: the net flow of one action."""

    card: A.Card
    effect: A.Effect
    action: str
    price: int
    piece: str
    discounts: tuple[Discount, ...]
    pay: int
    gain: int
    resource: A.Resource
    worst_case: bool  # the gain counts pieces, taken at its most

    @property
    def paid(self) -> int:
        """What one action costs with the discounts (never below 0, R23) and the trigger's price."""
        return max(0, self.price - sum(d.amount for d in self.discounts)) + self.pay

    @property
    def net(self) -> int:
        return self.gain - self.paid

    @property
    def cards(self) -> tuple[A.Card, ...]:
        return tuple(dict.fromkeys((self.card, *(d.card for d in self.discounts))))

    def chain(self) -> str:
        """``a King moving one square costs 1, 'Swift Boots' -1 = 0; on move: gain 1 SP = +1 SP``."""
        cost = f"{self.piece} costs {self.price}"
        if self.discounts:
            after = max(0, self.price - sum(d.amount for d in self.discounts))
            cost += ", " + ", ".join(d.describe() for d in self.discounts) + f" = {after}"
        pay = f", pay {self.pay}" if self.pay else ""
        label = self.effect.trigger.label if self.effect.trigger is not None else "when played"
        most = f" (at most: {MOST_COUNTED} pieces counted)" if self.worst_case else ""
        unit = self.resource.value
        return f"{cost}{pay}; {label}: gain {self.gain} {unit}{most} = {self.net:+d} {unit}"


def _gain(action: A.Action) -> tuple[int, A.Resource, bool] | None:
    """What one firing gains the holder, at its most, when it is bounded (scaled and unlimited
    amounts are SG-C031 and SG-C032): a ``gain`` of the holder's, or a ``steal``, which gives the
    holder what it takes (R23)."""
    holders = isinstance(action, A.ResourceChange) and action.gain and action.who is A.Side.OWN
    if not (holders or isinstance(action, A.Steal)):
        return None
    assert isinstance(action, A.ResourceChange | A.Steal)
    quantity = action.quantity
    if quantity.kind is A.QuantityKind.FIXED:
        return quantity.value, quantity.resource, False
    if quantity.kind is A.QuantityKind.PER:
        return quantity.value * MOST_COUNTED, quantity.resource, True
    return None


def repeated_gains(card: A.Card) -> Iterable[tuple[A.Effect, A.CostKind, str, tuple[int, A.Resource, bool]]]:
    """The card's unbounded triggers on freely repeated actions that gain the holder something
    (on any card: a trigger fires per event, not per activation)."""
    for effect in card.effects:
        trigger = effect.trigger
        if trigger is None or trigger.event not in REPEATED or effect.limit is not None:
            continue
        gain = _gain(effect.action)
        if gain is not None and gain[0] > 0:
            cost, action = REPEATED[trigger.event]
            yield effect, cost, action, gain


def discounts(card: A.Card, cost: A.CostKind) -> tuple[Discount, ...]:
    """The card's standing discounts on the holder's ``cost`` (no trigger, no condition, no limit)."""
    found = []
    for effect in card.effects:
        action = effect.action
        if (
            isinstance(action, A.CostModifier)
            and action.delta < 0
            and action.scale == 0
            and action.who is A.Side.OWN
            and effect.trigger is None
            and effect.condition is None
            and effect.limit is None
            and cost in changes(action)
        ):
            found.append(Discount(card, effect, -action.delta))
    return tuple(found)


def profits(card: A.Card, others: Iterable[A.Card], ctx: CheckContext, *, with_others: int) -> list[Profit]:
    """Each trigger of ``card`` that pays more than its action costs, with the largest discounts
    of up to ``with_others`` of ``others`` (0: the card alone)."""
    found = []
    universe = A.ALL_KINDS if ctx.king_can_attack else A.ALL_KINDS - {Kind.KING}
    pool = list(others)
    for effect, cost, action, (gain, resource, most) in repeated_gains(card):
        kinds = acting_kinds(effect, A.ALL_KINDS if cost is A.CostKind.MOVE else universe)
        if cost is A.CostKind.MOVE:
            kinds = kinds - {Kind.PAWN}  # a Pawn only advances (R06): its moves run out, they do not repeat
            if not kinds:
                continue
        price, piece = cheapest_price(cost, kinds, ctx)
        if not price and not kinds:
            continue
        own = discounts(card, cost)
        best: list[tuple[int, tuple[Discount, ...]]] = []
        for other in pool:
            theirs = discounts(other, cost)
            if theirs:
                best.append((sum(d.amount for d in theirs), theirs))
        best.sort(key=lambda item: -item[0])
        extra = tuple(d for _, ds in best[:with_others] for d in ds)
        pay = effect.trigger.pay.total if effect.trigger is not None and effect.trigger.pay is not None else 0
        profit = Profit(card, effect, action, price, piece, (*own, *extra), pay, gain, resource, most)
        if profit.net > 0:
            found.append(profit)
    return found
