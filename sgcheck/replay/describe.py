"""Words and pictures for replay output: state lines, turn labels, the final summary."""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.pieces import NON_KING_KINDS, Color, piece
from sgcheck.core.squares import square
from sgcheck.core.state import GameState
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    ConvertStmt,
    IncomeStmt,
    MoveStmt,
    PassStmt,
    PlayStmt,
    RepairStmt,
    RevealStmt,
    Statement,
    SummonStmt,
    TeleportStmt,
)

_WORDS: dict[type, str] = {
    SummonStmt: "summon",
    MoveStmt: "move",
    AttackStmt: "attack",
    ConvertStmt: "conversion",
    TeleportStmt: "teleport",
    BreakStmt: "Break",
    RepairStmt: "Repair",
    ActivateStmt: "activation",
    PlayStmt: "card play",
    RevealStmt: "reveal",
    PassStmt: "pass",
    IncomeStmt: "income",
}


def statement_word(stmt: Statement) -> str:
    return _WORDS[type(stmt)]


def turn_label(number: int, color: Color) -> str:
    """``7.`` for White's turn 7, ``7...`` for Black's."""
    return f"{number}." if color is Color.WHITE else f"{number}..."


def describe_state(st: GameState) -> str:
    """``White LP 11 SP 5 · Black LP 14 SP 0 · Black King damage 6/20``."""
    parts = [f"{c.title} LP {st.player(c).lp} SP {st.player(c).sp}" for c in Color]
    for c in Color:
        p = st.player(c)
        if p.king_damage:
            parts.append(f"{c.title} King damage {p.king_damage}/{caps.KING_HP}")
        if p.gem_broken:
            parts.append(f"{c.title} Gem broken")
    return " · ".join(parts)


def board_diagram(st: GameState) -> str:
    """The board as text, White at the bottom: upper case White, lower case Black, '.' empty."""
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            p = st.board[square(file, rank)]
            if p is None:
                cells.append(".")
            else:
                letter = p.kind.letter
                cells.append(letter if p.color is Color.WHITE else letter.lower())
        rows.append(f"  {rank + 1} " + " ".join(cells))
    rows.append("    a b c d e f g h")
    return "\n".join(rows)


def gem_contents(st: GameState, color: Color) -> str:
    """``own: 8P 2N 2B 1R 1Q · captured: 1P`` for a player's Gem."""
    gem = st.player(color).gem

    def listing(owner: Color) -> str:
        items = [f"{gem[piece(owner, k).index]}{k.letter}" for k in NON_KING_KINDS if gem[piece(owner, k).index]]
        return " ".join(items) if items else "none"

    return f"own {listing(color)} · captured {listing(color.other)}"
