"""The cards of a game as it is played: hands, cards in play, lasting effects (R19, R22, R23).

Immutable like the rest of the state: every change builds a new :class:`CardsState`. A game
played without a pack has none at all (``GameState.cards is None``), so the rules of a
card-free game never look at any of this.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from sgcheck.core.cards.model import Card, Effect
from sgcheck.core.pieces import BLACK, WHITE, Color


class Catalogue(Mapping[str, Card]):
    """The pack's cards by name: read-only, hashable by identity, shared by every state of a game."""

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card]) -> None:
        self._cards: dict[str, Card] = {}
        for card in cards:
            self._cards.setdefault(card.name, card)  # a duplicate name is the contract's SG-C140

    def __getitem__(self, name: str) -> Card:
        return self._cards[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


class Lasting(NamedTuple):
    """One effect acting for a while: a Relic's while it is in play, a Spell's for its duration.

    ``until`` is the last ply (see :func:`ply`) it acts in, None for as long as its card is in
    play; ``attack_only`` effects end with the owner's next attack (``this attack``).
    """

    card: str
    owner: Color
    order: int  # the order its card entered play (R23)
    effect: Effect
    until: int | None = None
    attack_only: bool = False
    fired_in: int = -1  # the last ply a trigger fired in, and how often then and in the game (``limit``)
    fired_turn: int = 0
    fired_game: int = 0

    def may_fire(self, now: int) -> bool:
        limit = self.effect.limit
        if limit is None:
            return True
        used = self.fired_game if limit.period.value == "game" else (self.fired_turn if self.fired_in == now else 0)
        return used < limit.times

    def fired(self, now: int) -> Lasting:
        turn = self.fired_turn + 1 if self.fired_in == now else 1
        return self._replace(fired_in=now, fired_turn=turn, fired_game=self.fired_game + 1)


class InPlay(NamedTuple):
    """A Relic in play, and how often it was used (``limit``, R17)."""

    card: str
    owner: Color
    order: int
    uses_turn: int = 0  # uses in the ply ``used_in``
    used_in: int = -1
    uses_game: int = 0


class CardsState(NamedTuple):
    catalogue: Catalogue
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # by colour: cards kept in the draft, not yet played
    in_play: tuple[InPlay, ...] = ()  # Relics on the table, in the order they entered
    discarded: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # Spells cast, by colour
    lasting: tuple[Lasting, ...] = ()  # effects acting now, in the order their cards entered play
    entered: int = 0  # cards that have entered play so far (the next one's order)

    def hand(self, color: Color) -> tuple[str, ...]:
        return self.hands[color]

    def relic(self, owner: Color, name: str) -> InPlay | None:
        for card in self.in_play:
            if card.owner is owner and card.card == name:
                return card
        return None

    def with_hand(self, color: Color, hand: tuple[str, ...]) -> CardsState:
        hands = (hand, self.hands[1]) if color is WHITE else (self.hands[0], hand)
        return self._replace(hands=hands)

    def discard(self, color: Color, name: str) -> CardsState:
        old = self.discarded[color]
        discarded = ((*old, name), self.discarded[1]) if color is WHITE else (self.discarded[0], (*old, name))
        return self._replace(discarded=discarded)

    def expire(self, now: int) -> CardsState:
        """Drop the effects whose time is over at ply ``now``."""
        kept = tuple(e for e in self.lasting if e.until is None or e.until >= now)
        return self if len(kept) == len(self.lasting) else self._replace(lasting=kept)

    def ordered(self, active: Color) -> Iterator[Lasting]:
        """The lasting effects in the order of R23: the active player's first, each side by entry."""
        for side in (active, active.other):
            for effect in self.lasting:
                if effect.owner is side:
                    yield effect


def ply(turn_number: int, color: Color) -> int:
    """A counter of turns over the whole game: White's turn 1 is 0, Black's turn 1 is 1, ..."""
    return (turn_number - 1) * 2 + (1 if color is BLACK else 0)


def new_cards(catalogue: Catalogue, white: Iterable[str], black: Iterable[str]) -> CardsState:
    """The cards at the start of play: each side's hand is what it kept in the draft (R19)."""
    return CardsState(catalogue, (tuple(white), tuple(black)))
