"""A cost discount can make an action cost less than nothing.

Core §8 allows cost modifiers (its own examples are -1 distance and -2 SP on a
Summon), but a discount larger than the cheapest form of the action would push the cost
below zero: the player would be paid to act, which is a rewrite of the cost formula in
disguise and an unbounded LP/SP source. The cheapest forms: a King step costs 1 (R09),
a Pawn step 2, a Pawn attack at distance 1 costs 3, summoning or teleporting a Pawn 6,
a Break 20, a Repair 10. A ``distance`` modifier changes the whole cost of every move,
attack, summon and teleport, as in play, so its floor is the cheapest of those. Piece
conditions on the effect are taken into account (``when attacker is Queen`` prices a Queen).

Fails: ``effect cost move -3``. Passes: ``effect cost distance -1``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts import attackers_universe
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core import caps
from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import costed
from sgcheck.core.pieces import PIECE_VALUES, Kind
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C005",
    name="cost-below-zero",
    severity=Severity.WARNING,
    enforces="core §8: cost modifiers stay within the caps (a cost never turns into income)",
    rules=("core §3", "core §4.1", "core §5", "core §8"),
    scope=Scope.CARD,
)


def _cheapest(cost: A.CostKind, kinds: frozenset[Kind], ctx: CheckContext) -> tuple[int, str]:
    """The smallest price of ``cost`` for the allowed piece kinds, and which piece pays it."""
    if cost is A.CostKind.BREAK:
        return caps.BREAK_COST, "a Break"
    if cost is A.CostKind.REPAIR:
        return caps.REPAIR_COST, "a Repair"
    prices: list[tuple[int, str]] = []
    for kind in kinds:
        value = ctx.ruleset.value_of(kind)
        if cost is A.CostKind.MOVE:
            if kind is Kind.KING:
                price = value + 1 if value is not None else caps.KING_MOVE_COST
            else:
                price = caps.KNIGHT_JUMP_COST if kind is Kind.KNIGHT else PIECE_VALUES[kind] + 1
            prices.append((price, f"a {kind.title} moving one square"))
        elif value is not None and cost is A.CostKind.ATTACK:
            prices.append((caps.ATTACK_VALUE_MULTIPLIER * value + 1, f"a {kind.title} attacking at distance 1"))
        elif value is not None and kind is not Kind.KING:  # summon / teleport
            prices.append((value + caps.SUMMON_BASE_COST, f"a {kind.title} placed on its starting square"))
    return min(prices) if prices else (0, "nothing")


def _floor(effect: A.Effect, action: A.CostModifier, ctx: CheckContext) -> tuple[int, str]:
    """The cheapest action the modifier changes (the kinds of action it changes in play), and what it is."""
    prices: list[tuple[int, str]] = []
    for cost in costed(action.cost):
        kinds = attackers_universe(ctx) if cost is not A.CostKind.MOVE else A.ALL_KINDS
        if effect.condition is not None:
            for p in effect.condition.predicates:
                if isinstance(p, A.PieceIs) and p.role is A.Role.ATTACKER:
                    kinds = kinds - p.kinds if p.negated else kinds & p.kinds
        price = _cheapest(cost, kinds, ctx)
        if price[0]:
            prices.append(price)
    return min(prices) if prices else (0, "nothing")


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in card.effects:
        action = effect.action
        if not isinstance(action, A.CostModifier) or action.delta >= 0:
            continue
        cheapest, what = _floor(effect, action, ctx)
        if cheapest and -action.delta > cheapest:
            changed = action.cost.value if costed(action.cost) == {action.cost} else "action it changes"
            yield META.diagnostic(
                f"a discount of {-action.delta} on {action.cost.value} is more than the cheapest {changed} "
                f"costs ({cheapest}, {what}): the cost would go below zero",
                effect.span,
                hint="a cost modifier may lower a cost, never turn it into income",
                fix=Fix(f"limit the discount to {cheapest} or less, or restrict it with a piece condition"),
                label="discount too large",
                context=card_context(card),
            )
