"""Ruling CR3: when a pool that feeds itself grows without bound (core §8).

Core §8 forbids effects that create unbounded SP or LP. An amount read from a pool and added to
a pool (``gain SP equal to own SP``) is a *link* from the pool it reads to the pool it feeds. A
player's links that close a cycle (SP from SP; LP from SP and SP from LP) feed each pool on it
from its own size: each time the cycle's gains act, the pool grows in proportion to itself, so it
compounds, turn after turn, past any number. That is unbounded when, and only when, three things
hold, which is what this module decides (the run-time watch and the checker's reasoning both read
it, so the two never disagree):

1. *It comes again.* A link acts again and again over a game: a trigger (at each firing, as often as
   its event comes) or an activated Relic's effect (at each use), with no ``limit ... per game``.
   A Spell, a passive Relic's own effect (it acts once, when played) and an effect limited per game
   act a bounded number of times, so they multiply a pool by a bounded factor: a one-off doubling
   with ``limit 1 per game`` is legal. A ``limit`` per turn bounds the pace, not the total.
2. *Nothing caps it.* A condition that holds only while a pool is below or at a level
   (``when own SP < 30``) stops the gains at that level, so a link with such a condition is none.
3. *Nothing the same player's cards take keeps it down.* A player's own effect that takes from a
   pool of the cycle again and again (a fixed loss, a share of the pool, a conversion out of it)
   may keep the pool down, so a game never proves such a cycle unbounded: the watch does not
   judge it, and the checker's reasoning says only that it may be (a warning). One that empties
   the pool again and again (``at end: lose SP equal to own SP``) does keep it down: the pool
   starts again from nothing, so the cycle is bounded, and no finding is made. A price paid in
   the same window as the gain is counted by the watch in that window: the pool must have grown
   there, price included, and then it grows more each time, since the price does not grow with
   it.

What the opponent's cards take is the opponent's doing: a game in which the opponent holds no
such card shows the growth, so the holder's cards still break core §8.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from sgcheck.core.cards.exchange import effect_moves
from sgcheck.core.cards.model import (
    Card,
    CardKind,
    Effect,
    Mode,
    Period,
    QuantityKind,
    Resource,
    ResourceChange,
    ResourceIs,
    Side,
)
from sgcheck.core.cards.parts import Cmp

#: The ruling's name, as findings cite it.
RULING = "CR3"

#: The comparisons that hold a pool below a level: a condition with one caps what it guards.
_CAPPING = frozenset({Cmp.LT, Cmp.LE, Cmp.EQ})


class Link(NamedTuple):
    """A gain of ``fed`` by an amount read from ``read`` (times ``multiply`` / ``divide``), both the
    holder's own, by ``card``."""

    card: str
    read: Resource
    fed: Resource
    multiply: int = 1
    divide: int = 1

    def adds(self, pool: int) -> int:
        """What the gain adds when the pool it reads holds ``pool``."""
        return pool * self.multiply // max(1, self.divide)


def recurs(card: Card, effect: Effect) -> bool:
    """Whether ``effect`` of ``card`` acts again and again over a game, without a bound per game
    (CR3, 1): a trigger or an activated Relic's effect, not a Spell's, no ``limit ... per game``."""
    if card.kind is CardKind.SPELL:
        return False
    if effect.trigger is None and card.mode is not Mode.ACTIVATED:
        return False  # a passive Relic's own effect acts once, when the Relic is played
    limit = effect.limit
    return limit is None or limit.period is Period.TURN


def capped(effect: Effect) -> bool:
    """Whether ``effect``'s condition holds only while some pool is at or below a level (CR3, 2)."""
    condition = effect.condition
    if condition is None:
        return False
    return any(isinstance(p, ResourceIs) and p.cmp in _CAPPING for p in condition.predicates)


