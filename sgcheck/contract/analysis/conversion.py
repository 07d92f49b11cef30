"""Conversion in disguise: SP given up for the holder's LP beyond what the core's conversion allows.

The core converts SP into LP in Main 2 only, 2 SP for 1 LP, at most 20 SP a turn (core §2,
R16), and core §8 forbids cards from altering that rate or cap. A card that takes SP and gives
LP in the same *window* (:mod:`sgcheck.core.cards.exchange`: the moves that resolve together)
is a conversion, whatever it is called. One is reported when:

- **rate**: the SP given up buys more LP than the core's 2 SP per LP. The best case for the
  player is taken: a gain at its most, a loss at its least (``per`` amounts count 1 to 15
  pieces, ``equal to`` and ``unlimited`` have no bound);
- **cap**: at the core's rate or worse, it turns more than 20 SP into LP in one turn. The SP
  that count are those the LP gained stands for at the core's rate (at most 2 per LP), over
  every window the card can reach in a turn: a phase once, an event as often as it happens
  unless a limit bounds it, a played card once, an activated Relic's uses within the 2
  activations of the turn (R17), which playing a card also spends (R22).

The opposite direction (LP given up for SP) is not a conversion the contract names.

An ``on lose SP:`` effect that gains LP is a *rebate*: every SP an effect takes fires it (a
``lose``, the opponent's ``steal``; a price paid and SP converted are not losses, as in replay,
R23), so the smallest such loss, 1 SP, is put in that window with it.

Several cards: a PHASE or EVENT window is shared by every card in play, and a hand holds 3
cards (R19), so up to 3 cards' effects at the same trigger form one exchange. The smallest such
set is searched among the strongest candidates of each window (:data:`_POOL` per role), after
leaving out the cards that already convert on their own there; so is the smallest set whose
conversions at the core's rate add up to more than 20 SP a turn. The search is linear in the
cards, plus a bounded number of subsets per window.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from itertools import combinations
from typing import assert_never

from sgcheck.contract.analysis.profit import acting_kinds, cheapest_price, distance_bounds
from sgcheck.contract.context import CheckContext
from sgcheck.core import caps
from sgcheck.core.cards import model as A
from sgcheck.core.cards.exchange import (
    Move,
    Window,
    WindowKind,
    card_windows,
    fixed,
    holders_move,
    per_turn,
    smallest_loss,
)
from sgcheck.core.pieces import Kind

RATE = caps.CONVERSION_SP_PER_LP  # SP per LP (core §2, R16)
CAP = caps.CONVERSION_CAP_SP  # SP a turn (core §2, R16)
_POOL = 6  # candidates kept per role and window for the combination search
_CORE = CheckContext()  # the core's prices: the least any ruleset charges (R09 only makes a King dearer)


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _sum(values: Iterable[int | None]) -> int | None:
    total: int | None = 0
    for value in values:
        total = _add(total, value)
    return total


@dataclass(frozen=True, slots=True)
class Share:
    """What one card (``card`` None: the core's own conversion) puts into one window: the
    holder's own SP and LP moves, and how often the window can come round in a turn."""

    card: A.Card | None
    window: Window
    moves: tuple[Move, ...]
    effects: tuple[A.Effect, ...]
    per_turn: int | None

    @property
    def name(self) -> str:
        return self.card.name if self.card is not None else "the core"


def _low(moves: Iterable[Move], resource: A.Resource) -> int | None:
    return _sum(m.low for m in moves if m.resource is resource)


def _high(moves: Iterable[Move], resource: A.Resource) -> int | None:
    return _sum(m.high for m in moves if m.resource is resource)


@dataclass(frozen=True)
class Exchange:
    """The moves of one or more shares in one window, summed: the SP given up, the LP gained."""

    window: Window
    shares: tuple[Share, ...]

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        return tuple(m for s in self.shares for m in s.moves)

    @cached_property
    def cards(self) -> tuple[A.Card, ...]:
        return tuple(s.card for s in self.shares if s.card is not None)

    @cached_property
    def _cards_moves(self) -> tuple[Move, ...]:
        """The moves of the cards, without the core's own conversion."""
        return tuple(m for m in self.moves if not (m.core_conversion or m.outside))

    @cached_property
    def gives_sp(self) -> bool:
        low = _low(self.moves, A.Resource.SP)
        return low is None or low < 0

    @cached_property
    def gains_lp(self) -> bool:
        """Whether the cards gain LP here: the core's own conversion only brings what it always does."""
        own = _high(self._cards_moves, A.Resource.LP)
        return own is None or own > 0

    @cached_property
    def given(self) -> int:
        """The least SP given up when some is: the player's best case."""
        high = _high(self.moves, A.Resource.SP)
        return -high if high is not None and high < 0 else 1

    @cached_property
    def gained(self) -> int | None:
        """The most LP gained (None: no bound)."""
        return _high(self.moves, A.Resource.LP)

    @cached_property
    def better(self) -> bool:
        """Whether SP buys LP here at a better rate than the core's 2 SP per LP."""
        if not (self.gives_sp and self.gains_lp):
            return False
        gained = self.gained
        return gained is None or RATE * gained > self.given

    @cached_property
    def moved(self) -> int | None:
        """The most SP one round of the window turns into LP, leaving out the core's own
        conversion: the SP given up, at most 2 for each LP gained (None: no bound)."""
        own = self._cards_moves
        low = _low(own, A.Resource.SP)
        given = None if low is None else max(0, -low)
        high = _high(own, A.Resource.LP)
        lp = None if high is None else max(0, high)
        if given == 0 or lp == 0:
            return 0
        if given is None:
            return None if lp is None else RATE * lp
        return given if lp is None else min(given, RATE * lp)

    @property
    def per_turn(self) -> int | None:
        """How often the whole exchange comes round in a turn: as often as its most limited card
        (None: no bound)."""
        bounds = [s.per_turn for s in self.shares if s.card is not None and s.per_turn is not None]
        return min(bounds) if bounds else None

    @property
    def advantage(self) -> float:
        """2 x LP gained less SP given, at their best for the player (higher: a better rate)."""
        sp, lp = _high(self.moves, A.Resource.SP), _high(self.moves, A.Resource.LP)
        return float("inf") if sp is None or lp is None else RATE * lp + sp

    def chain(self, named: bool) -> str:
        """``cost 2 SP, lose 20 SP, gain 20 LP``; with ``named``, each card's moves after its name:
        ``Censer of Ash (lose 10 SP), Censer of Dawn (gain 10 LP)``."""
        parts = []
        for share in self.shares:
            sources = ", ".join(dict.fromkeys(m.source for m in share.moves))
            parts.append(f"{share.name} ({sources})" if named and share.card is not None else sources)
        return ", ".join(parts)

    def rate_words(self) -> str:
        """``22 SP for 20 LP (1.1 SP per LP)``."""
        gained = self.gained
        if gained is None:
            return f"{self.given} SP for LP without bound"
        return f"{self.given} SP for {gained} LP ({_ratio(self.given, gained)} SP per LP)"

    def assumptions(self, most_lost: bool) -> list[str]:
        """How the amounts that are not fixed were counted (worst case)."""
        said: list[str] = []
        for move in self.moves:
            amount = move.amount
            if amount.fixed or (move.resource is A.Resource.LP and not move.gain):
                continue
            if move.gain or most_lost:
                text = (
                    f"'{amount.words}' has no bound" if amount.most is None else f"'{amount.words}' up to {amount.most}"
                )
            else:
                text = f"'{amount.words}' at its least, {amount.least}"
            if text not in said:
                said.append(text)
        return said

    @property
    def effect(self) -> A.Effect | None:
        """The first effect of a card in the exchange (where a finding points)."""
        for share in self.shares:
            if share.card is not None and share.effects:
                return share.effects[0]
        return None


def _ratio(sp: int, lp: int) -> str:
    text = f"{sp / lp:.2f}".rstrip("0").rstrip(".")
    return text or "0"


class Breach(StrEnum):
    RATE = "rate"  # SP buys LP at a better rate than 2 SP per LP
    CAP = "cap"  # more than 20 SP a turn turned into LP


@dataclass(frozen=True, slots=True)
class Conversion:
    """SP given up for own LP past the core's conversion: one exchange at a better rate, or
    the exchanges (each with how often a turn it comes round) that add up past the cap."""

    breach: Breach
    exchanges: tuple[Exchange, ...]
    per_turn_sp: int | None = None  # CAP: the SP a turn turned into LP (None: no bound)
    rounds: tuple[int | None, ...] = field(default=())  # CAP: each exchange's rounds a turn

    @property
    def cards(self) -> tuple[A.Card, ...]:
        seen: dict[int, A.Card] = {}
        for exchange in self.exchanges:
            for card in exchange.cards:
                seen.setdefault(id(card), card)
        return tuple(seen.values())

    @property
    def effect(self) -> A.Effect | None:
        for exchange in self.exchanges:
            if exchange.effect is not None:
                return exchange.effect
        return None


#: Does this effect act in play (the contract leaves out what it reports under another code)?
Acts = Callable[[A.Effect], bool]


@dataclass(frozen=True, slots=True)
class CardExchanges:
    """Every window one card moves its holder's SP and LP in, as shares."""

    card: A.Card
    shares: tuple[Share, ...]


def gains_lp(action: A.Action) -> bool:
    """Whether ``action`` can add to its holder's LP (what every conversion needs), without
    working out its moves."""
    match action:
        case A.ResourceChange():
            return action.gain and action.who is A.Side.OWN and action.quantity.resource is A.Resource.LP
        case A.Steal():
            return action.quantity.resource is A.Resource.LP
        case A.ConvertResource():
            return action.get_resource is A.Resource.LP
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ExtraAction()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
            | A.DealDamage()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return False
        case _:
            assert_never(action)


def may_convert(card: A.Card) -> bool:
    """Whether ``card`` gains its holder LP anywhere; a card that does not never converts alone."""
    return any(gains_lp(effect.action) for effect in card.effects)


def shares_windows(card: A.Card) -> bool:
    """Whether ``card`` has a trigger, and so a part in a window shared with other cards."""
    return any(effect.trigger is not None for effect in card.effects)


def card_shares(card: A.Card, acts: Acts, activations: int) -> CardExchanges:
    shares = []
    for window, entries in card_windows(card).items():
        effects = tuple(e for e, _ in entries if e is not None and acts(e))
        moves = tuple(m for e, ms in entries if e is None or acts(e) for m in ms if holders_move(m))  # CR1
        if moves:
            shares.append(Share(card, window, moves, effects, per_turn(card, effects, window, activations)))
    return CardExchanges(card, tuple(shares))


#: The holder's own actions that the events of a trigger follow, and what each costs (core §3-§5).
_ACTION_COSTS: dict[A.Event, A.CostKind] = {
    A.Event.MOVE: A.CostKind.MOVE,
    A.Event.HIT: A.CostKind.ATTACK,
    A.Event.MISS: A.CostKind.ATTACK,
    A.Event.CAPTURE: A.CostKind.ATTACK,
    A.Event.SUMMON: A.CostKind.SUMMON,
    A.Event.TELEPORT: A.CostKind.TELEPORT,
}


def action_price(event: A.Event, effects: Sequence[A.Effect]) -> Move | None:
    """The price of the holder's own action that fires ``on <event>:`` ``effects``, paid in SP (R05
    lets any cost be paid in SP), at its least under their conditions: the player's best case.

    LP a trigger gives on an action bought with SP is SP turned into LP (``on miss: gain 10 LP`` is 3
    SP for 10 LP on a Pawn's attack at distance 1), as the run-time watch counts it. The price buys
    the action too, so it counts for the 2:1 rate and not toward the 20 SP a turn (CR1, 3: marked
    ``outside``, as the loss that fires ``on lose SP:`` is). With several effects, all must fire:
    the dearest of their cheapest prices. Prices are the core's (a house rule's King, R09, only
    costs more). None: no action of the holder's brings the event, or no piece meets a condition."""
    cost = _ACTION_COSTS.get(event)
    if cost is None or not effects:
        return None
    universe = A.ALL_KINDS if cost is A.CostKind.MOVE else A.ALL_KINDS - {Kind.KING}
    dearest: tuple[int, str] | None = None
    for effect in effects:
        kinds = acting_kinds(effect, universe)
        price, what = cheapest_price(cost, kinds, _CORE, distance_bounds(effect))
        if not kinds or what == "nothing":
            return None
        if dearest is None or price > dearest[0]:
            dearest = (price, what)
    assert dearest is not None
    price, what = dearest
    return Move(
        A.Side.OWN,
        A.Resource.SP,
        False,
        fixed(price, A.Resource.SP),
        f"{what} costs {price} (paid in SP, R05)",
        effects[0].span,
        outside=True,
    )


def _base(window: Window, effects: Sequence[A.Effect]) -> tuple[Share, ...]:
    """What resolves in ``window`` besides the cards: an effect taking SP fires ``on lose SP``; the
    holder's own action, paid in SP at its least (R05), fires ``on move``, ``on hit`` and the like."""
    if window.kind is not WindowKind.EVENT or window.event is None or not effects:
        return ()
    if window.event is A.Event.LOSE_SP:
        return (Share(None, window, (smallest_loss(effects[0].span),), (), None),)
    price = action_price(window.event, effects)
    return () if price is None else (Share(None, window, (price,), (), None),)


def _exchange(window: Window, shares: Sequence[Share]) -> Exchange:
    """The shares of ``window`` as one exchange, in the order their cards are written."""
    ordered = sorted(shares, key=lambda s: _place(s.card))
    return Exchange(window, (*_base(window, tuple(e for s in ordered for e in s.effects)), *ordered))


def _place(card: A.Card | None) -> tuple[str, int, int]:
    return ("", 0, 0) if card is None else (card.span.source, card.span.line, card.span.column)


def _over_cap(exchange: Exchange) -> tuple[int | None, bool]:
    moved, rounds = exchange.moved, exchange.per_turn
    if moved == 0:
        return 0, False
    total = None if moved is None or rounds is None else moved * rounds
    return total, total is None or total > CAP


def alone(card: CardExchanges, activations: int) -> list[Conversion]:
    """What one card converts on its own: each window at a better rate, then the windows at the
    core's rate that add up past 20 SP in a turn."""
    found: list[Conversion] = []
    capped: list[tuple[Exchange, int | None]] = []
    for share in card.shares:
        if not any(m.gain and m.resource is A.Resource.LP for m in share.moves):
            continue  # no LP gained there: nothing converted on its own
        exchange = _exchange(share.window, (share,))
        if exchange.better:
            found.append(Conversion(Breach.RATE, (exchange,)))
        elif exchange.moved != 0 and exchange.gains_lp:
            capped.append((exchange, exchange.per_turn))
    total, used = _turn_total(capped, activations)
    if used and (total is None or total > CAP):
        found.append(Conversion(Breach.CAP, tuple(e for e, _ in used), total, tuple(r for _, r in used)))
    return found


def _turn_total(
    exchanges: Sequence[tuple[Exchange, int | None]], activations: int
) -> tuple[int | None, list[tuple[Exchange, int | None]]]:
    """The most SP these exchanges turn into LP in one turn, and how often each comes round.

    Windows of triggers come round as often as they can; a card played and a Relic used each
    spend one of the ``activations`` of the turn (R17, R22), given to the largest first.
    """
    total: int | None = 0
    used: list[tuple[Exchange, int | None]] = []
    slots: list[tuple[int, Exchange, int]] = []
    for exchange, rounds in exchanges:
        moved = exchange.moved
        if exchange.window.kind in (WindowKind.PLAY, WindowKind.USE) and moved is not None:
            slots.extend((moved, exchange, 1) for _ in range(min(rounds or activations, activations)))
            continue
        total = _add(total, None if moved is None or rounds is None else moved * rounds)
        used.append((exchange, rounds))
    taken: dict[int, tuple[Exchange, int]] = {}
    for moved, exchange, _ in heapq.nlargest(activations, slots, key=lambda s: s[0]):
        total = _add(total, moved)
        count = taken.get(id(exchange), (exchange, 0))[1]
        taken[id(exchange)] = (exchange, count + 1)
    used.extend(taken.values())
    return total, used


# --- several cards ------------------------------------------------------------------------------


def combinations_of(
    cards: Sequence[CardExchanges], alone_found: dict[int, list[Conversion]], activations: int, hand_limit: int
) -> list[Conversion]:
    """Conversions that need several cards: the smallest set per shared window (rate, or its
    rounds a turn past the cap), then the smallest set whose conversions add up past 20 SP a turn.
    Cards that convert on their own are left out (they are reported alone)."""
    found: list[Conversion] = []
    by_window: dict[Window, list[Share]] = {}
    for card in cards:
        if alone_found.get(id(card.card)):
            continue
        for share in card.shares:
            if share.window.shared:
                by_window.setdefault(share.window, []).append(share)
    for window, shares in by_window.items():
        if len(shares) < 2:
            continue
        best = _smallest(window, shares, hand_limit)
        if best is not None:
            found.append(best)
    found.extend(_turn_sets(cards, alone_found, activations, hand_limit, found))
    return found


def _pool(shares: Sequence[Share], window: Window) -> list[Share]:
    """The strongest candidates of a window by role: best rate, most SP given, most LP gained."""
    single = [(_exchange(window, (s,)), s) for s in shares]

    def top(key: Callable[[Exchange], float]) -> list[Share]:
        return [s for _, s in heapq.nlargest(_POOL, single, key=lambda pair: key(pair[0]))]

    def most_lost(e: Exchange) -> float:
        low = _low(e.moves, A.Resource.SP)
        return float("inf") if low is None else -low

    def most_gained(e: Exchange) -> float:
        gained = e.gained
        return float("inf") if gained is None else gained

    picked: dict[int, Share] = {}
    for share in (*top(lambda e: e.advantage), *top(most_lost), *top(most_gained)):
        picked.setdefault(id(share), share)
    return list(picked.values())


def _smallest(window: Window, shares: Sequence[Share], hand_limit: int) -> Conversion | None:
    pool = _pool(shares, window)
    for size in range(2, min(hand_limit, len(pool)) + 1):
        best: tuple[float, Conversion] | None = None
        for chosen in combinations(pool, size):
            exchange = _exchange(window, chosen)
            if exchange.better:
                candidate = Conversion(Breach.RATE, (exchange,))
            else:
                total, over = _over_cap(exchange)
                if not over or not exchange.gains_lp:
                    continue
                candidate = Conversion(Breach.CAP, (exchange,), total, (exchange.per_turn,))
            key = exchange.advantage
            if best is None or key > best[0]:
                best = (key, candidate)
        if best is not None:
            return best[1]
    return None


def _turn_sets(
    cards: Sequence[CardExchanges],
    alone_found: dict[int, list[Conversion]],
    activations: int,
    hand_limit: int,
    reported: Sequence[Conversion],
) -> list[Conversion]:
    """The smallest set of cards whose conversions at the core's rate pass 20 SP in one turn."""
    already = {frozenset(id(c) for c in conversion.cards) for conversion in reported}
    profiles: list[tuple[int, CardExchanges, list[tuple[Exchange, int | None]]]] = []
    for card in cards:
        if alone_found.get(id(card.card)):
            continue
        rounds = []
        for share in card.shares:
            if not any(m.gain and m.resource is A.Resource.LP for m in share.moves):
                continue
            exchange = _exchange(share.window, (share,))
            if not exchange.better and exchange.gains_lp and exchange.moved:
                rounds.append((exchange, exchange.per_turn))
        if rounds:
            total, _ = _turn_total(rounds, activations)
            profiles.append((total if total is not None else CAP + 1, card, rounds))
    pool = heapq.nlargest(_POOL * 2, profiles, key=lambda p: p[0])
    for size in range(2, min(hand_limit, len(pool)) + 1):
        best: tuple[int, Conversion] | None = None
        for chosen in combinations(pool, size):
            if frozenset(id(p[1].card) for p in chosen) in already:
                continue
            total, used = _turn_total([r for p in chosen for r in p[2]], activations)
            if total is not None and total <= CAP:
                continue
            used.sort(key=lambda pair: _place(pair[0].cards[0] if pair[0].cards else None))
            conversion = Conversion(Breach.CAP, tuple(e for e, _ in used), total, tuple(r for _, r in used))
            if len(conversion.cards) < size:
                continue  # a smaller set does it
            key = total if total is not None else CAP * 1000
            if best is None or key > best[0]:
                best = (key, conversion)
        if best is not None:
            return [best[1]]
    return []
