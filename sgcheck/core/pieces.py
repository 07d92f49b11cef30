"""Colours, piece kinds, pieces and their values (core §3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from sgcheck.core.record import pickle_by_fields
from sgcheck.letters import ascii_upper


class Color(IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return BLACK if self is WHITE else WHITE

    @property
    def title(self) -> str:
        return "White" if self is WHITE else "Black"


class Kind(IntEnum):
    PAWN = 0
    KNIGHT = 1
    BISHOP = 2
    ROOK = 3
    QUEEN = 4
    KING = 5

    @property
    def letter(self) -> str:
        return "PNBRQK"[self]

    @property
    def title(self) -> str:
        return ("Pawn", "Knight", "Bishop", "Rook", "Queen", "King")[self]

    @classmethod
    def from_letter(cls, letter: str) -> Kind:
        return cls("PNBRQK".index(ascii_upper(letter)))


# The members again as plain module constants: looking a member up on an enum class goes
# through the enum metaclass and costs about ten times a global lookup, and the rules make
# millions of these comparisons in a long replay.
# ``Final``: compiled, each is read from a C static rather than looked up by name in the module.
WHITE: Final[Color] = Color.WHITE
BLACK: Final[Color] = Color.BLACK
PAWN: Final[Kind] = Kind.PAWN
KNIGHT: Final[Kind] = Kind.KNIGHT
BISHOP: Final[Kind] = Kind.BISHOP
ROOK: Final[Kind] = Kind.ROOK
QUEEN: Final[Kind] = Kind.QUEEN
KING: Final[Kind] = Kind.KING

#: Piece values (core §3). The King has none under the core (R09); see Ruleset.king_value.
PIECE_VALUES: Final[dict[Kind, int]] = {
    Kind.PAWN: 1,
    Kind.KNIGHT: 3,
    Kind.BISHOP: 3,
    Kind.ROOK: 5,
    Kind.QUEEN: 9,
}

#: How many of each kind a side owns (a standard chess set).
SET_COUNTS: dict[Kind, int] = {
    Kind.PAWN: 8,
    Kind.KNIGHT: 2,
    Kind.BISHOP: 2,
    Kind.ROOK: 2,
    Kind.QUEEN: 1,
    Kind.KING: 1,
}

NON_KING_KINDS: Final[tuple[Kind, ...]] = (Kind.PAWN, Kind.KNIGHT, Kind.BISHOP, Kind.ROOK, Kind.QUEEN)


@dataclass(frozen=True, slots=True)
class Piece:
    color: Color
    kind: Kind

    @property
    def index(self) -> int:
        """0..11: a dense index for tables keyed by piece."""
        return self.color * 6 + self.kind

    def __str__(self) -> str:
        return f"{self.color.title} {self.kind.title}"


#: The twelve distinct pieces, indexed by :attr:`Piece.index`.
PIECES: Final[tuple[Piece, ...]] = tuple(Piece(c, k) for c in Color for k in Kind)


def piece(color: Color, kind: Kind) -> Piece:
    """The shared instance for (colour, kind)."""
    return PIECES[color * 6 + kind]


class Phase(IntEnum):
    """The five phases of a turn, in order (core §2)."""

    UPKEEP = 0
    MAIN1 = 1
    BATTLE = 2
    MAIN2 = 3
    END = 4

    @property
    def title(self) -> str:
        return ("Upkeep", "Main 1", "Battle", "Main 2", "End")[self]


class Outcome(StrEnum):
    """How a finished game ended (core §7, R18)."""

    KING_CONVERSION = "conversion"
    LP_1000 = "lp1000"
    TURN_LIMIT = "turn-limit"
    SCENARIO = "scenario"  # a win condition of the game's scenario (R24)


pickle_by_fields(globals())
