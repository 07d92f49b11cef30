"""Unbounded growth: effects whose amount scales with the resource they (eventually) produce.

"Gain SP equal to your SP" doubles SP; "gain LP equal to your SP" on one card and "gain
SP equal to your LP" on another do the same between them. The graph has four nodes
(each player's SP and LP) and an edge from the resource an amount is read from to the
resource it adds to, labelled with the card; any cycle is a feedback loop with no
bound (core §8). An edge is an effect that acts again and again over a game and that no
condition stops at a level, as ruling CR3 says (:mod:`sgcheck.core.cards.compounding`, read
by the run-time watch too): a Spell, a passive Relic's own effect or an effect limited per
game multiplies a pool by a bounded factor. With four nodes the cycles can simply be enumerated, so the cost is
linear in the cards (each edge keeps a handful of example cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import assert_never

from sgcheck.core.cards import model as A
from sgcheck.core.cards.compounding import capped, recurs, traits

_RESOURCES = (A.Resource.SP, A.Resource.LP)
_EXAMPLES_PER_EDGE = 4


@dataclass(frozen=True, slots=True)
class Link:
    card: A.Card
    effect: A.Effect
    holder: int
    source: tuple[int, A.Resource]
    target: tuple[int, A.Resource]

    def describe(self) -> str:
        return f'"{self.card.name}": {_name(self.source, self.holder)} feeds {_name(self.target, self.holder)}'


def _name(node: tuple[int, A.Resource], holder: int) -> str:
    whose = "own" if node[0] == holder else "opponent's"
    return f"{whose} {node[1].value}"


def _scaling(effect: A.Effect) -> tuple[A.Side, A.Resource, A.Side, A.Resource] | None:
    """(who gains, what, whose resource it is read from, which) for a scaled gain."""
    action = effect.action
    match action:
        case A.ResourceChange():
            if not action.gain:
                return None
            quantity, gainer = action.quantity, action.who
        case A.Steal():
            quantity, gainer = action.quantity, A.Side.OWN
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ExtraAction()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
            | A.DealDamage()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return None  # gains nothing by an amount
        case _:
            assert_never(action)
    if quantity.kind is not A.QuantityKind.SCALED or quantity.scale_side is None or quantity.scale_resource is None:
        return None
    return gainer, quantity.resource, quantity.scale_side, quantity.scale_resource


def feedback_loops(cards: Sequence[A.Card]) -> list[tuple[Link, ...]]:
    """Distinct feedback loops (as chains of links), each using every card in one hand only."""
    edges: dict[tuple[tuple[int, A.Resource], tuple[int, A.Resource]], list[Link]] = {}
    for card in cards:
        for effect in card.effects:
            if not recurs(card, effect) or capped(effect):
                continue  # acts a bounded number of times, or stops at a level (ruling CR3)
            found = _scaling(effect)
            if found is None:
                continue
            gainer, produced, read_side, read = found
            for holder in (0, 1):
                source = (holder if read_side is A.Side.OWN else 1 - holder, read)
                target = (holder if gainer is A.Side.OWN else 1 - holder, produced)
                examples = edges.setdefault((source, target), [])
                if len(examples) < _EXAMPLES_PER_EDGE:
                    examples.append(Link(card, effect, holder, source, target))
    nodes = [(player, resource) for player in (0, 1) for resource in _RESOURCES]
    loops: list[tuple[Link, ...]] = []
    seen: set[frozenset[str]] = set()
    for size in range(1, len(nodes) + 1):
        for order in permutations(nodes, size):
            if order[0] != min(order):
                continue  # each cycle once, from its smallest node
            pairs = [(order[i], order[(i + 1) % size]) for i in range(size)]
            if not all(pair in edges for pair in pairs):
                continue
            chain = _choose(pairs, edges)
            if chain is None or _taken_back(chain):
                continue
            key = frozenset(link.card.name for link in chain)
            if key not in seen:
                seen.add(key)
                loops.append(chain)
    return loops


def _choose(
    pairs: list[tuple[tuple[int, A.Resource], tuple[int, A.Resource]]],
    edges: dict[tuple[tuple[int, A.Resource], tuple[int, A.Resource]], list[Link]],
) -> tuple[Link, ...] | None:
    """One link per edge, never putting the same card in both hands."""
    holder_of: dict[int, int] = {}
    chosen: list[Link] = []
    for pair in pairs:
        pick = next((link for link in edges[pair] if holder_of.get(id(link.card), link.holder) == link.holder), None)
        if pick is None:
            return None
        holder_of[id(pick.card)] = pick.holder
        chosen.append(pick)
    return tuple(chosen)


def _taken_back(chain: tuple[Link, ...]) -> bool:
    """Whether a card of the loop empties a pool of the loop of its holder again and again, so that
    the pool starts again from nothing: bounded (ruling CR3, 3)."""
    pools = {link.source for link in chain} | {link.target for link in chain}
    for link in chain:
        found = traits(link.card)
        if found is not None and any((link.holder, resource) in pools for resource in found.empties):
            return True
    return False
