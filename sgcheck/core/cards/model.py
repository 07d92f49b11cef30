"""Typed, immutable model of Relic & Spell cards.

Both card front-ends (the ``.sgcard`` language in :mod:`sgcheck.lang.cards.parser` and YAML
in :mod:`sgcheck.lang.cards.yaml_loader`) load into these nodes, and the contract checker only
ever sees this model. Every node carries a :class:`~sgcheck.diagnostics.Span` so a finding
points at the text that caused it. The model records what a card *says*, including what
the contract forbids (rewriting core numbers, inserting phases, damaging the King
directly): whether that is allowed is the checker's business, not the parser's.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.cards.effects import (
    Action,
    CapturePiece,
    ConvertPiece,
    ConvertResource,
    CostModifier,
    DamageModifier,
    DamageReduction,
    DealDamage,
    DenyRepair,
    ExtraAction,
    ExtraPhase,
    ExtraTurn,
    Reroll,
    ResourceChange,
    SetParameter,
    SkipPhase,
    Steal,
    SwapPhases,
    ToHitModifier,
)
from sgcheck.core.cards.parts import (
    ALL_KINDS,
    CardKind,
    Cmp,
    Cost,
    CostItem,
    CostKind,
    Countable,
    DurationKind,
    Event,
    ExtraKind,
    Mode,
    Period,
    PhaseRef,
    Quantity,
    QuantityKind,
    Resource,
    Role,
    Side,
    Target,
)
from sgcheck.core.pieces import Kind
from sgcheck.core.record import pickle_by_fields
from sgcheck.diagnostics import Diagnostic, Span

__all__ = [
    "ALL_KINDS",
    "Action",
    "CapturePiece",
    "Card",
    "CardFile",
    "CardKind",
    "Cmp",
    "Condition",
    "ConvertPiece",
    "ConvertResource",
    "Cost",
    "CostItem",
    "CostKind",
    "CostModifier",
    "Countable",
    "DamageModifier",
    "DamageReduction",
    "DealDamage",
    "DenyRepair",
    "DistanceIs",
    "Duration",
    "DurationKind",
    "Effect",
    "Event",
    "ExtraAction",
    "ExtraKind",
    "ExtraPhase",
    "ExtraTurn",
    "GemIs",
    "InCamp",
    "Limit",
    "Mode",
    "Period",
    "PhaseRef",
    "PieceIs",
    "Predicate",
    "Quantity",
    "QuantityKind",
    "Reroll",
    "Resource",
    "ResourceChange",
    "ResourceIs",
    "Role",
    "SetParameter",
    "Side",
    "SkipPhase",
    "Steal",
    "SwapPhases",
    "Target",
    "ToHitModifier",
    "Trigger",
]

# --- conditions, triggers, durations, limits -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class PieceIs:
    """``attacker is Knight or Bishop`` / ``target is not King``."""

    role: Role
    kinds: frozenset[Kind]
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class DistanceIs:
    cmp: Cmp
    value: int
    span: Span


@dataclass(frozen=True, slots=True)
class InCamp:
    """``attacker in enemy camp`` / ``target not in own camp``."""

    role: Role
    side: Side
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class GemIs:
    side: Side
    broken: bool
    span: Span


@dataclass(frozen=True, slots=True)
class ResourceIs:
    """``own SP >= 10``."""

    side: Side
    resource: Resource
    cmp: Cmp
    value: int
    span: Span


Predicate = PieceIs | DistanceIs | InCamp | GemIs | ResourceIs


@dataclass(frozen=True, slots=True)
class Condition:
    """All predicates must hold (a conjunction)."""

    predicates: tuple[Predicate, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Trigger:
    """``on capture:`` or ``at upkeep:``; ``pay`` is a cost paid each time it fires."""

    event: Event
    phase: PhaseRef | None
    pay: Cost | None
    span: Span

    @property
    def label(self) -> str:
        if self.event is Event.PHASE and self.phase is not None:
            return f"at {self.phase.word}"
        return f"on {self.event.value}"


@dataclass(frozen=True, slots=True)
class Duration:
    kind: DurationKind
    turns: int | None
    span: Span


@dataclass(frozen=True, slots=True)
class Limit:
    """``limit once per turn``."""

    times: int
    period: Period
    span: Span


@dataclass(frozen=True, slots=True)
class Effect:
    action: Action
    span: Span
    trigger: Trigger | None = None
    condition: Condition | None = None
    duration: Duration | None = None
    limit: Limit | None = None


@dataclass(frozen=True, slots=True)
class Card:
    kind: CardKind
    name: str
    mode: Mode
    span: Span
    name_span: Span
    cost: Cost | None = None
    phase: PhaseRef | None = None
    text: str | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class CardFile:
    """The cards of one file, and the diagnostics of the cards that could not be read."""

    source: str
    cards: tuple[Card, ...]
    diagnostics: tuple[Diagnostic, ...]


pickle_by_fields(globals())
