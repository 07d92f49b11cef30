"""The cards of a game as it is played: hands, cards in play, lasting effects (R19, R22, R23).

Immutable like the rest of the state: every change builds a new :class:`CardsState`. A game
played without a pack has none at all (``GameState.cards is None``), so the rules of a
card-free game never look at any of this.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import ClassVar, Final, final

from sgcheck.core.cards.attack_parts import AttackPart, attack_part
from sgcheck.core.cards.model import Card, CostModifier, Effect, Event, Side
from sgcheck.core.module import Market
from sgcheck.core.pieces import BLACK, WHITE, Color
from sgcheck.core.record import Record


class CardsByName(Mapping[str, Card]):
    """The pack's cards by name: read-only and shared by every state of a game.

    Two of the same cards are equal (two replays of one log reach equal states);
    the hash is computed once, as states are compared far more often than these are built.
    """

    __slots__ = ("_cards", "_hash")

    def __init__(self, cards: Iterable[Card]) -> None:
        self._cards: dict[str, Card] = {}
        for card in cards:
            self._cards.setdefault(card.name, card)  # a duplicate name is the contract's SG-C140
        self._hash = hash(tuple(self._cards))

    def __getitem__(self, name: str) -> Card:
        return self._cards[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, CardsByName) and self._hash == other._hash and self._cards == other._cards

    def __reduce__(self) -> tuple[type[CardsByName], tuple[tuple[Card, ...]]]:
        # By its cards, so the compiled class (no default constructor) unpickles in another
        # process, and the hash is computed again there: a string's hash differs by process.
        return (CardsByName, (tuple(self._cards.values()),))


@final
class Lasting(Record):
    """One effect acting for a while: a Relic's while it is in play, a Spell's for its duration.

    ``until`` is the last ply (see :func:`ply`) it acts in, None for as long as its card is in
    play; ``attack_only`` effects end with the next attack (``this attack``).
    The ``fired_*`` counters count how often it acted, for its ``limit`` and an extra action's
    count: a trigger each time it fires, a modifier each time it changes an attack or a cost,
    an extra action each time one is taken (R23).
    """

    __match_args__: ClassVar[tuple[str, ...]] = (
        "card",
        "owner",
        "order",
        "effect",
        "until",
        "attack_only",
        "fired_in",
        "fired_turn",
        "fired_game",
    )
    __slots__ = __match_args__

    card: Final[str]
    owner: Final[Color]
    order: Final[int]  # the order its card entered play (R23)
    effect: Final[Effect]
    until: Final[int | None]
    attack_only: Final[bool]
    fired_in: Final[int]  # the last ply it acted in, and how often then and in the game (``limit``)
    fired_turn: Final[int]
    fired_game: Final[int]

    def __init__(
        self,
        card: str,
        owner: Color,
        order: int,
        effect: Effect,
        until: int | None = None,
        attack_only: bool = False,
        fired_in: int = -1,
        fired_turn: int = 0,
        fired_game: int = 0,
    ) -> None:
        self.card = card
        self.owner = owner
        self.order = order
        self.effect = effect
        self.until = until
        self.attack_only = attack_only
        self.fired_in = fired_in
        self.fired_turn = fired_turn
        self.fired_game = fired_game

    def may_fire(self, now: int) -> bool:
        """Whether its ``limit`` lets it act (fire, change an attack or a cost) once more at ply ``now``."""
        limit = self.effect.limit
        if limit is None:
            return True
        used = self.fired_game if limit.period.value == "game" else self.used_in(now)
        return used < limit.times

    def used_in(self, now: int) -> int:
        """How often it acted in ply ``now``."""
        return self.fired_turn if self.fired_in == now else 0

    def fired(self, now: int) -> Lasting:
        turn = self.fired_turn + 1 if self.fired_in == now else 1
        return self.replace(fired_in=now, fired_turn=turn, fired_game=self.fired_game + 1)


@final
class InPlay(Record):
    """A Relic in play, and how often it was used (``limit``, R17)."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "card",
        "owner",
        "order",
        "uses_turn",
        "used_in",
        "uses_game",
    )
    __slots__ = __match_args__

    card: Final[str]
    owner: Final[Color]
    order: Final[int]
    uses_turn: Final[int]  # uses in the ply ``used_in``
    used_in: Final[int]
    uses_game: Final[int]

    def __init__(
        self,
        card: str,
        owner: Color,
        order: int,
        uses_turn: int = 0,
        used_in: int = -1,
        uses_game: int = 0,
    ) -> None:
        self.card = card
        self.owner = owner
        self.order = order
        self.uses_turn = uses_turn
        self.used_in = used_in
        self.uses_game = uses_game


