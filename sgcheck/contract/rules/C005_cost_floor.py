"""A cost discount can make an action cost less than nothing.

Core §8 allows cost modifiers (its own examples are -1 distance and -2 SP on a
Summon), but a discount larger than the cheapest form of the action would push the cost
below zero: the player would be paid to act, which is a rewrite of the cost formula in
disguise and an unbounded LP/SP source, both of which core §8 says cards *must not* do. It
is an error: that replay stops a cost at 0 does not make the card's discount legal, it only
keeps the game going. The cheapest forms: a King step costs 1 (R09),
a Pawn step 2, a Pawn attack at distance 1 costs 3, summoning or teleporting a Pawn 6,
a Break 20, a Repair 10. A ``distance`` modifier changes the whole cost of every move,
attack, summon and teleport, as in play, so its floor is the cheapest of those. Piece
conditions on the effect are taken into account (``when attacker is Queen`` prices a Queen), and
so are distance conditions: ``cost move -3 when distance >= 6`` only prices moves of 6 squares
or more, which only the sliding pieces make, at 9 or more.

Fails: ``effect cost move -3``. Passes: ``effect cost distance -1``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.analysis.profit import cheapest_price, distance_bounds
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.matchups import attackers_universe
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import changes
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C005",
    name="cost-below-zero",
    severity=Severity.ERROR,
    enforces="core §8: cost modifiers stay within the caps (a cost never turns into income)",
    rules=("core §3", "core §4.1", "core §5", "core §8"),
    scope=Scope.CARD,
)


def _floor(effect: A.Effect, action: A.CostModifier, ctx: CheckContext) -> tuple[int, str]:
    """The cheapest action the modifier changes (the kinds of action it changes in play), and what it is."""
    prices: list[tuple[int, str]] = []
    for cost in changes(action):
        kinds = attackers_universe(ctx) if cost is not A.CostKind.MOVE else A.ALL_KINDS
        if effect.condition is not None:
            for p in effect.condition.predicates:
                if isinstance(p, A.PieceIs) and p.role is A.Role.ATTACKER:
                    kinds = kinds - p.kinds if p.negated else kinds & p.kinds
        price = cheapest_price(cost, kinds, ctx, distance_bounds(effect))
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
            kinds = changes(action)
            changed = next(iter(kinds)).value if len(kinds) == 1 else "action it changes"
            named = f"{action.only.value} {action.cost.value}" if action.only is not None else action.cost.value
            whose = "the opponent's " if action.who is A.Side.ENEMY else ""
            yield META.diagnostic(
                f"a discount of {-action.delta} on {whose}{named} is more than the cheapest {changed} "
                f"costs ({cheapest}, {what}): the cost would go below zero",
                effect.span,
                hint="a cost modifier may lower a cost, never turn it into income",
                fix=Fix(f"limit the discount to {cheapest} or less, or restrict it with a piece condition"),
                label="discount too large",
                context=card_context(card),
            )
