"""Modules from related games (R26) as data the rules consult, never a code path of their own.

A module is the ``module:`` section of a pack manifest (docs/modules.md). Two kinds exist:

- a **market** (Spell Chess): after each capture the capturer reveals the top card of a shared
  deck and places it before either player; at most one card before each player, a new one
  discarding the old. A card before a player acts as that player's card in play: its effects
  join the lasting effects of :class:`~sgcheck.core.cards.table.CardsState` (R22, R23), and
  leave them when the card is discarded.
- **shields** (Soul Master): what guards which pieces. ``reduce`` is a bounded damage reduction
  on each hit, the allowed reading of R26, played as a permanent ``reduce damage by N on own
  PIECES`` effect for each side; ``dice`` (the seed's shield dice) and ``first_player_skips``
  change the core and are never played: the contract checker reports them (core §8).
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.cards.effects import DamageReduction
from sgcheck.core.cards.model import Duration, Effect
from sgcheck.core.cards.parts import DurationKind, Side, Target
from sgcheck.core.pieces import Kind
from sgcheck.core.record import pickle_by_fields
from sgcheck.diagnostics import Span


@dataclass(frozen=True, slots=True)
class Market:
    """Spell Chess's reveal-on-capture: the deck (card names of the pack) and whether its order
    is committed before play (R26): then each reveal must be the deck's next card."""

    deck: tuple[str, ...]
    ordered: bool = True

    def next_card(self, revealed: tuple[str, ...]) -> str | None:
        """The card on top of the deck after ``revealed``; None once it is exhausted (ordered deck)."""
        return self.deck[len(revealed)] if len(revealed) < len(self.deck) else None

    def remaining(self, revealed: tuple[str, ...]) -> int:
        return max(0, len(self.deck) - len(revealed))

    def copies_left(self, card: str, revealed: tuple[str, ...]) -> int:
        """How many copies of ``card`` an unordered deck still holds."""
        return self.deck.count(card) - revealed.count(card)


@dataclass(frozen=True, slots=True)
class Shields:
    """Soul Master's shields: the pieces they guard and how (see the module docstring)."""

    guard: frozenset[Kind]
    dice: tuple[int, ...] = ()  # shield dice, outer to inner (the seed: 2, 4, 6); breaks core §8
    reduce: int = 0  # a bounded damage reduction on each hit of a guarded piece (R26's allowed reading)

    @property
    def guards_king(self) -> bool:
        return Kind.KING in self.guard


@dataclass(frozen=True, slots=True)
class Module:
    name: str
    market: Market | None = None
    shields: Shields | None = None
    first_player_skips: str | None = None  # a phase the first player skips on its first turn (breaks §2)

    @property
    def playable(self) -> bool:
        """Nothing in it changes the core (the loader refuses the rest before play)."""
        return self.first_player_skips is None and (self.shields is None or not self.shields.dice)


#: How a module's own effects are named among the cards in play (reports, R23's order).
def module_card_name(module: Module) -> str:
    return f"module: {module.name}"


def shield_effects(shields: Shields, span: Span) -> tuple[Effect, ...]:
    """The shields' damage reduction as the card effect it is: ``reduce damage by N on own PIECES``,
    permanent (played for each side, so the core's damage rules consult it as any card's)."""
    if not shields.reduce:
        return ()
    kinds = sorted(shields.guard, key=lambda kind: kind.value)
    word = "own " + " and ".join(kind.title for kind in kinds)
    target = Target(Side.OWN, frozenset(shields.guard), word, span)
    action = DamageReduction(shields.reduce, target, span)
    return (Effect(action, span, duration=Duration(DurationKind.PERMANENT, None, span)),)


pickle_by_fields(globals())
