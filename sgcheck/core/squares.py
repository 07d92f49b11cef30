"""Squares, camps and starting squares (core §1, §5).

A square is an ``int`` 0..63 wrapped in a ``NewType`` so it is never confused
with a count or a piece: ``file + 8 * rank`` with file a=0 and rank 1=0.
"""

from __future__ import annotations

import re
from typing import Final, NewType

from sgcheck.core.pieces import Color, Kind

Square = NewType("Square", int)

ALL_SQUARES: Final[tuple[Square, ...]] = tuple(Square(i) for i in range(64))
_NAME_RE = re.compile(r"[a-h][1-8]")


def square(file: int, rank: int) -> Square:
    """The square at 0-based ``file`` and ``rank``."""
    return Square(file + 8 * rank)


def file_of(sq: Square) -> int:
    return sq & 7


def rank_of(sq: Square) -> int:
    return sq >> 3


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def name(sq: Square) -> str:
    return "abcdefgh"[sq & 7] + str((sq >> 3) + 1)


def parse_square(text: str) -> Square:
    """``"e4"`` -> Square; raises ValueError for anything else."""
    if not _NAME_RE.fullmatch(text):
        raise ValueError(f"not a square: {text!r}")
    return square(ord(text[0]) - ord("a"), int(text[1]) - 1)


def in_camp(sq: Square, color: Color) -> bool:
    """A player's camp is their first four ranks (core §0)."""
    if not 0 <= sq < 64:
        return False
    return rank_of(sq) < 4 if color is Color.WHITE else rank_of(sq) >= 4


def camp(color: Color) -> tuple[Square, ...]:
    """The squares of a player's camp, a1 first: where their King is placed (core §1)."""
    return tuple(sq for sq in ALL_SQUARES if in_camp(sq, color))


def manhattan(a: Square, b: Square) -> int:
    return abs(file_of(a) - file_of(b)) + abs(rank_of(a) - rank_of(b))


_BACK_RANK_FILES: dict[Kind, tuple[int, ...]] = {
    Kind.ROOK: (0, 7),
    Kind.KNIGHT: (1, 6),
    Kind.BISHOP: (2, 5),
    Kind.QUEEN: (3,),
    Kind.KING: (4,),
}


def starting_squares(color: Color, kind: Kind) -> tuple[Square, ...]:
    """The squares a kind starts on in standard chess, used for Summon and Teleport (core §5)."""
    if kind is Kind.PAWN:
        rank = 1 if color is Color.WHITE else 6
        return tuple(square(f, rank) for f in range(8))
    rank = 0 if color is Color.WHITE else 7
    return tuple(square(f, rank) for f in _BACK_RANK_FILES[kind])


def second_rank(color: Color) -> int:
    """0-based rank from which a pawn may advance two squares (R06)."""
    return 1 if color is Color.WHITE else 6


def forward(color: Color) -> int:
    return 1 if color is Color.WHITE else -1
