"""The vocabulary of the card model: enumerations and the small values effects are made of.

Split from :mod:`sgcheck.core.cards.model` (which imports everything from here) to keep modules small.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.record import pickle_by_fields
from sgcheck.diagnostics import Span


class CardKind(StrEnum):
    RELIC = "relic"
    SPELL = "spell"


class Mode(StrEnum):
    """How a card is used. Passive effects never count as activations (core §0, R17)."""

    PASSIVE = "passive"
    ACTIVATED = "activated"
    INSTANT = "instant"

    @property
    def uses_activation(self) -> bool:
        return self is not Mode.PASSIVE


class Resource(StrEnum):
    SP = "SP"
    LP = "LP"


class Side(StrEnum):
    """Whose: the card holder's (own) or the opponent's (enemy)."""

    OWN = "own"
    ENEMY = "enemy"


class Role(StrEnum):
    ATTACKER = "attacker"
    TARGET = "target"


class Cmp(StrEnum):
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "="
    NE = "!="


class CostKind(StrEnum):
    MOVE = "move"
    ATTACK = "attack"
    SUMMON = "summon"
    TELEPORT = "teleport"
    DISTANCE = "distance"
    BREAK = "break"
    REPAIR = "repair"
    CONVERT = "convert"  # the conversion of core §2: a modifier on it changes the rate (R16)

    @property
    def is_action(self) -> bool:
        """An action with a price of its own (``distance`` is a part of several, R05)."""
        return self is not CostKind.DISTANCE


class ExtraKind(StrEnum):
    MOVE = "move"
    ATTACK = "attack"
    SUMMON = "summon"
    TELEPORT = "teleport"
    ACTIVATION = "activation"
    BREAK = "break"
    REPAIR = "repair"


class Event(StrEnum):
    """What a triggered effect waits for, seen from the card holder's side."""

    CAPTURE = "capture"  # you captured a piece
    CAPTURED = "captured"  # one of your pieces was captured
    HIT = "hit"  # your attack hit
    MISS = "miss"  # your attack missed
    ATTACKED = "attacked"  # one of your pieces was attacked
    SUMMON = "summon"
    TELEPORT = "teleport"
    MOVE = "move"
    GAIN_SP = "gain SP"
    GAIN_LP = "gain LP"
    LOSE_SP = "lose SP"
    LOSE_LP = "lose LP"
    PHASE = "phase"  # the start of one of your phases (``at upkeep:``)


class QuantityKind(StrEnum):
    FIXED = "fixed"  # 5 SP
    PER = "per"  # 1 SP per piece in own gem
    SCALED = "scaled"  # SP equal to own SP / 2
    UNLIMITED = "unlimited"


class Countable(StrEnum):
    OWN_GEM = "piece in own gem"
    ENEMY_GEM = "piece in enemy gem"
    OWN_BOARD = "own piece on board"
    ENEMY_BOARD = "enemy piece on board"


class DurationKind(StrEnum):
    THIS_ATTACK = "this attack"
    THIS_TURN = "this turn"
    TURNS = "turns"
    NEXT_TURN = "next turn"  # from the end of this turn to the end of the holder's next turn
    UNTIL_NEXT_TURN = "until your next turn"  # this turn and the opponent's, to the holder's next turn
    PERMANENT = "permanent"


class Period(StrEnum):
    TURN = "turn"
    GAME = "game"


ALL_KINDS: frozenset[Kind] = frozenset(Kind)


# --- small parts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseRef:
    """A phase as written; ``main`` stands for both Main phases."""

    phases: tuple[Phase, ...]
    word: str
    span: Span


@dataclass(frozen=True, slots=True)
class CostItem:
    """``3 SP``, ``2 LP`` or ``4`` (payable from any mix of LP and SP, R05)."""

    amount: int
    resource: Resource | None
    span: Span


@dataclass(frozen=True, slots=True)
class Cost:
    items: tuple[CostItem, ...]
    span: Span

    @property
    def total(self) -> int:
        return sum(item.amount for item in self.items)

    def of(self, resource: Resource) -> int:
        return sum(item.amount for item in self.items if item.resource is resource)


@dataclass(frozen=True, slots=True)
class Target:
    """``own King``, ``enemy pieces``: a side and the piece kinds it covers."""

    side: Side
    kinds: frozenset[Kind]
    word: str
    span: Span

    @property
    def includes_king(self) -> bool:
        return Kind.KING in self.kinds


@dataclass(frozen=True, slots=True)
class Quantity:
    """How much of a resource an effect moves.

    FIXED and PER use ``value`` (PER counts ``per``); SCALED reads the ``scale_side``'s
    ``scale_resource`` times ``multiply`` / ``divide``; UNLIMITED has no bound at all.
    """

    kind: QuantityKind
    resource: Resource
    span: Span
    value: int = 0
    per: Countable | None = None
    scale_side: Side | None = None
    scale_resource: Resource | None = None
    multiply: int = 1
    divide: int = 1


pickle_by_fields(globals())