#: The events of SP and LP changing hands.
GAIN_LOSE = (Event.GAIN_SP, Event.LOSE_SP, Event.GAIN_LP, Event.LOSE_LP)


@final
class LastingIndex(Record):
    """What a tuple of lasting effects holds, for the rules that ask on every action.

    A game with cards consults its lasting effects on every move, attack and phase; most of
    them concern neither (a damage reduction on a move, a trigger waiting for a capture). The
    rules ask this first and skip the scan when nothing can apply.
    """

    __match_args__: ClassVar[tuple[str, ...]] = (
        "ordered",
        "events",
        "resources",
        "costs",
        "limited",
        "attack_only",
        "last_until",
        "quiet",
        "attacking",
    )
    __slots__ = __match_args__

    ordered: Final[tuple[tuple[Lasting, ...], tuple[Lasting, ...]]]  # R23's order with White, Black active
    events: Final[tuple[Event, ...]]  # the events some trigger waits for (a tuple: members compare by identity)
    resources: Final[bool]  # a trigger waits for SP or LP to be gained or lost
    costs: Final[bool]  # a cost modifier acts
    limited: Final[bool]  # an effect with a ``limit``
    attack_only: Final[bool]  # an effect that ends with its owner's attack
    last_until: Final[int | None]  # the earliest ply an effect ends after (None: none ends)
    quiet: Final[bool]  # no trigger waits and no effect ends: a turn can end and begin without them
    # per active colour, R23's order: the effects that change its attacks, each with what it adds
    attacking: Final[tuple[tuple[tuple[Lasting, AttackPart], ...], tuple[tuple[Lasting, AttackPart], ...]]]

    def __init__(
        self,
        ordered: tuple[tuple[Lasting, ...], tuple[Lasting, ...]],
        events: tuple[Event, ...],
        resources: bool,
        costs: bool,
        limited: bool,
        attack_only: bool,
        last_until: int | None,
        quiet: bool,
        attacking: tuple[tuple[tuple[Lasting, AttackPart], ...], tuple[tuple[Lasting, AttackPart], ...]],
    ) -> None:
        self.ordered = ordered
        self.events = events
        self.resources = resources
        self.costs = costs
        self.limited = limited
        self.attack_only = attack_only
        self.last_until = last_until
        self.quiet = quiet
        self.attacking = attacking


def lasting_index(lasting: tuple[Lasting, ...]) -> LastingIndex:
    """What ``lasting`` holds (see :class:`LastingIndex`)."""
    white = tuple(e for e in lasting if e.owner is WHITE)
    black = tuple(e for e in lasting if e.owner is BLACK)
    events = tuple(dict.fromkeys(e.effect.trigger.event for e in lasting if e.effect.trigger is not None))
    last_until = min((e.until for e in lasting if e.until is not None), default=None)
    return LastingIndex(
        ordered=(white + black, black + white),
        events=events,
        resources=any(event in GAIN_LOSE for event in events),
        costs=any(isinstance(e.effect.action, CostModifier) and e.effect.trigger is None for e in lasting),
        limited=any(e.effect.limit is not None for e in lasting),
        attack_only=any(e.attack_only for e in lasting),
        last_until=last_until,
        quiet=not events and last_until is None,
        attacking=(_attacking(white + black, WHITE), _attacking(black + white, BLACK)),
    )


