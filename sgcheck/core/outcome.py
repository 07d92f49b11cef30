"""What applying an action produced: a new state and its effects, or the reasons it is illegal.

``Effects``, ``Applied`` and ``Rejected`` are immutable records (:mod:`sgcheck.core.record`),
as the state is: one of each is built for nearly every replayed action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, final

from sgcheck.core.actions import Part
from sgcheck.core.cards.semantics import AttackCards
from sgcheck.core.formulas import Worked
from sgcheck.core.pieces import Piece
from sgcheck.core.record import Record, pickle_by_fields
from sgcheck.core.state import GameResult, GameState, Payment
from sgcheck.diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal action: the finding, and which part of the action it is about."""

    diagnostic: Diagnostic
    part: Part = Part.ACTION


@final
class Effects(Record):
    """Everything a legal action did that a log may claim; ``None`` where it does not apply."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "cost_worked",
        "paid",
        "threshold_worked",
        "d100",
        "hit",
        "damage",
        "captured",
        "king_damage",
        "king_converted",
        "dice_total",
        "success",
        "returned_pieces",
        "sp_gained",
        "lp_gained",
        "passed",
        "income",
        "result",
        "cards",
    )
    __slots__ = __match_args__

    cost_worked: Final[Worked | None]
    paid: Final[Payment | None]
    threshold_worked: Final[Worked | None]
    d100: Final[int | None]
    hit: Final[bool | None]
    damage: Final[int | None]
    captured: Final[Piece | None]
    king_damage: Final[int | None]  # defending King's total after the attack
    king_converted: Final[bool]
    dice_total: Final[int | None]
    success: Final[bool | None]
    returned_pieces: Final[int]  # pieces returned to the breaker's Gem
    sp_gained: Final[int]
    lp_gained: Final[int]
    passed: Final[bool]  # EndTurn: the Pass bonus was applied
    income: Final[int | None]  # EndTurn: the next player's Upkeep income
    result: Final[GameResult | None]  # the game ended with this action
    cards: Final[AttackCards | None]  # the card effects on an attack (each card's share, R20)

    def __init__(
        self,
        cost_worked: Worked | None = None,
        paid: Payment | None = None,
        threshold_worked: Worked | None = None,
        d100: int | None = None,
        hit: bool | None = None,
        damage: int | None = None,
        captured: Piece | None = None,
        king_damage: int | None = None,
        king_converted: bool = False,
        dice_total: int | None = None,
        success: bool | None = None,
        returned_pieces: int = 0,
        sp_gained: int = 0,
        lp_gained: int = 0,
        passed: bool = False,
        income: int | None = None,
        result: GameResult | None = None,
        cards: AttackCards | None = None,
    ) -> None:
        self.cost_worked = cost_worked
        self.paid = paid
        self.threshold_worked = threshold_worked
        self.d100 = d100
        self.hit = hit
        self.damage = damage
        self.captured = captured
        self.king_damage = king_damage
        self.king_converted = king_converted
        self.dice_total = dice_total
        self.success = success
        self.returned_pieces = returned_pieces
        self.sp_gained = sp_gained
        self.lp_gained = lp_gained
        self.passed = passed
        self.income = income
        self.result = result
        self.cards = cards

    @staticmethod
    def of_payment(cost: Worked, paid: Payment) -> Effects:
        """The effects of an action that only costs something (move, summon, teleport)."""
        return Effects(cost, paid)

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


@final
class Applied(Record):
    __match_args__: ClassVar[tuple[str, ...]] = ("state", "effects")
    __slots__ = __match_args__

    state: Final[GameState]
    effects: Final[Effects]

    def __init__(self, state: GameState, effects: Effects) -> None:
        self.state = state
        self.effects = effects


@final
class Rejected(Record):
    __match_args__: ClassVar[tuple[str, ...]] = ("violations",)
    __slots__ = __match_args__

    violations: Final[tuple[Violation, ...]]

    def __init__(self, violations: tuple[Violation, ...]) -> None:
        self.violations = violations

    @property
    def first(self) -> Violation:
        return self.violations[0]


Step = Applied | Rejected


pickle_by_fields(globals())
