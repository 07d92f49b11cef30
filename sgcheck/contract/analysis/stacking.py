"""Cap stacking: the largest bonus one attack can collect from the cards both players can hold.

What a player can bring to one attack: every passive relic they have played (the relic
zone has no limit), plus at most 2 activated cards (R17: 2 activations a turn, shared by
activated relics and spells; spells also come out of a hand of 3, R19, which never binds
tighter). The attacked player brings the same to it with the effects of their cards on enemy
attacks (``on enemy attacks``; an activated card only with an effect lasting into the
attacker's turn), from their own hand and activations. For each matchup (attacker kind x
defender kind):

1. each card's contribution is the sum of its bonuses that apply in that matchup, once as
   the attacker's card (its effects on its holder's attacks) and once as the attacked
   player's (its effects on enemy attacks);
2. the reachable total is the sum of all passive contributions plus the two largest
   activated ones of each player (a partial selection, not a sort: linear);
3. if that exceeds the cap, the *smallest set of cards* that exceeds it is found
   greedily: candidates are the passives plus the two best activated cards, taken from
   the largest down until the sum passes the cap. Taking the largest values first
   gives the fewest cards, and restricting activated cards to the best two is what
   the activation limit allows (an exchange argument: any exceeding set with at most 2
   activated cards can swap its activated cards for the two best without shrinking).

Cards that exceed a cap on their own are left out: SG-C010..C012 already report them.
The whole analysis is O(cards x matchups) plus one sort of the candidates of the
reported matchup.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sgcheck.contract.context import CheckContext
from sgcheck.core.cards import model as A

#: Attacker kinds x defender kinds (6 x 6), each a bit of a matchup mask.
MATCHUPS = 36


@dataclass(frozen=True, slots=True)
class Contribution:
    card: A.Card
    value: int
    effect: A.Effect
    #: who holds the card: ``own`` the attacker, ``enemy`` the attacked player
    holder: A.Side = A.Side.OWN


@dataclass(frozen=True, slots=True)
class Stack:
    """The worst matchup: what is reachable, and the fewest cards that pass ``cap``."""

    matchup: int
    reachable: int
    cap: int
    minimal: tuple[Contribution, ...]

    @property
    def minimal_total(self) -> int:
        return sum(c.value for c in self.minimal)


#: For one card: per matchup, its total and the effect that carries most of it.
Profile = Callable[[A.Card], dict[int, tuple[int, A.Effect]]]


def worst_stack(
    cards: Sequence[A.Card],
    profile: Profile,
    cap: int,
    ctx: CheckContext,
    strictly_above: bool = True,
    enemy_profile: Profile | None = None,
) -> Stack | None:
    """The matchup whose minimal exceeding set is smallest (ties: larger reachable total).

    ``profile`` reads what a card adds to its holder's attacks; ``enemy_profile`` (if given) what
    it adds to the other player's attacks, the card then held by the attacked player.
    """
    sides: list[tuple[A.Side, Profile]] = [(A.Side.OWN, profile)]
    if enemy_profile is not None:
        sides.append((A.Side.ENEMY, enemy_profile))
    pools: list[tuple[list[list[Contribution]], list[list[Contribution]]]] = []
    for holder, read in sides:
        passive: list[list[Contribution]] = [[] for _ in range(MATCHUPS)]
        active: list[list[Contribution]] = [[] for _ in range(MATCHUPS)]
        for card in cards:
            per_matchup = read(card)
            if not per_matchup or _exceeds(max(total for total, _ in per_matchup.values()), cap, strictly_above):
                continue  # nothing, or exceeds on its own: a per-card finding already
            bucket = active if card.mode.uses_activation else passive
            for matchup, (total, effect) in per_matchup.items():
                if total > 0:
                    bucket[matchup].append(Contribution(card, total, effect, holder))
        pools.append((passive, active))
    best: Stack | None = None
    for matchup in range(MATCHUPS):
        # each player's passive cards and the activated cards their own hand and activations allow
        candidates = [c for passive, active in pools for c in passive[matchup] + _usable_active(active[matchup], ctx)]
        reachable = sum(c.value for c in candidates)
        if not _exceeds(reachable, cap, strictly_above):
            continue
        minimal = _minimal(candidates, cap, strictly_above)
        candidate = Stack(matchup, reachable, cap, minimal)
        if best is None or (len(minimal), -reachable) < (len(best.minimal), -best.reachable):
            best = candidate
    return best


def _exceeds(total: int, cap: int, strictly_above: bool) -> bool:
    return total > cap if strictly_above else total >= cap


def _usable_active(found: list[Contribution], ctx: CheckContext) -> list[Contribution]:
    """The activated cards one attack can use: spells from the hand, then the activation limit."""
    spells = [c for c in found if c.card.kind is A.CardKind.SPELL]
    relics = [c for c in found if c.card.kind is not A.CardKind.SPELL]
    in_hand = heapq.nlargest(ctx.hand_limit, spells, key=lambda c: c.value)
    return heapq.nlargest(ctx.activations, in_hand + relics, key=lambda c: c.value)


def _minimal(candidates: list[Contribution], cap: int, strictly_above: bool) -> tuple[Contribution, ...]:
    chosen: list[Contribution] = []
    total = 0
    for contribution in sorted(candidates, key=lambda c: (-c.value, c.card.name, c.holder)):
        chosen.append(contribution)
        total += contribution.value
        if _exceeds(total, cap, strictly_above):
            break
    return tuple(chosen)
