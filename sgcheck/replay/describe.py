"""Words replay's findings use: a statement's name, a turn's label, the totals of a position
(the summary's board and Gems are drawn by the report layer, ``sgcheck/report/replay_text.py``)."""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.pieces import Color
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
