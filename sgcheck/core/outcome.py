"""What applying an action produced: a new state and its effects, or the reasons it is illegal.

``Effects``, ``Applied`` and ``Rejected`` are named tuples for the reason given in
:mod:`sgcheck.core.state`: one of each is built for nearly every replayed action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sgcheck.core.actions import Part
from sgcheck.core.cards.semantics import AttackCards
from sgcheck.core.formulas import Worked
from sgcheck.core.pieces import Piece
from sgcheck.core.state import GameResult, GameState, Payment
from sgcheck.diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal action: the finding, and which part of the action it is about."""

    diagnostic: Diagnostic
    part: Part = Part.ACTION


class Effects(NamedTuple):
    """Everything a legal action did that a log may claim; ``None`` where it does not apply."""

    cost_worked: Worked | None = None
    paid: Payment | None = None
    threshold_worked: Worked | None = None
    d100: int | None = None
    hit: bool | None = None
    damage: int | None = None
    captured: Piece | None = None
    king_damage: int | None = None  # defending King's total after the attack
    king_converted: bool = False
    dice_total: int | None = None
    success: bool | None = None
    returned_pieces: int = 0  # pieces returned to the breaker's Gem
    sp_gained: int = 0
    lp_gained: int = 0
    passed: bool = False  # EndTurn: the Pass bonus was applied
    income: int | None = None  # EndTurn: the next player's Upkeep income
    result: GameResult | None = None  # the game ended with this action
    cards: AttackCards | None = None  # the card effects on an attack (each card's share, R20)

    @staticmethod
    def of_payment(cost: Worked, paid: Payment) -> Effects:
        """The effects of an action that only costs something (move, summon, teleport).

        Builds the tuple directly: this runs for most replayed actions, and the generated
        constructor's handling of seventeen keyword defaults is most of its cost.
        """
        return _new(Effects, (cost, paid, *_AFTER_PAYMENT))

    @property
    def cost(self) -> int | None:
        return None if self.cost_worked is None else self.cost_worked.value

    @property
    def cost_detail(self) -> str:
        return "" if self.cost_worked is None else self.cost_worked.detail

    @property
    def threshold(self) -> int | None:
        return None if self.threshold_worked is None else self.threshold_worked.value

    @property
    def threshold_detail(self) -> str:
        return "" if self.threshold_worked is None else self.threshold_worked.detail


_new = tuple.__new__
_AFTER_PAYMENT = Effects()[2:]  # every field after cost_worked and paid, at its default


class Applied(NamedTuple):
    state: GameState
    effects: Effects


class Rejected(NamedTuple):
    violations: tuple[Violation, ...]

    @property
    def first(self) -> Violation:
        return self.violations[0]


Step = Applied | Rejected
