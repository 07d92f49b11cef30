"""What an effect does: one frozen dataclass per action of the card language.

Split from :mod:`sgcheck.core.cards.model` (which imports everything from here) to keep modules small.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.cards.parts import CostKind, ExtraKind, PhaseRef, Quantity, Resource, Side, Target
from sgcheck.core.record import pickle_by_fields
from sgcheck.diagnostics import Span


@dataclass(frozen=True, slots=True)
class CostModifier:
    """``cost move -1``: adds ``delta`` to what an action costs.

    ``only`` narrows a ``distance`` modifier to one kind of action (``cost summon distance -1``);
    ``who`` is whose actions it prices: the holder's, or the opponent's (``opponent cost move +1``).
    """

    cost: CostKind
    delta: int
    resource: Resource | None
    span: Span
    only: CostKind | None = None
    who: Side = Side.OWN
    scale: int = 0  # ``double cost repair`` 1, ``halve cost summon`` -1 (then ``delta`` is 0)

    @property
    def word(self) -> str:
        """How the change reads: ``-1``, ``doubled`` or ``halved``."""
        return _SCALE_WORDS.get(self.scale) or f"{self.delta:+d}"


@dataclass(frozen=True, slots=True)
class ToHitModifier:
    """``to_hit +10``; ``scope`` is whose attacks it changes (own, or enemy attacks on you)."""

    delta: int
    scope: Side
    span: Span


@dataclass(frozen=True, slots=True)
class DamageModifier:
    """``damage +1``: damage added to each hit of the attacks in ``scope``; ``double damage``
    (``scale`` 1) and ``halve damage`` (``scale`` -1) multiply the hit instead (``delta`` 0)."""

    delta: int
    scope: Side
    span: Span
    scale: int = 0

    @property
    def word(self) -> str:
        return _SCALE_WORDS.get(self.scale) or f"{self.delta:+d}"


_SCALE_WORDS = {1: "doubled", -1: "halved"}


@dataclass(frozen=True, slots=True)
class DamageReduction:
    """``reduce damage by 2 on own King``."""

    amount: int
    target: Target
    span: Span


@dataclass(frozen=True, slots=True)
class Reroll:
    """``reroll accuracy`` or ``advantage``; ``count`` sources on one accuracy roll."""

    word: str
    count: int
    scope: Side
    span: Span


@dataclass(frozen=True, slots=True)
class ResourceChange:
    """``gain 2 SP`` / ``lose 1 LP`` / ``opponent loses 3 SP``; ``who`` is the side that changes."""

    who: Side
    gain: bool
    quantity: Quantity
    span: Span


@dataclass(frozen=True, slots=True)
class Steal:
    """``steal 5 SP``: the opponent loses what you gain."""

    quantity: Quantity
    span: Span


@dataclass(frozen=True, slots=True)
class ExtraAction:
    """``extra attack in battle``: more actions inside an existing phase; ``count`` None = unlimited."""

    action: ExtraKind
    count: int | None
    phase: PhaseRef | None
    span: Span


@dataclass(frozen=True, slots=True)
class ExtraPhase:
    """``extra phase movement after main1``: a whole new phase in the turn."""

    name: str
    after: PhaseRef | None
    span: Span


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """``extra turn``: the holder plays again; a change of the turn structure (core §8)."""

    span: Span


@dataclass(frozen=True, slots=True)
class ConvertResource:
    """``convert 2 SP to 1 LP``: the holder gives ``give`` of one resource for ``get`` of the other."""

    give: int
    give_resource: Resource
    get: int
    get_resource: Resource
    span: Span

    @property
    def is_conversion(self) -> bool:
        """SP into LP: the conversion of core §2, bound by its rate and cap (R16)."""
        return self.give_resource is Resource.SP and self.get_resource is Resource.LP


@dataclass(frozen=True, slots=True)
class SkipPhase:
    phase: PhaseRef
    span: Span


@dataclass(frozen=True, slots=True)
class SwapPhases:
    first: PhaseRef
    second: PhaseRef
    span: Span


@dataclass(frozen=True, slots=True)
class SetParameter:
    """``set value.rook to 6``: overwrite a number of the core (see :mod:`card_vocab`)."""

    parameter: str
    value: int
    span: Span


@dataclass(frozen=True, slots=True)
class DenyRepair:
    span: Span


@dataclass(frozen=True, slots=True)
class DealDamage:
    """``deal 2 damage to enemy Rook``: damage outside an attack."""

    amount: int
    target: Target
    span: Span


@dataclass(frozen=True, slots=True)
class CapturePiece:
    target: Target
    span: Span


@dataclass(frozen=True, slots=True)
class ConvertPiece:
    target: Target
    span: Span


Action = (
    CostModifier
    | ToHitModifier
    | DamageModifier
    | DamageReduction
    | Reroll
    | ResourceChange
    | Steal
    | ExtraAction
    | ExtraPhase
    | ExtraTurn
    | ConvertResource
    | SkipPhase
    | SwapPhases
    | SetParameter
    | DenyRepair
    | DealDamage
    | CapturePiece
    | ConvertPiece
)


pickle_by_fields(globals())
