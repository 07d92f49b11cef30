"""What the rules are checked against: the ruleset and the limits of the game being played."""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.caps import ACTIVATIONS_PER_TURN, HAND_LIMIT
from sgcheck.core.ruleset import CORE, Ruleset


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