def link(card: Card, effect: Effect) -> Link | None:
    """The link ``effect`` of ``card`` makes for its holder, if it is one (CR3): a gain of the
    holder's own pool by an amount read from the holder's own pool, that recurs and is not capped."""
    action = effect.action
    if not isinstance(action, ResourceChange) or not action.gain or action.who is not Side.OWN:
        return None
    quantity = action.quantity
    if quantity.kind is not QuantityKind.SCALED or quantity.scale_side is not Side.OWN:
        return None
    if quantity.scale_resource is None or quantity.multiply <= 0:
        return None
    if not recurs(card, effect) or capped(effect):
        return None
    return Link(card.name, quantity.scale_resource, quantity.resource, quantity.multiply, quantity.divide)


def takes(card: Card, effect: Effect) -> Resource | None:
    """The holder's own pool ``effect`` takes from again and again, if any (CR3, 3): a loss or a
    conversion out of it (a trigger's price is paid in the window of its gain, and counted there)."""
    if not recurs(card, effect):
        return None
    for move in effect_moves(replace(effect, trigger=None)):
        if move.side is Side.OWN and not move.gain:
            return move.resource
    return None


def empties(card: Card, effect: Effect) -> Resource | None:
    """The holder's own pool ``effect`` empties again and again (``lose SP equal to own SP``), if any:
    whatever a cycle through it adds, the pool starts again from nothing (CR3, 3)."""
    taken = takes(card, effect)
    action = effect.action
    if taken is None or not isinstance(action, ResourceChange):
        return None
    quantity = action.quantity
    whole = (
        quantity.kind is QuantityKind.SCALED
        and quantity.scale_side is Side.OWN
        and quantity.scale_resource is taken
        and quantity.multiply >= quantity.divide
    )
    return taken if whole or quantity.kind is QuantityKind.UNLIMITED else None


class Traits(NamedTuple):
    """What one card brings to CR3: its links, the pools it takes from again and again, and those
    it empties again and again."""

    links: tuple[Link, ...]
    takes: frozenset[Resource]
    empties: frozenset[Resource]


@lru_cache(maxsize=256)
def traits(card: Card) -> Traits | None:
    """The card's links and takings, None when it has neither (most cards)."""
    links = tuple(found for effect in card.effects if (found := link(card, effect)) is not None)
    taken = frozenset(pool for effect in card.effects if (pool := takes(card, effect)) is not None)
    if not links and not taken:
        return None
    emptied = frozenset(pool for effect in card.effects if (pool := empties(card, effect)) is not None)
    return Traits(links, taken, emptied)


def cycle(links: Iterable[Link], start: Link) -> tuple[Link, ...] | None:
    """The links, ``start`` first, that carry what ``start`` feeds back to the pool it reads, or
    None when none do. With two pools a cycle is ``start`` alone (it feeds what it reads) or
    ``start`` and a link the other way."""
    if start.fed is start.read:
        return (start,)
    back = next((other for other in links if other.read is start.fed and other.fed is start.read), None)
    return None if back is None else (start, back)


def compounds(cards: Iterable[Card], start: Link) -> tuple[Link, ...] | None:
    """The cycle ``start`` closes among one player's ``cards`` (CR3), None when it closes none or
    when the same player's cards take again and again from a pool of the cycle (CR3, 3)."""
    links: list[Link] = []
    taken: set[Resource] = set()
    for card in cards:
        found = traits(card)
        if found is not None:
            links.extend(found.links)
            taken.update(found.takes)
    closed = cycle(links, start)
    if closed is None or any(step.fed in taken or step.read in taken for step in closed):
        return None
    return closed


def describe(closed: tuple[Link, ...]) -> str:
    """``'A' adds own SP from own SP`` for each link of a cycle, joined."""
    return "; ".join(f"'{step.card}' adds own {step.fed.value} from own {step.read.value}" for step in closed)


__all__ = [
    "RULING",
    "Link",
    "Traits",
    "capped",
    "compounds",
    "cycle",
    "describe",
    "empties",
    "link",
    "recurs",
    "takes",
    "traits",
]
