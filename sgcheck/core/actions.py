"""The actions a player can take (core §2-§6), as immutable values.

Dice-bearing actions carry the dice exactly as rolled; :func:`sgcheck.core.legal.legal_actions`
yields them with ``roll=()`` for the caller to fill. ``pay`` is the LP/SP split the players
stated (R05); ``None`` means "SP first, then LP". ``kind`` fields are what the log says
stands on a square; ``None`` means the log did not say.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.squares import Square
from sgcheck.core.state import Payment


class Part(StrEnum):
    """Which part of an action a violation is about, so callers can point at it."""

    ACTION = "action"
    PIECE = "piece"
    TARGET = "target"
    VIA = "via"
    ROLL = "roll"
    REROLL = "reroll"
    AMOUNT = "amount"
    PAY = "pay"


@dataclass(frozen=True, slots=True)
class Summon:
    kind: Kind
    to: Square
    pay: Payment | None = None


@dataclass(frozen=True, slots=True)
class Move:
    frm: Square
    to: Square
    via: Square | None = None
    kind: Kind | None = None
    pay: Payment | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """``second``: the dice of a card's reroll (it counts) or advantage (the better roll counts)."""

    frm: Square
    to: Square
    roll: tuple[int, ...]
    kind: Kind | None = None
    target_kind: Kind | None = None
    pay: Payment | None = None
    second: tuple[int, ...] = ()
    advantage: bool = False


@dataclass(frozen=True, slots=True)
class Convert:
    sp: int


@dataclass(frozen=True, slots=True)
class Teleport:
    frm: Square
    to: Square
    kind: Kind | None = None
    pay: Payment | None = None


@dataclass(frozen=True, slots=True)
class Break:
    roll: tuple[int, ...]
    pay: Payment | None = None


@dataclass(frozen=True, slots=True)
class Repair:
    roll: tuple[int, ...]
    pay: Payment | None = None


@dataclass(frozen=True, slots=True)
class Activate:
    """A use of an activated Relic in play (R17, R22); ``target`` is the piece it acts on, if any.

    In a game without a pack (no cards known) only the activation is counted and the stated
    payment applied.
    """

    card: str
    pay: Payment | None = None
    target: Square | None = None
    target_kind: Kind | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """A card played from hand: a Spell cast or a Relic put into play (R22)."""

    card: str
    target: Square | None = None
    target_kind: Kind | None = None
    pay: Payment | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """A market module's reveal after a capture (R26): the card turned up, and who it is placed before."""

    card: str
    to: Color


@dataclass(frozen=True, slots=True)
class EnterPhase:
    phase: Phase


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Finish the turn: End-phase clean-up, Pass bonus, then the next player's Upkeep income."""


Action = Summon | Move | Attack | Convert | Teleport | Break | Repair | Activate | Play | Reveal | EnterPhase | EndTurn


pickle_by_fields(globals())
