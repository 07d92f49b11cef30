"""Trigger cycles: a card's effect fires another card's trigger, and so on, back to the start.

The graph has one node per (triggered effect, holder) and one per (event, player), so
its size is linear in the cards: an effect points at the events it causes, an event at
the effects that wait for it. (Connecting effects to effects directly could need
n x m edges when many cards produce and many wait for the same event.) Every card can
end up in either hand, hence the two holders; a chain that needs one card in both hands
at once is not a real chain and is skipped.

Cycles are the strongly connected components (Tarjan, linear). A component whose steps
are all free is an infinite loop; otherwise its loop is bounded by whatever the costly
steps spend. A step that pays LP/SP is still counted as free when the loop itself gives
back at least as much of what it pays (or an unbounded amount). An infinite loop whose steps
only gain back, exactly, the prices they pay (``on gain SP pay 1 SP: gain 1 SP``) changes no
pool however often it repeats: it is *break-even*, a judgment call (SG-C102) rather than an
error (SG-C030, SG-C101).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sgcheck.contract.analysis.flow import SELF, EventKey, Step, causes, listens, step_of
from sgcheck.contract.analysis.graph import is_cyclic, shortest_cycle, strongly_connected
from sgcheck.core.caps import CAPTURE_SP_PER_VALUE
from sgcheck.core.cards import model as A
from sgcheck.core.pieces import PIECE_VALUES

_MAX_STARTS = 16  # starting points tried per component when looking for a real chain


@dataclass(frozen=True, slots=True)
class Cycle:
    steps: tuple[Step, ...]
    infinite: bool

    @property
    def cards(self) -> tuple[A.Card, ...]:
        seen: dict[int, A.Card] = {}
        for step in self.steps:
            seen.setdefault(id(step.card), step.card)
        return tuple(seen.values())

    @property
    def unbounded_because(self) -> str:
        """Why nothing bounds an infinite cycle: its steps are free, or the loop pays back each price."""
        if any(step.effect.trigger is not None and step.effect.trigger.pay is not None for step in self.steps):
            return "each price paid for a firing comes back through the loop"
        return "no firing costs anything"

    @property
    def break_even(self) -> bool:
        """An infinite cycle whose every step pays a price and gains back exactly what the loop
        pays, and does nothing else: it repeats without end but no pool grows or shrinks."""
        if not self.infinite:
            return False
        net = {A.Resource.SP: 0, A.Resource.LP: 0}
        for step in self.steps:
            trigger, action = step.effect.trigger, step.effect.action
            if trigger is None or trigger.pay is None:
                return False
            if not (
                isinstance(action, A.ResourceChange)
                and action.gain
                and action.who is A.Side.OWN
                and action.quantity.kind is A.QuantityKind.FIXED
            ):
                return False
            net[action.quantity.resource] += action.quantity.value
            for item in trigger.pay.items:
                if item.resource is None and item.amount:
                    return False  # a price in SP or LP at the payer's choice: not a fixed exchange
                if item.resource is not None:
                    net[item.resource] -= item.amount
        return all(value == 0 for value in net.values())

    def chain(self) -> str:
        names = [f'"{step.card.name}"' for step in self.steps]
        return " -> ".join([*names, names[0]])

    def context(self) -> tuple[tuple[str, str], ...]:
        """The chain and each step, for a finding's context lines."""
        return (("chain", self.chain()), *((f"step {i + 1}", step.describe()) for i, step in enumerate(self.steps)))


