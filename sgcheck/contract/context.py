"""What the rules are checked against: the ruleset and the limits of the game being played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sgcheck.core.caps import ACTIVATIONS_PER_TURN, HAND_LIMIT
from sgcheck.core.ruleset import CORE, Ruleset

if TYPE_CHECKING:
    from sgcheck.contract.facts import PackFacts
    from sgcheck.lang.cards.ast import Card


@dataclass(frozen=True, slots=True)
class CheckContext:
    """The ruleset (a pack may name house rules) and the limits a player's options depend on.

    ``hand_limit`` is R19's 3 unless a pack's draft settings raise it explicitly.
    """

    ruleset: Ruleset = CORE
    hand_limit: int = HAND_LIMIT
    activations: int = ACTIVATIONS_PER_TURN

    @property
    def king_can_attack(self) -> bool:
        """Under the core the King has no value and cannot attack (R09)."""
        return self.ruleset.king_value is not None


@dataclass(frozen=True, slots=True)
class PackView:
    """What pack-level rules look at: every card of a pack that could be read, and the pack's
    facts (:class:`~sgcheck.contract.facts.PackFacts`, built once per pack by the engine), whose
    cached analyses every pack rule reads instead of computing its own."""

    name: str
    facts: PackFacts

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.facts.cards