def _attacking(ordered: tuple[Lasting, ...], actor: Color) -> tuple[tuple[Lasting, AttackPart], ...]:
    """The effects that change ``actor``'s attacks: its own ``own`` parts, the other side's ``enemy`` ones."""
    found = []
    for item in ordered:
        part = attack_part(item.effect)
        if part is None or (item.effect.trigger is not None and not part.on_hit):
            continue
        if (item.owner is actor) == (part.scope is Side.OWN):
            found.append((item, part))
    return tuple(found)


NO_LASTING = lasting_index(())


@final
class MarketPlay(Record):
    """A market module in play (R26): the deck, what has been revealed, the card before each player
    (its name and the order it entered play, R23) and the cards the one-card rule discarded."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "market",
        "revealed",
        "before",
        "discarded",
        "due",
    )
    __slots__ = __match_args__

    market: Final[Market]
    revealed: Final[tuple[str, ...]]
    before: Final[tuple[tuple[str, int] | None, tuple[str, int] | None]]
    discarded: Final[tuple[str, ...]]
    due: Final[bool]  # a capture waits for its reveal

    def __init__(
        self,
        market: Market,
        revealed: tuple[str, ...] = (),
        before: tuple[tuple[str, int] | None, tuple[str, int] | None] = (None, None),
        discarded: tuple[str, ...] = (),
        due: bool = False,
    ) -> None:
        self.market = market
        self.revealed = revealed
        self.before = before
        self.discarded = discarded
        self.due = due

    def card_before(self, color: Color) -> str | None:
        slot = self.before[color]
        return slot[0] if slot is not None else None


@final
class CardsState(Record):
    __match_args__: ClassVar[tuple[str, ...]] = (
        "by_name",
        "hands",
        "in_play",
        "discarded",
        "lasting",
        "entered",
        "prices",
        "lasting_index",
        "pending",
        "market",
    )
    __slots__ = __match_args__

    by_name: Final[CardsByName]
    hands: Final[tuple[tuple[str, ...], tuple[str, ...]]]  # by colour: cards kept in the draft, not yet played
    in_play: Final[tuple[InPlay, ...]]  # Relics on the table, in the order they entered
    discarded: Final[tuple[tuple[str, ...], tuple[str, ...]]]  # Spells cast, by colour
    lasting: Final[tuple[Lasting, ...]]  # effects acting now, in the order their cards entered play
    entered: Final[int]  # cards that have entered play so far (the next one's order)
    # trigger prices paid so far, by colour, as (SP, LP): a price paid is not a loss (R23)
    prices: Final[tuple[tuple[int, int], tuple[int, int]]]
    # what ``lasting`` holds, kept with it by :meth:`with_lasting` (the rules ask on every action)
    lasting_index: Final[LastingIndex]
    # effects waiting for a later ply (``next turn``): (first ply, effect), joining ``lasting`` then
    pending: Final[tuple[tuple[int, Lasting], ...]]
    # a market module (R26): the deck and the card before each player; None without one
    market: Final[MarketPlay | None]

    def __init__(
        self,
        by_name: CardsByName,
        hands: tuple[tuple[str, ...], tuple[str, ...]],
        in_play: tuple[InPlay, ...] = (),
        discarded: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
        lasting: tuple[Lasting, ...] = (),
        entered: int = 0,
        prices: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
        lasting_index: LastingIndex = NO_LASTING,
        pending: tuple[tuple[int, Lasting], ...] = (),
        market: MarketPlay | None = None,
    ) -> None:
        self.by_name = by_name
        self.hands = hands
        self.in_play = in_play
        self.discarded = discarded
        self.lasting = lasting
        self.entered = entered
        self.prices = prices
        self.lasting_index = lasting_index
        self.pending = pending
        self.market = market

    def hand(self, color: Color) -> tuple[str, ...]:
        return self.hands[color]

    def relic(self, owner: Color, name: str) -> InPlay | None:
        for card in self.in_play:
            if card.owner is owner and card.card == name:
                return card
        return None

    def with_hand(self, color: Color, hand: tuple[str, ...]) -> CardsState:
        hands = (hand, self.hands[1]) if color is WHITE else (self.hands[0], hand)
        return self.replace(hands=hands)

    def discard(self, color: Color, name: str) -> CardsState:
        old = self.discarded[color]
        discarded = ((*old, name), self.discarded[1]) if color is WHITE else (self.discarded[0], (*old, name))
        return self.replace(discarded=discarded)

    def priced(self, color: Color, sp: int, lp: int) -> CardsState:
        """``color`` paid a trigger's price."""
        old = self.prices[color]
        paid = (old[0] + sp, old[1] + lp)
        prices = (paid, self.prices[1]) if color is WHITE else (self.prices[0], paid)
        return self.replace(prices=prices)

    def counted(self, items: Iterable[Lasting], now: int) -> CardsState:
        """Each of ``items`` (entries of :attr:`lasting`) acted once more at ply ``now``."""
        acted = {id(item) for item in items}
        if not acted:
            return self
        return self.with_lasting(tuple(e.fired(now) if id(e) in acted else e for e in self.lasting))

    def expire(self, now: int) -> CardsState:
        """Drop the effects whose time is over at ply ``now``; those waiting for it start."""
        cards = self._started(now) if self.pending else self
        last = cards.lasting_index.last_until
        if last is None or last >= now:
            return cards  # nothing ends before ``now``
        kept = tuple(e for e in cards.lasting if e.until is None or e.until >= now)
        return cards if len(kept) == len(cards.lasting) else cards.with_lasting(kept)

    def later(self, start: int, item: Lasting) -> CardsState:
        """``item`` acts from ply ``start`` on (``next turn``)."""
        return self.replace(pending=(*self.pending, (start, item)))

    def _started(self, now: int) -> CardsState:
        """The waiting effects whose first ply has come join the lasting ones, in entry order (R23)."""
        due = tuple(item for start, item in self.pending if start <= now)
        if not due:
            return self
        waiting = tuple((start, item) for start, item in self.pending if start > now)
        lasting = tuple(sorted((*self.lasting, *due), key=lambda e: e.order))  # stable: same order keeps its place
        return self.replace(pending=waiting).with_lasting(lasting)

    def with_lasting(self, lasting: tuple[Lasting, ...]) -> CardsState:
        """These cards with other lasting effects: the one way to change them, so that
        :attr:`lasting_index` always describes :attr:`lasting`."""
        return self.replace(lasting=lasting, lasting_index=lasting_index(lasting))

    def acting(self, active: Color, now: int) -> tuple[Lasting, ...]:
        """The lasting effects that may act at ply ``now``, in the order of R23: one with a
        ``limit`` only while the limit lets it (a spent one does not change an attack or a cost)."""
        ordered = self.lasting_index.ordered[active]
        if not self.lasting_index.limited:
            return ordered
        return tuple(e for e in ordered if e.effect.limit is None or e.may_fire(now))

    def ordered(self, active: Color) -> tuple[Lasting, ...]:
        """The lasting effects in the order of R23: the active player's first, each side by entry."""
        return self.lasting_index.ordered[active]


def ply(turn_number: int, color: Color) -> int:
    """A counter of turns over the whole game: White's turn 1 is 0, Black's turn 1 is 1, ..."""
    return (turn_number - 1) * 2 + (1 if color is BLACK else 0)


def new_cards(by_name: CardsByName, white: Iterable[str], black: Iterable[str]) -> CardsState:
    """The cards at the start of play: each side's hand is what it kept in the draft (R19).

    A name the pack does not hold is not in the hand: the draft reported it (SG-S106), and
    playing it later is a card the player does not hold (SG-R120), never a lookup that fails."""
    return CardsState(by_name, (tuple(c for c in white if c in by_name), tuple(c for c in black if c in by_name)))
