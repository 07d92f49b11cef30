"""What the rules are checked against: the ruleset and the limits of the game being played."""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.caps import ACTIVATIONS_PER_TURN, HAND_LIMIT
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario


@dataclass(frozen=True, slots=True)
class CheckContext:
    """The ruleset (a pack may name house rules) and the limits a player's options depend on.

    ``hand_limit`` is R19's 3 unless a pack's draft settings raise it explicitly. ``kept`` is how
    many cards a player keeps in the draft (R19's 3 of the 5 drawn, or the pack's draft settings):
    a player never holds more of the pack's own cards over a whole game, since cards are never
    drawn again. ``market`` is a market module's deck, copies included (R26): each card revealed is
    placed before either player, one before each at most, beside the cards the draft kept.
    ``scenario`` is the pack's scenario (R24), the position its games start from.
    """

    ruleset: Ruleset = CORE
    hand_limit: int = HAND_LIMIT
    activations: int = ACTIVATIONS_PER_TURN
    kept: int = HAND_LIMIT
    market: tuple[str, ...] = ()
    scenario: Scenario | None = None

    @property
    def held(self) -> int:
        """The most of the pack's cards one player can have together over a game: what the draft
        keeps, never more than a hand holds (R19)."""
        return min(self.kept, self.hand_limit)

    @property
    def king_can_attack(self) -> bool:
        """Under the core the King has no value and cannot attack (R09)."""
        return self.ruleset.king_value is not None
