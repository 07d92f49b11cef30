"""Attack bonuses: what a card adds to an attack, per matchup, summed as replay sums them, and the per-attack caps.

What an effect adds to an attack (which category, how much, on whose attacks, on which attacked
pieces) is not decided here: :func:`sgcheck.core.cards.attack_parts.attack_part` says it, for
replay and the contract alike (R20, R23).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import combinations

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.conditions import impossible_reason
from sgcheck.contract.facts.matchups import matchup_mask
from sgcheck.core.caps import DAMAGE_BONUS_CAP, DAMAGE_PER_HIT, REROLL_SOURCES_CAP, TO_HIT_BONUS_CAP
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind, AttackPart, attack_part
from sgcheck.core.cards.semantics import until


@dataclass(frozen=True, slots=True)
class Bonus:
    """One positive attack part: ``value`` in the matchups of ``mask``, for ``scope``'s attacks."""

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
        mask = matchup_mask(effect, ctx)
        if mask:
            found.append(Bonus(part.amount if part.scale <= 0 else 1, mask, part.scope, effect, part))
    return found


def worst_matchup(bonuses: list[Bonus], ctx: CheckContext | None = None) -> tuple[int, int, list[Bonus]]:
    """(total, matchup index, contributing bonuses) of the matchup where the bonuses add up most.

    With ``ctx``, the bonuses summed are a largest set whose conditions can hold on one attack
    together (``distance = 1`` and ``distance >= 2`` never do): the attack's pieces are the
    matchup's, and the other predicates are checked together as :func:`impossible_reason` checks
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


def own_bonus_profile(
    category: AttackKind, ctx: CheckContext, scope: A.Side = A.Side.OWN
) -> Callable[[A.Card], dict[int, tuple[int, A.Effect]]]:
    """Per matchup, a card's total bonus of ``category`` on ``scope``'s attacks (for cap stacking).

    ``scope`` ``own``: what the card adds to its holder's attacks; ``enemy``: what it adds to the
    attacks on its holder's pieces, the other player's (``on enemy attacks``). An activated card
    acts on the other player's attacks only with an effect that lasts into their turn (replay's
    durations). A doubling counts as +2 here (:data:`DOUBLING_IN_STACK`): with any other card's +1
    it passes the +2 cap, as (1 + 1) x 2 = 4 per hit does, and alone it stays within it, as 1 x 2
    does. A reroll or advantage effect is one source, whatever its count, as replay counts the
    sources on a roll (one per effect, ``parts_on_attack``).
    """

    def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
        result: dict[int, tuple[int, A.Effect]] = {}
        for bonus in attack_bonuses(card, category, ctx):
            if bonus.scope is not scope:
                continue
            if scope is A.Side.ENEMY and card.mode.uses_activation and not _reaches_their_turn(bonus.effect):
                continue  # used in its holder's turn, over before the other player attacks
            if bonus.doubles:
                worth = DOUBLING_IN_STACK
            elif category is AttackKind.REROLL:
                worth = 1
            else:
                worth = bonus.value
            mask = bonus.mask
            while mask:
                low = mask & -mask
                index = low.bit_length() - 1
                mask ^= low
                total, effect = result.get(index, (0, bonus.effect))
                result[index] = (total + worth, effect)
        return result

    return profile


def _reaches_their_turn(effect: A.Effect) -> bool:
    """Whether what an activated card's ``effect`` starts in its holder's turn still acts in the
    other player's next turn (ply 1 of replay's durations: ``until your next turn``, ``for 2 turns``)."""
    last, _ = until(effect, 0, relic=False)
    return last is None or last >= 1


#: What a doubling adds in the pack's cap stacking: passing the +2 cap exactly when the other
#: cards bring +1 or more (``(1 + b) x 2 - 1 > 2`` exactly when ``b >= 1``).
DOUBLING_IN_STACK = DAMAGE_BONUS_CAP


#: The per-attack caps of core §4.5, by bonus category.
ATTACK_CAPS: dict[AttackKind, int] = {
    AttackKind.TO_HIT: TO_HIT_BONUS_CAP,
    AttackKind.DAMAGE: DAMAGE_BONUS_CAP,
    AttackKind.REROLL: REROLL_SOURCES_CAP,
}
