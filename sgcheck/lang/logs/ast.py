"""Typed, immutable syntax tree of a game log (``.sglog``).

The parser (:mod:`sgcheck.lang.logs.grammar`) turns text into these nodes; every
node carries a :class:`~sgcheck.diagnostics.Span` so that replay findings point
at the exact text. Nodes describe what the log *says*; whether it is legal is
decided by replay against the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import Square
from sgcheck.diagnostics import Span

# --- small parts ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SquareRef:
    square: Square
    span: Span


@dataclass(frozen=True, slots=True)
class PieceRef:
    """A square with an optional piece letter, e.g. ``Ra1`` (kind=ROOK) or ``a1`` (kind=None)."""

    kind: Kind | None
    square: Square
    span: Span


@dataclass(frozen=True, slots=True)
class Dice:
    """Dice exactly as rolled, in order (2 d10 faces 0-9 for accuracy, 3 d6 faces for Break/Repair/roll-off).

    The parser does not check face ranges; replay reports bad faces (SG-R114).
    """

    faces: tuple[int, ...]
    span: Span


class ClaimKind(StrEnum):
    COST = "cost"  # value: total cost of the action
    PAY = "pay"  # sp/lp: how the cost was split (R05)
    LP = "lp"  # value: the actor's LP after the action
    SP = "sp"  # value: the actor's SP after the action
    THRESHOLD = "threshold"  # value: the hit threshold of an attack
    HIT = "hit"
    MISS = "miss"
    DAMAGE = "damage"  # value: damage dealt by this attack
    KING_DAMAGE = "king-damage"  # value: the defending King's damage total after this attack
    CAPTURE = "capture"  # the attack captured its target
    CONVERT_KING = "converts"  # the attack converted the King (game over)
    SUCCESS = "success"  # Break/Repair roll succeeded
    FAIL = "fail"  # Break/Repair roll failed
    GAIN_SP = "gain-sp"  # value: SP gained by the action (capture reward)
    GAIN_LP = "gain-lp"  # value: LP gained by the action (conversion)


@dataclass(frozen=True, slots=True)
class Claim:
    """Something the players wrote down about an action; replay checks it.

    ``value`` is set for valued claims; ``sp``/``lp`` for PAY (each may be 0).
    """

    kind: ClaimKind
    span: Span
    value: int | None = None
    sp: int = 0
    lp: int = 0


# --- header and setup ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tag:
    """``[Name "value"]``. ``name`` keeps the case written; lookups are case-insensitive."""

    name: str
    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class Header:
    tags: tuple[Tag, ...]
    span: Span

    def get(self, name: str) -> Tag | None:
        wanted = name.lower()
        return next((t for t in self.tags if t.name.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class CardName:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Draft:
    """``draft white "Soul Ward" "Temporal Rift" "Soul Drain"``: the cards a player kept (R19)."""

    color: Color
    cards: tuple[CardName, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class RollOff:
    """``rolloff white 6 5 3 black 2 2 1``: one 3d6 roll-off round (core §1). Ties need another line."""

    white: Dice
    black: Dice
    span: Span


@dataclass(frozen=True, slots=True)
class ColourChoice:
    """``choose white``: the colour the roll-off winner chose (core §1). The winner's dice are the
    ones written under that colour, so replay checks the choice against the roll-off."""

    color: Color
    span: Span


@dataclass(frozen=True, slots=True)
class KingPlacement:
    """``king white e1``."""

    color: Color
    square: SquareRef
    span: Span


# --- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SummonStmt:
    """``summon Q d1``."""

    kind: Kind
    kind_span: Span
    to: SquareRef
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MoveStmt:
    """``move Ra1 a3`` or, for a two-jump knight move with its middle square, ``move Ng1 f3 d4``."""

    piece: PieceRef
    to: SquareRef
    via: SquareRef | None
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SecondRoll:
    """``reroll 3 2`` or ``advantage 3 2`` after an attack's dice: a card's second accuracy roll.

    After ``reroll`` the second roll counts; after ``advantage`` the better of the two (core §4.5, R20).
    """

    advantage: bool
    dice: Dice
    span: Span  # from the keyword to the last die


@dataclass(frozen=True, slots=True)
class AttackStmt:
    """``attack Ra3 a5 roll 6 1`` (the target may carry a letter too: ``attack Ra3 Pa5 roll 6 1``)."""

    attacker: PieceRef
    target: PieceRef
    roll: Dice
    claims: tuple[Claim, ...]
    span: Span
    second: SecondRoll | None = None


@dataclass(frozen=True, slots=True)
class ConvertStmt:
    """``convert 10``: convert 10 SP into 5 LP (Main 2)."""

    amount: int
    amount_span: Span
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class TeleportStmt:
    """``teleport Rf3 a1`` (End)."""

    piece: PieceRef
    to: SquareRef
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class BreakStmt:
    """``break roll 4 5 6`` (Upkeep; targets the opponent's Gem)."""

    roll: Dice
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class RepairStmt:
    """``repair roll 3 3 4`` (Upkeep; repairs the player's own Gem)."""

    roll: Dice
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class ActivateStmt:
    """``activate "Blood Altar"``: a use of an activated Relic in play (R17, R22).

    ``on Rb7`` names the piece the card acts on, for a card that needs one.
    """

    card: CardName
    claims: tuple[Claim, ...]
    span: Span
    target: PieceRef | None = None


@dataclass(frozen=True, slots=True)
class PlayStmt:
    """``play "Soul Drain"``: a card played from hand: a Spell cast, or a Relic put into play (R22).

    ``on Rb7`` names the piece the card acts on, for a card that needs one.
    """

    card: CardName
    target: PieceRef | None
    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class RevealStmt:
    """``reveal "Card" to white``: a market module's reveal after a capture (R26): the card turned
    up from the deck and the player it is placed before. Not an action (R04); it takes no claims."""

    card: CardName
    to: Color
    to_span: Span
    span: Span
    claims: tuple[Claim, ...] = ()  # always none: the statements' shared shape


@dataclass(frozen=True, slots=True)
class PassStmt:
    """``pass``: the players' note that this turn is a Pass (+6 LP at End). Claims like ``lp 26`` may follow."""

    claims: tuple[Claim, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class IncomeStmt:
    """``income 4``: the SP income the players recorded at Upkeep. Claims like ``sp 9`` may follow."""

    amount: int
    amount_span: Span
    claims: tuple[Claim, ...]
    span: Span


Statement = (
    SummonStmt
    | MoveStmt
    | AttackStmt
    | ConvertStmt
    | TeleportStmt
    | BreakStmt
    | RepairStmt
    | ActivateStmt
    | PlayStmt
    | RevealStmt
    | PassStmt
    | IncomeStmt
)


# --- turns and the whole log ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseBlock:
    """``battle:`` followed by the statements taken in that phase (possibly none)."""

    phase: Phase
    label_span: Span
    statements: tuple[Statement, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Turn:
    """``7.`` (White's 7th turn) or ``7...`` (Black's 7th turn), then its phase blocks in written order.

    ``loose`` holds statements written after the turn header but before any phase label
    (replay reports them, SG-T107).
    """

    number: int
    color: Color
    header_span: Span
    loose: tuple[Statement, ...]
    phases: tuple[PhaseBlock, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class ResultLine:
    """``result 1-0 conversion``: ``score`` is one of ``1-0``, ``0-1``, ``1/2-1/2``, ``*``."""

    score: str
    reason: str | None
    span: Span


LogItem = Header | Draft | RollOff | ColourChoice | KingPlacement | Turn | ResultLine
