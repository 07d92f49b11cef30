"""The words of the game-log language, shared by the grammar's builder and the fast path.

One table per fact (square names, piece letters, phase labels, claim words, which claims may
follow which statement), so the two readers of a log cannot drift apart.
"""

from __future__ import annotations

from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.squares import ALL_SQUARES, Square, name
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    ClaimKind,
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

SQUARES: dict[str, Square] = {name(sq): sq for sq in ALL_SQUARES}
KINDS: dict[str, Kind] = {k.letter: k for k in Kind}
PHASES: dict[str, Phase] = {
    "upkeep": Phase.UPKEEP,
    "main1": Phase.MAIN1,
    "battle": Phase.BATTLE,
    "main2": Phase.MAIN2,
    "end": Phase.END,
}

#: Claims written as a word and a number (``cost 12``).
VALUE_CLAIMS: dict[str, ClaimKind] = {
    "cost": ClaimKind.COST,
    "lp": ClaimKind.LP,
    "sp": ClaimKind.SP,
    "threshold": ClaimKind.THRESHOLD,
    "damage": ClaimKind.DAMAGE,
    "king-damage": ClaimKind.KING_DAMAGE,
}
#: Claims written as a single word (``hit``).
FLAG_CLAIMS: dict[str, ClaimKind] = {
    "hit": ClaimKind.HIT,
    "miss": ClaimKind.MISS,
    "capture": ClaimKind.CAPTURE,
    "converts": ClaimKind.CONVERT_KING,
    "success": ClaimKind.SUCCESS,
    "fail": ClaimKind.FAIL,
}

_K = ClaimKind
_PAYING = frozenset({_K.COST, _K.PAY, _K.LP, _K.SP})
_CARD = _PAYING | {_K.DAMAGE, _K.CAPTURE, _K.GAIN_SP, _K.GAIN_LP}
#: Which claims may follow which statement (the statement's word, its article, the claims).
APPLICABLE: dict[str, tuple[str, frozenset[ClaimKind]]] = {
    "summon": ("a summon", _PAYING),
    "move": ("a move", _PAYING),
    "teleport": ("a teleport", _PAYING),
    "attack": (
        "an attack",
        _PAYING | {_K.THRESHOLD, _K.HIT, _K.MISS, _K.DAMAGE, _K.KING_DAMAGE, _K.CAPTURE, _K.CONVERT_KING, _K.GAIN_SP},
    ),
    "convert": ("a convert", frozenset({_K.GAIN_LP, _K.LP, _K.SP})),
    "break": ("a break", _PAYING | {_K.SUCCESS, _K.FAIL}),
    "repair": ("a repair", _PAYING | {_K.SUCCESS, _K.FAIL}),
    "pass": ("a pass", frozenset({_K.LP, _K.SP, _K.GAIN_LP})),
    "income": ("an income", frozenset({_K.LP, _K.SP})),
    # a card's effect, on play or on a use, shows as damage, a capture (never of a King, R19) or a gain
    "play": ("a play", _CARD),
    "activate": ("an activate", _CARD),
}


#: The keyword each statement starts with, as written in a log (the key of :data:`APPLICABLE`).
KEYWORDS: dict[type[Statement], str] = {
    SummonStmt: "summon",
    MoveStmt: "move",
    AttackStmt: "attack",
    ConvertStmt: "convert",
    TeleportStmt: "teleport",
    BreakStmt: "break",
    RepairStmt: "repair",
    ActivateStmt: "activate",
    PlayStmt: "play",
    RevealStmt: "reveal",
    PassStmt: "pass",
    IncomeStmt: "income",
}