class _Graph:
    """Effect nodes ``2*i + holder`` for steps[i]; event nodes after them."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = steps
        listeners: dict[EventKey, list[int]] = {}
        for i, step in enumerate(steps):
            for key in listens(step.effect):
                listeners.setdefault(key, []).append(i)
        base = 2 * len(steps)
        self.event_ids: dict[tuple[EventKey, int], int] = {}
        self.adjacency: list[list[int]] = [[] for _ in range(base)]
        for key, waiting in listeners.items():
            for player in (0, 1):
                self.event_ids[(key, player)] = base + len(self.event_ids)
                self.adjacency.append([2 * i + player for i in waiting])
        for i, step in enumerate(steps):
            produced = causes(step.effect)
            for holder in (0, 1):
                edges = self.adjacency[2 * i + holder]
                for side, key in produced:
                    player = holder if side == SELF else 1 - holder
                    event = self.event_ids.get((key, player))
                    if event is not None and event not in edges:
                        edges.append(event)

    def is_effect(self, node: int) -> bool:
        return node < 2 * len(self.steps)


def trigger_cycles(cards: Sequence[A.Card]) -> list[Cycle]:
    """Every distinct trigger cycle among ``cards`` (a pack's are computed once, by ``PackFacts``)."""
    steps = [step_of(card, effect) for card in cards for effect in card.effects if effect.trigger is not None]
    if not steps:
        return []
    graph = _Graph(steps)
    found: list[Cycle] = []
    seen: set[frozenset[int]] = set()
    for component in strongly_connected(graph.adjacency):
        if not is_cyclic(component, graph.adjacency) or not any(graph.is_effect(n) for n in component):
            continue
        members = set(component)
        free = _free_nodes(graph, members)
        infinite = _cycles_in(graph, free)
        for cycle in infinite:
            _keep(found, seen, graph, cycle, infinite=True)
        if not infinite:
            bounded = _extract(graph, members, sorted(n for n in component if graph.is_effect(n)))
            if bounded is not None:
                _keep(found, seen, graph, bounded, infinite=False)
    return found


def _keep(found: list[Cycle], seen: set[frozenset[int]], graph: _Graph, nodes: list[int], infinite: bool) -> None:
    key = frozenset(node // 2 for node in nodes)
    if key in seen:
        return  # the same chain with the two hands swapped
    seen.add(key)
    found.append(Cycle(tuple(graph.steps[node // 2] for node in nodes), infinite))


def _free_nodes(graph: _Graph, members: set[int]) -> set[int]:
    """Nodes of a component whose steps cost nothing the loop does not give back."""
    gains: dict[A.Resource, int] = {A.Resource.SP: 0, A.Resource.LP: 0}
    unbounded: set[A.Resource] = set()
    for node in members:
        if graph.is_effect(node):
            _count_gain(graph.steps[node // 2].effect.action, gains, unbounded)
    free: set[int] = set()
    for node in members:
        if not graph.is_effect(node):
            free.add(node)
            continue
        step = graph.steps[node // 2]
        if not step.bounded or _self_funded(step, gains, unbounded):
            free.add(node)
    return free


def _count_gain(action: A.Action, gains: dict[A.Resource, int], unbounded: set[A.Resource]) -> None:
    if isinstance(action, (A.DealDamage, A.CapturePiece, A.ConvertPiece)) and action.target.side is A.Side.ENEMY:
        gains[A.Resource.SP] += CAPTURE_SP_PER_VALUE * min(PIECE_VALUES.values())  # the capture reward
        return
    quantity = None
    if (isinstance(action, A.ResourceChange) and action.gain and action.who is A.Side.OWN) or isinstance(
        action, A.Steal
    ):
        quantity = action.quantity
    if quantity is None:
        return
    if quantity.kind is A.QuantityKind.FIXED:
        gains[quantity.resource] += quantity.value
    else:
        unbounded.add(quantity.resource)


def _self_funded(step: Step, gains: dict[A.Resource, int], unbounded: set[A.Resource]) -> bool:
    """A step whose only limit is its price, when the loop returns at least that price."""
    trigger = step.effect.trigger
    if trigger is None or trigger.pay is None or not step.why.startswith("costs"):
        return False
    for item in trigger.pay.items:
        options = [item.resource] if item.resource is not None else [A.Resource.SP, A.Resource.LP]
        if not any(r in unbounded or gains[r] >= item.amount for r in options):
            return False
    return True


def _cycles_in(graph: _Graph, nodes: set[int]) -> list[list[int]]:
    """One real cycle per cyclic component of the subgraph on ``nodes``."""
    back = sorted(nodes)
    local = {node: i for i, node in enumerate(back)}
    adjacency = [[local[c] for c in graph.adjacency[node] if c in local] for node in back]
    result: list[list[int]] = []
    for component in strongly_connected(adjacency):
        if not is_cyclic(component, adjacency):
            continue
        members = {back[i] for i in component}
        effects = sorted(back[i] for i in component if graph.is_effect(back[i]))
        if not effects:
            continue
        cycle = _extract(graph, members, effects)
        if cycle is not None:
            result.append(cycle)
    return result


def _extract(graph: _Graph, members: set[int], starts: list[int]) -> list[int] | None:
    """A shortest cycle inside ``members`` that never needs one card in both hands."""
    for start in starts[:_MAX_STARTS]:
        path = shortest_cycle(start, members, graph.adjacency)
        effects = [node for node in path if graph.is_effect(node)]
        holders: dict[int, int] = {}
        if effects and all(holders.setdefault(id(graph.steps[n // 2].card), n % 2) == n % 2 for n in effects):
            return effects
    return None
